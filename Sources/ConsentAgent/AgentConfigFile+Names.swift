/// The shape check of the config file's `locale`, which is not a JSON type (a printer name's is `PrinterName`).
extension AgentConfigFile {
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
