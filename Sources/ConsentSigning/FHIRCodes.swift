/// The systems, codes and URLs the signed resources use, written once. STU3 values are C3-PRO's exactly
/// (ValueSet URLs used as systems, as C3-PRO writes them, docs/C3PRO.md); R4 values are R4's code systems.
enum FHIRCodes {
    static let sharingExtensionURL = "http://fhir-registry.smarthealthit.org/StructureDefinition/consents-to-data-sharing"

    static let r4SignerTypeSystem = "http://terminology.hl7.org/CodeSystem/contractsignertypecodes"
    static let r4SignatureTypeSystem = "urn:iso-astm:E1762-95:2013"
    static let stu3SignerTypeSystem = "http://hl7.org/fhir/ValueSet/contract-signer-type"
    static let stu3SignatureTypeSystem = "http://hl7.org/fhir/ValueSet/signature-type"

    static let consentSignature = (code: "1.2.840.10065.1.12.1.7", display: "Consent Signature")
    static let consenterCode = "CONSENTER"

    static let consentScopeSystem = "http://terminology.hl7.org/CodeSystem/consentscope"
    static let loinc = "http://loinc.org"
    /// LOINC 59284-0 "Patient Consent": the Consent category and the DocumentReference type of the PDF.
    static let patientConsentLOINC = (code: "59284-0", display: "Patient Consent")
    static let consentActionSystem = "http://terminology.hl7.org/CodeSystem/consentaction"
    static let actReasonSystem = "http://terminology.hl7.org/CodeSystem/v3-ActReason"
    static let provenanceParticipantTypeSystem = "http://terminology.hl7.org/CodeSystem/provenance-participant-type"
    static let dataOperationSystem = "http://terminology.hl7.org/CodeSystem/v3-DataOperation"
    /// Identifier system for kiosk ids in Provenance agents and DocumentReference authors.
    static let kioskIdentifierSystem = "urn:consent-kiosk:kiosk-id"
    /// Identifier system for record ids: how a withdrawal or re-consent names the record it refers to.
    static let recordIdentifierSystem = "urn:consent-kiosk:record-id"
    /// Identifier system for staff ids (`consentctl staff add ID`): the Practitioner who obtained consent.
    static let staffIdentifierSystem = "urn:consent-kiosk:staff-id"
    /// How the person obtaining consent verified the signer's identity: the extension on `Consent.verification`
    /// and the code system of its method (`photoId`, `knownToStaff`, `representativeDocuments`, `other`).
    static let identityVerificationExtensionURL = "urn:consent-kiosk:fhir:identity-verification-method"
    static let identityVerificationSystem = "urn:consent-kiosk:identity-verification-method"
}
