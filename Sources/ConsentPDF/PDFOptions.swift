import Foundation

/// How the consent PDF is set up: paper, and the time zone and locale the signing time is shown in.
public struct PDFOptions: Sendable, Hashable {
    /// The paper sizes a consent is printed on.
    public enum Paper: String, Sendable, Hashable, CaseIterable {
        /// ISO A4, 210 × 297 mm.
        case a4
        /// US Letter, 8.5 × 11 in.
        case letter

        /// Width and height in PDF points (1/72 in).
        public var size: (width: Double, height: Double) {
            switch self {
            case .a4: (595.276, 841.890)
            case .letter: (612, 792)
            }
        }
    }

    public var paper: Paper
    /// The zone the signing time is printed in, with its abbreviation and UTC offset.
    public var timeZone: TimeZone
    /// The configured locale (e.g. "en_US", "de-CH"); it decides the default paper.
    public var localeIdentifier: String

    /// - Parameters:
    ///   - paper: The paper; nil picks it from the locale's region (see `defaultPaper(forLocale:)`).
    ///   - timeZone: The zone of the printed signing time.
    ///   - localeIdentifier: The kiosk's locale.
    public init(paper: Paper? = nil, timeZone: TimeZone = .current, localeIdentifier: String = Locale.current.identifier) {
        self.paper = paper ?? Self.defaultPaper(forLocale: localeIdentifier)
        self.timeZone = timeZone
        self.localeIdentifier = localeIdentifier
    }

    /// The regions whose paper is US Letter (CLDR `paperSize`); everyone else prints on A4.
    static let letterRegions: Set<String> = [
        "US", "CA", "MX", "PH", "PR", "CL", "CO", "CR", "GT", "NI", "PA", "SV", "VE", "BZ",
    ]

    /// The paper a locale prints on: Letter for the regions that use it, A4 otherwise (also when the identifier
    /// names no region).
    ///
    /// Accepts ICU and POSIX spellings: "en_US", "en-US", "es_MX.UTF-8", "fr_CA@euro".
    public static func defaultPaper(forLocale identifier: String) -> Paper {
        let base = identifier.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? ""
        let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" }).dropFirst()
        let region = parts.first { $0.count == 2 && $0.allSatisfy(\.isLetter) }.map { $0.uppercased() }
        guard let region else { return .a4 }
        return letterRegions.contains(region) ? .letter : .a4
    }
}
