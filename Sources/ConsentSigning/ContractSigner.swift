import ConsentCore
import Foundation

/// Turns a study's Contract template into the signed Contract, in R4 or in C3-PRO's exact STU3 shape.
///
/// Both start from the template as read (every member kept, docs/C3PRO.md) and replace only `applies` and
/// `signer`; R4 also sets `status` and gives each term the `offer` R4 makes mandatory.
struct ContractSigner {
    var patientReference: String
    var shareWidely: Bool?
    var signedAt: Date
    /// The participant's signature image; nil when there is no renderer.
    var signaturePNG: Data?
    var additionalSigners: [AdditionalSignature]
    /// Set when a representative signed for the participant: then `signaturePNG` is theirs, and they are the
    /// consenting signer (`RESPRSN`, a Consent Signature on the participant's behalf).
    var representative: RepresentativeResource? = nil
    /// Whether references to other signers carry their printed names (not in de-identified records).
    var namesSigners: Bool
    /// Whether signature images go into the resources. A handwritten signature identifies its writer, so a
    /// de-identified record leaves them out (the strokes stay in the local `signature.json`).
    var includesImages: Bool

    /// C3-PRO 2.0's `signContract(with:result:)`, with `shareWidely` semantic (docs/C3PRO.md).
    ///
    /// Exactly one signer, no `status`, no image, no `offer`: anything more would break backends that compare
    /// the shape. Witness signatures are therefore only in the record's Provenance in this mode.
    func stu3(_ template: JSONValue) -> JSONValue {
        var contract = Self.base(template)
        let instant = FHIRTime.stu3(signedAt)
        let reference: JSONValue = ["reference": .string(patientReference)]
        contract["applies"] = ["start": .string(instant)]
        var signer: [String: JSONValue] = [
            "type": [
                "system": .string(FHIRCodes.stu3SignerTypeSystem), "code": .string(FHIRCodes.consenterCode),
                "display": "consenter",
            ],
            "party": reference,
            "signature": [
                [
                    "type": [
                        [
                            "system": .string(FHIRCodes.stu3SignatureTypeSystem),
                            "code": .string(FHIRCodes.consentSignature.code),
                            "display": .string(FHIRCodes.consentSignature.display),
                        ]
                    ],
                    "when": .string(instant),
                    "whoReference": reference,
                ]
            ],
        ]
        if let shareWidely { signer["extension"] = Self.sharingExtension(shareWidely) }
        contract["signer"] = [.object(signer)]
        return .object(contract)
    }

    /// The R4 signed Contract (docs/RECORDS.md).
    func r4(_ template: JSONValue) -> JSONValue {
        var contract = Self.base(template)
        let instant = FHIRTime.instant(signedAt)
        let reference: JSONValue = ["reference": .string(patientReference)]
        contract["status"] = "executed"
        contract["applies"] = ["start": .string(instant)]

        var participant: [String: JSONValue] = [
            "type": Self.signerType(code: FHIRCodes.consenterCode, display: "Consenter"),
            "party": reference,
            "signature": [
                Self.signature(
                    type: FHIRCodes.consentSignature, when: instant, who: reference, onBehalfOf: nil, png: includesImages ? signaturePNG : nil)
            ],
        ]
        if let representative {
            // The participant did not sign: the representative is the consenting signer, on their behalf.
            let role = SignerRole.legallyAuthorizedRepresentative
            participant = [
                "type": Self.signerType(code: role.signerType.code, display: role.signerType.display),
                "party": representative.reference,
                "signature": [
                    Self.signature(
                        type: role.signatureType, when: instant, who: representative.reference, onBehalfOf: reference,
                        png: includesImages ? signaturePNG : nil)
                ],
            ]
            representative.containing(in: &contract)
        }
        if let shareWidely { participant["extension"] = Self.sharingExtension(shareWidely) }
        var signers: [JSONValue] = [.object(participant)]
        for other in additionalSigners {
            let who = signerReference(other)
            signers.append([
                "type": Self.signerType(code: other.role.signerType.code, display: other.role.signerType.display),
                "party": who,
                "signature": [
                    Self.signature(
                        type: other.role.signatureType, when: FHIRTime.instant(other.signedAt ?? signedAt), who: who,
                        onBehalfOf: other.role.signsOnBehalfOfParticipant ? reference : nil,
                        png: includesImages ? other.png : nil)
                ],
            ])
        }
        contract["signer"] = .array(signers)
        if let terms = contract["term"]?.arrayValue {
            contract["term"] = .array(terms.map(Self.withOffer))
        }
        return .object(contract)
    }

