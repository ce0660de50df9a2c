import NIOConcurrencyHelpers
import SignaturePad
import SignaturePadLinux

@testable import ConsentAgent

/// A pad session without udev, for `LinuxPadProvider`'s bookkeeping: one pen tablet, a scripted signature, and a
/// log of what the provider asked of it (so a test sees the pad released). `pad` mirrors the `pen-tablet`
/// fixture of Tests/SignaturePadLinuxTests (generate.py), so pure replays of its recordings match the device.
final class FakePadSession: PadCapturing {
    static let pad = PadDescription(
        node: "/dev/input/event10", name: "Wacom One Pen Display Pen", vendorID: 0x056a, productID: 0x03a6,
        kind: .pen, isTablet: true, x: AxisInfo(minimum: 0, maximum: 21600, resolution: 100),
        y: AxisInfo(minimum: 0, maximum: 13500, resolution: 100), pressure: AxisInfo(minimum: 0, maximum: 4095),
        tiltX: AxisInfo(minimum: -64, maximum: 63, resolution: 57), tiltY: AxisInfo(minimum: -64, maximum: 63, resolution: 57))

    struct State {
        var pads: [PadDescription] = [FakePadSession.pad]
        var capturing: PadDescription?
        /// What `finishCapture` returns.
        var signature = Signature(device: FakePadSession.pad, strokes: [])
        var calls: [String] = []
        var isClosed = false
        /// The running capture's ink handler (see `draw`).
        var ink: InkHandler?
    }

    let events: AsyncStream<PadSessionEvent>
    let continuation: AsyncStream<PadSessionEvent>.Continuation
    let state = NIOLockedValueBox(State())

    init() {
        (events, continuation) = AsyncStream.makeStream()
    }

    var pads: [PadDescription] { state.withLockedValue { $0.pads } }
    var calls: [String] { state.withLockedValue { $0.calls } }
    var isCapturing: Bool { state.withLockedValue { $0.capturing != nil } }
    var isClosed: Bool { state.withLockedValue { $0.isClosed } }

    /// One frame of ink, handed to the capture's handler as the session's I/O thread would; dropped (as the
    /// session drops it) when no capture runs.
    func draw(_ ink: FrameInk) {
        state.withLockedValue { s in
            guard let pad = s.capturing else { return }
            s.ink?(ink, pad.node)
        }
    }

    /// The capturing pad came back on another node: later ink names it, and the provider hears of it.
    func resume(on pad: PadDescription) {
        state.withLockedValue { s in if s.capturing != nil { s.capturing = pad } }
        continuation.yield(.captureResumed(pad))
    }

    func startCapture(on selector: PadSelector?, ink: InkHandler?) throws -> PadDescription {
        try state.withLockedValue { s in
            s.calls.append("start \(selector?.description ?? "-")")
            guard s.capturing == nil else { throw SignaturePadError(.captureAlreadyActive, "busy") }
            guard let pad = PadPreference.choose(from: s.pads, selector: selector) else {
                throw SignaturePadError(.noPad, "No signature pad is connected; connect one.")
            }
            s.capturing = pad
            s.ink = ink
            return pad
        }
    }

    func clearCapture() throws {
        try state.withLockedValue { s in
            s.calls.append("clear")
            guard s.capturing != nil else { throw SignaturePadError(.captureNotActive, "not capturing") }
        }
    }

    func finishCapture() throws -> Signature {
        try state.withLockedValue { s in
            s.calls.append("finish")
            guard s.capturing != nil else { throw SignaturePadError(.captureNotActive, "not capturing") }
            s.capturing = nil
            return s.signature
        }
    }

    func cancelCapture() {
        state.withLockedValue { s in
            s.calls.append("cancel")
            s.capturing = nil
        }
    }

    func close() {
        state.withLockedValue { s in
            s.calls.append("close")
            s.capturing = nil
            s.isClosed = true
        }
        continuation.finish()
    }
}
