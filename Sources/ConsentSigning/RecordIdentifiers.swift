import Foundation

/// The ids one signing mints, and the references the resources use to point at each other.
///
/// Contract, Consent, Provenance and the PDF's Binary/DocumentReference are created on the server by POST, so
/// they reference each other by `urn:uuid:` (what a transaction Bundle rewrites); the Patient is PUT under its
/// own id, so it is referenced as `Patient/<id>`, as C3-PRO does.
struct RecordIdentifiers: Sendable {
    var record: String
    var contract: String
    var consent: String
    var provenance: String
    var binary: String
    var documentReference: String

    init(makeUUID: () -> UUID) {
        // Lowercase: RFC 4122 output form, and what FHIR requires inside urn:uuid.
        func next() -> String { makeUUID().uuidString.lowercased() }
        record = next()
        contract = next()
        consent = next()
        provenance = next()
        binary = next()
        documentReference = next()
    }

    static func urn(_ uuid: String) -> String { "urn:uuid:\(uuid)" }
}
