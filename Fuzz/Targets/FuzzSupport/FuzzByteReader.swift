/// A fuzz input read front to back as operations and their arguments (the byte-coded targets: FuzzPadEvents,
/// FuzzConsentSession, FuzzConnection). An argument past the end reads as 0, so every input is a valid program and
/// a truncated one simply ends where its bytes do.
public struct FuzzByteReader {
    public let bytes: [UInt8]
    /// Where the next read starts.
    public private(set) var offset = 0

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, nil at the end: the next operation.
    public mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next byte, 0 at the end: an operation's argument.
    public mutating func arg() -> UInt8 { byte() ?? 0 }

    /// Up to `count` next bytes (fewer at the end).
    public mutating func bytes(upTo count: Int) -> ArraySlice<UInt8> {
        let end = offset + min(max(0, count), bytes.count - offset)
        defer { offset = end }
        return bytes[offset..<end]
    }

    /// The next four bytes as a little-endian Int32 (the kernel's byte order on the platforms we run on), nil when
    /// fewer are left.
    public mutating func int32() -> Int32? {
        guard bytes.count - offset >= 4 else { return nil }
        defer { offset += 4 }
        return (0..<4).reduce(Int32(0)) { $0 | Int32(bitPattern: UInt32(bytes[offset + $1]) << (8 * UInt32($1))) }
    }
}
