// Replays synthetic pen events through the pure capture pipeline and reports its cost.
//
// Run: swift run -c release PadBenchmark [events]
// Both loops decode the same raw `struct input_event` records (as read from a node or a FIFO); the baseline only
// decodes and touches each event, the pipeline also assembles frames and builds strokes. The ratio is the
// pipeline's cost over the bare decoding, measured in the same run on the same machine.
import Glibc
import SignaturePad

let requested = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 200_000
let eventCount = max(requested, 100_000)

let pad = PadDescription(
    node: "/dev/input/bench", name: "Synthetic Pen", kind: .pen, isTablet: true,
    x: AxisInfo(minimum: 0, maximum: 21600, resolution: 100), y: AxisInfo(minimum: 0, maximum: 13500, resolution: 100),
    pressure: AxisInfo(minimum: 0, maximum: 4095), tiltX: AxisInfo(minimum: -64, maximum: 63),
    tiltY: AxisInfo(minimum: -64, maximum: 63))

/// A signature-like stream at 200 Hz: strokes of 120 frames (x, y, pressure, tilt, SYN) with pen lifts between.
func synthesize(_ count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * RawEventDecoder.recordSize)
    var n = 0
    var t: Int64 = 1_000_000
    func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        bytes += RawEventDecoder.encode(InputEvent(type: type, code: code, value: value, timestamp: t))
        n += 1
    }
    var frame = 0
    while n < count {
        let phase = frame % 130
        let angle = Double(frame) * 0.07
        if phase == 0 {
            emit(EventType.key, KeyCode.btnToolPen, 1)
            emit(EventType.key, KeyCode.btnTouch, 1)
        }
        if phase < 120 {
            emit(EventType.abs, AbsCode.x, Int32(10_800 + 8_000 * sin(angle)))
            emit(EventType.abs, AbsCode.y, Int32(6_750 + 4_000 * cos(angle * 1.3)))
            emit(EventType.abs, AbsCode.pressure, Int32(1_500 + 1_000 * sin(angle * 0.5)))
            emit(EventType.abs, AbsCode.tiltX, Int32(frame % 20))
        } else if phase == 120 {
            emit(EventType.abs, AbsCode.pressure, 0)
            emit(EventType.key, KeyCode.btnTouch, 0)
        }
        emit(EventType.syn, SynCode.report, 0)
        t += 5_000
        frame += 1
    }
    return bytes
}

func cpuSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func wallSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

struct Measurement {
    var wall: Double
    var cpu: Double
    var events: Int
}

/// Best of `rounds`, decoding in 4 KiB chunks as a reader would.
func measure(_ bytes: [UInt8], rounds: Int = 5, _ body: (UnsafeRawBufferPointer, inout [InputEvent]) -> Int) -> Measurement {
    var best = Measurement(wall: .infinity, cpu: .infinity, events: 0)
    var buffer: [InputEvent] = []
    buffer.reserveCapacity(256)
    for _ in 0..<rounds {
        let w0 = wallSeconds()
        let c0 = cpuSeconds()
        var events = 0
        bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(offset + 4096, all.count)
                buffer.removeAll(keepingCapacity: true)
                events += body(UnsafeRawBufferPointer(rebasing: all[offset..<end]), &buffer)
                offset = end
            }
        }
        let m = Measurement(wall: wallSeconds() - w0, cpu: cpuSeconds() - c0, events: events)
        if m.cpu < best.cpu { best = m }
    }
    return best
}

let bytes = synthesize(eventCount)
let total = bytes.count / RawEventDecoder.recordSize

var checksum = 0
var baselineDecoder = RawEventDecoder()
let baseline = measure(bytes) { chunk, buffer in
    baselineDecoder.decode(chunk, into: &buffer)
    for e in buffer { checksum &+= Int(e.value) &+ Int(e.code) }
    return buffer.count
}

var capture: StrokeCapture
do {
    capture = try StrokeCapture(device: pad)
} catch {
    print("benchmark pad rejected: \(error)")
    exit(1)
}
var pipelineDecoder = RawEventDecoder()
var batches = 0
let pipeline = measure(bytes) { chunk, buffer in
    pipelineDecoder.decode(chunk, into: &buffer)
    for e in buffer where capture.process(e) != nil { batches += 1 }
    capture.clear()  // keep memory flat across rounds; the work per event is unchanged
    return buffer.count
}

/// `v` with `digits` decimals (no Foundation in this target).
func fixed(_ v: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let n = Int((v * scale).rounded())
    let whole = n / Int(scale)
    let frac = String(n % Int(scale))
    return digits == 0 ? "\(whole)" : "\(whole)." + String(repeating: "0", count: digits - frac.count) + frac
}

func report(_ name: String, _ m: Measurement) {
    let eps = Double(m.events) / m.wall
    let ns = m.cpu / Double(m.events) * 1e9
    print("\(name): \(m.events) events, \(Int(eps)) events/s, \(fixed(ns, 1)) ns CPU/event")
}

print("PadBenchmark: \(total) synthetic pen events (best of 5 rounds)")
report("baseline (decode only)", baseline)
report("pipeline (decode + frames + strokes)", pipeline)
let ratio = pipeline.cpu / baseline.cpu
print("ratio pipeline/baseline CPU: \(fixed(ratio, 2))x")
let share: Double = pipeline.cpu / Double(pipeline.events) * 1000 * 100
print("at a 200 Hz pen (~1000 events/s) the pipeline uses \(fixed(share, 4))% of one core")
print("(checksum \(checksum & 0xff); ink batches over all rounds: \(batches))")
