import AgentProtocol
import AuditTrail
import ConsentCore
import ConsentSigning
import Foundation
import UTCTime

extension AgentCore {
    /// The approval a new consent on `study` (one language) runs under; nil when approvals are not checked.
    ///
    /// - Throws: `StudyNotApproved` with the reason (expired, another site, a language it does not cover, a key not
    ///   in `approvalKeys`…) in its message and as a code in `data.reason`: the kiosk shows it to staff; the refusal
    ///   is audited.
    func admit(_ study: Study) throws -> StudyApprovalBinding? {
        guard let policy = approvalPolicy else { return nil }
        let now = Date()
        do {
            let binding = try policy.admit(study, now: now)
            auditExpiry(study, policy: policy, now: now)
            return binding
        } catch let error as StudyApprovalError {
            logger.notice(
                "flow refused: the study is not approved here",
                metadata: ["study": "\(study.id)", "language": "\(study.language)", "reason": "\(error.reason.rawValue)"])
            if let audited = Self.auditStudy(study) {
                auditor.append(.studyApproval(
                    study: audited, outcome: .refused, reason: try? AuditIdentifier(error.reason.rawValue), daysLeft: nil))
            }
            throw RPCErrorObject.domain(
                .studyNotApproved, "the study is not approved on this kiosk: \(error.message)",
                details: ["reason": .string(error.reason.rawValue)])
        }
    }

    /// Audits an approval within `approvalWarningDays` of its last day, once a day per study folder and language.
    func auditExpiry(_ study: Study, policy: ApprovalPolicy, now: Date) {
        guard let days = policy.expiringIn(study, now: now) else { return }
        let key = "\(study.folder.path)\u{0}\(study.language)\u{0}\(CivilDate.today(now, in: policy.timeZone).text)"
        guard expiryAudited.insert(key).inserted else { return }
        logger.warning(
            "the study's approval expires soon; seal and roll out its renewal",
            metadata: ["study": "\(study.id)", "language": "\(study.language)", "daysLeft": "\(days)"])
        if let audited = Self.auditStudy(study) {
            auditor.append(.studyApproval(study: audited, outcome: .expiring, reason: nil, daysLeft: days))
        }
    }

    /// Audits every loaded study's approval that expires soon (at start and on reload).
    public func auditApprovalsExpiringSoon() {
        guard let policy = approvalPolicy else { return }
        for study in studies {
            for language in [study] + study.translations { auditExpiry(language, policy: policy, now: Date()) }
        }
    }

    static func auditStudy(_ study: Study) -> AuditStudy? {
        guard let version = try? AuditDigest(hex: study.version) else { return nil }
        // As FlowAuditor names it: a folder-name id with spaces by its hash.
        let id =
            (try? AuditIdentifier(study.id))
            ?? (try? AuditIdentifier("study-" + AuditDigest(sha256Of: Data(study.id.utf8)).hex.prefix(16)))
        return id.map { AuditStudy(id: $0, version: version) }
    }
}

extension AgentCore {
    /// A reload: serves the newest approved versions of `catalog` from the next `flow.start` on. Running flows keep
    /// the study they started on (their session holds it). Each study language whose served version changed is
    /// audited (`study.served`).
    public func replaceStudies(_ catalog: StudyCatalog) {
        if var policy = approvalPolicy {
            policy.read(catalog)
            approvalPolicy = policy
        }
        let served = approvalPolicy?.served(catalog) ?? catalog.served { _ in true }
        guard !served.isEmpty else {
            logger.error("reload refused: it names no study; the studies are unchanged")
            return
        }
        let before = Set(studies.flatMap { [$0] + $0.translations }.map { "\($0.id)\u{0}\($0.language)\u{0}\($0.version)" })
        for language in served.flatMap({ [$0] + $0.translations })
        where !before.contains("\(language.id)\u{0}\(language.language)\u{0}\(language.version)") {
            logger.notice(
                "study version served from now on",
                metadata: ["study": "\(language.id)", "language": "\(language.language)", "version": "\(language.shortVersion)"])
            if let audited = Self.auditStudy(language) { auditor.append(.studyServed(study: audited)) }
        }
        studies = served
        auditApprovalsExpiringSoon()
    }
}
