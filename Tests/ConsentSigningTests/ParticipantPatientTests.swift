import ConsentCore
import Foundation
import Testing

@testable import ConsentSigning

@Suite struct ParticipantPatientTests {
    private func make(
        _ patient: JSONValue?, deidentify: Bool = false, location: JSONValue? = nil, at date: Date = Fixture.signedAt
    ) throws -> JSONValue {
        let study = try Fixture.study()
        return try ParticipantPatient.make(
            from: patient, outcome: Fixture.outcome(study), deidentify: deidentify, location: location, signedAt: date,
            makeID: { "minted-id" })
    }

    @Test func uiPatientIsKeptAndGetsAnIDOnACopy() throws {
        let given: JSONValue = ["resourceType": "Patient", "name": [["family": "Lovelace"]], "gender": "female"]
        let patient = try make(given)
        #expect(patient["id"] == "minted-id")
        #expect(patient["name"] == given["name"])
        #expect(given["id"] == nil)  // the caller's copy is untouched, unlike C3
    }

    @Test func existingIDIsKept() throws {
        #expect(try make(["resourceType": "Patient", "id": "p-17"])["id"] == "p-17")
    }

    @Test func withoutAPatientTheNameMakesOne() throws {
        let patient = try make(nil)
        #expect(patient["resourceType"] == "Patient")
        #expect(patient["name"]?[0]?["family"] == "Lovelace")
        #expect(patient["name"]?[0]?["given"] == ["Ada"])
    }

    @Test(arguments: [
        JSONValue("Patient"), ["resourceType": "Practitioner"], ["name": "x"], [1, 2],
    ])
    func notAPatientIsRefused(value: JSONValue) {
        #expect(throws: ConsentSigningError(.notAPatient, "")) { try make(value) }
    }

    @Test(arguments: [("1937", "1937"), ("1937-05", "1937"), ("1937-05-31", "1937"), ("2000-02-29", "2000")])
    func birthDateInEveryPrecisionIsAccepted(birthDate: String, year: String) throws {
        let patient = try make(["resourceType": "Patient", "birthDate": .string(birthDate)], deidentify: true)
        #expect(patient["birthDate"] == .string(year))
        // Identified records keep the date as given.
        #expect(try make(["resourceType": "Patient", "birthDate": .string(birthDate)])["birthDate"] == .string(birthDate))
    }

    @Test(arguments: [
        "37", "1937-5-1", "1937-13", "1937-02-30", "1900-02-29", "0000", "1937-05-01T00:00:00Z", "May 1937", "",
    ])
    func malformedBirthDateIsATypedErrorWithoutTheValue(birthDate: String) {
        do {
            _ = try make(["resourceType": "Patient", "birthDate": .string(birthDate)])
            Issue.record("accepted \(birthDate)")
        } catch let error as ConsentSigningError {
            #expect(error.code == .invalidBirthDate)
            #expect(birthDate.isEmpty || !error.message.contains(birthDate))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func birthDateOfTheWrongTypeIsRefused() {
        #expect(throws: ConsentSigningError(.invalidBirthDate, "")) {
            try make(["resourceType": "Patient", "birthDate": 1937])
        }
    }

    /// Signing on 2026-09-14: ages 89, 90, 91 and far older.
    @Test(arguments: [("1937-01-01", "1937"), ("1936-12-31", "1936"), ("1935-06-15", "1936"), ("1901", "1936")])
    func deidentifiedBirthYear(birthDate: String, expected: String) throws {
        let patient = try make(["resourceType": "Patient", "birthDate": .string(birthDate)], deidentify: true)
        #expect(patient["birthDate"] == .string(expected))
    }

    @Test func deidentifiedPatientKeepsOnlyTheWhitelist() throws {
        let full: JSONValue = [
            "resourceType": "Patient", "id": "p-1", "gender": "female", "birthDate": "1980-04-02",
            "name": [["family": "Lovelace"]], "telecom": [["system": "phone", "value": "555"]],
            "identifier": [["value": "MRN1"]], "address": [["city": "Boston", "postalCode": "02115", "country": "US"]],
            "extension": [["url": "http://example.org/x", "valueString": "y"]],
        ]
        let patient = try make(full, deidentify: true, location: ["country": "US", "state": "MA", "city": "Boston", "postalCode": "02115"])
        #expect(
            patient == [
                "resourceType": "Patient", "id": "p-1", "gender": "female", "birthDate": "1980",
                "address": [["country": "US", "state": "MA", "postalCode": "021"]],
            ])
    }

    @Test func deidentifiedWithoutPatientOrLocation() throws {
        #expect(try make(nil, deidentify: true) == ["resourceType": "Patient", "id": "minted-id"])
    }

    @Test func deidentifiedMissingFieldsStayMissing() throws {
        let patient = try make(["resourceType": "Patient", "id": "p-2"], deidentify: true, location: ["country": "CH", "postalCode": "3011"])
        #expect(patient == ["resourceType": "Patient", "id": "p-2", "address": [["country": "CH"]]])
    }

    @Test func invalidIDAndGenderAreRefused() {
        #expect(throws: ConsentSigningError(.invalidPatient, "")) { try make(["resourceType": "Patient", "id": "a b"]) }
        #expect(throws: ConsentSigningError(.invalidPatient, "")) { try make(["resourceType": "Patient", "gender": 3]) }
    }
}
