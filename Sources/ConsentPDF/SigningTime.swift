import ConsentCore
import FileBytes
import Foundation
import NIOConcurrencyHelpers
import UTCTime

/// How the signing instant is printed: unambiguous for an audit, in the kiosk's zone with its abbreviation and
/// UTC offset, e.g. "2026-11-22 14:05 CET (UTC+01:00)".
///
/// The abbreviation comes from the zone's tzdata file (`/usr/share/zoneinfo`): ICU only knows abbreviations
/// "commonly used" in a locale and would print "GMT+1" for Berlin in English. When no tzdata abbreviation is
/// found, or it is only a numeric one, the offset alone is printed.
enum SigningTime {
    static func format(_ date: Date, in zone: TimeZone, style: PDFBuiltInTexts.DateStyle = .iso) -> String {
        let offset = utcOffset(zone.secondsFromGMT(for: date))
        let abbreviation = TZifAbbreviation.lookup(
            zone: zone.identifier, utcOffset: zone.secondsFromGMT(for: date), isDST: zone.isDaylightSavingTime(for: date))
        let isNamed = abbreviation.map { $0.contains { $0.isLetter } } ?? false
        return "\(localDateTime(date, in: zone, style: style)) \(isNamed ? "\(abbreviation ?? "") " : "")(\(offset))"
    }

    /// "2026-11-22 14:05" in `zone`, Gregorian (`UTCTime`'s arithmetic: no Calendar or DateFormatter per render).
    static func localDateTime(
        _ date: Date, in zone: TimeZone, seconds: Bool = false, separator: String = " ",
        style: PDFBuiltInTexts.DateStyle = .iso
    ) -> String {
        let c = UTCTime(wallClockOf: date, in: zone)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = String(c.year)
        let time = "\(two(c.hour)):\(two(c.minute))" + (seconds ? ":\(two(c.second))" : "")
        switch style {
        case .iso: return "\(year)-\(two(c.month))-\(two(c.day))\(separator)\(time)"
        case .dayMonthYearDots: return "\(two(c.day)).\(two(c.month)).\(year)\(separator)\(time)"
        case .dayMonthYearSlashes: return "\(two(c.day))/\(two(c.month))/\(year)\(separator)\(time)"
        }
    }

    /// "UTC+01:00", "UTC-03:30", "UTC+00:00".
    static func utcOffset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let hours = abs(seconds) / 3600
        let minutes = abs(seconds) % 3600 / 60
        return "UTC\(sign)\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
    }
}

/// Reads a zone's abbreviation ("CET", "EDT", "IST") from its TZif file (RFC 8536).
enum TZifAbbreviation {
    static let zoneinfo = "/usr/share/zoneinfo"

    /// The abbreviation of the local time type with this offset and DST flag, preferring the one the zone used
    /// most recently; nil when the zone has no TZif file.
    static func lookup(zone identifier: String, utcOffset: Int, isDST: Bool) -> String? {
        // Zone ids are relative paths of letters, digits, "_", "+", "-" and "/"; nothing else is read.
        guard !identifier.isEmpty, !identifier.contains(".."), !identifier.hasPrefix("/"),
            identifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_+-/".contains($0)) })
        else { return nil }
        let bytes = files.withLockedValue { cache -> [UInt8]? in
            if let known = cache[identifier] { return known }
            let read = try? FileBytes.read("\(zoneinfo)/\(identifier)")
            // A kiosk uses one or two zones; the cap only guards against a caller cycling through many.
            if cache.count < 64 { cache[identifier] = read }
            return read
        }
        guard let bytes else { return nil }
        return abbreviation(in: bytes, utcOffset: utcOffset, isDST: isDST)
    }

    /// TZif files read so far (nil: the zone has none), so each render does not read the file again.
    private static let files = NIOLockedValueBox<[String: [UInt8]?]>([:])

    static func abbreviation(in bytes: [UInt8], utcOffset: Int, isDST: Bool) -> String? {
        // Version 1 data (32-bit times) first; "slim" files leave it empty and only fill the version 2+ block
        // that follows it (64-bit times).
        guard let v1 = block(in: bytes, at: 0, timeSize: 4) else { return nil }
        if let found = v1.abbreviation(utcOffset: utcOffset, isDST: isDST) { return found }
        guard bytes[4] >= UInt8(ascii: "2"), let v2 = block(in: bytes, at: v1.end, timeSize: 8) else { return nil }
        return v2.abbreviation(utcOffset: utcOffset, isDST: isDST)
    }

    /// One TZif data block: its transition type indices, local time types and abbreviation characters.
    private struct Block {
        var indices: ArraySlice<UInt8>
        /// (UT offset, is DST, abbreviation index) per local time type.
        var types: [(offset: Int, isDST: Bool, nameIndex: Int)]
        var chars: ArraySlice<UInt8>
        var end: Int

        func abbreviation(utcOffset: Int, isDST: Bool) -> String? {
            func name(ofType type: Int) -> String? {
                guard types.indices.contains(type), types[type].offset == utcOffset, types[type].isDST == isDST,
                    types[type].nameIndex < chars.count
                else { return nil }
                let start = chars.startIndex + types[type].nameIndex
                let end = chars[start...].firstIndex(of: 0) ?? chars.endIndex
                let text = String(decoding: chars[start..<end], as: UTF8.self)
                return text.isEmpty ? nil : text
            }
            // The most recent transition to a matching type wins (abbreviations change over history).
            for type in indices.reversed() {
                if let found = name(ofType: Int(type)) { return found }
            }
            return types.indices.lazy.compactMap(name(ofType:)).first
        }
    }

    private static func block(in bytes: [UInt8], at base: Int, timeSize: Int) -> Block? {
        func be32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            return Int(Int32(bitPattern: bytes[at..<(at + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
        }
        guard base + 44 <= bytes.count, bytes[base..<(base + 4)].elementsEqual("TZif".utf8),
            let utCount = be32(base + 20), let stdCount = be32(base + 24), let leapCount = be32(base + 28),
            let timeCount = be32(base + 32), let typeCount = be32(base + 36), let charCount = be32(base + 40),
            [utCount, stdCount, leapCount, timeCount, typeCount, charCount].allSatisfy({ (0...100_000).contains($0) })
        else { return nil }
        let indicesStart = base + 44 + timeCount * timeSize
        let typesStart = indicesStart + timeCount
        let charsStart = typesStart + typeCount * 6
        let end = charsStart + charCount + leapCount * (timeSize + 4) + stdCount + utCount
        guard end <= bytes.count else { return nil }
        let types = (0..<typeCount).compactMap { type -> (Int, Bool, Int)? in
            let entry = typesStart + type * 6
            guard let offset = be32(entry) else { return nil }
            return (offset, bytes[entry + 4] != 0, Int(bytes[entry + 5]))
        }
        return Block(
            indices: bytes[indicesStart..<typesStart], types: types, chars: bytes[charsStart..<(charsStart + charCount)],
            end: end)
    }
}
