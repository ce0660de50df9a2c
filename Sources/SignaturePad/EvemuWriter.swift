/// Writes evemu text that both evemu and umockdev replay identically.
///
/// Microseconds are written **without zero padding** (`E: 12.5000 ...` is 12 s + 5000 µs). evemu reads the field
/// with `%06u` (decimal either way), while umockdev 0.17 parses it with base auto-detection and would read a
/// padded `12.005000` as octal; unpadded output is correct for both.
public enum EvemuWriter {
    /// The `# EVEMU 1.3` header with the device description.
    public static func header(_ device: EvemuDevice) -> String {
        var out = "# EVEMU 1.3\n"
        out += "N: \(device.name.replacingNewlines())\n"
        out += "I: \(hex4(device.bustype)) \(hex4(device.vendor)) \(hex4(device.product)) \(hex4(device.version))\n"
        let props = device.properties.isEmpty ? [UInt8](repeating: 0, count: 8) : device.properties
        for chunk in props.chunked(8) { out += "P: " + chunk.map(hex2).joined(separator: " ") + "\n" }
        for type in device.bits.keys.sorted() {
            guard let mask = device.bits[type] else { continue }
            for chunk in mask.chunked(8) {
                out += "B: \(hex2(UInt8(truncatingIfNeeded: type))) " + chunk.map(hex2).joined(separator: " ") + "\n"
            }
        }
        for code in device.axes.keys.sorted() {
            guard let a = device.axes[code] else { continue }
            out += "A: \(hex2(UInt8(truncatingIfNeeded: code))) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) "
            out += "\(a.resolution)\n"
        }
        return out
    }

    /// One `E:` line (with its newline).
    public static func line(_ event: InputEvent) -> String {
        let ts = max(event.timestamp, 0)
        return "E: \(ts / 1_000_000).\(ts % 1_000_000) \(hex4(event.type)) \(hex4(event.code)) \(event.value)\n"
    }

    /// A complete recording.
    public static func write(_ recording: EvemuRecording) -> String {
        var out = recording.device.map(header) ?? "# EVEMU 1.3\n"
        for event in recording.events { out += line(event) }
        return out
    }

    private static func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 4 - s.count) + s
    }

    private static func hex2(_ v: UInt8) -> String {
        let s = String(v, radix: 16)
        return s.count == 1 ? "0" + s : s
    }
}

extension Array {
    fileprivate func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
