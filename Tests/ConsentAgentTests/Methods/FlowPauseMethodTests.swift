import AgentProtocol
import ConsentCore
import FileBytes
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import ConsentAgent

/// `flow.pause` and `flow.start {resume}` on the agent: the code, the sealed file, its day on the wall clock, the
/// lock-out of wrong codes, and the deletion of paused flows past their day.
@Suite struct FlowPauseMethodTests {
    typealias Driver = ReadAloudTests.Driver

    final class Wall: Sendable {
        let milliseconds = NIOLockedValueBox<Int64>(1_800_000_000_000)
        var clock: EventClock {
            let box = milliseconds
            return EventClock(wallMilliseconds: { box.withLockedValue { $0 } }, monotonicMicroseconds: { 0 })
        }
        func advance(days: Double) { milliseconds.withLockedValue { $0 += Int64(days * 86_400_000) } }
    }

    @Test func aPausedFlowComesBackWithItsCodeOnceAndIsGoneAfterItsDay() async throws {
        let wall = Wall()
        let d = try Driver(speech: nil, eventClock: wall.clock)
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start(language: "de")
        try await d.toReview(flow)
        let paused = try await d.call("flow.pause", ["flow": .string(flow)]).get()
        #expect(paused["step"] == "paused")
        let code = try #require(paused["resumeCode"]?.stringValue)
        #expect(code.count == 9 && code.contains("-"))
        #expect(paused["view"]?["paused"]?["code"]?.stringValue == code)
        #expect(paused["expires"]?.stringValue == "2027-01-22T08:00:00.000Z", "seven days after the pause")
        #expect(paused["view"]?["paused"]?["text"]?.stringValue?.contains("2027") == true)
        #expect(paused["view"]?["end"]?["title"]?.stringValue == ScreenTexts(language: "de").pausedTitle)
        // Paused is the end of that flow.
        #expect(try await d.error("flow.next", ["flow": .string(flow), "step": "reviewStep"])?.type == .flowFinished)

        // A code is typed in any case, with or without its hyphen.
        let typed = code.lowercased().replacingOccurrences(of: "-", with: " ")
        let resumed = try await d.call("flow.start", ["resume": .string(typed)]).get()
        #expect(resumed["step"] == "reviewStep" && resumed["language"] == "de")
        #expect(resumed["view"]?["review"]?["page"] == "document")
        #expect(resumed["view"]?["resumed"]?["outcome"] == "continued")
        #expect(try await d.error("flow.start", ["resume": .string(code)])?.type == .unknownResumeCode, "a code works once")

        // Another pause, and its day passes: the code is refused and its file deleted.
        let second = try #require(resumed["flow"]?.stringValue)
        let again = try await d.call("flow.pause", ["flow": .string(second)]).get()
        let secondCode = try #require(again["resumeCode"]?.stringValue)
        let folder = d.state.appendingPathComponent("paused").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 1)
        wall.advance(days: 7.01)
        await d.core.prunePausedFlows()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        #expect(try await d.error("flow.start", ["resume": .string(secondCode)])?.type == .unknownResumeCode)
    }

    @Test func fiveWrongCodesLockResumingAndBadParamsAreTyped() async throws {
        let d = try Driver(speech: nil)
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start()
        let paused = try await d.call("flow.pause", ["flow": .string(flow)]).get()
        let code = try #require(paused["resumeCode"]?.stringValue)
        #expect(try await d.error("flow.start", ["resume": "ACDE-FH34", "language": "de"])?.type == .invalidParams)
        #expect(try await d.error("flow.start", ["resume": 7])?.type == .invalidParams)
        #expect(try await d.error("flow.pause", ["flow": "nope"])?.type == .unknownFlow)
        for wrong in ["ACDE-FH34", "not a code", "", "ACDEFH3", "0OIL-2Z5S"] {
            #expect(try await d.error("flow.start", ["resume": .string(wrong)])?.type == .unknownResumeCode, "\(wrong)")
        }
        // The sixth try is refused before it is looked at, even with the right code.
        #expect(try await d.error("flow.start", ["resume": .string(code)])?.type == .passcodeLocked)
        d.clock.advance(by: .seconds(15 * 60 + 1))
        #expect(try await d.call("flow.start", ["resume": .string(code)]).get()["step"] == "eligibility")
    }
}
