import Foundation
import Testing

@testable import JSON

/// `JSONValue.parse` keeps every value in the case it has in the text, whatever order its decoder guesses in.
@Suite struct JSONValueTests {
    @Test func everyKindOfValueKeepsItsCase() throws {
        let text = """
            {"s": "text", "empty": "", "t": true, "f": false, "n": null, "i": 42, "negative": -7, "zero": 0,
             "big": 9007199254740993, "d": 1.5, "exp": 2.5e3, "tiny": 1e-300,
             "a": [1, "1", true, null, [], {}, 1.25], "o": {"nested": {"deeper": ["x"]}}, "unicode": "Zoë \\u00e9"}
            """
        let value = try JSONValue.parseDocument(Data(text.utf8))
        #expect(value["s"] == .string("text"))
        #expect(value["empty"] == .string(""))
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["n"] == .null)
        #expect(value["i"] == .integer(42))
        #expect(value["negative"] == .integer(-7))
        #expect(value["zero"] == .integer(0))
        #expect(value["big"] == .integer(9_007_199_254_740_993))
        #expect(value["d"] == .number(1.5))
        #expect(value["tiny"] == .number(1e-300))
        #expect(value["a"] == .array([.integer(1), .string("1"), .bool(true), .null, .array([]), .object([:]), .number(1.25)]))
        #expect(value["o"]?["nested"]?["deeper"] == .array([.string("x")]))
        #expect(value["unicode"] == .string("Zoë é"))
        // 2.5e3 is integral, and integers are tried before doubles, as they always were.
        #expect(value["exp"] == .integer(2500))
    }

    @Test func aDocumentRoundTripsThroughItsSortedSerialisation() throws {
        let text = #"{"a":[1,2.5,"x",false,null],"b":{"c":{}},"z":""}"#
        let value = try JSONValue.parseDocument(Data(text.utf8))
        #expect(String(decoding: try value.serializedBytes(), as: UTF8.self) == text)
        #expect(try JSONValue.parseDocument(value.serializedBytes()) == value)
    }

    @Test func notJSONIsAnError() {
        for bad in ["", "{", "{\"a\" 1}", "nul", "\"unterminated"] {
            #expect(throws: (any Error).self) { try JSONValue.parseDocument(Data(bad.utf8)) }
        }
    }
}
