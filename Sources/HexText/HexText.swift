/// Bytes as lowercase hexadecimal text: digests (SHA-256 of record files, audit lines, study versions) and tokens.
///
/// One home for what five modules wrote as `bytes.map { String(format: "%02x", $0) }.joined()`, which formats
/// through Foundation per byte (a C varargs call, a String per byte, then the join): verifying a record hashes
/// each of its files this way, and it was most of the FuzzVerifiers target's time. This writes the text in one
/// buffer.
public enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as two lowercase hexadecimal digits each, in order.
    public static func lowercase<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
