import Foundation
import Glibc
import SignaturePad

/// The synthetic pen: frame `i` is ABS_X, ABS_Y, ABS_PRESSURE, SYN_REPORT (4 input_event records, 96 bytes),
/// kernel timestamp `base + i ms`, so the agent's `t` (ms since the capture's first point) names the frame.
/// Frame 0 also puts the pen down (BTN_TOOL_PEN, BTN_TOUCH).
enum SyntheticPen {
    static let base: Int64 = 1_000_000_000  // µs
    static let pad = "x 0..32767, y 0..32767, pressure 0..4095"

    static func frame(_ i: Int) -> [UInt8] {
        let t = base + Int64(i) * 1000
        var events: [InputEvent] = []
        if i == 0 {
            events.append(InputEvent(type: EventType.key, code: KeyCode.btnToolPen, value: 1, timestamp: t))
            events.append(InputEvent(type: EventType.key, code: KeyCode.btnTouch, value: 1, timestamp: t))
        }
        let angle = Double(i) * 0.013
        events.append(InputEvent(type: EventType.abs, code: AbsCode.x, value: Int32(2000 + (i * 7) % 28000), timestamp: t))
        events.append(InputEvent(type: EventType.abs, code: AbsCode.y, value: Int32(16000 + 9000 * sin(angle)), timestamp: t))
        events.append(InputEvent(type: EventType.abs, code: AbsCode.pressure, value: Int32(1500 + i % 1000), timestamp: t))
        events.append(InputEvent(type: EventType.syn, code: SynCode.report, value: 0, timestamp: t))
        return events.flatMap(RawEventDecoder.encode)
    }
}

/// Writes frames 1...count into `fd` at `rate` frames/s (absolute deadlines), stamping each just before its write.
final class PacedWriter: @unchecked Sendable {
    let fd: Int32
    let rate: Int
    let count: Int
    let writeTimes: UnsafeMutablePointer<Int64>
    private let frames: [[UInt8]]
    private(set) var startNanoseconds: Int64 = 0
    private(set) var endNanoseconds: Int64 = 0
    private(set) var late = 0
    private let done = DispatchSemaphore(value: 0)

    init(fd: Int32, rate: Int, count: Int) {
        self.fd = fd
        self.rate = rate
        self.count = count
        writeTimes = .allocate(capacity: count + 1)
        writeTimes.initialize(repeating: 0, count: count + 1)
        frames = (0...count).map(SyntheticPen.frame)
    }

    func start() {
        let thread = Thread { [self] in
            let period = 1_000_000_000 / Int64(rate)
            startNanoseconds = nowNanoseconds()
            for i in 1...count {
                let deadline = startNanoseconds + Int64(i) * period
                if nowNanoseconds() < deadline { sleep(untilNanoseconds: deadline) } else { late += 1 }
                writeTimes[i] = nowNanoseconds()
                guard writeAll(fd, frames[i]) else { fail("writing frame \(i) failed: errno \(errno)") }
            }
            endNanoseconds = nowNanoseconds()
            done.signal()
        }
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    func wait() { done.wait() }
}

struct InkResult {
    var latencies: [Double]  // ms, sorted
    var received: Int
    var cpuNanoseconds: Int64
    var wallNanoseconds: Int64
    var late: Int

