import Foundation
import JSONTestSupport
import JSONFoundation
import Testing

@testable import JSON

/// `JSONValueEncoder` and `JSONValueWriter` write any `Encodable` as Foundation's `JSONEncoder` wrote it with
/// `.sortedKeys` (and `.prettyPrinted`, and `.withoutEscapingSlashes` or not), byte for byte.
@Suite struct JSONValueEncoderTests {
    typealias Outer = JSONValueDecoderTests.Outer

    func jsonEncoder(_ value: some Encodable, pretty: Bool, escapingSlashes: Bool) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
        if !escapingSlashes { encoder.outputFormatting.insert(.withoutEscapingSlashes) }
        return Array(try encoder.encode(value))
    }

    func expectSameBytes(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for pretty in [false, true] {
            for escaping in [false, true] {
                let ours = try JSONValueEncoder.foundation().encodedBytes(value, pretty: pretty, escapingSlashes: escaping)
                let theirs = try jsonEncoder(value, pretty: pretty, escapingSlashes: escaping)
                #expect(
                    ours == theirs,
                    "pretty \(pretty) escaping \(escaping)\nours: \(String(decoding: ours, as: UTF8.self))\nJSONEncoder: \(String(decoding: theirs, as: UTF8.self))",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func structsAreWrittenAsJSONEncoderWroteThem() throws {
        let outer = try JSONValueDecoder.foundation().decode(Outer.self, from: Array(JSONValueDecoderTests.outerText.utf8))
        try expectSameBytes(outer)
        try expectSameBytes([outer, outer])
        var sparse = outer
        sparse.single = 0.1
        sparse.shape = JSONValueDecoderTests.Shape.none
        sparse.grid = nil
        sparse.counts = [:]
        sparse.list = []
        sparse.byName = [:]
        sparse.device = ["a/b": [.number(1.5), .number(1e21), .integer(.min), "ü\u{1}"], "": [:]]
        sparse.salt = Data()
        try expectSameBytes(sparse)
        try expectSameBytes(JSONValueDecoderTests.Manual(a: 1, rest: ["x/y", ""]))
        try expectSameBytes(["k": URL(string: "https://example.org/a/b?c=d")])
        try expectSameBytes([Float(0.1), 1e-45, 16_777_216, -3.4e38])
        try expectSameBytes([UInt64(Int64.max), 0])
        try expectSameBytes([1: "one", 20: "twenty"])
    }

    @Test func randomTreesAreWrittenAsJSONEncoderWroteThem() throws {
        var generator = SeededGenerator(seed: 0xC0DA_B1E)
        for _ in 0..<200 {
            try expectSameBytes(JSONValueSerializationTests().randomValue(depth: 0, using: &generator))
        }
    }

    @Test func treesAreWhatJSONEncodersTextReadsBackAs() throws {
        let outer = try JSONValueDecoder.foundation().decode(Outer.self, from: Array(JSONValueDecoderTests.outerText.utf8))
        #expect(try JSONValueEncoder.foundation().encode(outer) == JSONValue.parseDocument(JSONEncoder().encode(outer)))
        #expect(try JSONValueEncoder().encode([2.0, 2.5]) == [2, .number(2.5)])
    }

    @Test func datesAreTheCallersStrategyOrDeferred() throws {
        struct Stamped: Encodable { var at: Date }
        let stamped = Stamped(at: Date(timeIntervalSince1970: 1_789_380_930.125))
        try expectSameBytes(stamped)
        let custom = JSONValueEncoder.foundation(date: { .string($0.formatted(.iso8601)) })
        #expect(String(decoding: try custom.encodedBytes(stamped), as: UTF8.self) == #"{"at":"2026-09-14T10:15:30Z"}"#)
    }

    @Test func whatJSONEncoderRefusesIsRefused() {
        struct Silent: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encodedBytes(Silent()) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Silent()) }
        #expect(throws: Never.self) { try JSONValueEncoder().encodedBytes([Silent()]) }
        for number in [Double.nan, .infinity] {
            #expect(throws: EncodingError.self) { try JSONValueEncoder().encodedBytes(["x": number]) }
            #expect(throws: EncodingError.self) { try JSONValueEncoder().encodedBytes(JSONValue.number(number)) }
        }
    }
}
