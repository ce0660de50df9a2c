import Foundation
import Testing

@testable import AgentProtocol

/// `RPCValue(encoding:)` builds the wire value in place: it must be the value that `JSONEncoder`'s text parses to,
/// which is how it was made before.
@Suite struct RPCValueEncoderTests {
    func throughText(_ value: some Encodable) throws -> RPCValue { try JSONParser.parse(try JSONEncoder().encode(value)) }

    func expectSame(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try RPCValue(encoding: value) == throughText(value), sourceLocation: sourceLocation)
    }

    struct View: Codable {
        enum Step: String, Codable { case intro, signature }
        enum Choice: Codable {
            case none
            case one(String)
            case pair(x: Int, y: Double)
        }
        var step: Step
        var title: String
        var progress: Double
        var count: Int
        var optional: String?
        var present: Int?
        var flags: [Bool]
        var nested: [[Int]]
        var byName: [String: Double]
        var byNumber: [Int: String]
        var choices: [Choice]
        var when: Date
        var blob: Data
        var link: URL
        var amount: Decimal
        var small: Int8
        var huge: UInt64
        var ratio: Float
    }

    @Test func aViewModelLikeValue() throws {
        let view = View(
            step: .signature, title: "Zoë \"quoted\" / slashed\n", progress: 0.5, count: -3, optional: nil, present: 7,
            flags: [true, false], nested: [[], [1, 2], [3]], byName: ["a": 1, "b": 2.25, "c": -0.0],
            byNumber: [1: "one", 20: "twenty"], choices: [.none, .one("x"), .pair(x: 1, y: 2.5)],
            when: Date(timeIntervalSinceReferenceDate: 812_345_678.25), blob: Data([0, 1, 2, 250, 255]),
            link: URL(string: "https://example.org/a?b=c")!, amount: Decimal(string: "12.345")!, small: -8, huge: .max,
            ratio: 0.1)
        try expectSame(view)
        try expectSame([view, view])
    }

    @Test func numbersReadAsTheParserReadsTheirText() throws {
        for double: Double in [0, -0.0, 1, 2.5, 1e15, 1e16, 1e20, 1e-7, 0.1, 123_456.789, -.greatestFiniteMagnitude, 5e-324] {
            try expectSame(double)
            try expectSame([double])
            try expectSame(["k": double])
        }
        for integer in [Int64.min, -1, 0, .max] { try expectSame(integer) }
        try expectSame(UInt64.max)
        try expectSame([UInt32.max])
        try expectSame([Float(1.5), 3, .greatestFiniteMagnitude])
        try expectSame(Decimal(string: "3")!)
        #expect(try RPCValue(encoding: 2.0) == .integer(2))
        #expect(try RPCValue(encoding: 2.5) == .number(2.5))
    }

    @Test func optionalsNullsAndEmptyContainers() throws {
        try expectSame(Int?.none)
        try expectSame([Int?.none, 1])
        try expectSame([String: [Int]]())
        try expectSame([[String: Int]]())
        struct Empty: Codable {}
        try expectSame(Empty())
        try expectSame(["e": Empty()])
    }

    struct Silent: Encodable { func encode(to encoder: any Encoder) throws {} }

    class Base: Encodable {
        var a = 1
        private enum CodingKeys: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(a, forKey: .a)
        }
    }

    final class Derived: Base {
        var b = "two"
        private enum CodingKeys: String, CodingKey { case b }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(b, forKey: .b)
            try super.encode(to: container.superEncoder())
        }
    }

    @Test func superEncodersAndValuesThatEncodeNothing() throws {
        try expectSame(Derived())
        // Nested, a value that encodes nothing is {} in both; at the top it is an error in both.
        try expectSame(["quiet": Silent()])
        try expectSame([Silent()])
        #expect(throws: EncodingError.self) { try RPCValue(encoding: Silent()) }
        #expect(throws: EncodingError.self) { try throughText(Silent()) }
    }

    @Test func nonFiniteNumbersAreRefusedLikeJSONEncoder() {
        for number in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try RPCValue(encoding: ["x": number]) }
            #expect(throws: EncodingError.self) { try throughText(["x": number]) }
        }
        #expect(throws: EncodingError.self) { try RPCValue(encoding: [Float.nan]) }
    }
}

extension RPCValueEncoderTests {
    @Test func existentialsAreEncodedAsWhatTheyHold() throws {
        // An `any Encodable` is opened when passed on: its Data is still base64, its URL still a string.
        struct Holder: Encodable {
            var items: [any Encodable]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                for item in items { try container.encode(item) }
            }
        }
        try expectSame(Holder(items: [Data([1, 2, 3]), URL(string: "file:///tmp/x")!, Decimal(7), "s", 1.0, 2]))
    }
}
