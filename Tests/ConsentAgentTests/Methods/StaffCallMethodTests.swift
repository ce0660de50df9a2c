import AgentProtocol
import ConsentCore
import Foundation
import Testing

@testable import ConsentAgent

/// `staff.call` and `staff.answer`: the events a staff page hears, the flow that waits without expiring, and the
/// capability that answers.
@Suite struct StaffCallMethodTests {
    typealias Driver = ReadAloudTests.Driver

    @Test func aCallIsHeardWaitsWithoutExpiringAndIsAnswered() async throws {
        let d = try Driver(warning: .seconds(60), speech: nil)
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start(language: "fr")
        let f = RPCValue.string(flow)
        _ = try await d.call("eligibility.answer", ["flow": f, "answers": [true, true, false, true]]).get()
        _ = try await d.call("flow.next", ["flow": f, "step": "eligibility"]).get()
        _ = try await d.call("flow.next", ["flow": f, "step": "keyInformation"]).get()
        let called = try await d.call("staff.call", ["flow": f]).get()
        #expect(called["view"]?["staffCall"]?["text"]?.stringValue == ScreenTexts(language: "fr").staffCalled)
        #expect(called["view"]?["labels"]?["askStaff"]?.stringValue == "Appeler le personnel")
        _ = try await d.call("staff.call", ["flow": f]).get()
        let events = d.events(.staffCalled)
        #expect(events.count == 1, "a second call while one is open is not announced again")
        let event = try #require(events.first)
        #expect(event["flow"] == f && event["kioskId"] == "kiosk" && event["step"] == "visual" && event["scene"] == 0)
        #expect(event["reason"] == "participant")
        #expect(event["at"]?.stringValue?.hasSuffix("Z") == true)
        // Long past the timeout: no warning, no expiry.
        d.clock.advance(by: .seconds(3600))
        await d.core.expireIdleFlows()
        #expect(d.events(.flowExpiring).isEmpty && d.events(.flowExpired).isEmpty)
        #expect(try await d.view(flow).step == .visual)
        // A member of staff answers; the participant has the whole timeout again.
        d.clock.advance(by: .seconds(5))
        let answered = try await d.call("staff.answer", ["flow": f]).get()
        #expect(answered["view"]?["staffCall"] == nil)
        let answer = try #require(d.events(.staffAnswered).first)
        #expect(answer["flow"] == f && answer["waitedSeconds"] == 3605 && answer["step"] == "visual")
        _ = try await d.call("staff.answer", ["flow": f]).get()
        #expect(d.events(.staffAnswered).count == 1, "answering twice announces once")
        d.clock.advance(by: .seconds(599))
        await d.core.expireIdleFlows()
        #expect(try await d.view(flow).step == .visual)
        d.clock.advance(by: .seconds(2))
        await d.core.expireIdleFlows()
        #expect(d.events(.flowExpired).count == 1)
    }

    @Test func answeringNeedsTheStaffCapabilityAndBadParamsAreTyped() async throws {
        #expect(Capability.required(by: .staffAnswer, params: ["flow": "f-1"]) == [.records])
        #expect(Capability.required(by: .staffCall, params: ["flow": "f-1"]).isEmpty)
        let d = try Driver(speech: nil)
        defer { try? FileManager.default.removeItem(at: d.state) }
        #expect(try await d.error("staff.call", [:])?.type == .invalidParams)
        #expect(try await d.error("staff.call", ["flow": 7])?.type == .invalidParams)
        #expect(try await d.error("staff.call", ["flow": "f-1", "extra": true])?.type == .invalidParams)
        #expect(try await d.error("staff.call", ["flow": "nope"])?.type == .unknownFlow)
        #expect(try await d.error("staff.answer", ["flow": "nope"])?.type == .unknownFlow)
        let flow = try await d.start()
        _ = try await d.call("flow.cancel", ["flow": .string(flow)]).get()
        #expect(try await d.error("staff.call", ["flow": .string(flow)])?.type == .flowFinished)
    }
}
