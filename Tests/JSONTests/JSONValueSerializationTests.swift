import Foundation
import JSONTestSupport
import SampleStudy
import Testing

@testable import JSON

/// `JSONValue.serializedBytes` (whose `Data` is ConsentCore's `serialized()`) writes exactly the bytes Foundation's
/// `JSONEncoder` gave every record before it.
@Suite struct JSONValueSerializationTests {
    /// What `serializedBytes` replaced, with the same options.
    func encoderBytes(_ value: JSONValue, pretty: Bool) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    func expectSameBytes(_ value: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for pretty in [false, true] {
            let ours = Data(try value.serializedBytes(pretty: pretty))
            let foundation = try encoderBytes(value, pretty: pretty)
            #expect(
                ours == foundation,
                "pretty: \(pretty)\nours: \(String(decoding: ours, as: UTF8.self))\nJSONEncoder: \(String(decoding: foundation, as: UTF8.self))",
                sourceLocation: sourceLocation)
        }
    }

    @Test func numbers() throws {
        let doubles: [Double] = [
            0, -0.0, 1, -1, 0.1, 1.5, 2.5e3, 1e-5, 1e-300, 5e-324, 123_456_789_012_345_680_000, 1e21, 9_007_199_254_740_993,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude, 0.30000000000000004, 100, 1e16,
        ]
        try expectSameBytes(.array(doubles.map(JSONValue.number)))
        try expectSameBytes(.array([0, 1, -1, 42, .integer(.max), .integer(.min)]))
    }

    @Test func stringsEscapeOnlyWhatJSONEncoderEscapes() throws {
        let everyASCII = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        let strings = [
            "", everyASCII, "a/b", "quote \" and backslash \\", "Zoë Ångström", "日本語", "😀 \u{1F1E9}\u{1F1EA}",
            "line\u{2028}separator", "e\u{301}", "\u{7F}\u{80}\u{FEFF}", "tab\tnew\nline\rform\u{0C}back\u{08}",
        ]
        try expectSameBytes(.array(strings.map(JSONValue.string)))
        // Keys are escaped the same way and sorted by their UTF-8 bytes.
        try expectSameBytes(.object(Dictionary(uniqueKeysWithValues: strings.map { ($0, JSONValue.bool(true)) })))
    }

    @Test func keysSortByTheirUTF8Bytes() throws {
        // ("é" and "e\u{301}" cannot both be keys: Swift's String equality is canonical equivalence.)
        let keys = ["b", "a", "B", "é", "ö", "10", "9", "", "aa", "a ", "Z", "_", "ä", "z"]
        let value = JSONValue.object(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, JSONValue.integer(Int64($0))) }))
        try expectSameBytes(value)
        #expect(String(decoding: try value.serializedBytes(), as: UTF8.self).hasPrefix(#"{"":7,"10":5,"9":6,"B":2,"Z":10,"_":11,"a":1,"a ":9,"aa":8"#))
    }

    @Test func emptyAndNestedContainers() throws {
        try expectSameBytes(.array([]))
        try expectSameBytes(.object([:]))
        try expectSameBytes(.array([.array([]), .object([:]), .array([.array([.object(["k": .array([])])])])]))
        try expectSameBytes(.object(["a": .object([:]), "b": .array([.null, .bool(false), .bool(true)]), "c": .null]))
        try expectSameBytes(.string("top-level"))
        try expectSameBytes(.null)
    }

    @Test func randomDocuments() throws {
        var generator = SeededGenerator(seed: 0x5EED_1234)
        for _ in 0..<300 {
            try expectSameBytes(randomValue(depth: 0, using: &generator))
        }
    }

    @Test func theSampleStudysDocuments() throws {
        let folder = try #require(SampleStudy.folder)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        #expect(!files.isEmpty)
        for file in files {
            try expectSameBytes(try JSONValue.parseDocument(Data(contentsOf: file)))
        }
    }

    @Test func whatJSONEncoderRefusesIsRefused() throws {
        for number in [Double.nan, .infinity, -.infinity] {
            let value = JSONValue.array([.number(number)])
            #expect(throws: EncodingError.self) { try value.serializedBytes() }
            #expect(throws: EncodingError.self) { try encoderBytes(value, pretty: false) }
        }
        // Nesting: JSONEncoder writes 511 containers deep and refuses 512.
        func nested(_ depth: Int) -> JSONValue {
            var value = JSONValue.null
            for i in 0..<depth { value = i.isMultiple(of: 2) ? .array([value]) : .object(["k": value]) }
            return value
        }
        try expectSameBytes(nested(JSONValueWriter.maximumDepth - 1))
        #expect(throws: EncodingError.self) { try nested(JSONValueWriter.maximumDepth).serializedBytes() }
        #expect(throws: EncodingError.self) { try encoderBytes(nested(JSONValueWriter.maximumDepth), pretty: true) }
    }

    func randomValue(depth: Int, using generator: inout SeededGenerator) -> JSONValue {
        let kind = Int.random(in: 0..<(depth < 4 ? 9 : 6), using: &generator)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...63, using: &generator))
        case 3:
            // Any finite bit pattern, then some everyday ones.
            let bits = Double(bitPattern: UInt64.random(in: 0 ... .max, using: &generator))
            return .number(bits.isFinite ? bits : Double(Int.random(in: -1000...1000, using: &generator)) / 8)
        case 4, 5:
            let scalars = (0..<Int.random(in: 0..<12, using: &generator)).map { _ in
                let pick = Int.random(in: 0..<4, using: &generator)
                let range: ClosedRange<UInt32> = pick == 0 ? 0...0x7F : pick == 1 ? 0x80...0x7FF : pick == 2 ? 0x800...0xD7FF : 0x1_0000...0x1_F6FF
                return Character(Unicode.Scalar(UInt32.random(in: range, using: &generator)) ?? "x")
            }
            return .string(String(scalars))
        case 6, 7:
            return .object(Dictionary(
                (0..<Int.random(in: 0..<6, using: &generator)).map { _ in
                    (String(Int.random(in: 0..<40, using: &generator), radix: 36), randomValue(depth: depth + 1, using: &generator))
                }, uniquingKeysWith: { first, _ in first }))
        default:
            return .array((0..<Int.random(in: 0..<6, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) })
        }
    }
}
