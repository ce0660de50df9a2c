import ConsentCore
import EnteredText
import Foundation
import UTCTime

/// A consent captured elsewhere (`SESSION.json` of `consentctl sign`), replayed through `ConsentSession` so an
/// offline signing takes exactly the agent's path: the same eligibility rule, name and signature checks.
///
/// ```
/// { "answers": [true, true, false, true],      booleans (or null) in requirement order
///   "shareWidely": true,                        or false, or null when the study does not ask
///   "given": "…", "family": "…",
///   "strokes": [[[x, y, t, p], …], …],          or a signature object {"strokes": …, "widthMM": …, "heightMM": …}
///   "patient": { "resourceType": "Patient", … } or null
///   "deidentify": false,
///   "location": { FHIR Address } or null,       else the kiosk's configured site address
///   "signedAt": "2026-09-14T10:15:30Z",         RFC 3339
///   "passcode": "1234",                         only when the study asks for one
///   "additionalSigners": [ { "role": "witness", "given": …, "family": …, "strokes": …, "signedAt": … } ],
///   "representative": { "given": …, "family": …, "relationship": "PRN" },   when one signed (`strokes` are theirs)
///   "witness": { "given": …, "family": …, "strokes": … },                   when the study requires a witness
///   "comprehension": [[1], [0, 1], [0]],        when the study asks comprehension questions: per question, the
///                                               0-based choices given, in order (a wrong one, then the next try)
///   "optional": { "future-research": true } }   when the study has optional elements: each one's answer by id
/// ```
public struct OfflineSession: Sendable {
    public var answers: [Bool?]
    public var shareWidely: Bool?
    public var givenName: String
    public var familyName: String
    public var signature: SignatureStrokes
    public var patient: JSONValue?
    public var deidentify: Bool
    public var location: JSONValue?
    public var signedAt: Date
    public var passcode: String?
    public var additionalSigners: [AdditionalSignature]
    /// A representative who signed for the participant: given, family, relationship code.
    public var representative: (given: String, family: String, relationship: String)?
    /// The witness the study requires.
    public var witness: (given: String, family: String, strokes: SignatureStrokes)?
    /// The comprehension check's answers: per question, the choices given in order.
    public var comprehension: [[Int]]?
    /// The optional elements' answers, by element id (true: Yes).
    public var optional: [String: Bool]?

