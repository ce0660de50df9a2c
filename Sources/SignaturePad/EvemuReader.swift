/// Reads evemu text (`evemu-record` output, our fixtures, `consentctl record` output).
///
/// Event lines are `E: <sec>.<usec> <type hex> <code hex> <value decimal>`. The microseconds are read as a
/// decimal integer, exactly as evemu's `sscanf("%lu.%06u")` does, so `1.10000` is 1 s + 10 000 µs and
/// `1.010000` is 1 s + 10 000 µs as well. (umockdev 0.17 reads a leading zero as octal; fixtures avoid it, see
/// the writer.) Anything after `#` is a comment. Header lines we do not use are skipped; malformed header or event
/// lines are errors with a line number, so a broken fixture never replays silently wrong.
public enum EvemuReader {
    /// - Throws: `SignaturePadError.malformedRecording` naming the first bad line.
    public static func parse(_ text: String) throws -> EvemuRecording {
        var device: EvemuDevice?
        var events: [InputEvent] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            line = line.trimmingSpaces()
            if line.isEmpty { continue }
            guard line.count >= 2, line[line.index(after: line.startIndex)] == ":" else {
                throw malformed(lineNumber, "is not a `X: ...` evemu line")
            }
            let tag = line[line.startIndex]
            let body = line.dropFirst(2).trimmingSpaces()
            let fields = body.split(separator: " ", omittingEmptySubsequences: true)
            switch tag {
            case "E":
                guard let event = parseEvent(fields) else {
                    throw malformed(lineNumber, "is not an event `E: sec.usec type code value`")
                }
                events.append(event)
            case "N":
                device = device ?? EvemuDevice(name: "")
                device?.name = String(body)
            case "I":
                let ids = fields.compactMap { UInt16($0, radix: 16) }
                guard ids.count == 4, fields.count == 4 else { throw malformed(lineNumber, "is not `I: bus vid pid ver`") }
                device = device ?? EvemuDevice(name: "")
                device?.bustype = ids[0]
                device?.vendor = ids[1]
                device?.product = ids[2]
                device?.version = ids[3]
            case "P":
                let bytes = fields.compactMap { UInt8($0, radix: 16) }
                guard bytes.count == fields.count else { throw malformed(lineNumber, "has a non-hex property byte") }
                device = device ?? EvemuDevice(name: "")
                device?.properties += bytes
            case "B":
                let bytes = fields.compactMap { UInt8($0, radix: 16) }
                guard bytes.count == fields.count, let type = bytes.first else {
                    throw malformed(lineNumber, "is not `B: type bytes...`")
                }
                device = device ?? EvemuDevice(name: "")
                device?.bits[UInt16(type), default: []] += bytes.dropFirst()
            case "A":
                guard fields.count >= 5, let code = UInt16(fields[0], radix: 16), code <= AbsCode.max else {
                    throw malformed(lineNumber, "is not `A: code min max fuzz flat [res]`")
                }
                let numbers = fields.dropFirst().compactMap { Int32($0) }
                guard numbers.count == fields.count - 1 else { throw malformed(lineNumber, "has a non-numeric axis value") }
                device = device ?? EvemuDevice(name: "")
                device?.axes[code] = AxisInfo(
                    minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                    resolution: numbers.count > 4 ? numbers[4] : 0)
            default:
                continue  // other header lines (L:, S:, ...) carry nothing the capture needs
            }
        }
        return EvemuRecording(device: device, events: events)
    }

    private static func parseEvent(_ fields: [Substring]) -> InputEvent? {
        guard fields.count == 4 else { return nil }
        let time = fields[0].split(separator: ".", omittingEmptySubsequences: false)
        guard time.count == 2, let sec = Int64(time[0]), sec >= 0, !time[1].isEmpty, time[1].count <= 6,
            let usec = Int64(time[1]), usec >= 0,
            let type = UInt16(fields[1], radix: 16), let code = UInt16(fields[2], radix: 16),
            let value = Int32(fields[3])
        else { return nil }
        guard sec < Int64.max / 1_000_000 - 1 else { return nil }
        return InputEvent(type: type, code: code, value: value, timestamp: sec * 1_000_000 + usec)
    }

    private static func malformed(_ line: Int, _ what: String) -> SignaturePadError {
        SignaturePadError(
            .malformedRecording, "Line \(line) of the evemu recording \(what); fix or re-record the file.")
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}
