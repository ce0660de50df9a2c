import AuditTrail
import ConsentCore
import Foundation
import Logging

/// Turns what happens to consent flows into audit lines: the one place the agent talks to the audit trail.
///
/// Every value it logs is an id, a hash, a step name, a flag or a count (the `AuditTrail` types accept nothing
/// else), so no name, date of birth or signature can reach the log. The lines are written by the `Outbox`, off the
/// actor and in the order they were handed over; a write that fails is logged as an error and the flow goes on.
struct FlowAuditor: Sendable {
    let outbox: Outbox
    let logger: Logger

    /// The audit chain head to sign into the next record's manifest, once every line before it is written.
    func head() async -> String? { await outbox.auditHead() }

    func started(_ id: String, _ session: ConsentSession) {
        guard let flow = identifier(id), let study = study(session) else { return }
        append(.flowStarted(flow: flow, study: study))
        reached(flow, study, FlowMark(session))
    }

    /// Records what an accepted action changed.
    func applied(_ action: ConsentAction, _ id: String, from before: FlowMark, to session: ConsentSession) {
        guard let flow = identifier(id), let study = study(session) else { return }
        switch action {
        case .answerEligibility(let answers):
            let status = session.study.document.eligibility.evaluate(answers)
            if status != .incomplete {
                append(.eligibilityResult(
                    flow: flow, study: study, eligible: status == .eligible, answered: answers.compactMap { $0 }.count,
                    questions: session.study.document.eligibility.count))
            }
        case .chooseSharing(let widely):
            append(.sharingChosen(flow: flow, study: study, shareWidely: widely))
        case .submitSignature(let strokes):
            append(.signatureCaptured(
                flow: flow, study: study, signer: Self.signer(at: before, session), strokes: strokes.strokes.count,
                points: strokes.pointCount))
        case .clearSignature:
            append(.signatureCleared(flow: flow, study: study, signer: Self.signer(at: before, session)))
        case .unlockStaff(let member):
            if let staff = try? AuditIdentifier(member.id) { append(.staffUnlocked(flow: flow, study: study, staff: staff)) }
        case .attestIdentity(let method, _):
            // The method's name only: the note is free text and may name the participant.
            if let id = session.staff.member?.id, let staff = try? AuditIdentifier(id),
                let name = try? AuditIdentifier(method.rawValue)
            {
                append(.staffAttested(flow: flow, study: study, staff: staff, method: name))
            }
        default:
            break
        }
        let after = FlowMark(session)
        if after != before, !session.step.isFinished { reached(flow, study, after) }
    }

    /// Whose signature the page the action was taken at belongs to.
    private static func signer(at mark: FlowMark, _ session: ConsentSession) -> AuditSignerRole {
        if mark.step == .staff { return .personObtainingConsent }
        if mark.page == .witnessSignature { return .witness }
        return session.signedBy == .representative ? .legallyAuthorizedRepresentative : .participant
    }

    /// Records how a flow ended (declined, expired, cancelled, paused as `pause`); `at` is where it stood.
    func ended(_ id: String, _ session: ConsentSession, at mark: FlowMark, pause: String? = nil) {
        guard let flow = identifier(id), let study = study(session), let at = mark.auditStep else { return }
        switch session.step {
        case .declined: append(.declined(flow: flow, study: study, at: at.step))
        case .expired: append(.expired(flow: flow, study: study, at: at.step))
        case .cancelled: append(.cancelled(flow: flow, study: study, at: at.step))
        case .paused:
            if let pause = pause.flatMap({ try? AuditIdentifier($0) }) {
                append(.paused(flow: flow, study: study, at: at.step, index: at.index, pause: pause))
            }
        default: break  // ineligible is its eligibility line; completed is `completed(...)`
        }
    }

    /// Records a flow started from the paused flow `pause`: where it stopped, or from the beginning.
    func resumed(_ id: String, _ session: ConsentSession, pause: String, continued: Bool) {
        guard let flow = identifier(id), let study = study(session), let pause = try? AuditIdentifier(pause) else { return }
        append(.resumed(flow: flow, study: study, pause: pause, continued: continued))
    }

