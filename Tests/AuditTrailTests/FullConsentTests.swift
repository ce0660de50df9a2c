import AuditTrail
import ConsentCore
import ConsentSigning
import Foundation
import SampleStudy
import Testing

/// A real consent on the sample study, run through `ConsentSession` for Zoë Müller-Østergaard (born 1961-04-12),
/// logged the way the agent will log it, signed with the log's head and written as a record.
///
/// The mapping from sessions to events here is the reference the agent's wiring follows (see `AuditTrail`'s
/// README in docs/COMPLIANCE.md); it lives in the test because ConsentAgent is not built yet.
@Suite struct FullConsentTests {
    static let given = "Zoë", family = "Müller-Østergaard", birthDate = "1961-04-12"

    struct Run {
        var state: URL
        var records: URL
        var record: SignedRecord
        var logBytes: Data
    }

    /// The step the session shows now, as the log names it; nil once the flow has ended.
    static func auditStep(_ session: ConsentSession) -> (AuditStep, Int?)? {
        switch session.step {
        case .withdrawal: (.withdrawal, nil)
        case .changes: (.changes, nil)
        case .eligibility: (.eligibility, nil)
        case .keyInformation: (.keyInformation, nil)
        case .visual: (.visual, session.sceneIndex)
        case .sharing: (.sharing, nil)
        case .optional: (.optional, nil)
        case .reviewStep:
            switch session.reviewPage {
            case .document: (.reviewDocument, nil)
            case .name: (.reviewName, nil)
            case .signature: (.reviewSignature, nil)
            case .signer: (.reviewSigner, nil)
            case .representative: (.reviewRepresentative, nil)
            case .witness: (.reviewWitness, nil)
            case .witnessSignature: (.reviewWitnessSignature, nil)
            }
        case .comprehension: (.comprehension, nil)
        case .passcode: (.passcode, nil)
        case .staff: (.staff, nil)
        case .done: (.done, nil)
        case .completed, .ineligible, .declined, .expired, .cancelled, .paused: nil
        }
    }

    static func runConsent() throws -> Run {
        let folder = try #require(SampleStudy.folder)
        let study = try Study.load(from: folder)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("audit-consent-\(UUID().uuidString)")
        let records = state.appendingPathComponent("records")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        let kiosk = try KioskIdentity.loadOrCreate(id: "kiosk-test-1", stateDirectory: state)
        let log = try AuditLog(stateDirectory: state, kiosk: try AuditIdentifier(kiosk.id))
        let auditStudy = AuditStudy(id: try AuditIdentifier(study.id), version: try AuditDigest(hex: study.version))
        try log.append(.agentStarted(configuration: AuditDigest(sha256Of: Data("consentd.toml".utf8)), studies: 1))

        let flow = AuditIdentifier(UUID())
        var session = ConsentSession(id: flow.value, study: study, now: .zero)
        var clock = Duration.zero
        var lastStep: (AuditStep, Int?)?
        func logStepIfNew() throws {
            guard let step = auditStep(session), step.0 != lastStep?.0 || step.1 != lastStep?.1 else { return }
            lastStep = step
            try log.append(.stepReached(flow: flow, study: auditStudy, step: step.0, index: step.1))
        }
        func apply(_ action: ConsentAction) throws {
            clock += .seconds(5)
            try session.apply(action, now: clock)
        }
        try log.append(.flowStarted(flow: flow, study: auditStudy))
        try logStepIfNew()
        let answers: [Bool?] = [true, true, false, true]
        try apply(.answerEligibility(answers))
        try log.append(.eligibilityResult(
            flow: flow, study: auditStudy, eligible: session.eligibilityStatus == .eligible,
            answered: answers.compactMap { $0 }.count, questions: study.document.eligibility.count))
        try apply(.next(.eligibility))
        try logStepIfNew()
        // The sample study begins with its key information.
        try apply(.next(.keyInformation))
        try logStepIfNew()
        while session.step == .visual {
            try apply(.next(.visual))
            try logStepIfNew()
        }
        if session.step == .sharing {
            try apply(.chooseSharing(shareWidely: true))
            try log.append(.sharingChosen(flow: flow, study: auditStudy, shareWidely: true))
            try logStepIfNew()
        }
        // The sample study's optional elements (their answers are never logged).
        try apply(.answerOptional(["future-research": true, "contact-other-studies": false]))
        try logStepIfNew()
        try apply(.agree)
        try logStepIfNew()
        for question in session.comprehension.questions {
            try apply(.answerComprehension(question: question.index, choice: question.answer))
        }
        try logStepIfNew()
        try apply(.setName(given: given, family: family))
        try logStepIfNew()
        let strokes = SignatureStrokes(strokes: [
            [StrokePoint(x: 0.1, y: 0.2, t: 0, p: 0.5), StrokePoint(x: 0.3, y: 0.4, t: 16, p: 0.6)],
            [StrokePoint(x: 0.5, y: 0.5, t: 120, p: 1)],
        ])
        try apply(.submitSignature(strokes))
        try log.append(.signatureCaptured(
            flow: flow, study: auditStudy, signer: .participant, strokes: strokes.strokes.count,
            points: strokes.strokes.reduce(0) { $0 + $1.count }))
        if session.step == .passcode {
            try logStepIfNew()
            try apply(.setPasscode("4711"))
        }
        try logStepIfNew()

        // The record pins the head; the lines after it name the record.
        let patient: JSONValue = [
            "resourceType": "Patient", "name": [["given": [.string(given)], "family": .string(family)]],
            "birthDate": .string(birthDate), "gender": "female",
        ]
        let record = try ConsentSigner(kiosk: kiosk).sign(
            outcome: try session.outcome(), study: study, patient: patient, signedAt: Date(), auditHead: log.head.hex)
        let directory = try RecordWriter.write(record, into: records)
        let manifestHash = AuditDigest(sha256Of: try Data(contentsOf: directory.appendingPathComponent(RecordManifest.fileName)))
        let recordID = try AuditIdentifier(record.id)
        try log.append(.recordWritten(flow: flow, study: auditStudy, record: recordID, manifest: manifestHash))
        try session.markCompleted()
        try log.append(.completed(flow: flow, study: auditStudy, record: recordID))
        try log.close()
        let logBytes = try Data(contentsOf: AuditLog.directory(stateDirectory: state).appendingPathComponent("audit.log"))
        return Run(state: state, records: records, record: record, logBytes: logBytes)
    }

