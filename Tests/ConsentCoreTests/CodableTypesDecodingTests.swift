import Foundation
import JSONFoundation
import JSONTestSupport
import Testing

@testable import ConsentCore

/// ConsentCore's own Codable types read through `JSONValueDecoder` as Foundation's `JSONDecoder` read them (the
/// decoder against made-up types: JSONTests' JSONValueDecoderTests).
@Suite struct CodableTypesDecodingTests {
    /// Both decode the same value, or both refuse the text.
    func expectSame<T: Decodable & Equatable>(_ type: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let foundation = Result { try JSONDecoder().decode(type, from: Data(text.utf8)) }
        let ours = Result { () throws(JSONValueDecoder.Error) -> T in try JSONValueDecoder.foundation().decode(type, from: Array(text.utf8)) }
        switch (foundation, ours) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
        case (.failure, .failure): break
        case (let a, let b):
            Issue.record("JSONDecoder: \(a)\nours: \(b)\ntext: \(text)", sourceLocation: sourceLocation)
        }
    }

    /// Real documents, then every one of many random edits of them (a member dropped, a value of another type, a
    /// null, a fraction): JSONDecoder and ours agree on each, value for value or both refusing.
    @Test func randomEditsOfRealStructsAgreeWithJSONDecoder() throws {
        var generator = SeededGenerator(seed: 38)
        let strokes = SignatureStrokes(
            strokes: [[StrokePoint(x: 1.5, y: 2, t: 0, p: 0.5), StrokePoint(x: 3, y: 4.25, t: 16, p: nil)]],
            widthMM: 120, heightMM: 40.5)
        var signature = try JSONValue.parse(JSONEncoder().encode(strokes))
        signature.set("device", ["name": "pad", "dpi": 300])
        signature.set("tilt", [[[1, 2], [3, 4]]])
        let passcode = try JSONValue.parse(JSONEncoder().encode(PasscodeHash(passcode: "1234")))
        let fingerprint = try JSONValue.parse(
            JSONEncoder().encode(SectionFingerprint(title: "Über", type: .overview, sha256: String(repeating: "a", count: 64))))
        let approval = try JSONValue.parse(
            JSONEncoder().encode(StudyApprovalBinding(sha256: "ab", keyFingerprint: "cd", approved: "2026-01-01", expires: "2027-01-01", site: "x")))
        for _ in 0..<300 {
            expectSame(SignatureStrokes.self, String(decoding: try signature.randomEdit(using: &generator).serialized(), as: UTF8.self))
            expectSame(PasscodeHash.self, String(decoding: try passcode.randomEdit(using: &generator).serialized(), as: UTF8.self))
            expectSame(SectionFingerprint.self, String(decoding: try fingerprint.randomEdit(using: &generator).serialized(), as: UTF8.self))
            expectSame(StudyApprovalBinding.self, String(decoding: try approval.randomEdit(using: &generator).serialized(), as: UTF8.self))
        }
    }
}
