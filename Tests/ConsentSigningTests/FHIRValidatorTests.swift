import ConsentCore
import Foundation
import Testing

@testable import ConsentSigning

/// Every R4 resource the signing emits, checked by an independent FHIR implementation: the `fhir.resources`
/// R4B models (pydantic), installed by `scripts/ensure-test-venv` (which `make test` runs first).
@Suite(.serialized) struct FHIRValidatorTests {
    struct Validation {
        var status: Int32
        var output: String
    }

    static let python = Fixture.packageRoot.appendingPathComponent(".build/test-venv/bin/python")
    static let script = Fixture.testsDirectory.appendingPathComponent("validate_fhir.py")

    /// Runs the validator on `files`.
    static func validate(_ files: [URL]) throws -> Validation {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw FixtureError(
                "the FHIR validator is not installed at \(python.path); run scripts/ensure-test-venv (make test does)")
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path] + files.map(\.path)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Validation(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// Writes the record's FHIR files and validates them.
    private func validate(_ record: SignedRecord) throws -> Validation {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = [RecordFileName.contract, RecordFileName.consent, RecordFileName.provenance, RecordFileName.patient, RecordFileName.bundle]
        var files: [URL] = []
        for name in names {
            let url = directory.appendingPathComponent(name)
            try #require(record.file(name)).write(to: url)
            files.append(url)
        }
        return try Self.validate(files)
    }

    @Test func plainRecordIsValidR4() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt)
        let result = try validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func fullRecordWithPDFImageWitnessAndRepresentativeIsValidR4() throws {
        let study = try Fixture.study()
        let others = SignerRole.allCases.map {
            AdditionalSignature(role: $0, givenName: "Sam", familyName: "Signer", strokes: Fixture.strokes, png: Fixture.png)
        }
        let record = try Fixture.signer().sign(
            outcome: Fixture.outcome(study, shareWidely: false), study: study,
            patient: [
                "resourceType": "Patient", "name": [["family": "Lovelace", "given": ["Ada"]]], "gender": "female",
                "birthDate": "1980-04",
            ],
            signedAt: Fixture.signedAt.addingTimeInterval(0.125), pdf: Fixture.pdf, signaturePNG: Fixture.png,
            additionalSigners: others)
        let result = try validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func deidentifiedRecordIsValidR4() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: Fixture.outcome(study, shareWidely: nil), study: study,
            patient: ["resourceType": "Patient", "id": "p-1", "birthDate": "1921-03-04", "gender": "male"],
            deidentify: true, location: ["country": "US", "state": "WY", "postalCode": "82301"],
            signedAt: Fixture.signedAt, pdf: Fixture.pdf, signaturePNG: Fixture.png)
        let result = try validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    /// The comprehension check's QuestionnaireResponse, on its own and in the Bundle, with a question missed on
    /// every attempt (so the staff item is there too).
    @Test func questionnaireResponseOfTheComprehensionCheckIsValidR4() throws {
        let study = try Fixture.study()
        let questions = study.document.comprehension
        #expect(questions.count == 3)
        var outcome = Fixture.outcome(study)
        outcome.comprehension = ComprehensionOutcome(
            results: [
                ComprehensionResult(question: questions[0], attempts: [0, 1]),
                ComprehensionResult(question: questions[1], attempts: [0, 2]),
                ComprehensionResult(question: questions[2], attempts: [0]),
            ], policy: study.options.comprehension)
        let record = try Fixture.signer().sign(outcome: outcome, study: study, signedAt: Fixture.signedAt)
        let response = try #require(record.file(RecordFileName.questionnaireResponse))
        #expect(String(decoding: response, as: UTF8.self).contains("comprehension.flaggedForStaff"))
        #expect(record.manifest.comprehension?.flaggedForStaff == true)
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [URL] = []
        for name in [RecordFileName.questionnaireResponse, RecordFileName.bundle] {
            let url = directory.appendingPathComponent(name)
            try #require(record.file(name)).write(to: url)
            files.append(url)
        }
        let result = try Self.validate(files)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("OK"), "\(result.output)")
    }

    /// The optional elements' answers (docs/RECORDS.md, "Optional elements"): one nested provision of the Consent
    /// each, after the sharing choice's, `permit` or `deny` with the element's code in `purpose` and its id as the
    /// provision's; the manifest lists them; the Consent and the Bundle are valid R4.
    @Test func optionalElementsAreNestedProvisionsOfTheConsentAndValidR4() throws {
        let study = try Fixture.study()
        let elements = study.document.optionalElements
        #expect(elements.map(\.id) == ["future-research", "contact-other-studies"])
        var outcome = Fixture.outcome(study)
        outcome.shareWidely = true
        outcome.optionalAnswers = [
            OptionalElementAnswer(element: elements[0], accepted: true), OptionalElementAnswer(element: elements[1], accepted: false),
        ]
        let record = try Fixture.signer().sign(outcome: outcome, study: study, signedAt: Fixture.signedAt)
        let consent = try JSONValue.parse(try #require(record.file(RecordFileName.consent)))
        let nested = consent["provision"]?["provision"]?.arrayValue ?? []
        #expect(nested.count == 3)
        #expect(nested.first?["action"] != nil, "the sharing choice comes first")
        let optional = Array(nested.dropFirst())
        #expect(optional.map { $0["id"]?.stringValue } == ["optional-future-research", "optional-contact-other-studies"])
        #expect(optional.map { $0["type"]?.stringValue } == ["permit", "deny"])
        #expect(optional.map { $0["purpose"]?[0]?["code"]?.stringValue } == ["future-research", "recontact"])
        #expect(optional.allSatisfy { $0["purpose"]?[0]?["system"]?.stringValue == elements[0].code.system })
        #expect(record.manifest.optionalElements?.map(\.id) == ["future-research", "contact-other-studies"])
        #expect(record.manifest.optionalElements?.map(\.permitted) == [true, false])
        #expect(record.manifest.optionalElements?.map(\.code) == ["future-research", "recontact"])
        let result = try validate(record)
        #expect(result.status == 0, "\(result.output)")

        // Without optional answers, the manifest has no member and the Consent no such provision.
        let plain = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt)
        #expect(plain.manifest.optionalElements == nil)
        #expect(!String(decoding: try #require(plain.file(RecordFileName.consent)), as: UTF8.self).contains("optional-"))
    }

    /// The validator must bite: a Contract that lost its term offer and carries a malformed instant is refused.
    @Test func validatorRejectsABrokenResource() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt)
        var broken = record.contract
        var terms = try #require(broken["term"]?.arrayValue)
        terms[1].set("offer", nil)
        broken.set("term", .array(terms))
        broken.set("applies", ["start": "14.09.2026 10:15"])
        broken.set("signer", [["type": ["code": "CONSENTER"]]])

        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("broken-contract.json")
        try broken.serialized().write(to: url)
        let result = try Self.validate([url])
        #expect(result.status == 1)
        #expect(result.output.contains("INVALID"))
        #expect(result.output.contains("offer"))
        #expect(result.output.contains("applies"))
        #expect(result.output.contains("party"))
    }
}
