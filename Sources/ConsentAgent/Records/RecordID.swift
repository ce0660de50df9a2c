/// Record ids, as ConsentSigning mints them: a lowercase RFC 4122 UUID, random, so they reveal nothing.
enum RecordID {
    /// Whether `id` has the shape of a record id; `records.get` checks this before touching the file system,
    /// so no id can name a path outside the records directory.
    static func isValid(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                let isHex = (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                guard isDigit || isHex else { return false }
            }
        }
        return true
    }
}
