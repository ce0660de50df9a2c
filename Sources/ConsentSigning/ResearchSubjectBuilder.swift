import ConsentCore
import Foundation

/// The R4 `ResearchSubject` of a record: the participant in the study, linked to the record's Consent.
///
/// `status` follows the record: `on-study` for a consent (and a re-consent), `withdrawn` for a withdrawal. The
/// study is named by the identifier of the study's `researchStudy` option (`ResearchStudyIdentifier`), a logical
/// reference, since the kiosk does not know the server's ResearchStudy id. The subject's own identifier is the
/// record the participant entered the study with (for a withdrawal or re-consent, the first record of the chain it
/// links to, `RecordLink.enrollmentRecordID`), so the server can tell the withdrawal's subject is the consent's.
struct ResearchSubjectBuilder {
    static let identifierSystem = "urn:consent-kiosk:research-subject"

    var study: Study
    var patientReference: String
    var consentUUID: String
    var recordID: String
    var link: RecordLink?
    var signedAt: Date

    /// The study's `ResearchStudy` identifier: the configured one, else the study id under the default system.
    static func studyIdentifier(_ study: Study) -> ResearchStudyIdentifier {
        study.options.researchStudy ?? ResearchStudyIdentifier(system: ResearchStudyIdentifier.defaultSystem, value: study.id)
    }

    /// The logical reference to the study's ResearchStudy.
    static func studyReference(_ study: Study) -> JSONValue {
        let identifier = studyIdentifier(study)
        return [
            "type": "ResearchStudy",
            "identifier": ["system": .string(identifier.system), "value": .string(identifier.value)],
            "display": .string(study.contract["title"]?.stringValue ?? study.id),
        ]
    }

    /// The record a linked record's subject is named by: the first of its chain of re-consents.
    static func enrollment(_ link: RecordLink?) -> String? {
        link.map { $0.enrollmentRecordID ?? $0.recordID }
    }

    func make() -> JSONValue {
        let withdrawn = link?.kind == .withdrawal
        let instant: JSONValue = .string(FHIRTime.instant(signedAt))
        let status: JSONValue = withdrawn ? "withdrawn" : "on-study"
        let period: JSONValue = withdrawn ? ["end": instant] : ["start": instant]
        return [
            "resourceType": "ResearchSubject",
            "identifier": [["system": .string(Self.identifierSystem), "value": .string(Self.enrollment(link) ?? recordID)]],
            "status": status,
            "period": period,
            "study": Self.studyReference(study),
            "individual": ["reference": .string(patientReference)],
            "consent": ["reference": .string(RecordIdentifiers.urn(consentUUID)), "type": "Consent"],
        ]
    }
}
