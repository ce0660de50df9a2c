import ConsentCore
import Testing

@testable import ConsentAgent

/// The flows' state as a value: what the table hands back for the actor to carry out, and the one record of a
/// completion running (busy flow, claimed withdrawal, no expiry meanwhile).
@Suite struct FlowTableTests {
    private func entry(_ id: String, at now: Duration = .zero, driver: UInt64? = 1) throws -> FlowEntry {
        FlowEntry(
            session: ConsentSession(id: id, study: try TestSupport.sampleStudy(), now: now, inactivityTimeout: .seconds(600)),
            driver: driver)
    }

    private func endedIDs(_ actions: [FlowAction]) -> [String] {
        actions.compactMap { if case .ended(let id, _) = $0 { id } else { nil } }
    }

    @Test func aFlowBeingCompletedIsBusyDoesNotExpireAndHoldsItsWithdrawalUntilItEnds() throws {
        var table = FlowTable(maximumEnded: 8, maximumRunning: 4)
        let started = table.start("f-1", try entry("f-1"), by: 1, now: .zero)
        #expect(started.count == 1)
        try table.beginCompleting("f-1")
        table.claimWithdrawal(of: "r-1", by: "f-1")
        #expect(table.isCompleting("f-1") && table.isWithdrawing("r-1") && !table.isWithdrawing("r-2"))
        #expect(throws: AgentError.self) { try table.ready("f-1") }
        #expect(endedIDs(table.expireIdle(now: .seconds(3600), grace: .seconds(60), graceBeforeTheName: .seconds(60))).isEmpty, "its record is being written")

        table.abandonCompleting("f-1")
        #expect(!table.isCompleting("f-1") && !table.isWithdrawing("r-1"), "a failed write gives the flow back, unclaimed")
        #expect(endedIDs(table.expireIdle(now: .seconds(3600), grace: .seconds(60), graceBeforeTheName: .seconds(60))) == ["f-1"])
        #expect(table["f-1"]?.session.step == .expired)
    }

    @Test func endedFlowsBeyondTheBoundAreForgottenOldestFirst() throws {
        var table = FlowTable(maximumEnded: 2, maximumRunning: 8)
        for id in ["f-1", "f-2", "f-3"] {
            _ = table.start(id, try entry(id), by: 1, now: .zero)
            var ended = try #require(table[id])
            _ = ended.session.expireNow()
            #expect(endedIDs(table.end(id, ended)) == [id])
        }
        #expect(table["f-1"] == nil && table["f-2"] != nil && table["f-3"] != nil)
        #expect(table.running.isEmpty && table.hasRoom)
    }

    @Test func aClosedConnectionsFlowIsTakenOverByTheNextAndExpiresAfterTheGraceWhenNoneActs() throws {
        var table = FlowTable(maximumEnded: 8, maximumRunning: 8)
        _ = table.start("f-1", try entry("f-1", driver: 1), by: 1, now: .zero)
        #expect(throws: AgentError.self) { try table.takeTheWheel(of: "f-1", by: 2, mayCancel: false) }
        #expect(try table.takeTheWheel(of: "f-1", by: 2, mayCancel: true).isEmpty, "staff may cancel any flow")

        table.connectionClosed(1, now: .seconds(10))
        #expect(table["f-1"]?.driver == nil)
        #expect(try table.takeTheWheel(of: "f-1", by: 2, mayCancel: false).count == 1, "logged: taken over")
        #expect(table["f-1"]?.driver == 2)
        #expect(endedIDs(table.expireIdle(now: .seconds(69), grace: .seconds(60), graceBeforeTheName: .seconds(60))).isEmpty)
        #expect(endedIDs(table.expireIdle(now: .seconds(70), grace: .seconds(60), graceBeforeTheName: .seconds(60))) == ["f-1"], "nobody acted on it since")
    }

    @Test func aFlowStartedForAConnectionThatClosedMeanwhileHasNoDriverAndExpiresAfterTheGrace() throws {
        var table = FlowTable(maximumEnded: 8, maximumRunning: 8)
        table.connectionClosed(3, now: .seconds(5))
        _ = table.start("f-1", try entry("f-1", driver: 3), by: 3, now: .seconds(10))
        #expect(table["f-1"]?.driver == nil)
        #expect(endedIDs(table.expireIdle(now: .seconds(69), grace: .seconds(60), graceBeforeTheName: .seconds(60))).isEmpty)
        #expect(endedIDs(table.expireIdle(now: .seconds(70), grace: .seconds(60), graceBeforeTheName: .seconds(60))) == ["f-1"])
    }
}
