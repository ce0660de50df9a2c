import Foundation
import HexText
import Testing

@Suite struct HexTextTests {
    @Test func everyByteIsTwoLowercaseDigits() {
        let bytes = (0...255).map(UInt8.init)
        #expect(HexText.lowercase(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
    }

    @Test func emptyAndKnownValues() {
        #expect(HexText.lowercase([UInt8]()) == "")
        #expect(HexText.lowercase([0x00, 0x0A, 0xF0, 0xFF]) == "000af0ff")
        #expect(HexText.lowercase(Data([0xDE, 0xAD, 0xBE, 0xEF])) == "deadbeef")
    }
}
