import Foundation

extension ISO19794_7Record {
    /// The record's bytes, always in the published layout (whatever `layout` the record was read from).
    ///
    /// - Throws: `ISO19794_7Error` when a value does not fit its channel (`inPublishedLayout()` first for a record
    ///   read from the legacy layout), a sample lacks a channel, there are more than 16,777,215 samples, or the
    ///   record exceeds 4 GiB.
    public func encoded() throws -> Data {
        let order = includedChannels
        var representation = ByteWriter()
        Self.writeCaptureTime(captureTime, into: &representation)
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
            if description.mean != nil { preamble |= 0x10 }
            if description.standardDeviation != nil { preamble |= 0x08 }
            if description.isConstant { preamble |= 0x04 }
            if description.linearComponentRemoved { preamble |= 0x02 }
            representation.u8(preamble)
            if let scaling = description.scaling { representation.u16(try Self.encodeScaling(scaling)) }
            // The description's values are 16 bits even for S, whose samples are one byte.
            for value in [description.minimum, description.maximum, description.mean].compactMap({ $0 }) {
                representation.u16(try Self.storedDescriptionValue(value, channel))
            }
            if let deviation = description.standardDeviation {
                guard let stored = UInt16(exactly: deviation) else {
                    throw ISO19794_7Error(
                        .channelDescription, "\(channel)'s standard deviation \(deviation) does not fit 16 bits")
                }
                representation.u16(stored)
            }
        }
        guard samples.count <= Self.maximumSampleCount else {
            throw ISO19794_7Error(
                .sampleCount, "\(samples.count) samples; the format holds at most \(Self.maximumSampleCount)")
        }
        representation.u24(UInt32(samples.count))
        let sampled = order.filter { channels[$0]?.isConstant != true }
        for (index, sample) in samples.enumerated() {
            for channel in sampled {
                guard let value = sample[channel] else {
                    throw ISO19794_7Error(.sampleValue, "sample \(index) has no value for channel \(channel)")
                }
                guard channel.valueRange.contains(value) else {
                    throw ISO19794_7Error(
                        .sampleValue, "sample \(index): channel \(channel)'s \(value) is outside \(channel.valueRange)")
                }
                let stored = channel.isSigned ? value + 32_768 : value
                if channel.storedWidth == 1 {
                    representation.u8(UInt8(stored))
                } else {
                    representation.u16(UInt16(stored))
                }
            }
        }
        let extended = try extendedData.encoded()
        representation.u16(UInt16(extended.count))
        representation.bytes += extended

        let representationLength = 4 + representation.bytes.count
        let total = 15 + representationLength
        guard let total32 = UInt32(exactly: total) else {
            throw ISO19794_7Error(.recordLength, "the record exceeds 4 GiB")
        }
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

    /// The same signature as the published layout has it: what `consentctl signature export` writes for a record
    /// whose file predates that layout (the record's own file is never rewritten: its manifest hashes those bytes).
    ///
    /// The legacy layout's X and Y were unsigned, and UI-drawn strokes ran over 0…65535, past the signed 16 bits
    /// of the published layout: such an axis is shifted by -32768, values and description alike, so every value is
    /// kept exactly and a reader that places X and Y within their described minimum and maximum sees the same
    /// signature. Every other value is kept as read.
    public func inPublishedLayout() -> ISO19794_7Record {
        var record = self
        record.layout = .published
        for channel in [Channel.x, .y] {
            guard var description = channels[channel], let maximum = description.maximum, maximum > 32_767 else {
                continue
            }
            for index in record.samples.indices {
                if let value = record.samples[index][channel] { record.samples[index][channel] = value - 32_768 }
            }
            description.minimum = description.minimum.map { $0 - 32_768 }
            description.maximum = maximum - 32_768
            description.mean = description.mean.map { $0 - 32_768 }
            record.channels[channel] = description
        }
        return record
    }

    static func storedDescriptionValue(_ value: Int, _ channel: Channel) throws -> UInt16 {
        let range = channel.isSigned ? -32_768...32_767 : 0...65_535
        guard range.contains(value) else {
            throw ISO19794_7Error(.channelDescription, "\(channel)'s \(value) is outside \(range)")
        }
        return UInt16(channel.isSigned ? value + 32_768 : value)
    }

    /// Nine bytes of UTC, or all 0xFF when unknown (or not a time at all).
    static func writeCaptureTime(_ time: Date?, into writer: inout ByteWriter) {
        // The nearest millisecond, split from the whole seconds by integer arithmetic: a time the reader made from
        // 119 ms is a Double a hair below it, whose nanoseconds the calendar would truncate to 118 ms.
        let milliseconds = ((time?.timeIntervalSince1970 ?? .nan) * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 1e17 else {
            writer.bytes += [UInt8](repeating: 0xFF, count: 9)
            return
        }
        let (seconds, millisecond) = Int(milliseconds).divMod(1000)
        let parts = utcCalendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        writer.u16(UInt16(clamping: parts.year ?? 0))
        for part in [parts.month, parts.day, parts.hour, parts.minute, parts.second] {
            writer.u8(UInt8(clamping: part ?? 0))
        }
        writer.u16(UInt16(millisecond))
    }

    /// `2^(e-16) · (1 + m/2048)`, the nearest representable value.
    public static func encodeScaling(_ value: Double) throws -> UInt16 {
        guard value.isFinite, value >= 0x1p-16, value < 0x1p16 else {
            throw ISO19794_7Error(.channelDescription, "scaling \(value) is outside 2^-16 ... 2^16")
        }
        var exponent = Int(value.exponent)  // value = 2^exponent · significand, significand in [1, 2)
        var mantissa = Int(((value.significand - 1) * 2048).rounded())
        if mantissa == 2048 {
            mantissa = 0
            exponent += 1
        }
        guard (0...31).contains(exponent + 16) else {
            throw ISO19794_7Error(.channelDescription, "scaling \(value) is out of range")
        }
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

extension ISO19794_7Record.ExtendedData {
    /// The blocks, without the length in front.
    func encoded() throws -> [UInt8] {
        var extended = ByteWriter()
        if !strokeStarts.isEmpty {
            var block = ByteWriter()
            for start in strokeStarts { block.u32(UInt32(clamping: start)) }
            guard block.bytes.count <= Int(UInt16.max) else {
                throw ISO19794_7Error(.extendedData, "\(strokeStarts.count) stroke starts do not fit one block")
            }
            extended.u16(0x0001)
            extended.u16(UInt16(block.bytes.count))
            extended.bytes += block.bytes
        }
        if let rate = samplingRateHz, rate.isFinite, rate > 0 {
            extended.u16(0x0002)
            extended.u16(4)
            // Millihertz, held to the block's 32 bits (a rate beyond 4.29 MHz is no pen's).
            extended.u32(UInt32(min((rate * 1000).rounded(), Double(UInt32.max))))
        }
        if let usb {
            extended.u16(0x0003)
            extended.u16(4)
            extended.u16(usb.vendor)
            extended.u16(usb.product)
        }
        guard extended.bytes.count <= Int(UInt16.max) else {
            throw ISO19794_7Error(.extendedData, "the extended data is too long (\(extended.bytes.count) bytes)")
        }
        return extended.bytes
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    mutating func u24(_ v: UInt32) { bytes += [UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    mutating func u32(_ v: UInt32) {
        bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
}

extension Int {
    /// Floored division: the remainder is never negative (a time before 1970 still has 0...999 milliseconds).
    fileprivate func divMod(_ divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = ((self % divisor) + divisor) % divisor
        return ((self - remainder) / divisor, remainder)
    }
}