    /// The Reference naming a witness or representative; only their role when the record is de-identified.
    func signerReference(_ signer: AdditionalSignature) -> JSONValue {
        let display = namesSigners && !signer.displayName.isEmpty ? signer.displayName : signer.role.signerType.display
        var reference: JSONValue = ["type": .string(signer.role.resourceType), "display": .string(display)]
        if let staffID = signer.staffID {
            // The staff id is the kiosk's name for the Practitioner; staff data, kept also when de-identified.
            reference.set("identifier", ["system": .string(FHIRCodes.staffIdentifierSystem), "value": .string(staffID)])
        }
        return reference
    }

    /// An R4 `Signature`; the PNG goes in `data` with `sigFormat`, replacing STU3's `blob`/`contentType`.
    static func signature(
        type: (code: String, display: String), when: String, who: JSONValue, onBehalfOf: JSONValue?, png: Data?
    ) -> JSONValue {
        var signature: [String: JSONValue] = [
            "type": [
                ["system": .string(FHIRCodes.r4SignatureTypeSystem), "code": .string(type.code), "display": .string(type.display)]
            ],
            "when": .string(when),
            "who": who,
        ]
        // `cond ? reference : nil` makes JSONValue.null (it is nil-literal expressible); FHIR JSON has no nulls.
        if let onBehalfOf, !onBehalfOf.isNull { signature["onBehalfOf"] = onBehalfOf }
        if let png {
            signature["sigFormat"] = "image/png"
            signature["data"] = .string(png.base64EncodedString())
        }
        return .object(signature)
    }

    static func signerType(code: String, display: String) -> JSONValue {
        ["system": .string(FHIRCodes.r4SignerTypeSystem), "code": .string(code), "display": .string(display)]
    }

    static func sharingExtension(_ shareWidely: Bool) -> JSONValue {
        [["url": .string(FHIRCodes.sharingExtensionURL), "valueBoolean": .bool(shareWidely)]]
    }

    /// The template's members, or a new Contract when the template is not an object (C3 signs an empty one).
    private static func base(_ template: JSONValue) -> [String: JSONValue] {
        var members = template.objectValue ?? [:]
        members["resourceType"] = "Contract"
        return members
    }

    /// R4 makes `term.offer` 1..1 and an empty offer is invalid, so a missing one gets the term's text, else its
    /// section title, else its type code; nested `group` terms likewise.
    static func withOffer(_ term: JSONValue) -> JSONValue {
        guard var members = term.objectValue else { return term }
        if members["offer"] == nil {
            members["offer"] = ["text": .string(offerText(of: members))]
        }
        if let group = members["group"]?.arrayValue {
            members["group"] = .array(group.map(withOffer))
        }
        return .object(members)
    }

    private static func offerText(of term: [String: JSONValue]) -> String {
        if let text = term["text"]?.stringValue, !text.isEmpty { return text }
        let sectionExtension = term["extension"]?.arrayValue?.first {
            $0["url"]?.stringValue == "http://fhir-registry.smarthealthit.org/StructureDefinition/ORKConsentSection"
        }
        if let title = sectionExtension?["extension"]?.arrayValue?.first(where: { $0["url"]?.stringValue == "title" })?[
            "valueString"]?.stringValue, !title.isEmpty
        {
            return title
        }
        if let code = term["type"]?["coding"]?[0]?["code"]?.stringValue, !code.isEmpty { return code }
        return "Consent term"
    }
}
