import Foundation

extension ISO19794_7Record {
    /// Reads one signature representation in the published layout or in the legacy one (`Layout`).
    ///
    /// The two layouts share everything up to the channel descriptions. A file is read as legacy only when its
    /// descriptions have the legacy writer's shape (X and Y described from a stored minimum of 0x0000, which the
    /// published layout would mean as -32768; S described 0…1; no channel that writer never wrote) and its
    /// representation length is exactly what a 4-byte sample count and a 2-byte S imply; otherwise as published.
    ///
    /// - Throws: `ISO19794_7Error` naming the field that is truncated or inconsistent; never traps on any input.
    public init(decoding data: Data) throws {
        var reader = ByteReader(bytes: [UInt8](data))
        guard try reader.take(4, .formatIdentifier) == Self.formatIdentifier else {
            throw ISO19794_7Error(.formatIdentifier, "not 19794-7 data (no \"SDI\" identifier)")
        }
        let version = try reader.take(4, .version)
        guard version == Self.version else {
            throw ISO19794_7Error(
                .version, "\(String(decoding: version.prefix(3), as: UTF8.self)) is not the 2014 edition's 020")
        }
        let total = Int(try reader.u32(.recordLength))
        guard total == data.count else {
            throw ISO19794_7Error(.recordLength, "\(total) is not the data's \(data.count) bytes")
        }
        let representations = try reader.u16(.representationCount)
        guard representations == 1 else {
            throw ISO19794_7Error(
                .representationCount, "\(representations); only records with one signature representation are read")
        }
        _ = try reader.u8(.representationCount)  // certification flag
        let representationLength = Int(try reader.u32(.representationLength))
        guard representationLength == data.count - 15 else {
            throw ISO19794_7Error(
                .representationLength,
                "\(representationLength) is not the \(data.count - 15) bytes after the general header")
        }
        let captureTime = try Self.readCaptureTime(&reader)
        let technology = try reader.u8(.captureDevice)
        let vendorID = try reader.u16(.captureDevice)
        let typeID = try reader.u16(.captureDevice)
        let qualityBlocks = Int(try reader.u8(.qualityBlocks))
        _ = try reader.take(qualityBlocks * 5, .qualityBlocks)
        let inclusion = try reader.u16(.channelInclusion)
        let order = Channel.allCases.filter { inclusion & $0.bit != 0 }
        guard !order.isEmpty else { throw ISO19794_7Error(.channelInclusion, "no channel is included") }
        var raw: [Channel: RawDescription] = [:]
        for channel in order { raw[channel] = try RawDescription(&reader, channel) }

        var body: Body?
        if RawDescription.haveLegacyShape(raw) {
            var legacy = reader
            body = try? Body(&legacy, order: order, descriptions: raw, layout: .legacy)
        }
        let layout: Layout = body == nil ? .published : .legacy
        if body == nil { body = try Body(&reader, order: order, descriptions: raw, layout: .published) }
        guard let body else { throw ISO19794_7Error(.sampleCount, "no layout reads the samples") }

        self.init(
            captureTime: captureTime, technology: Technology(rawValue: technology), vendorID: vendorID, typeID: typeID,
            channels: body.channels, samples: body.samples, extendedData: body.extendedData, layout: layout)
        if layout == .legacy { adoptLegacyMeanings() }
    }

    /// What the legacy writer's header fields meant, as the published layout says it: its technology 2 (touch screen)
    /// is no confirmed code, so unknown; its vendor and type ids were the pad's USB ids, which move to the extended
    /// data. Its Y (from the top) is flipped by the reading of the samples.
    private mutating func adoptLegacyMeanings() {
        if technology.rawValue == 2 { technology = .unknown }
        if vendorID != 0 || typeID != 0 {
            extendedData.usb = USBIdentifiers(vendor: vendorID, product: typeID)
            vendorID = 0
            typeID = 0
        }
    }

    static func readCaptureTime(_ reader: inout ByteReader) throws -> Date? {
        let bytes = try reader.take(9, .captureTime)
        if bytes.allSatisfy({ $0 == 0xFF }) { return nil }
        let year = Int(bytes[0]) << 8 | Int(bytes[1])
        let (month, day, hour, minute, second) = (
            Int(bytes[2]), Int(bytes[3]), Int(bytes[4]), Int(bytes[5]), Int(bytes[6])
        )
        let milliseconds = Int(bytes[7]) << 8 | Int(bytes[8])
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...59).contains(second), (0...999).contains(milliseconds)
        else {
            throw ISO19794_7Error(
                .captureTime, "\(year)-\(month)-\(day) \(hour):\(minute):\(second).\(milliseconds) is not a UTC time")
        }
        var parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        parts.calendar = utcCalendar
        guard parts.isValidDate(in: utcCalendar), let date = utcCalendar.date(from: parts) else {
            throw ISO19794_7Error(.captureTime, "\(year)-\(month)-\(day) is not a date")
        }
        return date.addingTimeInterval(Double(milliseconds) / 1000)
    }
}