    /// Parses `SESSION.json`.
    ///
    /// - Throws: `.invalidSession` naming the member that is missing or of the wrong type (never its value).
    public static func parse(_ data: Data) throws -> OfflineSession {
        let root: JSONValue
        do {
            root = try JSONValue.parse(data)
        } catch {
            throw ConsentSigningError(.invalidSession, "the session file is not valid JSON")
        }
        guard let members = root.objectValue else {
            throw ConsentSigningError(.invalidSession, "the session file must be a JSON object, found \(root.typeName)")
        }
        let reader = MemberReader(members: members, path: "")
        guard let answerValues = members["answers"]?.arrayValue else {
            throw ConsentSigningError(.invalidSession, "\"answers\" must be an array of booleans in requirement order")
        }
        let answers: [Bool?] = try answerValues.enumerated().map { index, value in
            if value.isNull { return nil }
            guard let b = value.boolValue else {
                throw ConsentSigningError(.invalidSession, "answers[\(index)] must be true, false or null")
            }
            return b
        }
        let signedAtText = try reader.string("signedAt")
        guard let signedAt = RFC3339.date(from: signedAtText) else {
            throw ConsentSigningError(.invalidSession, "\"signedAt\" must be an RFC 3339 date-time, e.g. 2026-09-14T10:15:30Z")
        }
        var additional: [AdditionalSignature] = []
        if let list = members["additionalSigners"], !list.isNull {
            guard let items = list.arrayValue else {
                throw ConsentSigningError(.invalidSession, "\"additionalSigners\" must be an array")
            }
            for (index, item) in items.enumerated() {
                let path = "additionalSigners[\(index)]."
                guard let itemMembers = item.objectValue else {
                    throw ConsentSigningError(.invalidSession, "additionalSigners[\(index)] must be an object")
                }
                let itemReader = MemberReader(members: itemMembers, path: path)
                let roleName = try itemReader.string("role")
                guard let role = SignerRole(rawValue: roleName) else {
                    let known = SignerRole.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ConsentSigningError(.invalidSession, "\(path)role must be one of \(known)")
                }
                var when: Date?
                if let text = try itemReader.optionalString("signedAt") {
                    guard let date = RFC3339.date(from: text) else {
                        throw ConsentSigningError(.invalidSession, "\(path)signedAt must be an RFC 3339 date-time")
                    }
                    when = date
                }
                let given = try itemReader.string("given"), family = try itemReader.string("family")
                // Not replayed through the session: held to its rule for names here.
                for (member, name) in [("given", given), ("family", family)] {
                    do throws(EnteredText.Refusal) {
                        try EnteredText.checkName(name, maximumCharacters: ConsentSession.maximumNameLength)
                    } catch {
                        throw ConsentSigningError(.invalidSession, "\(path)\(member) \(error)")
                    }
                }
                additional.append(
                    AdditionalSignature(
                        role: role, givenName: given, familyName: family, strokes: try itemReader.strokes("strokes"),
                        signedAt: when))
            }
        }
        var representative: (given: String, family: String, relationship: String)?
        if let value = reader.optionalValue("representative") {
            guard let object = value.objectValue else {
                throw ConsentSigningError(.invalidSession, "\"representative\" must be an object {given, family, relationship}")
            }
            let sub = MemberReader(members: object, path: "representative.")
            representative = (try sub.string("given"), try sub.string("family"), try sub.string("relationship"))
        }
        var witness: (given: String, family: String, strokes: SignatureStrokes)?
        if let value = reader.optionalValue("witness") {
            guard let object = value.objectValue else {
                throw ConsentSigningError(.invalidSession, "\"witness\" must be an object {given, family, strokes}")
            }
            let sub = MemberReader(members: object, path: "witness.")
            witness = (try sub.string("given"), try sub.string("family"), try sub.strokes("strokes"))
        }
        var comprehension: [[Int]]?
        if let value = reader.optionalValue("comprehension") {
            let shape = "\"comprehension\" must be an array with, per question, the array of 0-based choices given in order"
            guard let questions = value.arrayValue else { throw ConsentSigningError(.invalidSession, shape) }
            comprehension = try questions.map { (question: JSONValue) throws -> [Int] in
                guard let choices = question.arrayValue, !choices.isEmpty else { throw ConsentSigningError(.invalidSession, shape) }
                return try choices.map { (choice: JSONValue) throws -> Int in
                    guard case .integer(let n) = choice, n >= 0, n <= Int64(Int32.max) else {
                        throw ConsentSigningError(.invalidSession, shape)
                    }
                    return Int(n)
                }
            }
        }
        var optional: [String: Bool]?
        if let value = reader.optionalValue("optional") {
            guard let object = value.objectValue else {
                throw ConsentSigningError(.invalidSession, "\"optional\" must be an object of answers by element id (true or false)")
            }
            optional = try object.mapValues { (answer: JSONValue) throws -> Bool in
                guard let given = answer.boolValue else {
                    throw ConsentSigningError(.invalidSession, "\"optional\" must be an object of answers by element id (true or false)")
                }
                return given
            }
        }
        // The patient and the location as the agent's flow.complete checks them (FHIRInputCheck).
        let patient = reader.optionalValue("patient"), location = reader.optionalValue("location")
        do {
            if let patient, !patient.isNull { try FHIRInputCheck.patient(patient, today: signedAt) }
            if let location, !location.isNull { try FHIRInputCheck.address(location) }
        } catch let fault as FHIRInputCheck.Fault {
            throw ConsentSigningError(.invalidSession, fault.description)
        }
        return OfflineSession(
            answers: answers, shareWidely: try reader.optionalBool("shareWidely"), givenName: try reader.string("given"),
            familyName: try reader.string("family"), signature: try reader.strokes("strokes"),
            patient: patient, deidentify: try reader.optionalBool("deidentify") ?? false,
            location: location, signedAt: signedAt, passcode: try reader.optionalString("passcode"),
            additionalSigners: additional, representative: representative, witness: witness, comprehension: comprehension,
            optional: optional)
    }

