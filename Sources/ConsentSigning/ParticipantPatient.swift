import ConsentCore
import Foundation

/// Builds the Patient a record refers to: the kiosk UI's own Patient, a minimal one from the printed name, or
/// the Safe Harbor reduction C3-PRO's `deIdentifyAndSignContract` makes (docs/COMPLIANCE.md).
///
/// Always works on a copy: unlike C3, the caller's Patient never gains an id behind its back.
enum ParticipantPatient {
    /// - Parameters:
    ///   - patient: the UI's Patient, or nil.
    ///   - outcome: the finished consent; its printed name makes the Patient when the UI gave none.
    ///   - deidentify: keep only id, gender, birth year and a reduced address.
    ///   - location: the Address the de-identified address is reduced from (UI-supplied or the site's).
    ///   - signedAt: the signing instant; its UTC year is the "current year" of the birth-year rule.
    ///   - makeID: mints the id when the Patient has none.
    /// - Throws: `.notAPatient`, `.invalidPatient`, `.invalidBirthDate`, `.invalidLocation`.
    static func make(
        from patient: JSONValue?, outcome: ConsentOutcome, deidentify: Bool, location: JSONValue?, signedAt: Date,
        makeID: () -> String
    ) throws -> JSONValue {
        var members: [String: JSONValue]
        if let patient {
            members = try validated(patient)
        } else {
            members = ["resourceType": "Patient"]
            if !deidentify {
                members["name"] = [["use": "official", "given": [.string(outcome.givenName)], "family": .string(outcome.familyName)]]
            }
        }
        if members["id"] == nil { members["id"] = .string(makeID()) }
        guard deidentify else { return .object(members) }

        var reduced: [String: JSONValue] = ["resourceType": "Patient"]
        reduced["id"] = members["id"]
        reduced["gender"] = members["gender"]
        if let birthDate = members["birthDate"]?.stringValue, let date = FHIRDate(birthDate) {
            let year = SafeHarbor.reportedBirthYear(birthYear: date.year, currentYear: FHIRTime.year(of: signedAt))
            reduced["birthDate"] = .string(String(format: "%04d", year))
        }
        if let location, !location.isNull, let address = try SafeHarbor.reducedAddress(location) {
            reduced["address"] = [address]
        }
        return .object(reduced)
    }

    /// Checks the members the signing reads; every other member is kept as given.
    static func validated(_ patient: JSONValue) throws -> [String: JSONValue] {
        guard let members = patient.objectValue else {
            throw ConsentSigningError(.notAPatient, "the patient must be a FHIR Patient object, found \(patient.typeName)")
        }
        guard members["resourceType"]?.stringValue == "Patient" else {
            let found = members["resourceType"]?.stringValue.map { "a \($0)" } ?? "no resourceType"
            throw ConsentSigningError(.notAPatient, "the patient must have resourceType \"Patient\", found \(found)")
        }
        if let id = members["id"] {
            guard let s = id.stringValue, isFHIRID(s) else {
                throw ConsentSigningError(
                    .invalidPatient, "Patient.id must be 1 to 64 letters, digits, '-' or '.'; fix it or leave it out")
            }
        }
        if let gender = members["gender"], gender.stringValue == nil {
            throw ConsentSigningError(.invalidPatient, "Patient.gender must be a string, found \(gender.typeName)")
        }
        if let birthDate = members["birthDate"] {
            // The value itself is PHI: the message names the field and the accepted forms only.
            guard let s = birthDate.stringValue, FHIRDate(s) != nil else {
                throw ConsentSigningError(
                    .invalidBirthDate, "Patient.birthDate must be a FHIR date (YYYY, YYYY-MM or YYYY-MM-DD)")
            }
        }
        return members
    }

    static func isFHIRID(_ s: String) -> Bool {
        (1...64).contains(s.utf8.count)
            && s.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".") }
    }
}
