import ConsentCore
import Foundation

/// The consent PDF as FHIR: a `Binary` with the bytes and a `DocumentReference` describing them, so a server
/// that does not keep Binaries inline still finds the document of a consent (MII consent profile's pattern).
enum DocumentResources {
    static func binary(pdf: Data, ids: RecordIdentifiers, patientReference: String) -> JSONValue {
        [
            "resourceType": "Binary",
            "id": .string(ids.binary),
            "contentType": "application/pdf",
            "securityContext": ["reference": .string(patientReference)],
            "data": .string(pdf.base64EncodedString()),
        ]
    }

    static func documentReference(
        attachment: JSONValue, ids: RecordIdentifiers, patientReference: String, signedAt: Date
    ) -> JSONValue {
        [
            "resourceType": "DocumentReference",
            "id": .string(ids.documentReference),
            "status": "current",
            "docStatus": "final",
            "type": [
                "coding": [
                    [
                        "system": .string(FHIRCodes.loinc), "code": .string(FHIRCodes.patientConsentLOINC.code),
                        "display": .string(FHIRCodes.patientConsentLOINC.display),
                    ]
                ]
            ],
            "subject": ["reference": .string(patientReference)],
            "date": .string(FHIRTime.instant(signedAt)),
            "content": [["attachment": attachment]],
            "context": [
                "related": [
                    ["reference": .string(RecordIdentifiers.urn(ids.contract)), "type": "Contract"],
                    ["reference": .string(RecordIdentifiers.urn(ids.consent)), "type": "Consent"],
                ]
            ],
        ]
    }
}
