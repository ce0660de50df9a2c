import Foundation

/// A handwritten signature's time series in ISO/IEC 19794-7:2014 (second edition), the full format: what signature
/// examiners' and pad vendors' tools exchange (Wacom's Signature SDK exports it).
///
/// One record holds one signature representation. The layout written and read here, all integers big-endian:
///
/// ```
/// General header        "SDI\0" | version "020\0" | record length u32 | representations u16 (1) | certification u8 (0)
/// Representation header length u32 | capture time: year u16, month, day, hour, minute, second u8, ms u16 (UTC)
///                       | device technology u8 | vendor id u16 | type id u16 | quality blocks u8 (0)
///                       | channel inclusion u16 | one description per included channel | sample count u32
/// Channel description   preamble u8 (0x80 scaling, 0x40 minimum, 0x20 maximum present) | scaling u16 | min u16 | max u16
/// Body                  per sample, per included channel in inclusion order: u16
/// Extended data         length u16 | blocks: type u16, length u16, bytes (`ExtendedData`)
/// ```
/// Channel inclusion bits, most significant first: X Y Z VX VY AX AY T DT F S TX TY A E R. Written: X, Y, T and S
/// always, F when the capture had pressure, TX/TY when it had tilt. X and Y are device units from the axis minimum
/// (their description's maximum is the axis span, its scaling the resolution in units per millimetre when
/// known); T is time since the first sample in the unit its scaling gives per second (1000: milliseconds); F is
/// pressure in device levels (maximum = the highest level); S is the tip switch (1 pen down); TX/TY carry the
/// offset 32768 of signed channels. A scaling value is `2^(e-16) · (1 + m/2048)` with e the top 5 bits, m the low 11.
public struct ISO19794_7Record: Sendable, Hashable {
    public static let formatIdentifier: [UInt8] = Array("SDI\0".utf8)
    public static let version: [UInt8] = Array("020\0".utf8)
    /// The file extension (and suffix of the record's `signature-<role>.iso19794-7`).
    public static let fileExtension = "iso19794-7"

    /// The channels of the 2014 edition, in the order of the inclusion field (most significant bit first).
    public enum Channel: Int, Sendable, Hashable, CaseIterable, Comparable {
        case x, y, z, vx, vy, ax, ay, t, dt, f, s, tx, ty, azimuth, elevation, rotation

