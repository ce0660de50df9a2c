import AgentProtocol
import ConsentCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import SignaturePad
import Testing

@testable import ConsentAgent

/// `LinuxPadProvider` over a fake session: who owns the pad, how ink and hot-plug become agent events, the
/// minimum-signature rule, and that the pad is released on every path. The real session under umockdev is
/// exercised by ConsentdIntegrationTests.PadCapture.
@Suite struct LinuxPadProviderTests {
    static let node = FakePadSession.pad.node

    static func provider(_ session: FakePadSession, retry: Duration = .seconds(5)) -> LinuxPadProvider {
        LinuxPadProvider(configuration: .init(retryInterval: retry), logger: Logger(label: "test")) { session }
    }

    /// Points along a line at 10 ms intervals (pressure 0.5), as the pad module would capture them.
    static func line(_ count: Int, from x: Double, to endX: Double, start: Int64 = 10_000_000) -> Stroke {
        Stroke(points: (0..<count).map { i in
            let fx = x + (endX - x) * Double(i) / Double(max(1, count - 1))
            return InkPoint(
                x: fx, y: 0.5, deviceX: Int32(fx * 21600), deviceY: 6750, pressure: 0.5,
                time: start + Int64(i) * 10_000, flags: i == 0 ? .strokeStart : [])
        })
    }

