import AgentProtocol
import ConsentAgent
import ConsentCore
import NIOConcurrencyHelpers

/// A pad provider for tests: one pad; a capture "draws" a fixed signature as two frames of one stroke.
///
/// It shows the `PadProviding` contract the SignaturePadLinux service implements: ink goes to the attached hub
/// while capturing, and `finishCapture` returns the strokes.
final class FakePadProvider: PadProviding {
    static let pad = PadInfo(id: "fake:0", name: "Fake Pad", widthMM: 100, heightMM: 60, hasPressure: true)
    static let points = (0..<12).map { StrokePoint(x: 0.1 + Double($0) * 0.05, y: 0.5, t: Double($0) * 5, p: 0.5) }

    private let capturing = NIOLockedValueBox<String?>(nil)
    private let hub = NIOLockedValueBox<EventHub?>(nil)

    init() {}

    func pads() async -> [PadInfo] { [Self.pad] }

    func hasUsablePad() -> Bool { true }

    func publishEvents(to hub: EventHub) {
        self.hub.withLockedValue { $0 = hub }
    }

    func beginCapture(flow: String, pad: String?, role: SigningRole?) async throws -> PadInfo {
        guard pad == nil || pad == Self.pad.id else { throw AgentError(.noPad, "no such pad") }
        capturing.withLockedValue { $0 = flow }
        let hub = self.hub.withLockedValue { $0 }
        hub?.publish(AgentEvent(ink: InkBatch(flow: flow, pad: Self.pad.id, stroke: 0, points: Array(Self.points[..<6]), role: role)))
        hub?.publish(AgentEvent(ink: InkBatch(flow: flow, pad: Self.pad.id, stroke: 0, points: Array(Self.points[6...]), role: role)))
        hub?.publish(AgentEvent(.inkStrokeEnded, data: ["flow": .string(flow), "pad": .string(Self.pad.id), "stroke": 0]))
        return Self.pad
    }

    func clearCapture(flow: String) async throws {}

    func finishCapture(flow: String) async throws -> SignatureStrokes {
        guard capturing.withLockedValue({ $0 }) == flow else { throw AgentError(.noCapture, "not capturing") }
        capturing.withLockedValue { $0 = nil }
        return SignatureStrokes(strokes: [Self.points], widthMM: 100, heightMM: 60, device: ["name": "Fake Pad"])
    }

    func cancelCapture(flow: String) async {
        capturing.withLockedValue { if $0 == flow { $0 = nil } }
    }

    func capture(of flow: String) -> PadInfo? {
        capturing.withLockedValue { $0 } == flow ? Self.pad : nil
    }
}
