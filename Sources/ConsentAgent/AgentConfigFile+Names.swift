/// The shape checks of the config file's names that are not JSON types: a CUPS destination (`printer`) and a
/// locale (`locale`). `AgentOptions` checks the `--printer` flag with the same rule.
extension AgentConfigFile {
    /// Whether `name` can be a CUPS destination: lpadmin(8) takes up to 127 printable characters other than space,
    /// tab, `/`, `\\`, `?`, `'`, `"` and `#` (an instance after a `/` is not one we print on).
    public static func isDestinationName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 127
            && name.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7f && !"/\\?'\"#".unicodeScalars.contains($0) }
    }

    /// Whether `identifier` looks like a locale: a 2–3 letter language, then optional script, region and variant
    /// subtags (`en`, `en_US`, `de-CH`, `sr_Latn_RS`); a POSIX `.UTF-8` or `@euro` suffix, as in `LANG`, is fine.
    static func isLocaleIdentifier(_ identifier: String) -> Bool {
        let base = identifier.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = base.split(separator: "_", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(\.isASCIILetter)
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}

extension Character {
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
}
