import Foundation
import JSONTestSupport
import JSONFoundation
import Testing

@testable import JSON

/// `JSONValueDecoder` reads what Foundation's `JSONDecoder` (default options) read, from `JSONParser`'s tree, and
/// names the coding path of what does not fit.
@Suite struct JSONValueDecoderTests {
    struct Inner: Codable, Hashable {
        var name: String
        var size: Int
        var note: String?
    }

    enum Mode: String, Codable, Hashable { case offline, online }

    enum Shape: Codable, Hashable {
        case circle(radius: Double)
        case none
    }

    struct Outer: Codable, Hashable {
        var format: String
        var count: Int
        var big: UInt64
        var small: Int8
        var ratio: Double
        var single: Float?
        var flag: Bool
        var mode: Mode
        var shape: Shape?
        var inner: Inner
        var list: [Inner]
        var grid: [[Int]]?
        var byName: [String: Inner]
        var counts: [String: Int]?
        var device: JSONValue?
        var salt: Data?
    }

    struct Manual: Codable, Hashable {
        var a: Int
        var rest: [String]

        init(a: Int, rest: [String]) {
            self.a = a
            self.rest = rest
        }

        init(from decoder: any Decoder) throws {
            var list = try decoder.unkeyedContainer()
            a = try list.decode(Int.self)
            var rest: [String] = []
            while !list.isAtEnd {
                if try list.decodeNil() { continue }
                rest.append(try list.decode(String.self))
            }
            self.rest = rest
        }

        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encode(a)
            for r in rest { try list.encode(r) }
        }
    }

    static let outerText = """
        {"format": "x/1", "count": 3, "big": 9007199254740993, "small": -5, "ratio": 0.25, "single": 1.5, "flag": true,
         "mode": "online", "shape": {"circle": {"radius": 2}},
         "inner": {"name": "ä/\\u00e9", "size": 2.0, "note": null}, "list": [{"name": "a", "size": 2.5e3}],
         "grid": [[1, 2], []], "byName": {"k": {"name": "b", "size": 0}, "": {"name": "", "size": -1}},
         "counts": {"x": 1}, "device": {"name": "pad", "dpi": 2.0, "axes": [1.5, null, true]},
         "salt": "AAEC/w=="}
        """

    func foundation<T: Decodable>(_ type: T.Type, _ text: String) -> Result<T, any Error> {
        Result { try JSONDecoder().decode(type, from: Data(text.utf8)) }
    }

    func ours<T: Decodable>(_ type: T.Type, _ text: String) -> Result<T, JSONValueDecoder.Error> {
        Result { () throws(JSONValueDecoder.Error) -> T in try JSONValueDecoder.foundation().decode(type, from: Array(text.utf8)) }
    }

    /// Both decode the same value, or both refuse the text.
    func expectSame<T: Decodable & Equatable>(_ type: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        switch (foundation(type, text), ours(type, text)) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
        case (.failure, .failure): break
        case (let a, let b):
            Issue.record("JSONDecoder: \(a)\nours: \(b)\ntext: \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func decodesWhatJSONDecoderDecodes() throws {
        let value = try JSONValueDecoder.foundation().decode(Outer.self, from: Array(Self.outerText.utf8))
        #expect(value.inner.name == "ä/é")
        #expect(value.list[0].size == 2500)
        #expect(value.big == 9_007_199_254_740_993)
        #expect(value.salt == Data([0, 1, 2, 255]))
        #expect(value.shape == .circle(radius: 2))
        #expect(value.device?["dpi"] == .integer(2))
        expectSame(Outer.self, Self.outerText)
    }

    @Test func tableOfValuesAgreesWithJSONDecoder() {
        let ints = ["0", "-1", "2.0", "2.5", "2.5e3", "1e2", "-0", "9223372036854775807", "9223372036854775808", "1e300",
                    "\"1\"", "true", "null", "[]", "{}"]
        for text in ints {
            expectSame(Int.self, text)
            expectSame(Int8.self, text)
            expectSame(UInt8.self, text)
            expectSame(UInt64.self, text)
            expectSame(Double.self, text)
            expectSame(Float.self, text)
            expectSame(Bool.self, text)
            expectSame(String.self, text)
            expectSame(Int?.self, text)
            expectSame([Int].self, text)
            expectSame([String: Int].self, text)
        }
        for text in ["300", "-129", "128", "255", "256", "3.4e38", "3.5e38", "1e-50"] {
            expectSame(Int8.self, text)
            expectSame(UInt8.self, text)
            expectSame(Float.self, text)
        }
        for text in ["\"offline\"", "\"Offline\"", "1", "null"] { expectSame(Mode.self, text) }
        for text in ["{\"none\": {}}", "{\"circle\": {\"radius\": \"2\"}}", "{\"circle\": {}}", "{}", "{\"square\": {}}"] {
            expectSame(Shape.self, text)
        }
        for text in ["[1, \"a\", null, \"b\"]", "[1]", "[]", "[\"a\"]", "[1, 2]", "{}"] { expectSame(Manual.self, text) }
        for text in ["\"AAEC/w==\"", "\"not base64!\"", "\"\"", "[0, 1]", "1"] { expectSame(Data.self, text) }
        for text in ["\"https://example.org/a?b=c\"", "\"\"", "1"] { expectSame(URL.self, text) }
        for text in ["\u{FEFF}{\"name\": \"a\", \"size\": 1}", "{\"name\": \"a\"}",
                     "{\"name\": \"a\", \"size\": 1, \"note\": 5}", "{\"name\": \"a\", \"size\": null}", " {\"name\": \"a\", \"size\": 1} x"]
        {
            expectSame(Inner.self, text)
        }
        // The one difference: the text is held to RFC 8259, where JSONDecoder let a trailing comma through.
        let trailingComma = "{\"name\": \"a\", \"size\": 1,}"
        #expect((try? foundation(Inner.self, trailingComma).get()) == Inner(name: "a", size: 1))
        #expect(throws: JSONValueDecoder.Error.self) { try ours(Inner.self, trailingComma).get() }
    }

    @Test func errorsNameTheCodingPath() {
        func failure<T: Decodable>(_ type: T.Type, _ text: String) -> JSONValueDecoder.Error? {
            if case .failure(let error) = ours(type, text) { return error }
            return nil
        }
        let missing = failure(Outer.self, Self.outerText.replacingOccurrences(of: #""size": 2.5e3"#, with: #""sizes": 1"#))
        #expect(missing?.kind == .missingKey)
        #expect(missing?.codingPath == "list[0]")
        #expect(missing?.description == "list[0]: no member \"size\"")

        let wrongType = failure(Outer.self, Self.outerText.replacingOccurrences(of: #""name": "b""#, with: #""name": 7"#))
        #expect(wrongType?.kind == .typeMismatch)
        #expect(wrongType?.description == "byName.k.name: expected a string, found a number")

        let null = failure(Outer.self, Self.outerText.replacingOccurrences(of: #""flag": true"#, with: #""flag": null"#))
        #expect(null?.kind == .missingValue)
        #expect(null?.codingPath == "flag")

        let fraction = failure(Outer.self, Self.outerText.replacingOccurrences(of: #""count": 3"#, with: #""count": 3.5"#))
        #expect(fraction?.kind == .invalidValue)
        #expect(fraction?.description == "count: the number 3.5 does not fit in Int")

        let outOfRange = failure(Outer.self, Self.outerText.replacingOccurrences(of: #""small": -5"#, with: #""small": 200"#))
        #expect(outOfRange?.description == "small: the number 200 does not fit in Int8")

        let grid = failure(Outer.self, Self.outerText.replacingOccurrences(of: #"[[1, 2], []]"#, with: #"[[1, "2"]]"#))
        #expect(grid?.description == "grid[0][1]: expected an integer, found a string")

        let badCase = failure(Outer.self, Self.outerText.replacingOccurrences(of: #""online""#, with: #""sideways""#))
        #expect(badCase?.kind == .invalidValue)
        #expect(badCase?.codingPath == "mode")

        let badBase64 = failure(Outer.self, Self.outerText.replacingOccurrences(of: #""AAEC/w==""#, with: #""%%""#))
        #expect(badBase64?.description == "salt: not valid base64")

        let short = failure(Manual.self, "[]")
        #expect(short?.kind == .missingValue)
        #expect(short?.codingPath == "[0]")

        let notJSON = failure(Inner.self, "{\"name\": ")
        #expect(notJSON?.kind == .notJSON)
        #expect(notJSON?.underlying is JSONParser.Error)

        let deep = failure(JSONValue.self, String(repeating: "[", count: 600) + String(repeating: "]", count: 600))
        #expect(deep?.kind == .notJSON)
    }

    @Test func dateIsDeferredOrTheCallersStrategy() throws {
        let text = #"{"at": 1000.5}"#
        struct Stamped: Codable, Equatable { var at: Date }
        expectSame(Stamped.self, text)
        let custom = JSONValueDecoder.foundation(date: { decoder in
            Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
        })
        #expect(try custom.decode(Stamped.self, from: Array(text.utf8)).at == Date(timeIntervalSince1970: 1000.5))
    }
}