    @Test func aConsentLogsEveryStepInOrderAndTheRecordPinsTheHead() throws {
        let run = try Self.runConsent()
        let raw = run.logBytes.split(separator: UInt8(ascii: "\n")).map { Data($0) }
        let lines = try raw.map { try #require(AuditLine.parse($0)) }
        let summary = lines.map { [$0.event, $0.step, $0.index.map(String.init)].compactMap { $0 }.joined(separator: " ") }
        let scenes = lines.filter { $0.step == "visual" }.count
        #expect(scenes >= 1)
        #expect(summary == [
            "log.opened", "agent.started", "flow.started", "flow.step eligibility", "flow.eligibility",
            "flow.step keyInformation",
        ] + (0..<scenes).map { "flow.step visual \($0)" } + [
            "flow.step sharing", "flow.sharing", "flow.step optional", "flow.step review.document", "flow.step comprehension",
            "flow.step review.name",
            "flow.step review.signature", "flow.signature", "flow.step done", "record.written", "flow.completed",
        ])
        // Mutual vouching: the manifest's signed head is the line just before record.written, which names it.
        let head = try #require(run.record.manifest.auditHead)
        let index = try #require(raw.firstIndex { AuditDigest(sha256Of: $0).hex == head })
        #expect(lines[index + 1].event == "record.written" && lines[index + 1].record == run.record.id)
        #expect(lines.last?.record == run.record.id && lines.last?.outcome == "completed")
        let report = try AuditVerifier.verify(
            directory: AuditLog.directory(stateDirectory: run.state), anchors: [try AuditDigest(hex: head)])
        #expect(report.isIntact)
    }

    /// No participant identifier reaches the log: not the name (whole, in parts, or folded to ASCII), not the
    /// birth date in any common spelling, not the signature's points.
    @Test func theLogOfACompleteConsentHoldsNoneOfTheParticipantsIdentifiers() throws {
        let run = try Self.runConsent()
        let text = String(decoding: run.logBytes, as: UTF8.self)
        #expect(!text.isEmpty)
        // The record itself does name her (it is not de-identified), so the scan below is meaningful.
        let patient = String(decoding: try #require(run.record.file("patient.json")), as: UTF8.self)
        #expect(patient.contains(Self.family) && patient.contains(Self.birthDate))

        let needles = [
            "Zoë Müller-Østergaard", "Zoë", "Müller", "Østergaard", "Zoe", "Muller", "Mueller", "Ostergaard",
            // Not the bare year: four digits turn up in hashes and clocks by chance. The full dates cannot.
            "1961-04-12", "19610412", "04/12/1961", "12.04.1961", "12/04/1961",
        ]
        for needle in needles {
            #expect(!text.localizedCaseInsensitiveContains(needle), "the audit log contains \(needle)")
        }
        // Every audit value is ASCII by construction, so no escaped or raw non-ASCII letter can be there at all.
        #expect(run.logBytes.allSatisfy { $0 < 0x80 } && !text.contains(#"\u"#))
        // Nor the signature: no stroke coordinates, only counts.
        #expect(!text.contains("\"x\"") && !text.contains("[[") && !text.contains("\"p\""))
    }

    /// `consentctl audit verify --records`: every record's signed head must be a line of the chain, so cutting
    /// lines off the end, which the chain alone cannot see, is found.
    @Test func verifyWithRecordsChecksTheSignedHeads() throws {
        let run = try Self.runConsent()
        let arguments = ["audit", "verify", "--state-dir", run.state.path, "--records", run.records.path]
        let intact = try ProductRunner.run("consentctl", arguments)
        #expect(intact.status == 0, "\(intact.stdout)\(intact.stderr)")
        #expect(intact.stdout.contains("1 record manifest(s) anchor lines of this chain"))

        let url = AuditLog.directory(stateDirectory: run.state).appendingPathComponent("audit.log")
        let lines = run.logBytes.split(separator: UInt8(ascii: "\n")).map { Data($0) }
        try lines.dropLast(3).reduce(Data()) { $0 + $1 + Data("\n".utf8) }.write(to: url)
        let cut = try ProductRunner.run("consentctl", arguments)
        #expect(cut.status == 2)
        #expect(cut.stdout.contains("MISSING ANCHOR record \(run.record.id)"), "\(cut.stdout)")
    }

    /// The types refuse participant text: the name cannot even be made into an identifier.
    @Test func participantTextCannotBecomeAnAuditValue() {
        for text in ["Zoë Müller-Østergaard", "Zoë", "Müller-Østergaard", "I have a question", "", String(repeating: "a", count: 129)] {
            #expect(throws: AuditTrailError(.invalidIdentifier, "")) { try AuditIdentifier(text) }
        }
        #expect(throws: AuditTrailError(.invalidDigest, "")) { try AuditDigest(hex: "1961-04-12") }
        #expect(AuditIdentifier.isValid("org.example.heartbeat-sleep.consent") && AuditIdentifier.isValid("kiosk-1:ward_b"))
    }
}
