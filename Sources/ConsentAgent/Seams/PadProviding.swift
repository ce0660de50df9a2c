import ConsentCore

/// Signature pads: the seam where SignaturePad/SignaturePadLinux plug in.
///
/// The agent starts a capture for a flow on `signature.begin`, clears it on `signature.clear`, and takes the
/// strokes on `signature.submit`. Ink and hot-plug reach the clients through `events`, which the agent pumps
/// straight into the event hub: ink never waits for the core or for a slow client. Implementations throw
/// `AgentError` with `.noPad`, `.padBusy` or `.noCapture` for those situations, or the pad module's
/// `SignaturePadError` (mapped in `RPCErrorMapping`; anything else is an internal error).
///
/// consentd uses `LinuxPadProvider` (udev + evdev); `NoPadProvider` (`--no-pads`) has no pads, so
/// `signature.begin` answers `NoPad` and UIs submit strokes they captured themselves.
public protocol PadProviding: Sendable {
    /// The pads connected now.
    func pads() async -> [PadInfo]
    /// Starts capturing on `pad` (nil: the only or first pad) for `flow`; returns the pad used.
    func beginCapture(flow: String, pad: String?) async throws -> PadInfo
    /// Forgets the ink captured so far for `flow`; capture goes on.
    func clearCapture(flow: String) async throws
    /// Stops capturing for `flow` and returns what was drawn, in the stroke format.
    func finishCapture(flow: String) async throws -> SignatureStrokes
    /// Stops capturing for `flow` (the flow ended) and forgets the ink; no error when nothing was captured.
    func cancelCapture(flow: String) async
    /// Ink batches and hot-plug, for as long as the provider lives.
    var events: AsyncStream<PadEvent> { get }
}

/// A pad as the protocol describes it (`pads.list`, `pad.added`).
public struct PadInfo: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var widthMM: Double?
    public var heightMM: Double?
    public var hasPressure: Bool

    public init(id: String, name: String, widthMM: Double? = nil, heightMM: Double? = nil, hasPressure: Bool) {
        self.id = id
        self.name = name
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.hasPressure = hasPressure
    }
}

/// What a pad reports.
public enum PadEvent: Sendable, Hashable {
    case added(PadInfo)
    case removed(PadInfo)
    /// Points of one pad frame (libinput's "act per frame").
    case ink(InkBatch)
    case strokeEnded(flow: String, pad: String, stroke: Int)
}