    var p50: Double { percentile(latencies, 0.5) }
    var p99: Double { percentile(latencies, 0.99) }
    var max: Double { latencies.last ?? .nan }
    var cpuPercent: Double { Double(cpuNanoseconds) / Double(wallNanoseconds) * 100 }
}

/// The `t` of every point of an `ink.points` line (nil for any other line).
func inkTimes(_ line: UnsafeRawBufferPointer) -> [Int]? {
    let prefix = Array(#"{"jsonrpc":"2.0","method":"ink.points""#.utf8)
    guard line.count > prefix.count, zip(line.prefix(prefix.count), prefix).allSatisfy({ $0 == $1 }) else { return nil }
    let key = Array(#""points":["#.utf8)
    var i = 0
    var found = -1
    while i + key.count <= line.count {
        if line[i] == key[0], zip(line[i..<(i + key.count)], key).allSatisfy({ $0 == $1 }) {
            found = i + key.count
            break
        }
        i += 1
    }
    guard found >= 0 else { return nil }
    var times: [Int] = []
    var field = 0
    var j = found
    var number: [CChar] = []
    while j < line.count {
        let c = line[j]
        switch c {
        case UInt8(ascii: "["):
            field = 0
            number.removeAll(keepingCapacity: true)
        case UInt8(ascii: ","), UInt8(ascii: "]"):
            if field == 2 {
                number.append(0)
                times.append(Int(strtod(number, nil).rounded()))
            }
            field += 1
            number.removeAll(keepingCapacity: true)
            if c == UInt8(ascii: "]"), j + 1 < line.count, line[j + 1] == UInt8(ascii: "]") { return times }
        default:
            if field == 2 { number.append(CChar(bitPattern: c)) }
        }
        j += 1
    }
    return times
}

/// The floor: the same paced writer into a FIFO, read and decoded here (RawEventDecoder), no agent.
func inkFloor(rate: Int, frames: Int) -> InkResult {
    let fifo = "\(work)/floor.fifo"
    unlink(fifo)
    guard mkfifo(fifo, 0o600) == 0 else { fail("mkfifo \(fifo) failed") }
    let readFD = open(fifo, O_RDWR | O_CLOEXEC)  // RDWR: never blocks on open, as the agent opens its FIFO
    let writeFD = open(fifo, O_WRONLY | O_CLOEXEC)
    guard readFD >= 0, writeFD >= 0 else { fail("cannot open \(fifo)") }
    defer {
        close(readFD)
        close(writeFD)
        unlink(fifo)
    }
    return decodedArrivals(reading: readFD, writing: writeFD, rate: rate, frames: frames)
}

/// The least any agent could do: a relay process (socat) that copies the FIFO's bytes to a UNIX socket, nothing
/// more, read and decoded here. It has the agent's two wake-ups (the relay's on the FIFO, this reader's on the
/// socket) where the floor has one, so it shows what the 3× goal leaves for everything else.
func inkRelayFloor(rate: Int, frames: Int) -> InkResult? {
    guard let socat = which("socat") else { return nil }
    let fifo = "\(work)/relay.fifo", socket = "\(work)/relay.sock"
    unlink(fifo)
    unlink(socket)
    guard mkfifo(fifo, 0o600) == 0 else { fail("mkfifo \(fifo) failed") }
    guard let listener = listenUnix(socket) else { fail("cannot listen on \(socket)") }
    // socat opens the FIFO first (its open waits for the writer below), then connects.
    let relay = Child(socat, ["-u", "-b", "\(24 * 256)", "GOPEN:\(fifo)", "UNIX-CONNECT:\(socket)"], log: "\(work)/relay.log")
    let writeFD = open(fifo, O_WRONLY | O_CLOEXEC)
    let readFD = accept(listener, nil, nil)
    defer {
        close(readFD)
        close(writeFD)
        close(listener)
        relay.stop()
        unlink(fifo)
        unlink(socket)
    }
    guard writeFD >= 0, readFD >= 0 else { fail("the relay did not connect") }
    return decodedArrivals(reading: readFD, writing: writeFD, rate: rate, frames: frames)
}

/// Paces `frames` pen frames into `writeFD` and stamps each frame's arrival as this thread reads and decodes
/// `readFD`.
private func decodedArrivals(reading readFD: Int32, writing writeFD: Int32, rate: Int, frames: Int) -> InkResult {
    let writer = PacedWriter(fd: writeFD, rate: rate, count: frames)
    var arrivals = [Int64](repeating: 0, count: frames + 1)
    var decoder = RawEventDecoder()
    var events: [InputEvent] = []
    var buffer = [UInt8](repeating: 0, count: 24 * 256)
    let cpuStart = threadCPUNanoseconds()
    writer.start()
    var received = 0
    while received < frames {
        let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        let now = nowNanoseconds()
        events.removeAll(keepingCapacity: true)
        buffer.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[0..<n]), into: &events) }
        for event in events where event.isFrameEnd {
            let i = Int((event.timestamp - SyntheticPen.base) / 1000)
            if i >= 1, i <= frames, arrivals[i] == 0 {
                arrivals[i] = now
                received += 1
            }
        }
    }
    let cpu = threadCPUNanoseconds() - cpuStart
    writer.wait()
    let latencies = (1...frames).compactMap { i in
        arrivals[i] == 0 ? nil : Double(arrivals[i] - writer.writeTimes[i]) / 1e6
    }.sorted()
    return InkResult(
        latencies: latencies, received: received, cpuNanoseconds: cpu,
        wallNanoseconds: writer.endNanoseconds - writer.startNanoseconds, late: writer.late)
}

