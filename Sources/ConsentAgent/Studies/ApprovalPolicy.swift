import AgentProtocol
import ConsentCore
import ConsentSigning
import Foundation
import UTCTime

/// How the agent checks study approvals (`approvalKeys`, `site`, `approvalWarningDays`): the trusted keys, the
/// kiosk's site, the time zone whose day an approval's dates are, and each study folder's `approval.json` as read
/// when the study was loaded. Without `approvalKeys` the agent has no policy and nothing is checked.
public struct ApprovalPolicy: Sendable {
    public static let defaultWarningDays = 30

    public var keyring: ApprovalKeyring
    public var site: String?
    public var timeZone: TimeZone
    public var warningDays: Int
    /// Each study folder's approval file, by the folder's path.
    public var files: [String: StudyApprovalFile] = [:]

    public init(keyring: ApprovalKeyring, site: String?, timeZone: TimeZone, warningDays: Int = ApprovalPolicy.defaultWarningDays) {
        self.keyring = keyring
        self.site = site
        self.timeZone = timeZone
        self.warningDays = warningDays
    }

    /// Takes the approval file of each version of the catalog.
    public mutating func read(_ catalog: StudyCatalog) {
        files = [:]
        for version in catalog.versions { files[version.study.folder.path] = version.approval }
    }

    /// The studies served: for each study and language, the newest version whose approval holds today.
    public func served(_ catalog: StudyCatalog, now: Date = Date()) -> [Study] {
        catalog.served { (try? admit($0, now: now)) != nil }
    }

    public func file(of study: Study) -> StudyApprovalFile { files[study.folder.path] ?? .missing }

    /// The binding of `study`'s (one language's) approval on `now`.
    ///
    /// - Throws: `StudyApprovalError` saying why it does not hold.
    public func admit(_ study: Study, now: Date = Date()) throws -> StudyApprovalBinding {
        try file(of: study).admit(study, site: site, today: CivilDate.today(now, in: timeZone).text, keyring: keyring)
    }

    /// The approval's state for a staff page (`study.get`'s `approval`): `active`, `expiring` (within
    /// `warningDays` of its last day) or `notApproved` with the reason, and the approval's facts when one was read.
    public func status(of study: Study, now: Date = Date()) -> RPCValue {
        let today = CivilDate.today(now, in: timeZone).text
        let file = file(of: study)
        var value: [String: RPCValue] = [:]
        if let approval = file.approval {
            value["approved"] = .string(approval.approved)
            value["expires"] = .string(approval.expires)
            value["languages"] = .array(approval.languages.map(RPCValue.string))
            value["keyFingerprint"] = .string(approval.keyFingerprint)
            if let site = approval.site { value["site"] = .string(site) }
            if let reference = approval.reference { value["reference"] = .string(reference) }
            if let days = approval.daysLeft(today: today) { value["daysLeft"] = .integer(Int64(days)) }
        }
        do {
            _ = try file.admit(study, site: site, today: today, keyring: keyring)
            let days = file.approval?.daysLeft(today: today) ?? Int.max
            value["state"] = .string(days <= warningDays ? "expiring" : "active")
        } catch let error as StudyApprovalError {
            value["state"] = "notApproved"
            value["reason"] = .string(error.reason.rawValue)
            value["message"] = .string(error.message)
        } catch {
            value["state"] = "notApproved"
        }
        return .object(value)
    }

    /// Days left when the approval holds and is within the warning window; nil otherwise.
    public func expiringIn(_ study: Study, now: Date = Date()) -> Int? {
        guard (try? admit(study, now: now)) != nil, let approval = file(of: study).approval,
            let days = approval.daysLeft(today: CivilDate.today(now, in: timeZone).text), days <= warningDays
        else { return nil }
        return days
    }
}
