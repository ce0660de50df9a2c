import AgentProtocol
import NIOCore
import NIOTestUtils
import Testing

@Suite struct JSONLineFrameDecoderTests {
    private func line(_ s: String) -> JSONLineFrameDecoder.Frame { .line(ByteBuffer(string: s)) }

    /// Drip-fed, batched and shuffled input all give the same frames (NIOTestUtils' verifier).
    @Test func framesAreIndependentOfHowBytesArrive() throws {
        try ByteToMessageDecoderVerifier.verifyDecoder(
            stringInputOutputPairs: [
                ("{\"a\":1}\n", [line("{\"a\":1}")]),
                ("{\"b\":2}\r\n", [line("{\"b\":2}")]),
                ("\n\r\n  \n# comment\n", []),
                ("x\ny\n", [line("x"), line("y")]),
                (String(repeating: "z", count: 40) + "\n", [.lineTooLong]),
            ],
            decoderFactory: { JSONLineFrameDecoder(maximumLineBytes: 16) })
    }

    private func frames(_ chunks: [String], maximum: Int = 8, eof: Bool = false) throws -> [JSONLineFrameDecoder.Frame] {
        let processor = NIOSingleStepByteToMessageProcessor(JSONLineFrameDecoder(maximumLineBytes: maximum))
        var out: [JSONLineFrameDecoder.Frame] = []
        for chunk in chunks {
            try processor.process(buffer: ByteBuffer(string: chunk)) { out.append($0) }
        }
        if eof { try processor.finishProcessing(seenEOF: true) { out.append($0) } }
        return out
    }

    /// A UTF-8 byte-order mark before the first line (Windows tools send one) is dropped, however the bytes arrive.
    @Test func byteOrderMarkBeforeTheFirstLineIsDropped() throws {
        // Not NIOTestUtils' verifier: it replays the input several times through one decoder, and only the first
        // replay is the stream's start. Every split of the stream instead, the mark's three bytes included.
        let stream = Array("\u{FEFF}{\"a\":1}\n{\"b\":2}\n".utf8)
        for cut in 0...stream.count {
            for second in cut...stream.count {
                let chunks = [Array(stream[..<cut]), Array(stream[cut..<second]), Array(stream[second...])]
                #expect(try frames(bytes: chunks) == [line("{\"a\":1}"), line("{\"b\":2}")], "cut at \(cut), \(second)")
            }
        }
        #expect(try frames(bytes: [Array("\u{FEFF}# comment\nx\n".utf8)]) == [line("x")])
        #expect(try frames(["\u{FEFF}x"], eof: true) == [line("x")])
        #expect(try frames(["\u{FEFF}"], eof: true) == [])
    }

    /// Only the stream's start: a mark before a later line stays (and that line is not JSON).
    @Test func byteOrderMarkLaterInTheStreamIsKept() throws {
        #expect(try frames(["a\n\u{FEFF}b\n"]) == [line("a"), line("\u{FEFF}b")])
        #expect(try frames(["\u{FFFE}a\n"], maximum: 16) == [line("\u{FFFE}a")])
    }

    private func frames(bytes chunks: [[UInt8]], maximum: Int = 16) throws -> [JSONLineFrameDecoder.Frame] {
        let processor = NIOSingleStepByteToMessageProcessor(JSONLineFrameDecoder(maximumLineBytes: maximum))
        var out: [JSONLineFrameDecoder.Frame] = []
        for chunk in chunks {
            try processor.process(buffer: ByteBuffer(bytes: chunk)) { out.append($0) }
        }
        return out
    }

    @Test func overLongLineIsReportedOnceThenDrainedAndTheNextLineServed() throws {
        #expect(try frames(["0123456789", "abcdefghij", "klm\nok\n"]) == [.lineTooLong, line("ok")])
    }

    @Test func overLongCompleteLineInOneChunk() throws {
        #expect(try frames(["0123456789\nok\n"]) == [.lineTooLong, line("ok")])
    }

    @Test func lineOfExactlyTheMaximumIsAccepted() throws {
        #expect(try frames(["12345678\r\n", "12345678\n"]) == [line("12345678"), line("12345678")])
    }

    @Test(arguments: ["\n", "\r\n", "   \n", "\t\n", "# note\n", "  # indented note\r\n"])
    func blankAndCommentLinesYieldNothing(_ input: String) throws {
        #expect(try frames([input, "x\n"], maximum: 64) == [line("x")])
    }

    @Test func crlfSplitAcrossChunks() throws {
        #expect(try frames(["abc\r", "\n"]) == [line("abc")])
    }

    @Test func lastLineWithoutNewlineAtEOF() throws {
        #expect(try frames(["a\nlast"], eof: true) == [line("a"), line("last")])
        #expect(try frames(["0123456789012"], eof: true) == [.lineTooLong])
    }
}