/// Whether this consentd has the hidden `--pad-event-fifo` flag (`--help-hidden` lists it).
func agentHasFIFOPad() -> Bool {
    // A wrapper (valgrind, perf) may not pass --help-hidden through cleanly: let the caller vouch for the flag.
    if ProcessInfo.processInfo.environment["BENCH_ASSUME_FIFO_PAD"] == "1" { return true }
    let help = Process()
    help.executableURL = URL(fileURLWithPath: Settings.consentd)
    help.arguments = ["--help-hidden"]
    let pipe = Pipe()
    help.standardOutput = pipe
    help.standardError = FileHandle.nullDevice
    guard (try? help.run()) != nil else { return false }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    help.waitUntilExit()
    return String(decoding: output, as: UTF8.self).contains("--pad-event-fifo")
}

/// The real path: FIFO → consentd's pad capture → ink.points on a subscribed client's socket.
func inkAgent(rate: Int, frames: Int) -> InkResult? {
    guard agentHasFIFOPad() else { return nil }
    let fifo = "\(work)/pad.fifo"
    unlink(fifo)
    guard mkfifo(fifo, 0o600) == 0 else { fail("mkfifo \(fifo) failed") }
    defer { unlink(fifo) }
    let (agent, socket, _) = startAgent("ink", extra: ["--pad-event-fifo", fifo])
    defer { agent.stop() }
    guard let client = AgentClient(path: socket) else { fail("cannot connect") }
    client.negotiate()
    let pads = client.call("pads.list")
    guard pads.contains(fifo) || pads.contains("\"id\"") else {
        note("the agent lists no FIFO pad: \(pads)")
        return nil
    }
    let call = flowAtSignaturePage(client)
    client.call("events.subscribe", #"{"topics":["ink"]}"#)
    _ = call("signature.begin", "")

    let writeFD = open(fifo, O_WRONLY | O_CLOEXEC)
    guard writeFD >= 0 else { fail("cannot open \(fifo) for writing") }
    defer { close(writeFD) }
    // Reads give up after 3 s of silence, so lost points end the run instead of hanging it.
    var timeout = timeval(tv_sec: 3, tv_usec: 0)
    setsockopt(client.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

    // Pen down (frame 0); its point is t = 0 and sets the origin of every later t.
    guard writeAll(writeFD, SyntheticPen.frame(0)) else { fail("FIFO write failed") }
    var sawOrigin = false
    while !sawOrigin, let times = client.reader.next({ inkTimes($0) }) {
        if let times, times.contains(0) { sawOrigin = true }
    }
    guard sawOrigin else {
        note("no ink.points for the pen-down frame within 3 s")
        return nil
    }

    let writer = PacedWriter(fd: writeFD, rate: rate, count: frames)
    var arrivals = [Int64](repeating: 0, count: frames + 1)
    var received = 0
    let cpuStart = processCPUNanoseconds(agent.pid)
    let ticksStart = userSystemTicks(agent.pid)
    writer.start()
    var overflows = 0
    while received < frames {
        guard let times = client.reader.next({ line -> [Int]? in
            if inkTimes(line) == nil, String(decoding: line.prefix(60), as: UTF8.self).contains("events.overflow") {
                overflows += 1
            }
            return inkTimes(line)
        }) else { break }
        guard let times else { continue }
        let now = nowNanoseconds()
        for i in times where i >= 1 && i <= frames && arrivals[i] == 0 {
            arrivals[i] = now
            received += 1
        }
    }
    writer.wait()
    let cpu = processCPUNanoseconds(agent.pid) - cpuStart
    let ticksEnd = userSystemTicks(agent.pid)
    note("agent CPU split: user \(ticksEnd.user - ticksStart.user) ticks, system \(ticksEnd.system - ticksStart.system) ticks (1 tick = 10 ms)")
    if overflows > 0 { note("the client saw \(overflows) events.overflow notifications (its outbound queue overflowed)") }
    let latencies = (1...frames).compactMap { i in
        arrivals[i] == 0 ? nil : Double(arrivals[i] - writer.writeTimes[i]) / 1e6
    }.sorted()
    return InkResult(
        latencies: latencies, received: received, cpuNanoseconds: cpu,
        wallNanoseconds: writer.endNanoseconds - writer.startNanoseconds, late: writer.late)
}

func runInk(rate: Int, frames: Int, latencyRow: Bool) {
    note("synthetic pen at \(rate) frames/s, \(frames) frames (\(frames * 4) input_event records), \(SyntheticPen.pad)")
    let floor = inkFloor(rate: rate, frames: frames)
    note(
        "floor (FIFO → decoder, no agent): p50 \(f(floor.p50, 3)) ms, p99 \(f(floor.p99, 3)) ms, max \(f(floor.max, 3)) ms, "
            + "\(floor.received)/\(frames) frames, reader CPU \(f(floor.cpuPercent, 2))%, writer late \(floor.late)×")
    guard let ours = inkAgent(rate: rate, frames: frames) else {
        row("Ink at \(rate) Hz", "not measured (consentd has no --pad-event-fifo pad)", "—", "—", "—", nil)
        return
    }
    let dropped = frames - ours.received
    note(
        "agent (FIFO → consentd → socket): p50 \(f(ours.p50, 3)) ms, p99 \(f(ours.p99, 3)) ms, max \(f(ours.max, 3)) ms, "
            + "\(ours.received)/\(frames) points, agent CPU \(f(ours.cpuPercent, 2))% of one core, writer late \(ours.late)×")
    if latencyRow {
        row(
            "Ink latency: pad frame written → ink.points read (\(frames) frames at \(rate) Hz), p50 / p99 / max",
            "\(f(ours.p50, 3)) / \(f(ours.p99, 3)) / \(f(ours.max, 2)) ms",
            "\(f(floor.p50, 3)) / \(f(floor.p99, 3)) / \(f(floor.max, 2)) ms (same FIFO, no agent)",
            "p99 \(f(ours.p99 / floor.p99, 1))×", "p99 ≤ 2 ms and ≤ 3× floor",
            ours.p99 <= 2 && ours.p99 <= 3 * floor.p99)
        if let relay = inkRelayFloor(rate: rate, frames: frames) {
            row(
                "Ink, the least an agent could do: FIFO → a relay copying the bytes (socat) → socket, p50 / p99 / max",
                "\(f(relay.p50, 3)) / \(f(relay.p99, 3)) / \(f(relay.max, 2)) ms (\(relay.received) of \(frames))",
                "\(f(floor.p50, 3)) / \(f(floor.p99, 3)) / \(f(floor.max, 2)) ms (the floor above)",
                "p99 \(f(relay.p99 / floor.p99, 1))×", "— (what 3× leaves an agent)", nil)
        }
    }
    // At most 3 % of a core at 1 kHz and 20 % at 10 kHz, nothing dropped.
    let cpuGoal: Double? = rate >= 10_000 ? 20 : rate >= 1_000 ? 3 : nil
    let goalMet = dropped == 0 && cpuGoal.map { ours.cpuPercent <= $0 } ?? true
    row(
        "Pen throughput \(rate / 1000) kHz (\(frames) frames): agent CPU, points dropped",
        "\(f(ours.cpuPercent, 2))% of a core, \(dropped) dropped",
        "\(f(floor.cpuPercent, 2))% (floor reader), \(frames - floor.received) dropped",
        "\(f(ours.cpuPercent / Swift.max(floor.cpuPercent, 0.01), 0))×",
        cpuGoal.map { "≤ \(f($0, 0))% of a core, 0 dropped" } ?? "0 dropped", goalMet)
}