    /// Records paused flows deleted after their day.
    func pausesExpired(_ ids: [String]) {
        for id in ids { if let pause = try? AuditIdentifier(id) { append(.pauseExpired(pause: pause)) } }
    }

    /// Records a call for a member of staff: where the flow stood and who called (the participant, or the
    /// comprehension check that stopped).
    func staffCalled(_ id: String, _ session: ConsentSession) {
        guard let flow = identifier(id), let study = study(session), let at = FlowMark(session).auditStep,
            let reason = try? AuditIdentifier(session.staffCall?.reason.rawValue ?? StaffCall.Reason.participant.rawValue)
        else { return }
        append(.staffCalled(flow: flow, study: study, at: at.step, index: at.index, reason: reason))
    }

    /// Records that a member of staff answered the flow's call (the wait is the time between the two lines).
    func staffAnswered(_ id: String, _ session: ConsentSession) {
        guard let flow = identifier(id), let study = study(session), let at = FlowMark(session).auditStep else { return }
        append(.staffAnswered(flow: flow, study: study, at: at.step, index: at.index))
    }

    /// Records a durable record and the flow's completion; the manifest's hash (from the receipt: the bytes the
    /// writer had in memory) ties the line to the record.
    func completed(_ id: String, _ session: ConsentSession, receipt: RecordReceipt) {
        guard let flow = identifier(id), let study = study(session), let recordID = identifier(receipt.id) else { return }
        if let hex = receipt.manifestSHA256, let manifest = try? AuditDigest(hex: hex) {
            append(.recordWritten(flow: flow, study: study, record: recordID, manifest: manifest))
        } else {
            logger.error("audit: the new record has no manifest digest", metadata: ["record": "\(receipt.id)"])
        }
        append(.completed(flow: flow, study: study, record: recordID))
    }

    /// Records that the flow's new record withdraws `original` (after `completed`, which names the new record).
    func withdrawn(_ id: String, _ session: ConsentSession, original: String) {
        guard let study = study(session), let recordID = identifier(original) else { return }
        append(.withdrawalRecorded(flow: identifier(id), study: study, record: recordID))
    }

    /// Records that the flow's new record changes `original`'s answers to the optional elements (after
    /// `completed`, which names the new record).
    func amended(_ id: String, _ session: ConsentSession, original: String) {
        guard let study = study(session), let recordID = identifier(original) else { return }
        append(.amendmentRecorded(flow: identifier(id), study: study, record: recordID))
    }

    /// Records a refused socket peer. Unreadable credentials are logged as uid 4294967295 (`(uid_t)-1`, no user).
    func peerRefused(_ credentials: PeerCredentials?, _ refusal: PeerPolicy.Refusal) {
        let reason: AuditPeerRefusal
        switch refusal {
        case .userNotAllowed: reason = .userNotAllowed
        case .groupNotAllowed: reason = .groupNotAllowed
        case .unknownPeer: reason = .unknownPeer
        }
        append(.peerRefused(uid: credentials?.uid ?? UInt32.max, pid: credentials?.pid, reason: reason))
    }

    func append(_ event: AuditEvent) {
        outbox.audit(event)
    }

    private func reached(_ flow: AuditIdentifier, _ study: AuditStudy, _ mark: FlowMark) {
        guard let step = mark.auditStep else { return }
        append(.stepReached(flow: flow, study: study, step: step.step, index: step.index))
    }

    private func identifier(_ value: String) -> AuditIdentifier? {
        guard outbox.keepsAudit else { return nil }
        return try? AuditIdentifier(value)
    }

    private func study(_ session: ConsentSession) -> AuditStudy? {
        guard outbox.keepsAudit, let version = try? AuditDigest(hex: session.study.version) else { return nil }
        // A FHIR id always is an audit identifier; a folder-name id with spaces is logged by its hash instead.
        let id =
            (try? AuditIdentifier(session.study.id))
            ?? (try? AuditIdentifier("study-" + AuditDigest(sha256Of: Data(session.study.id.utf8)).hex.prefix(16)))
        guard let id else { return nil }
        return AuditStudy(id: id, version: version)
    }
}
