import ConsentCore

/// Signature pads: the seam where SignaturePad/SignaturePadLinux plug in.
///
/// The agent starts a capture for a flow on `signature.begin`, clears it on `signature.clear`, and takes the
/// strokes on `signature.submit`. Ink and hot-plug reach the clients through the event hub the agent attaches
/// (`publishEvents(to:)`): a provider publishes them itself, tagged with the flow and role, so ink never waits
/// for the core or for a slow client. Implementations throw
/// `AgentError` with `.noPad`, `.padBusy` or `.noCapture` for those situations, or the pad module's
/// `SignaturePadError` (mapped in `RPCErrorMapping`; anything else is an internal error).
///
/// consentd uses `LinuxPadProvider` (udev + evdev); `NoPadProvider` (`--no-pads`) has no pads, so
/// `signature.begin` answers `NoPad` and UIs submit strokes they captured themselves.
public protocol PadProviding: Sendable {
    /// The pads connected now.
    func pads() async -> [PadInfo]
    /// Whether a usable pad is connected now: the core offers `beginSignature` only then, so a UI that shows the
    /// actions a view lists never shows a button that can only answer `NoPad`. Quick and synchronous: the core
    /// asks while it builds a view.
    func hasUsablePad() -> Bool
    /// Calls `handler` after each `pad.added` and `pad.removed` the provider publishes, once the pad list has
    /// changed: the core then sends `flow.changed` for the flows on a signing page, whose actions changed.
    func onPadsChanged(_ handler: @escaping @Sendable () -> Void)
    /// Where ink (`ink.points`, `ink.strokeEnded`) and hot-plug (`pad.added`, `pad.removed`) go from now on.
    func publishEvents(to hub: EventHub)
    /// Starts capturing on `pad` (nil: the only or first pad) for `flow`, whose ink events name `role`; returns
    /// the pad used.
    func beginCapture(flow: String, pad: String?, role: SigningRole?) async throws -> PadInfo
    /// Forgets the ink captured so far for `flow`; capture goes on.
    func clearCapture(flow: String) async throws
    /// Stops capturing for `flow` and returns what was drawn, in the stroke format.
    func finishCapture(flow: String) async throws -> SignatureStrokes
    /// Stops capturing for `flow` (the flow ended) and forgets the ink; no error when nothing was captured.
    func cancelCapture(flow: String) async
    /// The pad capturing for `flow` now (as it is now: a pad that came back on another node has its new id), or
    /// nil. The provider is the one record of who is capturing: the core asks here for the view's signing area and
    /// before it takes, clears or cancels a capture.
    func capture(of flow: String) -> PadInfo?
}

extension PadProviding {
    /// A provider whose pads never come or go (a fixed test pad, or none) has nothing to report.
    public func onPadsChanged(_ handler: @escaping @Sendable () -> Void) {}
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
