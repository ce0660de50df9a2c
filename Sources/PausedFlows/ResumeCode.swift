/// The code a participant who pauses takes home (`flow.pause`), and types at a kiosk to go on (`flow.start
/// {resume}`): eight characters from an alphabet without look-alikes (no 0/O/Q, 1/I/L, 2/Z, 5/S, 6/G, 8/B), so it
/// can be read off a slip and typed without a mistake.
///
/// 22 characters to the power of eight is about 5.5 × 10¹⁰ codes (35 bits); with the agent's lock-out (five wrong
/// codes, then a quarter of an hour) guessing one at the kiosk takes longer than any code lives (`resumeDays`).
public struct ResumeCode: Sendable, Hashable, CustomStringConvertible {
    public static let alphabet: [Character] = Array("ACDEFHJKMNPRTUVWXY3479")
    public static let length = 8

    /// The eight characters, upper case, without the separator.
    public let value: String

    /// A new code from the system's cryptographic generator (getrandom on Linux).
    public static func random() -> ResumeCode {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] }
        return ResumeCode(checked: String(characters))
    }

    /// A code as a participant typed it: case, spaces and the hyphen of the printed form do not matter. Nil when what
    /// is left is not eight characters of the alphabet (the agent answers that as an unknown code).
    public init?(typed text: String) {
        guard text.utf8.count <= 64 else { return nil }
        let kept = text.uppercased().filter { $0 != " " && $0 != "-" }
        guard kept.count == Self.length, kept.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        self.init(checked: kept)
    }

    private init(checked value: String) { self.value = value }

    /// As the kiosk shows and prints it: two groups of four ("ACDE-FH34"), easier to read out and to type.
    public var description: String {
        "\(value.prefix(4))-\(value.suffix(4))"
    }
}
