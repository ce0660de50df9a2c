import ConsentCore
import Foundation
import SampleStudy
import Testing

@Suite struct ConsentDocumentDiffTests {
    static func print(_ title: String, _ hash: String, _ type: ConsentSectionType = .custom) -> SectionFingerprint {
        SectionFingerprint(title: title, type: type, sha256: hash)
    }

    @Test func sameSectionsAreNoChange() {
        let sections = [Self.print("Overview", "a", .overview), Self.print("Privacy", "b", .privacy)]
        let diff = ConsentDocumentDiff(previous: sections, current: sections)
        #expect(diff.isEmpty)
    }

    @Test func addedRemovedAndEditedByTitleAndType() {
        let previous = [Self.print("Overview", "a", .overview), Self.print("Privacy", "b", .privacy), Self.print("Old", "c")]
        let current = [Self.print("Overview", "a", .overview), Self.print("Privacy", "B", .privacy), Self.print("New", "d")]
        let diff = ConsentDocumentDiff(previous: previous, current: current)
        #expect(diff.added == ["New"])
        #expect(diff.removed == ["Old"])
        #expect(diff.edited == ["Privacy"])
    }

    @Test func aSectionMovedButUnchangedIsNoChange() {
        let previous = [Self.print("A", "1"), Self.print("B", "2")]
        let current = [Self.print("B", "2"), Self.print("A", "1")]
        #expect(ConsentDocumentDiff(previous: previous, current: current).isEmpty)
    }

    @Test func repeatedTitlesMatchInOrder() {
        let previous = [Self.print("Custom", "1"), Self.print("Custom", "2")]
        let current = [Self.print("Custom", "1"), Self.print("Custom", "3"), Self.print("Custom", "4")]
        let diff = ConsentDocumentDiff(previous: previous, current: current)
        #expect(diff.edited == ["Custom"])
        #expect(diff.added == ["Custom"])
        #expect(diff.removed.isEmpty)
    }

    @Test func sameTitleOtherTypeIsAnotherSection() {
        let diff = ConsentDocumentDiff(previous: [Self.print("Tasks", "1", .studyTasks)], current: [Self.print("Tasks", "1", .custom)])
        #expect(diff.added == ["Tasks"] && diff.removed == ["Tasks"] && diff.edited.isEmpty)
    }

    @Test func fingerprintsFollowTheSectionContent() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        let before = SectionFingerprint.of(study.document)
        #expect(before.count == study.document.sections.count)
        #expect(Set(before.map(\.sha256)).count == before.count)
        var document = study.document
        document.sections[0].htmlContent = (document.sections[0].htmlContent ?? "") + "<p>One more sentence.</p>"
        document.sections.removeLast()
        let after = SectionFingerprint.of(document)
        let diff = ConsentDocumentDiff(previous: before, current: after)
        #expect(diff.edited == [before[0].title])
        #expect(diff.removed == [before[before.count - 1].title])
        #expect(diff.added.isEmpty)
        // The same document always prints alike.
        #expect(SectionFingerprint.of(study.document) == before)
    }
}

@Suite struct WithdrawalSessionTests {
    static let strokes = SignatureStrokes(strokes: [[StrokePoint(x: 0.1, y: 0.2, t: 0, p: 0.5), StrokePoint(x: 0.3, y: 0.4, t: 16, p: nil)]])
    static let target = WithdrawalTarget(recordID: "r-1", studyTitle: "Heartbeat", signedOn: "2026-09-14")

