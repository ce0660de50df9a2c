import ConsentCore
import Foundation
import SampleStudy
import Testing

/// A flow that ended, however it ended, holds nothing the participant gave: the whole session is dumped (every
/// stored property, recursively) and searched, so a new property that kept PHI past the end would fail here too.
@Suite struct EndedSessionWipeTests {
    static let given = "Zebedee", family = "Quillfeather-Oyelaran"
    /// Coordinates no study text contains.
    static let strokes = SignatureStrokes(strokes: [[
        StrokePoint(x: 0.314159, y: 0.271828, t: 0, p: 0.577215),
        StrokePoint(x: 0.414213, y: 0.732050, t: 120, p: 0.618033),
    ]])

    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case cancelled, declined, expired, completed
        var testDescription: String { rawValue }
    }

    func study() throws -> Study {
        var study = try Study.load(from: try #require(SampleStudy.folder))
        study.options.askToCreatePasscode = true
        return study
    }

    /// Everything a participant can give: answers, sharing, name, signature, passcode.
    func signedSession() throws -> ConsentSession {
        var s = ConsentSession(id: "f", study: try study(), now: .zero, inactivityTimeout: .seconds(60))
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        try s.apply(.next(.eligibility), now: .seconds(1))
        try s.apply(.next(.keyInformation), now: .seconds(1))
        for _ in s.study.document.visualSections { try s.apply(.next(.visual), now: .seconds(1)) }
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(1))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(1))
        try s.agreeAndUnderstand(now: .seconds(1))
        try s.apply(.setName(given: Self.given, family: Self.family), now: .seconds(1))
        try s.apply(.submitSignature(Self.strokes), now: .seconds(1))
        try s.apply(.setPasscode("8642"), now: .seconds(1))
        #expect(s.step == .done)
        // The dump sees the data before the end, so its absence afterwards means something.
        #expect(Self.dump(s).contains(Self.family) && Self.dump(s).contains("0.314159"))
        return s
    }

    static func dump(_ session: ConsentSession) -> String {
        var text = ""
        Swift.dump(session, to: &text, maxDepth: 64)
        return text
    }

    func expectWiped(_ s: ConsentSession, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(s.givenName == nil && s.familyName == nil, sourceLocation: sourceLocation)
        #expect(s.signature == nil && s.passcodeHash == nil, sourceLocation: sourceLocation)
        #expect(s.answers.allSatisfy { $0 == nil }, sourceLocation: sourceLocation)
        let text = Self.dump(s)
        for needle in [Self.given, Self.family, "0.314159", "0.271828", "0.732050", "0.618033"] {
            #expect(!text.contains(needle), "the ended session still holds \(needle)", sourceLocation: sourceLocation)
        }
        #expect(!text.contains("PasscodeHash"), "the ended session still holds the passcode hash", sourceLocation: sourceLocation)
        let view = String(describing: s.viewModel)
        #expect(!view.contains(Self.family) && !view.contains("0.314159"), sourceLocation: sourceLocation)
    }

    @Test(arguments: Ending.allCases) func signedFlowIsWipedWhenItEnds(_ ending: Ending) throws {
        var s = try signedSession()
        switch ending {
        case .cancelled: try s.apply(.cancel, now: .seconds(2))
        case .declined: try s.apply(.decline, now: .seconds(2))
        case .expired:
            let expired = s.expireIfIdle(now: .seconds(61))
            #expect(expired)
        case .completed:
            _ = try s.outcome()
            try s.markCompleted()
        }
        #expect(s.step.rawValue == ending.rawValue)
        expectWiped(s)
        #expect(throws: ConsentCoreError.self) { try s.outcome() }
    }

    /// The representative's and the witness's names, the relationship and the witness's signature go too.
    @Test(arguments: Ending.allCases) func signerDataIsWipedWhenItEnds(_ ending: Ending) throws {
        var study = try study()
        study.options.allowRepresentative = true
        study.options.requireWitness = true
        study.options.askToCreatePasscode = false
        var s = ConsentSession(id: "f", study: study, now: .zero, inactivityTimeout: .seconds(60))
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        try s.apply(.next(.eligibility), now: .seconds(1))
        try s.apply(.next(.keyInformation), now: .seconds(1))
        for _ in s.study.document.visualSections { try s.apply(.next(.visual), now: .seconds(1)) }
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(1))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(1))
        try s.agreeAndUnderstand(now: .seconds(1))
        try s.apply(.chooseSigner(.representative), now: .seconds(1))
        try s.apply(.setName(given: Self.given, family: Self.family), now: .seconds(1))
        try s.apply(
            .setSignerName(.representative, given: "Ottoline", family: "Vasquez-Brandauer", relationship: "HPOWATT"),
            now: .seconds(1))
        try s.apply(.submitSignature(Self.strokes), now: .seconds(1))
        try s.apply(.setSignerName(.witness, given: "Wilhelmina", family: "Strautmann", relationship: nil), now: .seconds(1))
        let witnessStrokes = SignatureStrokes(strokes: [[
            StrokePoint(x: 0.141421, y: 0.173205, t: 0, p: nil), StrokePoint(x: 0.223606, y: 0.264575, t: 80, p: nil),
        ]])
        try s.apply(.submitSignature(witnessStrokes), now: .seconds(1))
        #expect(s.step == .done)
        // The relationship code is in the study's options too, so its wipe is checked on the property.
        let needles = ["Vasquez-Brandauer", "Ottoline", "Strautmann", "Wilhelmina", "0.141421", "0.264575"]
        #expect(s.representativeRelationship?.code == "HPOWATT")
        #expect(needles.allSatisfy { Self.dump(s).contains($0) })
        switch ending {
        case .cancelled: try s.apply(.cancel, now: .seconds(2))
        case .declined: try s.apply(.decline, now: .seconds(2))
        case .expired:
            let expired = s.expireIfIdle(now: .seconds(61))
            #expect(expired)
        case .completed:
            _ = try s.outcome()
            try s.markCompleted()
        }
        expectWiped(s)
        let text = Self.dump(s)
        for needle in needles { #expect(!text.contains(needle), "the ended session still holds \(needle)") }
        #expect(s.representativeRelationship == nil && s.witnessSignature == nil)
    }

    @Test func ineligibleAnswersAreWiped() throws {
        var s = ConsentSession(id: "f", study: try study(), now: .zero)
        try s.apply(.answerEligibility([false]), now: .seconds(1))
        #expect(s.step == .ineligible)
        expectWiped(s)
    }

    @Test func expiryFoundByALateActionWipesToo() throws {
        var s = try signedSession()
        try s.apply(.back(.done), now: .seconds(2))
        #expect(s.step == .passcode)
        #expect(throws: ConsentCoreError.self) { try s.apply(.setPasscode("1357"), now: .seconds(200)) }
        #expect(s.step == .expired)
        expectWiped(s)
    }
}
