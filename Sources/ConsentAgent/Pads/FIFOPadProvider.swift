import ConsentCore
import Foundation
import Glibc
import SignaturePad
import SignaturePadLinux
import Synchronization

/// A signature pad whose events are raw `struct input_event` records written into a FIFO: the benchmarks' pen.
///
/// consentd uses it only behind the hidden `--pad-event-fifo PATH` flag (`make bench`'s ink latency and pen
/// throughput rows). It plugs in at the same `PadProviding` seam as the udev/evdev pads and uses the same pure
/// capture (`FileDescriptorEventSource` → `StrokeCapture`), so ink takes the agent's real path from there on: the
/// provider's event stream, `AgentCore.pumpPadEvents`, the hub, each client's outbound queue and socket. What it
/// does not exercise is udev discovery, libevdev and hot-plug.
///
/// The FIFO is opened read-write and non-blocking: opening never waits for a writer, and a writer closing it is not
/// an end of stream. One thread reads it for the agent's lifetime; events that arrive while no capture runs are
/// dropped, as a real pad's are. The pad has fixed axes (`Self.pad(path:)`), which the benchmark's pen matches.
public final class FIFOPadProvider: PadProviding {
    /// x and y 0…32767 at 100 units/mm, pressure 0…4095 (what `AgentBenchmark` writes).
    public static func pad(path: String) -> PadDescription {
        PadDescription(
            node: path, name: "FIFO pen", kind: .pen, isTablet: true,
            x: AxisInfo(minimum: 0, maximum: 32767, resolution: 100),
            y: AxisInfo(minimum: 0, maximum: 32767, resolution: 100), pressure: AxisInfo(minimum: 0, maximum: 4095))
    }

    struct Capture {
        var flow: String
        var strokes: StrokeCapture
        /// The first point's timestamp (µs) since begin or clear: `t` counts from it.
        var origin: Int64?
    }

    public let events: AsyncStream<PadEvent>
    private let continuation: AsyncStream<PadEvent>.Continuation
    private let description: PadDescription
    private let fileDescriptor: Int32
    private let capture = Mutex<Capture?>(nil)

    /// Opens the FIFO (it must exist) and starts its reader thread.
    public init(path: String) throws {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw AgentError(.noPad, "cannot open the pad event FIFO \(path) (errno \(errno))") }
        fileDescriptor = fd
        description = Self.pad(path: path)
        // As the udev pads: ink for a lagging agent is dropped oldest first (echo only; the signature keeps it).
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(8192))
        let thread = Thread { [self] in readLoop() }
        thread.name = "consent-pad-fifo"
        thread.start()
    }

    private var info: PadInfo {
        PadInfo(
            id: description.node, name: description.name, widthMM: description.widthMM,
            heightMM: description.heightMM, hasPressure: description.hasPressure)
    }

    public func pads() async -> [PadInfo] { [info] }

    public func beginCapture(flow: String, pad: String?) async throws -> PadInfo {
        if let pad, pad != description.node { throw AgentError(.noPad, "no pad has this id; pads.list lists them") }
        let strokes = try StrokeCapture(device: description)
        try capture.withLock { c in
            if let c, c.flow != flow {
                throw AgentError(.padBusy, "the pad is capturing a signature for another flow; finish or cancel that one first")
            }
            c = Capture(flow: flow, strokes: strokes)
        }
        return info
    }

    public func clearCapture(flow: String) async throws {
        try capture.withLock { c in
            guard c?.flow == flow else { throw Self.noCapture }
            c!.strokes.clear()
            c!.origin = nil
        }
    }

    public func finishCapture(flow: String) async throws -> SignatureStrokes {
        let signature = try capture.withLock { c -> Signature in
            guard let current = c, current.flow == flow else { throw Self.noCapture }
            c = nil
            return current.strokes.signature
        }
        let origin = signature.startTime ?? 0
        return SignatureStrokes(
            strokes: signature.strokes.map { $0.points.map { Self.strokePoint($0, origin: origin) } },
            widthMM: description.widthMM, heightMM: description.heightMM,
            device: ["name": .string(description.name), "kind": .string(description.kind.rawValue)])
    }

    public func cancelCapture(flow: String) async {
        capture.withLock { c in if c?.flow == flow { c = nil } }
    }

    private static var noCapture: AgentError {
        AgentError(.noCapture, "no pad capture runs for this flow; call signature.begin first")
    }

    private static func strokePoint(_ point: InkPoint, origin: Int64) -> StrokePoint {
        StrokePoint(x: point.x, y: point.y, t: Double(max(0, point.time - origin)) / 1000, p: point.pressure)
    }

    /// Reads the FIFO for the agent's lifetime (the agent exits with the process; the thread needs no stop).
    private func readLoop() {
        var source = FileDescriptorEventSource(fileDescriptor: fileDescriptor)
        var buffer: [InputEvent] = []
        buffer.reserveCapacity(256)
        var out: [PadEvent] = []
        while true {
            buffer.removeAll(keepingCapacity: true)
            guard (try? source.read(into: &buffer, timeout: .seconds(1))) != nil else { return }
            if buffer.isEmpty { continue }
            out.removeAll(keepingCapacity: true)
            capture.withLock { c in
                guard c != nil else { return }
                // In place: a copy of the capture would copy its strokes on every read (quadratic in a stroke).
                for event in buffer {
                    guard let batch = c!.strokes.process(event) else { continue }
                    let origin = c!.origin ?? batch.points.first?.time
                    c!.origin = origin
                    if let origin, !batch.points.isEmpty {
                        out.append(.ink(InkBatch(
                            flow: c!.flow, pad: description.node, stroke: batch.strokeIndex,
                            points: batch.points.map { Self.strokePoint($0, origin: origin) })))
                    }
                    if batch.endsStroke {
                        out.append(.strokeEnded(flow: c!.flow, pad: description.node, stroke: batch.strokeIndex))
                    }
                }
            }
            for event in out { continuation.yield(event) }
        }
    }
}