    static func study(passcode: Bool = false) throws -> Study {
        var study = try Study.load(from: try #require(SampleStudy.folder))
        study.options.askToCreatePasscode = passcode
        return study
    }

    @Test func withdrawalAsksReasonNameAndSignatureOnly() throws {
        // Even when the study asks for a PIN: a withdrawal sets none.
        var session = ConsentSession(id: "f", study: try Self.study(passcode: true), now: .zero, purpose: .withdrawal(Self.target))
        #expect(session.step == .withdrawal)
        let view = session.viewModel
        #expect(view.withdrawal?.studyTitle == "Heartbeat")
        #expect(view.withdrawal?.signedOn == "2026-09-14")
        #expect(view.withdrawal?.hasReason == false)
        #expect(view.actions == [.confirmWithdrawal, .cancel, .askStaff])
        #expect(throws: ConsentCoreError(.invalidAction, "")) { try session.apply(.next(.withdrawal), now: .zero) }
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { try session.apply(.agree, now: .zero) }

        try session.apply(.confirmWithdrawal(reason: "  I am moving abroad \n"), now: .zero)
        #expect(session.step == .reviewStep && session.reviewPage == .name)
        #expect(session.withdrawalReason == "I am moving abroad")
        try session.apply(.back(.reviewStep), now: .zero)
        #expect(session.step == .withdrawal)
        #expect(session.viewModel.withdrawal?.hasReason == true)
        try session.apply(.confirmWithdrawal(reason: ""), now: .zero)
        #expect(session.withdrawalReason == nil)
        try session.apply(.back(.reviewStep), now: .zero)
        try session.apply(.confirmWithdrawal(reason: "Moving"), now: .zero)
        try session.apply(.setName(given: "Ada", family: "Lovelace"), now: .zero)
        try session.apply(.submitSignature(Self.strokes), now: .zero)
        #expect(session.step == .done)
        let outcome = try session.outcome()
        #expect(outcome.link == RecordLink(kind: .withdrawal, recordID: "r-1", reason: "Moving", studyTitle: "Heartbeat", signedOn: "2026-09-14"))
        #expect(outcome.passcodeHash == nil)
        try session.apply(.back(.done), now: .zero)
        #expect(session.step == .reviewStep && session.reviewPage == .signature)
    }

    @Test func aLongReasonIsRefusedAndCancellingForgetsTheReason() throws {
        var session = ConsentSession(id: "f", study: try Self.study(), now: .zero, purpose: .withdrawal(Self.target))
        let long = String(repeating: "x", count: ConsentSession.maximumReasonLength + 1)
        #expect(throws: ConsentCoreError(.invalidField, "")) { try session.apply(.confirmWithdrawal(reason: long), now: .zero) }
        #expect(session.step == .withdrawal)
        try session.apply(.confirmWithdrawal(reason: "private"), now: .zero)
        try session.apply(.cancel, now: .zero)
        #expect(session.withdrawalReason == nil)
    }

    @Test func reconsentShowsTheChangesThenTheWholeConsent() throws {
        let changes = ConsentDocumentDiff(added: ["New"], removed: [], edited: ["Privacy"])
        let basis = ReconsentBasis(previousRecordID: "r-0", changes: changes)
        var session = ConsentSession(id: "f", study: try Self.study(), now: .zero, purpose: .reconsent(basis))
        #expect(session.step == .changes)
        let view = session.viewModel
        #expect(view.changes?.detailed == true)
        #expect(view.changes?.added == ["New"] && view.changes?.edited == ["Privacy"])
        #expect(view.actions == [.next, .decline, .cancel, .askStaff])
        #expect(throws: ConsentCoreError(.invalidAction, "")) { try session.apply(.back(.changes), now: .zero) }
        try session.apply(.next(.changes), now: .zero)
        #expect(session.step == .eligibility)
        #expect(session.viewModel.actions.contains(.back))
        try session.apply(.back(.eligibility), now: .zero)
        #expect(session.step == .changes)

        let unknown = ConsentSession(
            id: "g", study: try Self.study(), now: .zero, purpose: .reconsent(ReconsentBasis(previousRecordID: "r-0", changes: nil)))
        #expect(unknown.viewModel.changes?.detailed == false)
        #expect(unknown.viewModel.changes?.added == [])
    }

    @Test func aFirstConsentStillStartsAtEligibilityWithoutBack() throws {
        var session = ConsentSession(id: "f", study: try Self.study(), now: .zero)
        #expect(session.step == .eligibility)
        #expect(!session.viewModel.actions.contains(.back))
        #expect(throws: ConsentCoreError(.invalidAction, "")) { try session.apply(.back(.eligibility), now: .zero) }
    }
}
