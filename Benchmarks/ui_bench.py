"""`make bench`, the kiosk UI's figures (docs/PERFORMANCE.md, "The kiosk UI"): a synthetic pen written into
consentd's FIFO pad (the hidden `--pad-event-fifo`), its ink followed

1. to the agent's UNIX socket and, at the same time, through consentweb's WebSocket: the bridge's added latency is
   the difference per frame (goal: p99 <= 1 ms);
2. into the reference UI in Debian's headless chromium, to the requestAnimationFrame that painted each point on the
   signing canvas (goal: p99 <= one 60 Hz frame, 16.7 ms), beside the same frames' arrival on a UNIX socket;
3. pipelined session.sync requests through the bridge (goal: >= 20,000 lines/s), beside the same directly;
4. every button a participant taps in a whole consent in the reference UI, from the tap to the next screen painted
   (goal: p99 <= 50 ms, three frames), beside the same requests answered on the UNIX socket.

Prints ROW lines (Benchmarks/table.py). Run by Benchmarks/run with CONSENT_KIOSK_BIN set to the release binaries.
Times are CLOCK_REALTIME in every process (Python's time.time(), the browser's performance.timeOrigin + the rAF
timestamp, corrected by its offset to Date.now(), measured in the page before the run).
"""
import base64
import json
import multiprocessing
import os
import socket
import struct
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "UI"))

from kiosk import SAMPLE_COMPREHENSION_CHOICES, Agent, Bridge, Kiosk, canvas_ink_pixels  # noqa: E402
from test_kiosk_ui import answer_eligibility, answer_optional, draw_signature, through_scenes  # noqa: E402

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
BTN_TOOL_PEN, BTN_TOUCH = 0x140, 0x14A
ABS_X, ABS_Y, ABS_PRESSURE = 0x00, 0x01, 0x18
RATE = 200  # Hz: a pen display's usual report rate
PERIOD_US = 1_000_000 // RATE
# A signature as the UI submits one (signature.submit's strokes): one stroke of [x, y, t ms, pressure] points.
SIGNATURE = {"strokes": [[[0.1 + 0.8 * i / 59, 0.5 + 0.3 * ((i % 12) / 6 - 1), i * 5.0, 0.5] for i in range(60)]],
             "widthMM": 120, "heightMM": 40}