    /// Runs the answers, the sharing choice, the name, the signature (and the passcode when asked) through a
    /// `ConsentSession` of `study`, as the agent does.
    ///
    /// - Returns: the session's outcome.
    /// - Throws: the session's `ConsentCoreError` (`.notEligible`, `.missingName`, `.missingSignature`, …), or
    ///   `.invalidSession` when the study asks for something the file does not give.
    public func replay(study: Study) throws -> ConsentOutcome {
        var clock = Duration.zero
        var session = ConsentSession(id: "offline", study: study, now: clock)
        func apply(_ action: ConsentAction) throws {
            clock += .seconds(1)
            try session.apply(action, now: clock)
        }
        try apply(.answerEligibility(answers))
        guard session.step != .ineligible else {
            throw ConsentCoreError(.notEligible, "the answers make the participant ineligible for this study; nothing was signed")
        }
        try apply(.next(.eligibility))
        // The key information is read, as the agent's flow shows it; nothing is given there.
        if session.step == .keyInformation { try apply(.next(.keyInformation)) }
        while session.step == .visual { try apply(.next(.visual)) }
        if session.step == .sharing {
            guard let shareWidely else {
                throw ConsentSigningError(.invalidSession, "the study asks how to share data: set \"shareWidely\" to true or false")
            }
            try apply(.chooseSharing(shareWidely: shareWidely))
        }
        if session.step == .optional {
            let ids = session.optionalElements.map(\.id).joined(separator: ", ")
            guard let optional else {
                throw ConsentSigningError(
                    .invalidSession, "the study has optional elements: set \"optional\" to each one's answer by id (\(ids))")
            }
            try apply(.answerOptional(optional))
            guard session.step == .reviewStep else {
                throw ConsentSigningError(.invalidSession, "\"optional\" does not answer every optional element (\(ids))")
            }
        } else if optional != nil {
            throw ConsentSigningError(.invalidSession, "the study has no optional elements: remove \"optional\"")
        }
        try apply(.agree)
        if session.step == .comprehension {
            guard let comprehension else {
                throw ConsentSigningError(
                    .invalidSession, "the study asks comprehension questions: set \"comprehension\" to the choices given per question")
            }
            for (question, choices) in comprehension.enumerated() {
                for choice in choices {
                    guard session.step == .comprehension, session.comprehension.phase == .question else { break }
                    try apply(.answerComprehension(question: question, choice: choice))
                    if session.step == .comprehension, session.comprehension.phase == .explanation { try apply(.next(.comprehension)) }
                }
            }
            guard session.step == .reviewStep else {
                throw ConsentSigningError(
                    .invalidSession, "\"comprehension\" does not complete the study's comprehension check (or it stopped)")
            }
        } else if comprehension != nil {
            throw ConsentSigningError(.invalidSession, "the study asks no comprehension questions: remove \"comprehension\"")
        }
        if session.reviewPage == .signer {
            try apply(.chooseSigner(representative == nil ? .participant : .representative))
        } else if representative != nil {
            throw ConsentSigningError(.invalidSession, "the study does not allow a representative: remove \"representative\"")
        }
        try apply(.setName(given: givenName, family: familyName))
        if let representative {
            try apply(.setSignerName(
                .representative, given: representative.given, family: representative.family,
                relationship: representative.relationship))
        }
        try apply(.submitSignature(signature))
        if session.reviewPage == .witness {
            guard let witness else {
                throw ConsentSigningError(.invalidSession, "the study requires a witness: set \"witness\" to {given, family, strokes}")
            }
            try apply(.setSignerName(.witness, given: witness.given, family: witness.family, relationship: nil))
            try apply(.submitSignature(witness.strokes))
        } else if witness != nil {
            throw ConsentSigningError(.invalidSession, "the study asks for no witness: remove \"witness\"")
        }
        if session.step == .passcode {
            guard let passcode else {
                throw ConsentSigningError(.invalidSession, "the study asks for a passcode: set \"passcode\" to 4 to 8 digits")
            }
            try apply(.setPasscode(passcode))
        }
        return try session.outcome()
    }
}

/// Typed reads of a session file's members, with errors that name the member and never echo its value.
private struct MemberReader {
    var members: [String: JSONValue]
    var path: String

    func string(_ key: String) throws -> String {
        guard let s = members[key]?.stringValue else {
            throw ConsentSigningError(.invalidSession, "\"\(path)\(key)\" must be a string")
        }
        return s
    }

    func optionalString(_ key: String) throws -> String? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let s = value.stringValue else {
            throw ConsentSigningError(.invalidSession, "\"\(path)\(key)\" must be a string or null")
        }
        return s
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let b = value.boolValue else {
            throw ConsentSigningError(.invalidSession, "\"\(path)\(key)\" must be true, false or null")
        }
        return b
    }

    func optionalValue(_ key: String) -> JSONValue? {
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    /// The stroke format: a bare array of strokes, or a signature object with `strokes` and the area's size.
    func strokes(_ key: String) throws -> SignatureStrokes {
        guard let value = members[key], !value.isNull else { return SignatureStrokes(strokes: []) }
        let object: JSONValue = value.arrayValue != nil ? ["strokes": value] : value
        do {
            return try JSONValueDecoder().decode(SignatureStrokes.self, from: object)
        } catch {
            throw ConsentSigningError(
                .invalidSession, "\"\(path)\(key)\" must be strokes: an array of strokes of [x, y, t, p] points, or {\"strokes\": …}")
        }
    }
}
