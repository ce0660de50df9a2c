import Foundation
import Glibc
import Logging
import NIOConcurrencyHelpers
import SignaturePad
import SignaturePadLinux

extension LinuxPadProvider {
    /// The pad provider of `consentd --pad-event-fifo PATH` (hidden; `make bench`): one pad read from a FIFO.
    ///
    /// - Throws: `SignaturePadError` `.noPad` when the FIFO cannot be opened.
    public convenience init(eventFIFO path: String, configuration: Configuration, logger: Logger) throws {
        let session = try FIFOPadSession(path: path)
        self.init(configuration: configuration, logger: logger) { session }
    }
}

/// A pad whose events come from a FIFO of raw `struct input_event` records: the benchmarks' pen.
///
/// consentd uses it only behind the hidden `--pad-event-fifo PATH` flag, in place of the udev session, so
/// `LinuxPadProvider` serves it exactly as a real pad: the same capture bookkeeping, ink conversion, event pump,
/// hub and socket path. Only the device side differs: `FileDescriptorEventSource` instead of libevdev, its own
/// reader thread instead of `CaptureEngine`'s, no udev discovery and no hot-plug.
///
/// The FIFO is opened read-write and non-blocking, so opening never waits for a writer and a writer closing it is
/// not an end of stream. One thread reads it for the session's lifetime; events that arrive while no capture runs
/// are dropped, as a real pad's are. The pad has fixed axes (`Self.description`).
final class FIFOPadSession: PadCapturing {
    /// x and y 0…32767 at 100 units/mm (327 × 327 mm), pressure 0…4095: what `AgentBenchmark` writes.
    static func description(path: String) -> PadDescription {
        PadDescription(
            node: path, name: "FIFO pen", kind: .pen, isTablet: true,
            x: AxisInfo(minimum: 0, maximum: 32767, resolution: 100),
            y: AxisInfo(minimum: 0, maximum: 32767, resolution: 100), pressure: AxisInfo(minimum: 0, maximum: 4095))
    }

    struct State {
        var capture: StrokeCapture?
        var isClosed = false
    }

    let events: AsyncStream<SignaturePadLinux.PadEvent>
    let pad: PadDescription
    private let continuation: AsyncStream<SignaturePadLinux.PadEvent>.Continuation
    private let fileDescriptor: Int32
    private let state = NIOLockedValueBox(State())

    /// Opens the FIFO (it must exist) and starts the reader thread.
    init(path: String, eventBufferLimit: Int = 8192) throws {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw SignaturePadError(.noPad, "Cannot open the pad event FIFO \(path) (errno \(errno)).")
        }
        fileDescriptor = fd
        pad = Self.description(path: path)
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(eventBufferLimit))
        let thread = Thread { [self] in run() }
        thread.name = "consent-pad-fifo"
        thread.start()
    }

    deinit { Glibc.close(fileDescriptor) }

    var pads: [PadDescription] { [pad] }

    func startCapture(on selector: PadSelector?) throws -> PadDescription {
        try state.withLockedValue { s in
            guard !s.isClosed else { throw SignaturePadError(.captureNotActive, "The pad session is closed.") }
            guard s.capture == nil else {
                throw SignaturePadError(.captureAlreadyActive, "A signature capture is already running.")
            }
            s.capture = try StrokeCapture(device: pad)
            return pad
        }
    }

    func clearCapture() throws {
        try state.withLockedValue { s in
            guard s.capture != nil else { throw Self.notActive }
            s.capture?.clear()
        }
    }

    func finishCapture() throws -> Signature {
        try state.withLockedValue { s in
            guard let capture = s.capture else { throw Self.notActive }
            s.capture = nil
            return capture.signature
        }
    }

    func cancelCapture() { state.withLockedValue { $0.capture = nil } }

    func close() {
        let wasOpen = state.withLockedValue { s in
            defer {
                s.isClosed = true
                s.capture = nil
            }
            return !s.isClosed
        }
        if wasOpen { continuation.finish() }
    }

    private static var notActive: SignaturePadError {
        SignaturePadError(.captureNotActive, "No signature capture is running; start one first.")
    }

    /// Reads until closed; the poll timeout only bounds how long `close()` takes to stop the thread.
    private func run() {
        var source = FileDescriptorEventSource(fileDescriptor: fileDescriptor)
        var buffer: [InputEvent] = []
        buffer.reserveCapacity(256)
        while !state.withLockedValue({ $0.isClosed }) {
            buffer.removeAll(keepingCapacity: true)
            guard (try? source.read(into: &buffer, timeout: .milliseconds(250))) != nil else { return }
            if buffer.isEmpty { continue }
            state.withLockedValue { s in
                guard s.capture != nil else { return }
                // In place: a copy of the capture would copy its strokes on every read (quadratic in the stroke).
                for event in buffer {
                    if let batch = s.capture!.process(event) { continuation.yield(.ink(batch)) }
                }
            }
        }
    }
}
