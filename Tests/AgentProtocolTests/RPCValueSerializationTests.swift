import AgentProtocol
import NIOCore
import Testing

@Suite struct RPCValueSerializationTests {
    @Test func writingIntoABufferGivesTheWritersBytes() {
        // `write(to:)` puts scalars and plain strings straight into the buffer: the same bytes as the one writer.
        let values: [RPCValue] = [
            nil, true, false, 0, -42, .integer(.max), .number(1.5), .number(-0.25), .number(1e-5), .number(3), .number(9.5e15),
            .number(.nan), .number(.infinity),
            "", "plain-ASCII_id:2026", "Zoë", "with \"quote\"", "back\\slash", "tab\t", "\u{7F}", "😀",
            ["b": 1, "a": ["x", .number(2.5)]], [1, "two", nil],
        ]
        for value in values {
            var buffer = ByteBuffer()
            value.write(to: &buffer)
            #expect(Array(buffer.readableBytesView) == value.wireBytes, "\(value)")
        }
    }

    @Test func keysAreSortedAtEveryLevel() {
        let value: RPCValue = ["b": 1, "a": ["d": true, "c": nil]]
        #expect(value.jsonText == #"{"a":{"c":null,"d":true},"b":1}"#)
    }

    @Test func outputIsASCIIWithEscapes() {
        let value: RPCValue = .string("Zoë \"q\" \\ \n\t\u{1}😀")
        #expect(value.jsonText == #""Zo\u00eb \"q\" \\ \n\t\u0001\ud83d\ude00""#)
        #expect(value.jsonLine.readableBytesView.allSatisfy { $0 < 0x80 })
    }

    @Test func numbers() {
        #expect(RPCValue.number(0.25).jsonText == "0.25")
        #expect(RPCValue.number(120).jsonText == "120")
        #expect(RPCValue.number(.nan).jsonText == "null")
        #expect(RPCValue.integer(-5).jsonText == "-5")
    }

    @Test func roundTripsThroughTheParser() throws {
        let value: RPCValue = ["s": "Zoë😀", "n": .number(1.5), "i": 3, "a": [true, nil, "x"]]
        #expect(try RPCValue.parse(Array(value.jsonText.utf8)) == value)
    }

    @Test func lineEndsWithNewline() {
        var line = RPCValue.object([:]).jsonLine
        #expect(line.readString(length: line.readableBytes) == "{}\n")
    }
}