    @Test func listsUsablePadsWithTheirNodeAsID() async {
        let session = FakePadSession()
        var locked = FakePadSession.pad
        locked.node = "/dev/input/event11"
        locked.isAccessible = false
        session.state.withLockedValue { $0.pads.append(locked) }
        let pads = Self.provider(session)
        #expect(await pads.pads() == [
            PadInfo(id: Self.node, name: "Wacom One Pen Display Pen", widthMM: 216, heightMM: 135, hasPressure: true)
        ])
    }

    @Test func oneFlowHoldsThePadAtATime() async throws {
        let session = FakePadSession()
        let pads = Self.provider(session)
        #expect(try await pads.beginCapture(flow: "f-a", pad: nil, role: nil).id == Self.node)
        // The provider is the one record of who is capturing.
        #expect(pads.capture(of: "f-a")?.id == Self.node && pads.capture(of: "f-b") == nil)
        await #expect(throws: AgentError(.padBusy, "")) { try await pads.beginCapture(flow: "f-b", pad: nil, role: nil) }
        #expect(pads.capture(of: "f-a") != nil && pads.capture(of: "f-b") == nil, "a refused begin changes nothing")
        await #expect(throws: AgentError(.noCapture, "")) { try await pads.finishCapture(flow: "f-b") }
        await #expect(throws: AgentError(.noCapture, "")) { try await pads.clearCapture(flow: "f-b") }
        await pads.cancelCapture(flow: "f-b")
        #expect(session.isCapturing, "another flow's cancel leaves the capture alone")

        try await pads.clearCapture(flow: "f-a")
        await pads.cancelCapture(flow: "f-a")
        #expect(!session.isCapturing && pads.capture(of: "f-a") == nil)
        #expect(try await pads.beginCapture(flow: "f-b", pad: Self.node, role: nil).id == Self.node)
        // The same flow beginning again starts afresh rather than answering PadBusy.
        _ = try await pads.beginCapture(flow: "f-b", pad: nil, role: nil)
        #expect(session.calls == ["start -", "clear", "cancel", "start \(Self.node)", "cancel", "start -"])
        await pads.cancelCapture(flow: "f-b")
        await #expect(throws: SignaturePadError(.noPad, "")) { try await pads.beginCapture(flow: "f-c", pad: "Nope", role: nil) }
        // A failed start leaves nobody holding the pad.
        _ = try await pads.beginCapture(flow: "f-d", pad: nil, role: nil)
    }

    /// What the provider published to the hub, in the shape these tests compare.
    enum Seen: Equatable {
        case ink(InkBatch)
        case strokeEnded(flow: String, pad: String, stroke: Int)
        case added(PadInfo)
        case removed(PadInfo)
        case other(String)

        init(_ event: AgentEvent) {
            let data = event.data
            switch event.name {
            case .inkPoints:
                self = event.ink.map(Seen.ink) ?? .other("ink.points without points")
            case .inkStrokeEnded:
                self = .strokeEnded(
                    flow: data["flow"]?.stringValue ?? "", pad: data["pad"]?.stringValue ?? "",
                    stroke: Int(data["stroke"]?.integerValue ?? -1))
            case .padAdded:
                let pad: PadInfo? = try? data["pad"]?.decode(PadInfo.self)
                self = pad.map(Seen.added) ?? .other("pad.added")
            case .padRemoved:
                let pad: PadInfo? = try? data["pad"]?.decode(PadInfo.self)
                self = pad.map(Seen.removed) ?? .other("pad.removed")
            default: self = .other(event.name.rawValue)
            }
        }
    }

    /// A hub with one subscriber (ink and pad topics) that records what reaches it, in order.
    final class Subscriber: Sendable {
        let hub = EventHub()
        private let seen = NIOLockedValueBox<[AgentEvent]>([])
        private let taken = NIOLockedValueBox(0)

        init() {
            let seen = self.seen
            hub.subscribe(
                ConnectionHandle(id: 1) { delivery in
                    if case .event(let event) = delivery { seen.withLockedValue { $0.append(event) } }
                }, topics: [.ink, .pad])
        }

        /// The next event published (waits up to 2 s for hot-plug, which the provider's run loop publishes).
        func next() async -> Seen? {
            for _ in 0..<200 {
                let index = taken.withLockedValue { $0 }
                if let event = seen.withLockedValue({ $0.count > index ? $0[index] : nil }) {
                    taken.withLockedValue { $0 += 1 }
                    return Seen(event)
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return nil
        }

        var pending: Int { seen.withLockedValue { $0.count } - taken.withLockedValue { $0 } }
    }

    @Test func inkAndHotPlugBecomeAgentEvents() async throws {
        let session = FakePadSession()
        let pads = Self.provider(session)
        let events = Subscriber()
        pads.publishEvents(to: events.hub)
        let run = Task { try await pads.run() }
        _ = try await pads.beginCapture(flow: "f-a", pad: nil, role: nil)

        let stroke = Self.line(3, from: 0.1, to: 0.3).points
        var last = stroke[2]
        last.flags.insert(.strokeEnd)
        let origin = stroke[0].time
        session.draw(.init(strokeIndex: 0, points: [stroke[0], stroke[1]], origin: origin))
        session.draw(.init(strokeIndex: 0, points: [last], endsStroke: true, origin: origin))
        session.draw(.init(strokeIndex: 0, points: [], endsStroke: true, origin: origin))
        #expect(await events.next() == .ink(InkBatch(flow: "f-a", pad: Self.node, stroke: 0, points: [
            StrokePoint(x: 0.1, y: 0.5, t: 0, p: 0.5), StrokePoint(x: 0.2, y: 0.5, t: 10, p: 0.5),
        ])))
        #expect(await events.next() == .ink(InkBatch(flow: "f-a", pad: Self.node, stroke: 0, points: [
            StrokePoint(x: 0.3, y: 0.5, t: 20, p: 0.5)
        ])))
        #expect(await events.next() == .strokeEnded(flow: "f-a", pad: Self.node, stroke: 0))
        #expect(await events.next() == .strokeEnded(flow: "f-a", pad: Self.node, stroke: 0))

        // Unplugged mid-signature and back on another node: a removed/added pair, and later ink names the new node.
        var back = FakePadSession.pad
        back.node = "/dev/input/event12"
        session.continuation.yield(.captureSuspended(FakePadSession.pad))
        session.continuation.yield(.padRemoved(FakePadSession.pad))
        session.continuation.yield(.padAdded(back))
        #expect(await events.next() == .removed(PadInfo(FakePadSession.pad)))
        #expect(await events.next() == .added(PadInfo(back)))
        session.resume(on: back)
        for _ in 0..<200 where pads.capture(of: "f-a")?.id != back.node {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(pads.capture(of: "f-a")?.id == back.node, "the capture is on the pad's new node")
        let later = Self.line(1, from: 0.6, to: 0.6, start: 10_500_000).points
        session.draw(.init(strokeIndex: 1, points: later, origin: origin))
        #expect(await events.next() == .ink(InkBatch(flow: "f-a", pad: back.node, stroke: 1, points: [
            StrokePoint(x: 0.6, y: 0.5, t: 500, p: 0.5)
        ])))

        // After a clear, t counts from the next point (the session's origin moves to it); after the capture
        // ends, trailing ink belongs to no flow.
        try await pads.clearCapture(flow: "f-a")
        session.draw(.init(strokeIndex: 0, points: later, origin: later[0].time))
        #expect(await events.next() == .ink(InkBatch(flow: "f-a", pad: back.node, stroke: 0, points: [
            StrokePoint(x: 0.6, y: 0.5, t: 0, p: 0.5)
        ])))
        await pads.cancelCapture(flow: "f-a")
        session.draw(.init(strokeIndex: 0, points: later, origin: later[0].time))
        session.continuation.yield(.padRemoved(back))
        #expect(await events.next() == .removed(PadInfo(back)))

        // The capture's role tags its ink and the end of its strokes.
        let witnessPad = try await pads.beginCapture(flow: "f-w", pad: nil, role: .witness).id
        session.draw(.init(strokeIndex: 0, points: later, endsStroke: true, origin: later[0].time))
        #expect(await events.next() == .ink(InkBatch(flow: "f-w", pad: witnessPad, stroke: 0, points: [
            StrokePoint(x: 0.6, y: 0.5, t: 0, p: 0.5)
        ], role: .witness)))
        #expect(await events.next() == .strokeEnded(flow: "f-w", pad: witnessPad, stroke: 0))
        await pads.cancelCapture(flow: "f-w")

        // Shutdown releases the pad and ends the stream.
        _ = try await pads.beginCapture(flow: "f-b", pad: nil, role: nil)
        run.cancel()
        try await run.value
        #expect(session.isClosed && !session.isCapturing)
        #expect(events.pending == 0)
    }

    @Test func aDotIsRefusedWithThePadModulesReasonAndTheCaptureGoesOn() async throws {
        let session = FakePadSession()
        let pads = Self.provider(session)
        _ = try await pads.beginCapture(flow: "f-a", pad: nil, role: nil)

        session.state.withLockedValue { $0.signature = Signature(device: FakePadSession.pad, strokes: [Self.line(2, from: 0.5, to: 0.5)]) }
        do {
            _ = try await pads.finishCapture(flow: "f-a")
            Issue.record("a dot was accepted")
        } catch let error as SignaturePadError {
            #expect(error.code == .signatureTooShort)
            #expect(error.message.contains("only 2 points (minimum 10)"))
            let wire = RPCErrorMapping.wireError(for: error, requestID: .integer(1), logger: Logger(label: "test"))
            #expect(wire.type == .signatureTooShort && wire.message == error.message)
        }
        #expect(session.isCapturing, "the capture restarted on the same pad")
        #expect(pads.capture(of: "f-a")?.id == Self.node)
        #expect(Array(session.calls.suffix(2)) == ["finish", "start \(Self.node)"])

        // Enough points but hardly any ink (a scribbled dot): too short by the ink rule.
        session.state.withLockedValue { $0.signature = Signature(device: FakePadSession.pad, strokes: [Self.line(12, from: 0.5, to: 0.51)]) }
        await #expect(throws: SignaturePadError(.signatureTooShort, "")) { try await pads.finishCapture(flow: "f-a") }
        session.state.withLockedValue { $0.signature = Signature(device: FakePadSession.pad, strokes: []) }
        await #expect(throws: SignaturePadError(.emptySignature, "")) { try await pads.finishCapture(flow: "f-a") }

        session.state.withLockedValue { $0.signature = Signature(device: FakePadSession.pad, strokes: [Self.line(12, from: 0.1, to: 0.7)]) }
        let strokes = try await pads.finishCapture(flow: "f-a")
        #expect(strokes.pointCount == 12 && strokes.widthMM == 216)
        #expect(!session.isCapturing && pads.capture(of: "f-a") == nil, "a good signature releases the pad")
        await #expect(throws: AgentError(.noCapture, "")) { try await pads.finishCapture(flow: "f-a") }
    }

    @Test func withoutUdevItServesNoPadsAndPicksThemUpLater() async throws {
        final class Attempts: Sendable { let count = NIOLockedValueBox(0) }
        let attempts = Attempts()
        let session = FakePadSession()
        let pads = LinuxPadProvider(configuration: .init(retryInterval: .milliseconds(20)), logger: Logger(label: "test")) {
            let n = attempts.count.withLockedValue { $0 += 1; return $0 }
            if n < 3 { throw SignaturePadError(.udevUnavailable, "libudev cannot start.") }
            return session
        }
        #expect(await pads.pads().isEmpty)
        await #expect(throws: AgentError(.noPad, "")) { try await pads.beginCapture(flow: "f-a", pad: nil, role: nil) }
        let run = Task { try await pads.run() }
        for _ in 0..<500 where await pads.pads().isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await pads.pads().count == 1)
        run.cancel()
        try await run.value
        #expect(session.isClosed)
    }

    /// Through the agent: a flow that ends (here: cancelled) releases the pad it held.
    @Test func aFlowThatEndsReleasesThePad() async throws {
        let state = try TestSupport.temporaryDirectory()
        let session = FakePadSession()
        let pads = Self.provider(session)
        let core = AgentCore(
            studies: [try TestSupport.sampleStudy()], settings: .init(stateDirectory: state), hub: EventHub(),
            recordMaker: try TestSupport.recordMaker(state: state), pads: pads, logger: Logger(label: "test"))
        let channel = try await TestSupport.channel(core: core, maximumLineBytes: 1 << 16)
        var nextID: Int64 = 0
        func call(_ method: String, _ params: RPCValue = [:]) async throws -> RPCValue {
            nextID += 1
            let request: RPCValue = ["jsonrpc": "2.0", "id": .integer(nextID), "method": .string(method), "params": params]
            try await channel.send(request.jsonText)
            while true {
                let message = try await channel.nextMessage()
                if message["method"] == nil { return message }
            }
        }
        _ = try await channel.nextMessage()
        _ = try await call("session.negotiate", ["client": "t", "version": 1])
        func toSignaturePage() async throws -> RPCValue {
            let flow = try #require(try await call("flow.start")["result"]?["flow"])
            _ = try await call("eligibility.answer", ["flow": flow, "answers": [true, true, false, true]])
            var step = try await call("flow.next", ["flow": flow, "step": "eligibility"])
            // The sample study begins with its key information.
            step = try await call("flow.next", ["flow": flow, "step": "keyInformation"])
            while step["result"]?["step"] == "visual" {
                step = try await call("flow.next", ["flow": flow, "step": "visual"])
            }
            _ = try await call("sharing.choose", ["flow": flow, "shareWidely": false])
            _ = try await call("optional.answer", ["flow": flow, "answers": ["future-research": true, "contact-other-studies": false]])
            _ = try await call("review.agree", ["flow": flow])
            for answer in TestSupport.sampleComprehensionAnswers {
                _ = try await call("comprehension.answer", .object(answer.merging(["flow": flow]) { a, _ in a }))
            }
            _ = try await call("participant.setName", ["flow": flow, "given": "Grace", "family": "Hopper"])
            return flow
        }
        let first = try await toSignaturePage()
        let second = try await toSignaturePage()
        #expect(try await call("signature.begin", ["flow": first])["result"]?["pad"]?["id"] == .string(Self.node))
        #expect(try await call("signature.begin", ["flow": second])["error"]?["data"]?["type"] == "PadBusy")
        // The signing area in the views is the capturing pad's, as the provider has it; the waiting flow's is the default.
        let area = { (flow: RPCValue) async throws in try await call("flow.get", ["flow": flow])["result"]?["view"]?["review"]?["signingArea"] }
        #expect(try await area(first)?["pad"] == .string(Self.node))
        #expect(try await area(first)?["source"] == "pad")
        #expect(try await area(second)?["source"] == "default")
        #expect(try await call("flow.cancel", ["flow": first])["result"]?["step"] == "cancelled")
        // The core releases the pad from a task of its own; wait for it (bounded).
        for _ in 0..<200 where session.isCapturing {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(!session.isCapturing)
        #expect(try await call("signature.begin", ["flow": second])["result"]?["pad"]?["id"] == .string(Self.node))
        _ = try await channel.finish(acceptAlreadyClosed: true)
    }
}
