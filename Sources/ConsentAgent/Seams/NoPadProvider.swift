import ConsentCore

/// The pad provider of an agent without pad support: no pads, so UIs capture strokes themselves.
public struct NoPadProvider: PadProviding {
    public init() {}

    public func pads() async -> [PadInfo] { [] }

    public func hasUsablePad() -> Bool { false }

    public func publishEvents(to hub: EventHub) {}

    public func beginCapture(flow: String, pad: String?, role: SigningRole?) async throws -> PadInfo {
        throw AgentError(.noPad, "no signature pad is connected; submit strokes captured by the UI instead")
    }

    public func clearCapture(flow: String) async throws {
        throw AgentError(.noCapture, "no pad capture runs for this flow")
    }

    public func finishCapture(flow: String) async throws -> SignatureStrokes {
        throw AgentError(.noCapture, "no pad capture runs for this flow; pass the strokes captured by the UI")
    }

    public func cancelCapture(flow: String) async {}

    public func capture(of flow: String) -> PadInfo? { nil }
}