        /// The channel's bit in the inclusion field.
        var bit: UInt16 { 1 << UInt16(15 - rawValue) }
        /// Signed channels are stored with an offset of 32768.
        var isSigned: Bool { [.z, .vx, .vy, .ax, .ay, .tx, .ty].contains(self) }
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    public struct ChannelDescription: Sendable, Hashable {
        /// Units per physical unit (per millimetre for X/Y, per second for T); nil when unknown.
        public var scaling: Double?
        public var minimum: Int?
        public var maximum: Int?
        public init(scaling: Double? = nil, minimum: Int? = nil, maximum: Int? = nil) {
            self.scaling = scaling
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// The capture device technology identifier.
    public enum Technology: UInt8, Sendable, Hashable {
        case unspecified = 0
        case electronicTablet = 1
        case touchScreen = 2
    }

    public var captureTime: Date
    public var technology: Technology
    public var vendorID: UInt16
    public var typeID: UInt16
    /// The included channels and their descriptions.
    public var channels: [Channel: ChannelDescription]
    /// One value per included channel (signed channels as signed values), in `channels`' order.
    public var samples: [[Channel: Int]]
    public var extendedData: ExtendedData

    public init(
        captureTime: Date, technology: Technology = .unspecified, vendorID: UInt16 = 0, typeID: UInt16 = 0,
        channels: [Channel: ChannelDescription], samples: [[Channel: Int]], extendedData: ExtendedData = .init()
    ) {
        self.captureTime = captureTime
        self.technology = technology
        self.vendorID = vendorID
        self.typeID = typeID
        self.channels = channels
        self.samples = samples
        self.extendedData = extendedData
    }

    /// The channels in inclusion order.
    public var includedChannels: [Channel] { channels.keys.sorted() }

    /// What this project keeps in the representation's extended data, as type-length-value blocks so a reader
    /// skips what it does not know: where each stroke starts (a pen-up sample marks a lift only when the pad
    /// reported hover between the strokes; touch screens report none) and the sampling rate the capture ran at.
    public struct ExtendedData: Sendable, Hashable {
        /// Block 0x0001: the index of each stroke's first sample, u32 each.
        public var strokeStarts: [Int]
        /// Block 0x0002: the sampling rate in millihertz, u32 (the median interval between a stroke's samples).
        public var samplingRateHz: Double?
        public init(strokeStarts: [Int] = [], samplingRateHz: Double? = nil) {
            self.strokeStarts = strokeStarts
            self.samplingRateHz = samplingRateHz
        }
    }
}

/// A fault in 19794-7 bytes or in what should become them.
public struct ISO19794_7Error: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

// MARK: Writing

extension ISO19794_7Record {
    /// The record's bytes.
    ///
    /// - Throws: `ISO19794_7Error` when a value does not fit its 16-bit channel or the record exceeds 4 GiB.
    public func encoded() throws -> Data {
        let order = includedChannels
        var representation = ByteWriter()
        let calendar = Self.utcCalendar
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: captureTime)
        representation.u16(UInt16(clamping: parts.year ?? 0))
        for part in [parts.month, parts.day, parts.hour, parts.minute, parts.second] { representation.u8(UInt8(clamping: part ?? 0)) }
        representation.u16(UInt16(clamping: (parts.nanosecond ?? 0) / 1_000_000))
        representation.u8(technology.rawValue)
        representation.u16(vendorID)
        representation.u16(typeID)
        representation.u8(0)  // no quality blocks
        representation.u16(order.reduce(0) { $0 | $1.bit })
        for channel in order {
            let description = channels[channel] ?? .init()
            var preamble: UInt8 = 0
            if description.scaling != nil { preamble |= 0x80 }
            if description.minimum != nil { preamble |= 0x40 }
            if description.maximum != nil { preamble |= 0x20 }
            representation.u8(preamble)
            if let scaling = description.scaling { representation.u16(try Self.encodeScaling(scaling)) }
            if let minimum = description.minimum { representation.u16(try Self.stored(minimum, channel)) }
            if let maximum = description.maximum { representation.u16(try Self.stored(maximum, channel)) }
        }
        guard let count = UInt32(exactly: samples.count) else { throw ISO19794_7Error("too many samples") }
        representation.u32(count)
        for (index, sample) in samples.enumerated() {
            for channel in order {
                guard let value = sample[channel] else {
                    throw ISO19794_7Error("sample \(index) has no value for channel \(channel)")
                }
                representation.u16(try Self.stored(value, channel))
            }
        }
        var extended = ByteWriter()
        if !extendedData.strokeStarts.isEmpty {
            var block = ByteWriter()
            for start in extendedData.strokeStarts { block.u32(UInt32(clamping: start)) }
            extended.u16(0x0001)
            extended.u16(UInt16(clamping: block.bytes.count))
            extended.bytes += block.bytes
        }
        if let rate = extendedData.samplingRateHz, rate.isFinite, rate > 0 {
            extended.u16(0x0002)
            extended.u16(4)
            extended.u32(UInt32(clamping: Int((rate * 1000).rounded())))
        }
        guard extended.bytes.count <= Int(UInt16.max) else {
            throw ISO19794_7Error("the extended data is too long (\(extended.bytes.count) bytes)")
        }
        representation.u16(UInt16(extended.bytes.count))
        representation.bytes += extended.bytes

        let representationLength = 4 + representation.bytes.count
        let total = 15 + representationLength
        guard let total32 = UInt32(exactly: total) else { throw ISO19794_7Error("the record exceeds 4 GiB") }
        var out = ByteWriter()
        out.bytes += Self.formatIdentifier
        out.bytes += Self.version
        out.u32(total32)
        out.u16(1)
        out.u8(0)
        out.u32(UInt32(representationLength))
        out.bytes += representation.bytes
        return Data(out.bytes)
    }

    static func stored(_ value: Int, _ channel: Channel) throws -> UInt16 {
        let shifted = channel.isSigned ? value + 32768 : value
        guard let stored = UInt16(exactly: shifted) else {
            throw ISO19794_7Error("channel \(channel): \(value) does not fit 16 bits")
        }
        return stored
    }

    /// `2^(e-16) · (1 + m/2048)`, the nearest representable value.
    public static func encodeScaling(_ value: Double) throws -> UInt16 {
        guard value.isFinite, value >= 0x1p-16, value < 0x1p16 else {
            throw ISO19794_7Error("scaling \(value) is outside 2^-16 ... 2^16")
        }
        var exponent = Int(value.exponent)  // value = 2^exponent · significand, significand in [1, 2)
        var mantissa = Int(((value.significand - 1) * 2048).rounded())
        if mantissa == 2048 { mantissa = 0; exponent += 1 }
        guard (0...31).contains(exponent + 16) else { throw ISO19794_7Error("scaling \(value) is out of range") }
        return UInt16(exponent + 16) << 11 | UInt16(mantissa)
    }

    public static func decodeScaling(_ stored: UInt16) -> Double {
        let exponent = Int(stored >> 11) - 16
        let mantissa = Double(stored & 0x7FF)
        return Double(sign: .plus, exponent: exponent, significand: 1 + mantissa / 2048)
    }

    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}

// MARK: Reading

extension ISO19794_7Record {
    /// Reads the bytes `encoded()` writes (one representation; other representations are refused).
    ///
    /// - Throws: `ISO19794_7Error` naming what is wrong; never traps on any input.
    public init(decoding data: Data) throws {
        var reader = ByteReader(bytes: [UInt8](data))
        guard try reader.take(4) == Self.formatIdentifier else { throw ISO19794_7Error("not 19794-7 data (no \"SDI\" identifier)") }
        let version = try reader.take(4)
        guard version == Self.version else {
            throw ISO19794_7Error("version \(String(decoding: version.prefix(3), as: UTF8.self)) is not the 2014 edition's 020")
        }
        let total = Int(try reader.u32())
        guard total == data.count else { throw ISO19794_7Error("the record length \(total) is not the data's \(data.count) bytes") }
        guard try reader.u16() == 1 else { throw ISO19794_7Error("only records with one signature representation are read") }
        _ = try reader.u8()  // certification flag
        let representationLength = Int(try reader.u32())
        guard representationLength == data.count - 15 else { throw ISO19794_7Error("the representation length does not match") }
        var parts = DateComponents()
        parts.year = Int(try reader.u16())
        parts.month = Int(try reader.u8())
        parts.day = Int(try reader.u8())
        parts.hour = Int(try reader.u8())
        parts.minute = Int(try reader.u8())
        parts.second = Int(try reader.u8())
        let milliseconds = Int(try reader.u16())
        guard let date = Self.utcCalendar.date(from: parts) else { throw ISO19794_7Error("the capture time is not a date") }
        captureTime = date.addingTimeInterval(Double(milliseconds) / 1000)
        technology = Technology(rawValue: try reader.u8()) ?? .unspecified
        vendorID = try reader.u16()
        typeID = try reader.u16()
        let qualityBlocks = Int(try reader.u8())
        _ = try reader.take(qualityBlocks * 5)
        let inclusion = try reader.u16()
        let order = Channel.allCases.filter { inclusion & $0.bit != 0 }
        var channels: [Channel: ChannelDescription] = [:]
        for channel in order {
            let preamble = try reader.u8()
            var description = ChannelDescription()
            if preamble & 0x80 != 0 { description.scaling = Self.decodeScaling(try reader.u16()) }
            if preamble & 0x40 != 0 { description.minimum = Self.value(try reader.u16(), channel) }
            if preamble & 0x20 != 0 { description.maximum = Self.value(try reader.u16(), channel) }
            if preamble & 0x10 != 0 { _ = try reader.take(2) }  // average
            if preamble & 0x08 != 0 { _ = try reader.take(2) }  // standard deviation
            channels[channel] = description
        }
        self.channels = channels
        let count = Int(try reader.u32())
        guard count <= reader.remaining / max(1, order.count * 2) else {
            throw ISO19794_7Error("\(count) samples do not fit in the record")
        }
        var samples: [[Channel: Int]] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            var sample: [Channel: Int] = [:]
            for channel in order { sample[channel] = Self.value(try reader.u16(), channel) }
            samples.append(sample)
        }
        self.samples = samples
        var extended = ExtendedData()
        if reader.remaining > 0 {
            let length = Int(try reader.u16())
            var blocks = ByteReader(bytes: try reader.take(length))
            while blocks.remaining >= 4 {
                let type = try blocks.u16()
                var block = ByteReader(bytes: try blocks.take(Int(try blocks.u16())))
                switch type {
                case 0x0001:
                    while block.remaining >= 4 { extended.strokeStarts.append(Int(try block.u32())) }
                case 0x0002:
                    extended.samplingRateHz = Double(try block.u32()) / 1000
                default: break
                }
            }
        }
        extendedData = extended
        guard reader.remaining == 0 else { throw ISO19794_7Error("\(reader.remaining) bytes follow the representation") }
    }

    static func value(_ stored: UInt16, _ channel: Channel) -> Int {
        channel.isSigned ? Int(stored) - 32768 : Int(stored)
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    mutating func u32(_ v: UInt32) { bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}

struct ByteReader {
    let bytes: [UInt8]
    var offset = 0
    var remaining: Int { bytes.count - offset }

    mutating func take(_ n: Int) throws -> [UInt8] {
        guard n >= 0, n <= remaining else { throw ISO19794_7Error("the record ends early (at byte \(offset))") }
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }
    mutating func u8() throws -> UInt8 { try take(1)[0] }
    mutating func u16() throws -> UInt16 {
        let b = try take(2)
        return UInt16(b[0]) << 8 | UInt16(b[1])
    }
    mutating func u32() throws -> UInt32 {
        let b = try take(4)
        return b.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
