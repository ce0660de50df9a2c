/// Who else signs beside the participant, each with its Contract signer type and ASTM E1762 signature type.
///
/// The pairs follow the anchors (§D.4): a witness attests the consent process (`CONSWIT`, Consent Witness
/// Signature); an interpreter signs as such; a legally authorized representative consents *for* the participant,
/// so the signature is a Consent Signature with `onBehalfOf` the Patient; the person obtaining consent verifies it.
public enum SignerRole: String, Sendable, Hashable, Codable, CaseIterable {
    case witness
    case interpreter
    case legallyAuthorizedRepresentative
    case personObtainingConsent

    /// `http://terminology.hl7.org/CodeSystem/contractsignertypecodes` code and display.
    public var signerType: (code: String, display: String) {
        switch self {
        case .witness: return ("CONSWIT", "Consent Witness")
        case .interpreter: return ("INTPRT", "Interpreter")
        case .legallyAuthorizedRepresentative: return ("RESPRSN", "Responsible Party")
        case .personObtainingConsent: return ("VERF", "Verifier")
        }
    }

    /// `urn:iso-astm:E1762-95:2013` code and display.
    public var signatureType: (code: String, display: String) {
        switch self {
        case .witness: return ("1.2.840.10065.1.12.1.11", "Consent Witness Signature")
        case .interpreter: return ("1.2.840.10065.1.12.1.12", "Interpreter Signature")
        case .legallyAuthorizedRepresentative: return FHIRCodes.consentSignature
        case .personObtainingConsent: return ("1.2.840.10065.1.12.1.5", "Verification Signature")
        }
    }

    /// Whether the signature is given on the participant's behalf (`Signature.onBehalfOf` = the Patient).
    public var signsOnBehalfOfParticipant: Bool { self == .legallyAuthorizedRepresentative }

    /// The FHIR resource type the signer is, for `Reference.type`.
    var resourceType: String {
        switch self {
        case .legallyAuthorizedRepresentative: return "RelatedPerson"
        case .witness, .interpreter, .personObtainingConsent: return "Practitioner"
        }
    }
}
