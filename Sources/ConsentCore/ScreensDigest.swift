import Crypto
import Foundation
import HexText

/// The `screensDigest`: SHA-256 (hex) of every screen's words and settings of a study's languages as canonical JSON
/// (compact, keys in UTF-8 byte order, `JSONValue.serialized()`), the one value that binds what an IRB reviewed
/// (the review pack, `consentctl study review`) to what the kiosk shows (docs/OPERATIONS.md, "The IRB review pack").
///
/// A study's own files are bound by its version hash already; the screens also hold what the kiosk itself says (its
/// built-in texts, eligibility messages, button labels, the voice), which a kiosk update can change. So the JSON
/// holds, per language: the version, the voice, every screen (`ReviewScreens`), and every participant-facing table
/// of the kiosk's language pack whole (built-in, screen, UI, display and comprehension texts), so that no text a
/// screen may show escapes it. Staff and PDF texts are left out: a participant does not see them on a screen.
///
/// Computed from the loaded study alone (no rendering, no speech): the kiosk recomputes it at every load.
public enum ScreensDigest {
    public static let format = "consent-kiosk-screens/1"

    /// The language packs the screens are built with: the kiosk's own (`KioskLanguagePack.pack(for:)`), or a test's.
    public typealias Packs = @Sendable (String) -> KioskLanguagePack

    public static let kioskPacks: Packs = { KioskLanguagePack.pack(for: $0) }

    /// The canonical JSON of `languages` of `study` (all of them when nil), by language tag.
    ///
    /// - Returns: nil when the study lacks one of `languages`.
    public static func canonical(_ study: Study, languages: [String]? = nil, packs: Packs = kioskPacks) -> JSONValue? {
        var members: [String: JSONValue] = [:]
        for tag in languages ?? study.languages.map(\.tag) {
            guard let language = study.inLanguage(tag) else { return nil }
            let pack = packs(language.language)
            members[language.language] = .object([
                "version": .string(language.version),
                "voice": .string(pack.voice),
                "screens": .array(ReviewScreens.of(language, pack: pack).map(\.json)),
                "kiosk": .object([
                    "builtIn": reflect(pack.builtIn), "screen": reflect(pack.screen), "ui": reflect(pack.ui),
                    "display": reflect(pack.display), "comprehension": reflect(pack.comprehension),
                ]),
            ])
        }
        return .object(["format": .string(format), "study": .string(study.id), "languages": .object(members)])
    }

    /// The digest of `languages` of `study` (all of them when nil); nil when the study lacks one of them.
    public static func of(_ study: Study, languages: [String]? = nil, packs: Packs = kioskPacks) -> String? {
        guard let json = canonical(study, languages: languages, packs: packs), let bytes = try? json.serialized() else {
            return nil
        }
        return HexText.lowercase(SHA256.hash(data: bytes))
    }

    /// A text table as JSON, member by member (declaration order does not matter: keys are sorted when written):
    /// every string, number and list of it, dictionaries by their keys' text, so a changed text changes the digest.
    static func reflect(_ value: Any) -> JSONValue {
        switch value {
        case let string as String: return .string(string)
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .integer(Int64(int))
        case let double as Double: return .number(double)
        case let raw as any RawRepresentable<String>: return .string(raw.rawValue)
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { reflect($0.value) } ?? .null
        case .collection, .set:
            let items = mirror.children.map { reflect($0.value) }
            guard mirror.displayStyle == .set else { return .array(items) }
            return .array(items.sorted { (try? $0.serialized().lexicographicallyPrecedes($1.serialized())) ?? false })
        case .dictionary:
            var members: [String: JSONValue] = [:]
            for child in mirror.children {
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                guard pair.count == 2 else { continue }
                let key = reflect(pair[0])
                members[key.stringValue ?? ((try? key.serialized()).map { String(decoding: $0, as: UTF8.self) } ?? "")] =
                    reflect(pair[1])
            }
            return .object(members)
        case .struct, .class, .tuple:
            var members: [String: JSONValue] = [:]
            for (index, child) in mirror.children.enumerated() {
                members[child.label ?? "\(index)"] = reflect(child.value)
            }
            return .object(members)
        default:
            return .string(String(describing: value))
        }
    }
}
