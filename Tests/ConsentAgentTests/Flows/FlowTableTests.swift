import ConsentCore
import Foundation
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
        #expect(try table.beginCompleting("f-1").isEmpty)
        #expect(table.claimWithdrawal(of: "r-1", by: "f-1").isEmpty)
        #expect(table.isCompleting("f-1") && table.isWithdrawing("r-1") && !table.isWithdrawing("r-2"))
        #expect(throws: AgentError.self) { try table.ready("f-1") }
        #expect(endedIDs(table.expireIdle(now: .seconds(3600), grace: .seconds(60), graceBeforeTheName: .seconds(60))).isEmpty, "its record is being written")

        #expect(table.abandonCompleting("f-1").isEmpty)
        #expect(!table.isCompleting("f-1") && !table.isWithdrawing("r-1"), "a failed write gives the flow back, unclaimed")
        #expect(endedIDs(table.expireIdle(now: .seconds(3600), grace: .seconds(60), graceBeforeTheName: .seconds(60))) == ["f-1"])
        #expect(table["f-1"]?.session.step == .expired)
    }

    /// A change being written claims its record until it ends: kept, it counts once; given back, the claim goes.
    @Test func aChangeBeingCompletedHoldsItsRecordUntilItIsKeptOrGivenBack() throws {
        var table = FlowTable(maximumEnded: 8, maximumRunning: 4)
        _ = table.start("f-1", try entry("f-1"), by: 1, now: .zero)
        // A session at its end (the table does not look at what it changes), so that its record can be kept.
        _ = table.start("f-2", FlowEntry(session: try .sampleWithdrawalAtDone("f-2", of: "r-9", given: "A", family: "B"), driver: 1), by: 1, now: .zero)
        _ = try table.beginCompleting("f-1")
        #expect(table.claimAmendment(of: "r-1", by: "f-1").isEmpty)
        #expect(table.isAmending("r-1") && !table.isAmending("r-2") && !table.isWithdrawing("r-1"))
        _ = table.abandonCompleting("f-1")
        #expect(!table.isAmending("r-1") && table.amendmentsKept == 0, "a failed write gives the record back")

        _ = try table.beginCompleting("f-2")
        _ = table.claimAmendment(of: "r-1", by: "f-2")
        _ = try table.recordKept("f-2", RecordReceipt(id: "r-3", directory: URL(fileURLWithPath: "/nonexistent/r-3"), files: []), copy: nil)
        #expect(!table.isAmending("r-1") && table.amendmentsKept == 1 && table.withdrawalsKept == 0)
    }

    /// A "more time" that comes after the flow expired is refused, and the flow is not ended a second time: no second
    /// `expired` audit line or event, and no other ended flow pushed out of the table by the repeat.
    @Test func extendingAFlowThatAlreadyExpiredRefusesItWithoutEndingItAgain() throws {
        var table = FlowTable(maximumEnded: 2, maximumRunning: 8)
        _ = table.start("f-1", try entry("f-1"), by: 1, now: .zero)
        _ = table.start("f-2", try entry("f-2", at: .seconds(500)), by: 1, now: .seconds(500))
        #expect(endedIDs(table.expireIdle(now: .seconds(650), grace: .seconds(60), graceBeforeTheName: .seconds(60))) == ["f-1"])
        _ = table.start("f-3", try entry("f-3"), by: 1, now: .zero)
        #expect(endedIDs(try table.expiringIfIdle("f-3", now: .seconds(650)).actions) == ["f-3"])
        for _ in 0..<3 {
            let late = table.extend("f-1", now: .seconds(651))
            #expect(throws: ConsentCoreError.self) { try late.value.get() }
            #expect(endedIDs(late.actions).isEmpty, "it ended when it expired")
        }
        #expect(table["f-1"]?.session.step == .expired && table["f-3"]?.session.step == .expired, "both still kept for flow.get")
        // A flow that expires as its "more time" arrives is ended by that request, once.
        let expiring = table.extend("f-2", now: .seconds(1200))
        #expect(endedIDs(expiring.actions) == ["f-2"])
    }

    @Test func endedFlowsBeyondTheBoundAreForgottenOldestFirst() throws {
        var table = FlowTable(maximumEnded: 2, maximumRunning: 8)
        for id in ["f-1", "f-2", "f-3"] {
            _ = table.start(id, try entry(id), by: 1, now: .zero)
            // Past the inactivity timeout: the transition expires the flow and ends it.
            #expect(endedIDs(try table.expiringIfIdle(id, now: .seconds(600)).actions) == [id])
        }
        #expect(table["f-1"] == nil && table["f-2"] != nil && table["f-3"] != nil)
        #expect(table.running.isEmpty && table.hasRoom)
    }

    @Test func aClosedConnectionsFlowIsTakenOverByTheNextAndExpiresAfterTheGraceWhenNoneActs() throws {
        var table = FlowTable(maximumEnded: 8, maximumRunning: 8)
        _ = table.start("f-1", try entry("f-1", driver: 1), by: 1, now: .zero)
        #expect(throws: AgentError.self) { try table.takeTheWheel(of: "f-1", by: 2, mayCancel: false) }
        #expect(try table.takeTheWheel(of: "f-1", by: 2, mayCancel: true).isEmpty, "staff may cancel any flow")

        #expect(table.connectionClosed(1, now: .seconds(10)).isEmpty)
        #expect(table["f-1"]?.driver == nil)
        #expect(try table.takeTheWheel(of: "f-1", by: 2, mayCancel: false).count == 1, "logged: taken over")
        #expect(table["f-1"]?.driver == 2)
        #expect(endedIDs(table.expireIdle(now: .seconds(69), grace: .seconds(60), graceBeforeTheName: .seconds(60))).isEmpty)
        #expect(endedIDs(table.expireIdle(now: .seconds(70), grace: .seconds(60), graceBeforeTheName: .seconds(60))) == ["f-1"], "nobody acted on it since")
    }

    @Test func aFlowStartedForAConnectionThatClosedMeanwhileHasNoDriverAndExpiresAfterTheGrace() throws {
        var table = FlowTable(maximumEnded: 8, maximumRunning: 8)
        #expect(table.connectionClosed(3, now: .seconds(5)).isEmpty)
        _ = table.start("f-1", try entry("f-1", driver: 3), by: 3, now: .seconds(10))
        #expect(table["f-1"]?.driver == nil)
        #expect(endedIDs(table.expireIdle(now: .seconds(69), grace: .seconds(60), graceBeforeTheName: .seconds(60))).isEmpty)
        #expect(endedIDs(table.expireIdle(now: .seconds(70), grace: .seconds(60), graceBeforeTheName: .seconds(60))) == ["f-1"])
    }

    @Test func aKeptWithdrawalIsAuditedAfterItsRecordAndBeforeTheEndAndCountedOnce() throws {
        var table = FlowTable(maximumEnded: 8, maximumRunning: 4)
        _ = table.start("f-1", FlowEntry(session: try .sampleWithdrawalAtDone("f-1", of: "r-1", given: "A", family: "B"), driver: 1), by: 1, now: .zero)
        _ = try table.beginCompleting("f-1")
        _ = table.claimWithdrawal(of: "r-1", by: "f-1")
        let receipt = RecordReceipt(id: "r-2", directory: URL(fileURLWithPath: "/nonexistent/r-2"), files: [])
        let kept = try table.recordKept("f-1", receipt, copy: nil)
        let names = kept.actions.compactMap { action -> String? in
            switch action {
            case .recordKept(let id, _, let receipt): "recordKept \(id) \(receipt.id)"
            case .withdrawalKept(let id, _, let original): "withdrawalKept \(id) \(original)"
            case .amendmentKept(let id, _, let original): "amendmentKept \(id) \(original)"
            case .ended(let id, let entry): "ended \(id) \(entry.session.step.rawValue)"
            default: nil
            }
        }
        #expect(names == ["recordKept f-1 r-2", "withdrawalKept f-1 r-1", "ended f-1 completed"])
        #expect(kept.value.recordID == "r-2" && table["f-1"]?.recordID == "r-2")
        #expect(!table.isCompleting("f-1") && !table.isWithdrawing("r-1") && table.withdrawalsKept == 1)
        #expect(throws: AgentError.self, "a flow not being completed keeps no record") { try table.recordKept("f-1", receipt, copy: nil) }
        #expect(table.withdrawalsKept == 1)
    }
}
