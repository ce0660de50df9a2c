import ConsentCore
import ConsentSigning
import Foundation

/// What `consentctl lint` says of a study package's `approval.json` (docs/OPERATIONS.md, "7a"): present, readable,
/// its signature sound (and, with `--approval-key`, by a trusted key), its dates sane, every language covered at
/// the version in the folder.
enum ApprovalLint {
    static let missing = StudyDiagnostic.Code(rawValue: "approvalMissing")
    static let invalid = StudyDiagnostic.Code(rawValue: "approvalInvalid")
    static let untrusted = StudyDiagnostic.Code(rawValue: "approvalUntrusted")
    static let outdated = StudyDiagnostic.Code(rawValue: "approvalOutdated")
    static let languageNotApproved = StudyDiagnostic.Code(rawValue: "approvalLanguageMissing")
    static let dates = StudyDiagnostic.Code(rawValue: "approvalDates")
    static let expired = StudyDiagnostic.Code(rawValue: "approvalExpired")
    static let expiring = StudyDiagnostic.Code(rawValue: "approvalExpiring")
    static let reviewMismatch = StudyDiagnostic.Code(rawValue: "approvalReviewMismatch")

    /// Days before the last day from which lint warns (the agent's default `approvalWarningDays`).
    static let warningDays = 30

    static func check(folder: URL, keys: ApprovalKeyring?, today: String) -> [StudyDiagnostic] {
        let file = StudyApproval.fileName
        let approval: StudyApproval
        switch StudyApprovalFile.load(folder: folder) {
        case .missing:
            return [.warning(missing, file: file, "no approval.json: a kiosk with approvalKeys refuses the study; seal it with consentctl study seal")]
        case .unreadable(let error), .refused(_, let error):
            return [.error(invalid, file: file, error.message)]
        case .read(let read, _):
            approval = read
        }
        var found: [StudyDiagnostic] = []
        do { try approval.verifySignature() } catch let error as StudyApprovalError {
            found.append(.error(invalid, file: file, location: "signature", error.message))
        } catch {}
        if let keys, !keys.fingerprints.contains(approval.keyFingerprint) {
            found.append(.error(
                untrusted, file: file, location: "keyFingerprint",
                "signed by key \(approval.keyFingerprint), which is not one of the given approval keys"))
        }
        if approval.approved > approval.expires {
            found.append(.error(dates, file: file, location: "expires", "the approval ends (\(approval.expires)) before it starts (\(approval.approved))"))
        } else if today > approval.expires {
            found.append(.error(expired, file: file, location: "expires", "the approval expired: its last day was \(approval.expires)"))
        } else if let days = approval.daysLeft(today: today), days <= warningDays {
            found.append(.warning(expiring, file: file, location: "expires", "the approval ends in \(days) day(s), on \(approval.expires); seal its renewal"))
        } else if today < approval.approved {
            found.append(.warning(dates, file: file, location: "approved", "the approval starts on \(approval.approved): kiosks refuse the study until then"))
        }
        guard let study = try? Study.load(from: folder) else { return found }  // the languages' own diagnostics say why
        if approval.study != study.id {
            found.append(.error(outdated, file: file, location: "study", "the approval is for study \"\(approval.study)\", not \"\(study.id)\""))
            return found
        }
        for language in [study] + study.translations {
            guard let version = approval.versions.first(where: { $0.key.lowercased() == language.language.lowercased() })?.value else {
                // A translation no approval covers is not even loaded by a kiosk that checks approvals; the default
                // language always is (the translations load on top of it), and its consents are refused.
                let effect = language.language == study.language ? "kiosks refuse consents in it" : "kiosks with approvalKeys do not load it"
                found.append(.warning(
                    languageNotApproved, file: file, location: "versions",
                    "\(language.language) is not approved: \(effect) (seal with --language \(language.language))"))
                continue
            }
            if version != language.version {
                found.append(.error(
                    outdated, file: file, location: "versions.\(language.language)",
                    "the consent in \(language.language) changed since it was approved (approved \(version.prefix(12)), the folder has \(language.shortVersion)); seal this version"))
            }
        }
        if case .refused(_, let error) = StudyApprovalFile.read(approval, bytes: Data()).checkingScreens(study) {
            found.append(.error(reviewMismatch, file: file, location: "screensDigest", error.message))
        }
        for tag in approval.languages where study.inLanguage(tag) == nil {
            found.append(.warning(
                languageNotApproved, file: file, location: "versions.\(tag)", "the approval names \(tag), which the study does not have"))
        }
        return found
    }
}