def event(timestamp_us, kind, code, value):
    """One struct input_event (64-bit: timeval, type, code, value)."""
    return struct.pack("<qqHHi", timestamp_us // 1_000_000, timestamp_us % 1_000_000, kind, code, value)


def frame(i, timestamp_us, down=True):
    """Pen frame i; frame 0 also puts the pen down. Its point's t is i * PERIOD_US / 1000 ms."""
    events = []
    if i == 0:
        events += [event(timestamp_us, EV_KEY, BTN_TOOL_PEN, 1), event(timestamp_us, EV_KEY, BTN_TOUCH, 1)]
    if not down:
        events += [event(timestamp_us, EV_KEY, BTN_TOUCH, 0), event(timestamp_us, EV_KEY, BTN_TOOL_PEN, 0)]
    else:
        events += [event(timestamp_us, EV_ABS, ABS_X, 2000 + (i * 37) % 28000),
                   event(timestamp_us, EV_ABS, ABS_Y, 16000 + int(9000 * ((i % 120) / 60 - 1))),
                   event(timestamp_us, EV_ABS, ABS_PRESSURE, 1500 + i % 1000)]
    return b"".join(events) + event(timestamp_us, EV_SYN, 0, 0)


def write_pen(fifo, frames):
    """Frames 0..frames at RATE on their deadlines (event time = deadline), then the pen lifts. Returns each
    frame's write time (s since the epoch), taken just before its write."""
    fd = os.open(fifo, os.O_WRONLY)
    written = [0.0] * (frames + 1)
    start = time.time() + 0.05
    for i in range(frames + 1):
        deadline = start + i * PERIOD_US / 1e6
        pause = deadline - time.time()
        if pause > 0:
            time.sleep(pause)
        written[i] = time.time()
        os.write(fd, frame(i, int(deadline * 1e6)))
    os.write(fd, frame(frames + 1, int((start + (frames + 1) * PERIOD_US / 1e6) * 1e6), down=False))
    os.close(fd)
    return written


def percentile(values, fraction):
    values = sorted(values)
    return values[min(len(values) - 1, int(fraction * len(values)))] if values else float("nan")


class UnixClient:
    def __init__(self, path, name):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.reader = self.socket.makefile("rb")
        self.reader.readline()  # hello
        self.next_id = 0
        self.call("session.negotiate", {"client": name, "version": 1})

    def send(self, method, params):
        self.next_id += 1
        self.socket.sendall((json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n").encode())
        return self.next_id

    def call(self, method, params=None):
        number = self.send(method, params or {})
        while True:
            message = json.loads(self.reader.readline())
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]


class Lines:
    """A connection's incoming messages, read in large chunks and split without a JSON parse: the client must cost
    far less per line than what it measures (a WebSocket library in Python capped both paths at ~15,000 lines/s)."""

    def __init__(self, connection, buffer=b""):
        self.connection = connection
        self.buffer = buffer

    def read(self):
        """The messages complete after one recv (an empty list at EOF is an error), and when it returned."""
        chunk = self.connection.recv(1 << 20)
        if not chunk:
            raise EOFError
        now = time.time()
        self.buffer += chunk
        return self.split(), now


class UnixLines(Lines):
    def split(self):
        *lines, self.buffer = self.buffer.split(b"\n")
        return lines


class WebSocketLines(Lines):
    """A bridge's text frames (server frames are unmasked; no fragmentation from consentweb)."""

    def split(self):
        messages, offset, data = [], 0, self.buffer
        while offset + 2 <= len(data):
            length, header = data[offset + 1] & 0x7F, 2
            if length == 126:
                length, header = int.from_bytes(data[offset + 2:offset + 4], "big"), 4
            elif length == 127:
                length, header = int.from_bytes(data[offset + 2:offset + 10], "big"), 10
            if offset + header + length > len(data):
                break
            messages.append(data[offset + header:offset + header + length])
            offset += header + length
        self.buffer = data[offset:]
        return messages


def masked_frame(text, mask=b"\x1f\x2e\x3d\x4c"):
    """A client's text frame, masked as RFC 6455 requires."""
    payload = text.encode()
    length = len(payload)
    header = bytes([0x81, 0x80 | length]) if length < 126 else bytes([0x81, 0x80 | 126]) + length.to_bytes(2, "big")
    key = int.from_bytes((mask * (length // 4 + 1))[:length], "big")
    return header + mask + (int.from_bytes(payload, "big") ^ key).to_bytes(length, "big")


def web_socket(bridge):
    """A WebSocket to the bridge's /rpc, opened by hand (Host and Origin are the bridge's own, as a page's are)."""
    url = urlsplit(bridge.url)
    connection = socket.create_connection((url.hostname, url.port))
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall((f"GET /rpc?{url.query} HTTP/1.1\r\nHost: {url.netloc}\r\nOrigin: http://{url.netloc}\r\n"
                        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    response = b""
    while b"\r\n\r\n" not in response:
        response += connection.recv(4096)
    head, rest = response.split(b"\r\n\r\n", 1)
    if b" 101 " not in head.split(b"\r\n")[0]:
        raise RuntimeError(f"the bridge refused the WebSocket: {head[:80]!r}")
    return connection, WebSocketLines(connection, rest)


def connect(kind, address):
    """A negotiated connection: (send(text), Lines), on the UNIX socket (`address` its path) or through the bridge."""
    if kind == "unix":
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(address)
        lines = UnixLines(connection)
        encode = lambda text: (text + "\n").encode()  # noqa: E731
    else:
        connection, lines = web_socket(address)
        encode = masked_frame
    send = lambda text: connection.sendall(encode(text))  # noqa: E731
    pending = []

    def call(number, method, params):
        send(json.dumps({"jsonrpc": "2.0", "id": number, "method": method, "params": params}))
        while True:
            while not pending:
                pending.extend(lines.read()[0])
            message = json.loads(pending.pop(0))
            if message.get("id") == number:
                return message

    call(1, "session.negotiate", {"client": f"bench-{kind}", "version": 1})
    return connection, encode, lines, call


def ink_arrivals(kind, address, frames, ready, out):
    """A process subscribed to ink, on the UNIX socket or through the bridge: each frame's arrival time by t."""
    arrivals = {}
    try:
        connection, _, lines, call = connect(kind, address)
        call(2, "events.subscribe", {"topics": ["ink"]})
        connection.settimeout(5)
        ready.set()
        ended = False
        while not ended:
            messages, now = lines.read()
            for line in messages:
                message = json.loads(line)
                if message.get("method") == "ink.points":
                    for point in message["params"]["data"]["points"]:
                        arrivals.setdefault(round(point[2] * 1000 / PERIOD_US), now)
                ended = ended or message.get("method") == "ink.strokeEnded"
    except (socket.timeout, EOFError):
        pass  # 5 s of silence or a closed connection: what arrived is the result
    finally:
        out.put((kind, arrivals))


def to_signature(client, begin=True):
    """A flow driven over the UNIX socket to the participant's signature, capturing on the FIFO pad (`begin`)."""
    flow = client.call("flow.start")["flow"]
    client.call("eligibility.answer", {"flow": flow, "answers": [True, True, False, True]})
    reply = client.call("flow.next", {"flow": flow, "step": "eligibility"})
    if reply["step"] == "keyInformation":  # the sample study begins with its key information
        reply = client.call("flow.next", {"flow": flow, "step": "keyInformation"})
    while reply["step"] == "visual":
        reply = client.call("flow.next", {"flow": flow, "step": "visual"})
    reply = client.call("sharing.choose", {"flow": flow, "shareWidely": True})
    if reply["step"] == "optional":  # the sample study's optional elements, each answered
        client.call("optional.answer", {"flow": flow, "answers": {e["id"]: True for e in reply["view"]["optional"]["elements"]}})
    client.call("review.agree", {"flow": flow})
    for question, choice in enumerate(SAMPLE_COMPREHENSION_CHOICES):
        client.call("comprehension.answer", {"flow": flow, "question": question, "choice": choice})
    client.call("participant.setName", {"flow": flow, "given": "Ada", "family": "Lovelace"})
    if begin:
        client.call("signature.begin", {"flow": flow})
    return flow


# In the page: each button press (a click whose target is in a <button>) from its event's timestamp to the frame
# painted after what it did. A tap that sends requests (the UI's agent.call, wrapped here) ends at the paint after
# its last reply was rendered; one that sends none (a key of the on-screen keyboard, an eligibility answer chosen
# before Next) at the paint after its handlers ran. "Painted": a requestAnimationFrame callback runs before the
# frame's style, layout and paint, so a message posted from it is handled once that frame is painted.
TAP_PROBE = """
window.benchTaps = (() => {
  const taps = [];
  let current = null;
  const afterPaint = (done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(null);
  });
  const agent = window.consentKiosk.agent;
  const call = agent.call.bind(agent);
  agent.call = (method, params) => {
    const tap = current;
    const reply = call(method, params);
    if (!tap) return reply;
    const request = { method, params: JSON.parse(JSON.stringify(params ?? {})), sent: performance.now(),
                      settled: null, painted: null };
    tap.requests.push(request);
    // Before the UI's own continuation (which renders the reply), so the frame after it shows the new screen.
    const settle = () => { request.settled = performance.now(); afterPaint((t) => { request.painted = t; }); };
    return reply.then((result) => { settle(); return result; }, (error) => { settle(); throw error; });
  };
  document.addEventListener('click', (event) => {
    const button = event.target.closest?.('button');
    if (!button) return;
    const tap = { action: button.dataset.action ?? button.textContent.trim().slice(0, 20), at: event.timeStamp,
                  requests: [], handledPainted: null };
    taps.push(tap);
    current = tap;
    // After every handler of this click (a timer task runs after the event's dispatch).
    setTimeout(() => { if (current === tap) current = null; afterPaint((t) => { tap.handledPainted = t; }); }, 0);
  }, true);
  return taps;
})();
"""


def tap_to_the_signature(kiosk, share, family):
    """Taps the reference UI from the start screen to the signature page of the sample study, as a participant does."""
    kiosk.tap('[data-action="start"]')
    answer_eligibility(kiosk, [True, True, False, True])
    through_scenes(kiosk, open_learn_more=False)
    kiosk.wait_screen("sharing")
    choice = "true" if share else "false"
    kiosk.tap(f'[data-action="chooseSharing"][data-choice="{choice}"]')
    kiosk.tap('[data-action="chooseSharing"][data-confirm]')
    answer_optional(kiosk)
    kiosk.wait_page("document")
    kiosk.tap('nav [data-action="agree"]')
    kiosk.answer_comprehension()
    kiosk.wait_page("name")
    kiosk.type_on_keyboard("given", "Pat")
    kiosk.type_on_keyboard("family", family)
    kiosk.tap('[data-action="setName"]')
    kiosk.wait_page("signature")


def taps_of_a_consent():
    """The reference UI in headless chromium through a whole consent of the sample study (a 1280x800 landscape
    tablet, set with Emulation.setDeviceMetricsOverride), every button tapped timed in the page (TAP_PROBE); then the
    same requests, in the same order, on the agent's UNIX socket for a flow of its own. Both after one consent over
    the socket, so the agent's first-record work (fonts, the study's PDF layout) is behind them, as on a kiosk that
    has run a while."""
    kiosk = Kiosk("bench-taps")
    try:
        kiosk.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                     {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        warm = UnixClient(kiosk.agent.socket, "bench-warm-up")
        warm_flow = to_signature(warm, begin=False)
        warm.call("signature.submit", {"flow": warm_flow, "strokes": SIGNATURE})
        warm.call("flow.complete", {"flow": warm_flow})
        kiosk.wait_screen("start")
        kiosk.driver.execute_script(TAP_PROBE)
        tap_to_the_signature(kiosk, share=True, family="Tap")
        draw_signature(kiosk, "pen")
        kiosk.wait(lambda d: canvas_ink_pixels(d) > 50, message="ink on the canvas")
        kiosk.tap('[data-action="submitSignature"]')
        kiosk.wait_screen("done")
        kiosk.tap('nav [data-action="complete"]')
        kiosk.wait_screen("completed", timeout=60)
        done = "return window.benchTaps.every((t) => t.handledPainted !== null && t.requests.every((r) => r.painted !== null))"
        kiosk.wait(lambda d: d.execute_script(done), message="every tap painted")
        taps = kiosk.driver.execute_script("return window.benchTaps")
        kiosk.shot("bench-taps")

        # The same requests on the UNIX socket, each timed from its write to its reply read, for a flow of its own.
        direct = UnixClient(kiosk.agent.socket, "bench-taps-direct")
        flow = None
        socket_times = []
        for tap in taps:
            total = 0.0
            for request in tap["requests"]:
                params = dict(request["params"])
                if "flow" in params:
                    params["flow"] = flow
                started = time.perf_counter()
                result = direct.call(request["method"], params)
                total += (time.perf_counter() - started) * 1000
                flow = result.get("flow", flow) if isinstance(result, dict) else flow
            socket_times.append(total)
    finally:
        kiosk.close()
    latencies = []
    for tap in taps:
        end = tap["requests"][-1]["painted"] if tap["requests"] else tap["handledPainted"]
        latencies.append(end - tap["at"])
    slowest = sorted(zip(latencies, taps, socket_times), key=lambda x: -x[0])[:5]
    print("  slowest taps: " + ", ".join(
        f"{tap['action']} ({'+'.join(r['method'] for r in tap['requests']) or 'no request'}) {ms:.1f} ms"
        f" (socket {direct_ms:.1f} ms)" for ms, tap, direct_ms in slowest), file=sys.stderr)
    with_requests = [t for t, tap in zip(socket_times, taps) if tap["requests"]]
    return latencies, with_requests, sum(len(tap["requests"]) for tap in taps)


def bridge_latency(directory, frames):
    fifo = str(directory / "pad.fifo")
    os.mkfifo(fifo, 0o600)
    agent = Agent(directory, extra=["--pad-event-fifo", fifo])
    bridge = Bridge(agent)
    try:
        driver = UnixClient(agent.socket, "bench-driver")
        to_signature(driver)
        results = multiprocessing.Queue()
        readers = []
        for kind, address in (("unix", agent.socket), ("ws", bridge)):
            ready = multiprocessing.Event()
            process = multiprocessing.Process(target=ink_arrivals, args=(kind, address, frames, ready, results))
            process.start()
            ready.wait(20)
            readers.append(process)
        written = write_pen(fifo, frames)
        arrivals = dict(results.get(timeout=60) for _ in readers)
        for process in readers:
            process.join(10)
    finally:
        bridge.stop()
        agent.stop()
    unix, ws = arrivals["unix"], arrivals["ws"]
    direct = [(unix[i] - written[i]) * 1000 for i in range(1, frames + 1) if i in unix]
    added = [(ws[i] - unix[i]) * 1000 for i in range(1, frames + 1) if i in ws and i in unix]
    return direct, added, len([i for i in ws if 1 <= i <= frames])


def browser_paint(frames):
    fifo_directory = Path(tempfile.mkdtemp(prefix="ui-bench-", dir="/tmp"))
    fifo = str(fifo_directory / "pad.fifo")
    os.mkfifo(fifo, 0o600)
    kiosk = Kiosk("bench-ink", agent_args=["--pad-event-fifo", fifo])
    try:
        kiosk.wait_screen("start")
        tap_to_the_signature(kiosk, share=False, family="Pen")
        # The UI knows a pad captures from the agent's view model alone: the signing area's source.
        kiosk.wait(lambda d: d.execute_script(
            "return window.consentKiosk.state.current?.view?.review?.signingArea?.source === 'pad'"),
                   message="the UI's capture on the FIFO pad")
        # Each point's arrival in the page (the ink.points handler) and the animation frame that painted it.
        kiosk.driver.execute_script("""
            window.benchPaints = [];
            window.benchArrivals = [];
            const signature = window.consentKiosk.state.signature;
            const add = signature.addPadPoints.bind(signature);
            signature.addPadPoints = (stroke, points) => {
              const at = performance.timeOrigin + performance.now();
              for (const p of points) window.benchArrivals.push([p[2], at]);
              add(stroke, points);
            };
            signature.onPaint = (time, points) => {
              const at = performance.timeOrigin + time;
              for (const p of points) window.benchPaints.push([p[2], at]);
            };""")
        # The rAF clock (performance.timeOrigin + timestamp) against the system clock Date.now() reads, as
        # time.time() does: at the instant Date.now() ticks to the next millisecond, their difference is the
        # offset (to the loop's few microseconds and the browser's 0.1 ms timer coarsening). Median of 21 ticks.
        offset, spread = kiosk.driver.execute_script("""
            const offsets = [];
            for (let k = 0; k < 21; k++) {
              const before = Date.now();
              let now, epoch;
              do { epoch = performance.timeOrigin + performance.now(); now = Date.now(); } while (now === before);
              offsets.push(epoch - now);
            }
            offsets.sort((a, b) => a - b);
            return [offsets[10], offsets[20] - offsets[0]];""")
        # The same frames on a UNIX socket, the floor the browser's figure stands beside.
        results = multiprocessing.Queue()
        ready = multiprocessing.Event()
        reader = multiprocessing.Process(target=ink_arrivals, args=("unix", kiosk.agent.socket, frames, ready, results))
        reader.start()
        ready.wait(20)
        written = write_pen(fifo, frames)
        last = round(frames * PERIOD_US / 1000)
        kiosk.wait(lambda d: d.execute_script(
            "return window.benchPaints.length && window.benchPaints[window.benchPaints.length - 1][0]") >= last,
            timeout=30, message="every frame painted")
        paints = kiosk.driver.execute_script("return window.benchPaints")
        handled = kiosk.driver.execute_script("return window.benchArrivals")
        kiosk.shot("bench-ink")
        _, unix = results.get(timeout=60)
        reader.join(10)
    finally:
        kiosk.close()
        os.unlink(fifo)
        os.rmdir(fifo_directory)
    def by_frame(samples):
        frame_times = {}
        for t, at in samples:
            frame_times.setdefault(round(t * 1000 / PERIOD_US), (at - offset) / 1000)
        return frame_times

    def since_written(arrivals):
        return [(arrivals[i] - written[i]) * 1000 for i in range(1, frames + 1) if i in arrivals]

    return since_written(by_frame(paints)), since_written(by_frame(handled)), since_written(unix), offset, spread


def relay(directory, requests):
    """Pipelined session.sync: every request written in one go by a thread while the caller counts the replies.
    Lines/s both ways (requests + replies), through the bridge and, as the floor, on the UNIX socket."""
    agent = Agent(directory)
    bridge = Bridge(agent)
    try:
        def rate(kind, address):
            connection, encode, lines, _ = connect(kind, address)
            batch = b"".join(encode(json.dumps({"jsonrpc": "2.0", "id": i, "method": "session.sync"}))
                             for i in range(10, requests + 10))
            started = time.perf_counter()
            writer = threading.Thread(target=connection.sendall, args=(batch,))
            writer.start()
            replies = 0
            while replies < requests:
                replies += len(lines.read()[0])
            elapsed = time.perf_counter() - started
            writer.join()
            connection.close()
            return 2 * requests / elapsed

        # Best of three each, alternating, so a noisy moment does not decide.
        bridged, floor = [], []
        for _ in range(3):
            bridged.append(rate("ws", bridge))
            floor.append(rate("unix", agent.socket))
        return max(bridged), max(floor)
    finally:
        bridge.stop()
        agent.stop()


def row(*cells):
    print("\t".join(["ROW", *cells]), flush=True)


def main():
    frames = int(os.environ.get("BENCH_UI_FRAMES", "2000"))
    # Which rows (bridge, paint, taps, relay; default all): one row can be measured again on its own.
    rows = set(os.environ.get("BENCH_UI_ROWS", "bridge,paint,taps,relay").split(","))
    requests = int(os.environ.get("BENCH_UI_REQUESTS", "20000"))
    with tempfile.TemporaryDirectory(prefix="ui-bench-", dir="/tmp") as work:
        work = Path(work)
        (work / "latency").mkdir()
        (work / "relay").mkdir()

        if "bridge" in rows:
            print(f"== the bridge: ink of {frames} frames at {RATE} Hz on a UNIX socket and through consentweb at once",
                  file=sys.stderr)
            direct, added, received = bridge_latency(work / "latency", frames)
            p99 = percentile(added, 0.99)
            row(f"Bridge: added to ink.points, {RATE} Hz pen, {frames} frames (p50 / p99 / max)",
                f"{percentile(added, 0.5):.2f} / {p99:.2f} / {max(added):.2f} ms ({received} of {frames} frames)",
                f"UNIX socket: {percentile(direct, 0.5):.2f} / {percentile(direct, 0.99):.2f} ms frame to arrival",
                "—", "p99 ≤ 1 ms", "yes" if p99 <= 1 and received == frames else "NO")

        if "paint" in rows:
            print(f"== the browser: {frames} frames at {RATE} Hz, pad frame to the rAF that painted it", file=sys.stderr)
            latencies, handled, floor, offset, spread = browser_paint(frames)
            p99 = percentile(latencies, 0.99)
            row(f"UI: pad frame to ink painted (rAF), {RATE} Hz pen, {frames} frames (p50 / p99 / max)",
                f"{percentile(latencies, 0.5):.1f} / {p99:.1f} / {max(latencies):.1f} ms ({len(latencies)} of {frames} painted; "
                f"rAF clock {offset:+.2f} ms from the system's, spread {spread:.2f})",
                f"in the page's ink.points handler: {percentile(handled, 0.5):.2f} / {percentile(handled, 0.99):.2f} ms; "
                f"on a UNIX socket: {percentile(floor, 0.5):.2f} / {percentile(floor, 0.99):.2f} ms",
                "—", "p99 ≤ 16.7 ms", "yes" if p99 <= 16.7 and len(latencies) == frames else "NO")

        if "taps" in rows:
            print("== the reference UI: every button of a whole consent, tap to the next screen painted", file=sys.stderr)
            latencies, direct, sent = taps_of_a_consent()
            p99 = percentile(latencies, 0.99)
            row(f"UI: a button tapped → the next screen painted, every tap of a consent ({len(latencies)} taps; "
                "p50 / p99 / max)",
                f"{percentile(latencies, 0.5):.1f} / {p99:.1f} / {max(latencies):.1f} ms",
                f"the same {sent} requests on a UNIX socket: {percentile(direct, 0.5):.1f} / {percentile(direct, 0.99):.1f} / "
                f"{max(direct):.1f} ms a tap ({len(direct)} taps that send one)",
                "—", "p99 ≤ 50 ms", "yes" if p99 <= 50 else "NO")

        if "relay" in rows:
            print(f"== relaying: {requests} pipelined session.sync through consentweb and directly, best of 3",
                  file=sys.stderr)
            bridged, floor = relay(work / "relay", requests)
            row(f"Bridge: pipelined session.sync, 1 WebSocket ({requests} requests, best of 3)",
                f"{bridged:,.0f} lines/s", f"{floor:,.0f} lines/s on the UNIX socket (same client code)",
                f"{bridged / floor:.2f}×", "≥ 20,000 lines/s", "yes" if bridged >= 20_000 else "NO")


if __name__ == "__main__":
    main()