/// A channel description as stored, before the layout says which channels are signed.
struct RawDescription {
    var preamble: UInt8
    var scaling: UInt16?
    var minimum: UInt16?
    var maximum: UInt16?
    var mean: UInt16?
    var standardDeviation: UInt16?

    init(_ reader: inout ByteReader, _ channel: ISO19794_7Record.Channel) throws {
        preamble = try reader.u8(.channelDescription)
        guard preamble & 0x01 == 0 else {
            throw ISO19794_7Error(
                .channelDescription, "\(channel)'s preamble 0x\(String(preamble, radix: 16)) sets the reserved bit 0x01"
            )
        }
        if preamble & 0x80 != 0 { scaling = try reader.u16(.channelDescription) }
        if preamble & 0x40 != 0 { minimum = try reader.u16(.channelDescription) }
        if preamble & 0x20 != 0 { maximum = try reader.u16(.channelDescription) }
        if preamble & 0x10 != 0 { mean = try reader.u16(.channelDescription) }
        if preamble & 0x08 != 0 { standardDeviation = try reader.u16(.channelDescription) }
    }

    var isConstant: Bool { preamble & 0x04 != 0 }

    func description(_ channel: ISO19794_7Record.Channel, signed: Bool) -> ISO19794_7Record.ChannelDescription {
        func value(_ stored: UInt16?) -> Int? { stored.map { signed ? Int($0) - 32_768 : Int($0) } }
        return .init(
            scaling: scaling.map(ISO19794_7Record.decodeScaling), minimum: value(minimum), maximum: value(maximum),
            mean: value(mean), standardDeviation: standardDeviation.map(Int.init), isConstant: isConstant,
            linearComponentRemoved: preamble & 0x02 != 0)
    }

    /// The legacy writer's descriptions: X and Y with scaling or not, minimum 0x0000 and a maximum; T with a
    /// minimum; S 0…1; F, TX and TY as it wrote them; nothing else, and nothing constant.
    static func haveLegacyShape(_ raw: [ISO19794_7Record.Channel: RawDescription]) -> Bool {
        let allowed: Set<ISO19794_7Record.Channel> = [.x, .y, .t, .f, .s, .tx, .ty]
        guard Set(raw.keys).isSubset(of: allowed), let x = raw[.x], let y = raw[.y], let s = raw[.s], raw[.t] != nil
        else {
            return false
        }
        guard raw.values.allSatisfy({ $0.preamble & 0x1F == 0 }) else { return false }
        return [x, y].allSatisfy { $0.minimum == 0 && $0.maximum != nil } && s.minimum == 0 && s.maximum == 1
    }
}

/// The sample count, the samples and the extended data, read in one layout.
struct Body {
    var channels: [ISO19794_7Record.Channel: ISO19794_7Record.ChannelDescription] = [:]
    var samples: [[ISO19794_7Record.Channel: Int]] = []
    var extendedData = ISO19794_7Record.ExtendedData()

