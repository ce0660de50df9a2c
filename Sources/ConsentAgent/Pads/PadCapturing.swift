import SignaturePad
import SignaturePadLinux

/// The part of a `PadCaptureSession` that `LinuxPadProvider` uses.
///
/// A seam (libinput's "inject the hardware"), so the provider's bookkeeping (which flow owns the pad, ink
/// conversion, the minimum-signature rule, release on every path) runs in unit tests without udev; production
/// uses `PadCaptureSession` itself. Every call must be quick and thread-safe, as the session's are: the provider
/// calls them from the agent's actor and while holding its own lock.
protocol PadCapturing: AnyObject, Sendable {
    /// Hot-plug and suspend/resume (ink goes to the capture's handler). Single consumer.
    var events: AsyncStream<PadSessionEvent> { get }
    /// Pads connected now, best first.
    var pads: [PadDescription] { get }
    /// Starts a capture on the selected (nil: preferred) pad and grabs it when it is dedicated; each frame's ink
    /// goes to `ink` on the session's I/O thread until the capture ends.
    func startCapture(on selector: PadSelector?, ink: InkHandler?) throws -> PadDescription
    /// Discards the ink so far; the capture goes on.
    func clearCapture() throws
    /// Ends the capture, releases the pad and returns what was drawn (unchecked).
    func finishCapture() throws -> Signature
    /// Ends the capture, releases the pad and drops the ink.
    func cancelCapture()
    /// Releases everything and ends `events`. Idempotent.
    func close()
}

extension PadCaptureSession: PadCapturing {}
