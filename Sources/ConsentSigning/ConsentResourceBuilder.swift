import ConsentCore
import Crypto
import Foundation

/// The R4 `Consent` for a signing: a permit for research participation, its sharing choice and each optional
/// element's answer as nested provisions, pinned to the study and its version hash, sourced from the PDF when there is one (docs/RECORDS.md).
struct ConsentResourceBuilder {
    var ids: RecordIdentifiers
    var study: Study
    var patientReference: String
    var shareWidely: Bool?
    /// The optional elements' answers: one nested provision each (`optionalProvision`).
    var optionalAnswers: [OptionalElementAnswer] = []
    var signedAt: Date
    var pdfAttachment: JSONValue?
    /// References of those who consent with or for the participant (a legally authorized representative).
    var additionalPerformers: [JSONValue]
    /// The representative who consented for the participant, contained so `performer` can point at them.
    var representative: RepresentativeResource? = nil

    func make() -> JSONValue {
        let instant = FHIRTime.instant(signedAt)
        let patient: JSONValue = ["reference": .string(patientReference)]
        var consent: [String: JSONValue] = [
            "resourceType": "Consent",
            "id": .string(ids.consent),
            // The record id, as the Provenance of a later withdrawal, re-consent or change names it: the server
            // ids are the server's, so this is how a change's Bundle finds this Consent again (`AmendedConsent`).
            "identifier": [["system": .string(FHIRCodes.recordIdentifierSystem), "value": .string(ids.record)]],
            "language": .string(study.language),
            "status": "active",
            "scope": [
                "coding": [["system": .string(FHIRCodes.consentScopeSystem), "code": "research", "display": "Research"]]
            ],
            "category": [
                [
                    "coding": [
                        [
                            "system": .string(FHIRCodes.loinc), "code": .string(FHIRCodes.patientConsentLOINC.code),
                            "display": .string(FHIRCodes.patientConsentLOINC.display),
                        ]
                    ]
                ]
            ],
            "patient": patient,
            "dateTime": .string(instant),
            "performer": .array([patient] + additionalPerformers),
            "policy": .array(Self.policies(study)),
            "policyRule": [
                "coding": [
                    [
                        "system": "urn:consent-kiosk:study-version", "code": .string(study.version),
                        "display": .string("\(study.id) consent version \(study.shortVersion)"),
                    ]
                ],
                "text": .string("Study \(study.id), consent version sha256:\(study.version)"),
            ],
            "provision": provision(instant: instant),
        ]
        if let pdfAttachment {
            consent["sourceAttachment"] = pdfAttachment
        } else {
            consent["sourceReference"] = ["reference": .string(RecordIdentifiers.urn(ids.contract)), "type": "Contract"]
        }
        if let organization = Self.studyOrganization(study) {
            // A Consent cannot point into the Contract's contained resources, so it carries its own copy.
            consent["contained"] = [organization]
            consent["organization"] = [["reference": .string("#\(organization["id"]?.stringValue ?? "")")]]
        } else {
            consent["organization"] = [["display": .string(study.document.teamName)]]
        }
        representative?.containing(in: &consent)
        return .object(consent)
    }

    /// Permit participation from the signing instant; the sharing choice, when asked, as a nested permit or deny
    /// of disclosure for research beyond the study team; then one nested permit or deny per optional element.
    private func provision(instant: String) -> JSONValue {
        // The research study context: participation in this study (ResearchStudy by identifier), for research.
        var provision: [String: JSONValue] = [
            "type": "permit", "period": ["start": .string(instant)],
            "purpose": [["system": .string(FHIRCodes.actReasonSystem), "code": "HRESCH", "display": "healthcare research"]],
            "data": [["meaning": "related", "reference": ResearchSubjectBuilder.studyReference(study)]],
        ]
        var nested: [JSONValue] = []
        if let shareWidely {
            nested.append(
                [
                    "type": shareWidely ? "permit" : "deny",
                    "action": [
                        ["coding": [["system": .string(FHIRCodes.consentActionSystem), "code": "disclose", "display": "Disclose"]]]
                    ],
                    "purpose": [
                        ["system": .string(FHIRCodes.actReasonSystem), "code": "HRESCH", "display": "healthcare research"]
                    ],
                    "code": [
                        [
                            "text": .string(study.texts.sharingProvision(team: study.document.teamName))
                        ]
                    ],
                ])
        }
        nested += optionalAnswers.map(Self.optionalProvision)
        if !nested.isEmpty { provision["provision"] = .array(nested) }
        return .object(provision)
    }

    /// An optional element's answer (docs/RECORDS.md, "Optional elements"): `permit` for Yes, `deny` for No, the
    /// element's code as the provision's `purpose`, since what an element permits is a use of the participant's
    /// data or samples (future research, being contacted again), which is what `purpose` (a Coding, as the
    /// element's `valueCoding` is) says; `code` is for codes found in the data a rule covers. The element's
    /// stable id is the provision's own `id`, so a reader finds an element without knowing its code.
    static func optionalProvision(_ answer: OptionalElementAnswer) -> JSONValue {
        let code = answer.element.code
        var coding: [String: JSONValue] = ["system": .string(code.system), "code": .string(code.code)]
        if let display = code.display { coding["display"] = .string(display) }
        return [
            "id": .string("optional-\(answer.element.id)"),
            "type": answer.accepted ? "permit" : "deny",
            "purpose": [.object(coding)],
        ]
    }

    /// The study's policy, then the IRB approval it ran under (when the kiosk checks approvals): the approval by
    /// the SHA-256 of its `approval.json`, its `authority` the approving key (docs/RECORDS.md).
    static func policies(_ study: Study) -> [JSONValue] {
        var policies: [JSONValue] = [["uri": .string(policyURI(study))]]
        if let approval = study.approval {
            policies.append(["authority": .string(approval.authorityURI), "uri": .string(approval.policyURI)])
        }
        return policies
    }

    /// The Contract's canonical `url` when it has one, else a URN naming the study.
    static func policyURI(_ study: Study) -> String {
        if let url = study.contract["url"]?.stringValue, !url.isEmpty { return url }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let encoded = study.id.addingPercentEncoding(withAllowedCharacters: allowed) ?? "study"
        return "urn:consent-kiosk:study:\(encoded)"
    }

    /// The contained Organization the Contract's first `authority` points at (`#id`), if any.
    static func studyOrganization(_ study: Study) -> JSONValue? {
        guard let reference = study.contract["authority"]?[0]?["reference"]?.stringValue, reference.hasPrefix("#") else {
            return nil
        }
        let id = String(reference.dropFirst())
        return study.contract["contained"]?.arrayValue?.first {
            $0["resourceType"]?.stringValue == "Organization" && $0["id"]?.stringValue == id
        }
    }

    /// The R4 Attachment of the consent PDF: SHA-1 `hash` (base64) and `size` as R4 defines them.
    static func pdfAttachment(pdf: Data, title: String, signedAt: Date, binaryID: String) -> JSONValue {
        [
            "contentType": "application/pdf",
            "url": .string(RecordIdentifiers.urn(binaryID)),
            "size": .integer(Int64(pdf.count)),
            "hash": .string(Data(Insecure.SHA1.hash(data: pdf)).base64EncodedString()),
            "title": .string(title),
            "creation": .string(FHIRTime.instant(signedAt)),
        ]
    }
}