    init(
        _ reader: inout ByteReader, order: [ISO19794_7Record.Channel],
        descriptions raw: [ISO19794_7Record.Channel: RawDescription], layout: ISO19794_7Record.Layout
    ) throws {
        let legacy = layout == .legacy
        // The legacy writer stored Z as signed and X and Y unsigned; it never wrote Z, VX, VY, AX or AY.
        func isSigned(_ channel: ISO19794_7Record.Channel) -> Bool {
            legacy ? [.tx, .ty].contains(channel) : channel.isSigned
        }
        for channel in order { channels[channel] = raw[channel]?.description(channel, signed: isSigned(channel)) }
        let sampled = order.filter { raw[$0]?.isConstant != true }
        let width = sampled.reduce(0) { $0 + (legacy ? 2 : $1.storedWidth) }
        guard width > 0 else {
            throw ISO19794_7Error(
                .channelDescription, "every included channel is constant: the samples would carry nothing")
        }
        let count = Int(legacy ? try reader.u32(.sampleCount) : try reader.u24(.sampleCount))
        // Checked before reading, so a forged count cannot make the reader allocate more than the data holds.
        guard count <= reader.remaining / width else {
            throw ISO19794_7Error(
                .sampleCount, "\(count) samples of \(width) bytes do not fit in the \(reader.remaining) bytes left")
        }
        let constants = order.compactMap { channel in channels[channel]?.constantValue.map { (channel, $0) } }
        let xMaximum = channels[.x]?.maximum ?? 0
        let yMaximum = channels[.y]?.maximum ?? 0
        samples.reserveCapacity(count)
        for index in 0..<count {
            var sample = Dictionary(uniqueKeysWithValues: constants)
            for channel in sampled {
                let stored =
                    legacy || channel.storedWidth == 2
                    ? Int(try reader.u16(.sampleValue)) : Int(try reader.u8(.sampleValue))
                var value = isSigned(channel) ? stored - 32_768 : stored
                if legacy && channel == .s && value > 1 {
                    throw ISO19794_7Error(.sampleValue, "sample \(index): S is \(value), not 0 or 1")
                }
                if legacy && (channel == .x || channel == .y) {
                    // The legacy writer kept X and Y within their described span; a value outside it is no legacy file.
                    let maximum = channel == .x ? xMaximum : yMaximum
                    guard (0...maximum).contains(value) else {
                        throw ISO19794_7Error(
                            .sampleValue, "sample \(index): \(channel) is \(value), outside 0...\(maximum)")
                    }
                    // The legacy Y ran from the top; the published from the bottom.
                    if channel == .y { value = yMaximum - value }
                }
                sample[channel] = value
            }
            samples.append(sample)
        }
        let length = Int(try reader.u16(.extendedData))
        let extended = try reader.take(length, .extendedData)
        guard reader.remaining == 0 else {
            throw ISO19794_7Error(.representationLength, "\(reader.remaining) bytes follow the extended data")
        }
        extendedData = ISO19794_7Record.ExtendedData(blocks: extended) ?? .init()
    }
}

extension ISO19794_7Record.ExtendedData {
    /// This project's blocks, when the bytes are exactly a chain of type-length-value blocks; nil for anything else
    /// (another writer's extended data is its own), which is then skipped.
    init?(blocks bytes: [UInt8]) {
        self.init()
        var blocks = ByteReader(bytes: bytes)
        while blocks.remaining > 0 {
            guard let type = try? blocks.u16(.extendedData), let length = try? blocks.u16(.extendedData),
                let payload = try? blocks.take(Int(length), .extendedData)
            else { return nil }
            var block = ByteReader(bytes: payload)
            switch type {
            case 0x0001:
                guard payload.count % 4 == 0 else { return nil }
                while block.remaining >= 4, let start = try? block.u32(.extendedData) {
                    strokeStarts.append(Int(start))
                }
            case 0x0002:
                guard payload.count == 4, let rate = try? block.u32(.extendedData) else { return nil }
                samplingRateHz = rate > 0 ? Double(rate) / 1000 : nil
            case 0x0003:
                guard payload.count == 4, let vendor = try? block.u16(.extendedData),
                    let product = try? block.u16(.extendedData)
                else {
                    return nil
                }
                usb = .init(vendor: vendor, product: product)
            default: break
            }
        }
    }
}

struct ByteReader {
    let bytes: [UInt8]
    var offset = 0
    var remaining: Int { bytes.count - offset }

    mutating func take(_ n: Int, _ field: ISO19794_7Error.Field) throws -> [UInt8] {
        guard n >= 0, n <= remaining else {
            throw ISO19794_7Error(
                field, "the record ends early (\(n) bytes needed at byte \(offset), \(remaining) left)")
        }
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }
    mutating func u8(_ field: ISO19794_7Error.Field) throws -> UInt8 { try take(1, field)[0] }
    mutating func u16(_ field: ISO19794_7Error.Field) throws -> UInt16 {
        let b = try take(2, field)
        return UInt16(b[0]) << 8 | UInt16(b[1])
    }
    mutating func u24(_ field: ISO19794_7Error.Field) throws -> UInt32 {
        try take(3, field).reduce(0) { $0 << 8 | UInt32($1) }
    }
    mutating func u32(_ field: ISO19794_7Error.Field) throws -> UInt32 {
        try take(4, field).reduce(0) { $0 << 8 | UInt32($1) }
    }
}
