import Foundation
import JSON
import Testing

@Suite struct JSONParserTests {
    private func parse(_ s: String) throws -> JSONValue { try JSONParser.parse(Array(s.utf8)) }

    @Test func valuesAndTypes() throws {
        #expect(try parse(#" {"a":[1,-2,3.5,1e2,-0.25E-1,true,false,null],"b":{"c":""}} "#) == [
            "a": [1, -2, .number(3.5), .number(100), .number(-0.025), true, false, nil], "b": ["c": ""],
        ])
        #expect(try parse("9223372036854775807") == .integer(.max))
        #expect(try parse("9223372036854775808") == .number(9223372036854775808))
        #expect(try parse("[]") == [])
        #expect(try parse("{}") == [:])
    }

    @Test func stringEscapes() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\u{8}\u{c}\n\r\té😀"))
        #expect(try parse("\"Zoë 😀\"") == .string("Zoë 😀"))
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", "\"abc", "[1 2]",
        "{\"a\" 1}", "{1:2}", "\"\u{1}\"", #""\x""#, #""\ud83d""#, #""\ude00""#, "1 2", "NaN", "Infinity", "1e999",
        String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
    ])
    func rejects(_ input: String) {
        #expect(throws: JSONParser.Error.self) { try parse(input) }
    }

    @Test func rejectsInvalidUTF8() throws {
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        // After ASCII, in a key, and a sequence cut short: the validation the ASCII-only strings skip.
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(Array(#""abc"#.utf8) + [0xC3, 0x22]) }
        let surrogateInKey = Array(#"{""#.utf8) + [0x61, 0xED, 0xA0, 0x80] + Array(#"":1}"#.utf8)
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(surrogateInKey) }
        #expect(try JSONParser.parse(Array("\"\u{7F}a\u{E9}\"".utf8)) == .string("\u{7F}aé"))
    }

    /// An object's members are collected while nested objects are read: each object gets its own, in the end the
    /// last of a repeated member, however deep and whatever follows.
    @Test func objectsKeepTheirOwnMembers() throws {
        #expect(
            try parse(#"{"a":1,"o":{"a":2,"i":{"a":3,"a":4},"b":[{"a":5},{}]},"a":6,"z":{"y":{}}}"#) == [
                "a": 6, "o": ["a": 2, "i": ["a": 4], "b": [["a": 5], [:]]], "z": ["y": [:]],
            ])
        #expect(try parse(#"[{"k":1},{"k":2,"k":3},{"j":{"k":4}}]"#) == [["k": 1], ["k": 3], ["j": ["k": 4]]])
    }

    /// A file written for Apple's JSONSerialization (a C3-PRO study's) may close a container after a comma; the
    /// lenient form reads it and says where, and only that form: the wire and other documents stay RFC 8259.
    @Test func lenientDocumentsAcceptTrailingCommasAndSayWhere() throws {
        let text = "{\"items\": [{\"title\": \"About\", \"filename\": \"about\",}, 2 ,\n],}"
        var leniencies: [JSONParser.Leniency] = []
        let value = try JSONParser.parse(Array(text.utf8), options: .lenientDocument, leniencies: &leniencies)
        #expect(value == ["items": [["title": "About", "filename": "about"], 2]])
        let commas = text.utf8.indices.filter { text.utf8[$0] == UInt8(ascii: ",") }
            .map { text.utf8.distance(from: text.utf8.startIndex, to: $0) }
        #expect(
            leniencies == [
                .init(kind: .trailingCommaInObject, offset: commas[1]),
                .init(kind: .trailingCommaInArray, offset: commas[3]),
                .init(kind: .trailingCommaInObject, offset: commas[4]),
            ])
        for options in [JSONParser.Options.wire, .document] {
            #expect(throws: JSONParser.Error.self) { try JSONParser.parse(Array(text.utf8), options: options) }
        }
        // Strict text has nothing to report.
        var none: [JSONParser.Leniency] = []
        _ = try JSONParser.parse(Array(#"{"a":[1,2]}"#.utf8), options: .lenientDocument, leniencies: &none)
        #expect(none.isEmpty)
    }

    /// The lenient form accepts exactly what Foundation's JSONSerialization (the same parser as Apple's, on Linux)
    /// accepts of these: one comma before a closing bracket, never a lone or a doubled one, and nothing else that
    /// RFC 8259 forbids.
    @Test(arguments: [
        "[1,]", "{\"a\":1,}", "[1 ,\n ]", "{\"a\":[1,],}", "[,]", "{,}", "[1,,]", "{\"a\":1,,}", "[1,]x", "[1]//c",
        "{'a':1}", "{a:1}", "[NaN]", "[01]", "\u{FEFF}[1,]",
    ])
    func lenientAgreesWithJSONSerialization(_ text: String) {
        let foundation = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil
        let ours = (try? JSONParser.parse(Array(text.utf8), options: .lenientDocument)) != nil
        #expect(ours == foundation, "\(text.debugDescription)")
    }

    /// Same trees as Foundation's parser for a spread of documents.
    @Test func agreesWithFoundation() throws {
        let documents = [
            #"{"jsonrpc":"2.0","id":1,"method":"signature.submit","params":{"flow":"f","strokes":{"strokes":[[[0.1,0.2,0,null],[0.3,0.4,8,0.5]]]}}}"#,
            #"[1,2,[3,[4,{"x":"y\n"}]],"\u0041"]"#,
            #"{"nested":{"deeper":{"deepest":[true,false,null,-1.5e-3]}}}"#,
        ]
        for document in documents {
            let ours = try parse(document)
            let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(document.utf8))
            #expect(ours == foundation, "\(document)")
        }
    }
}
