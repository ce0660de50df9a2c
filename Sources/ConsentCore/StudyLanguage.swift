import Foundation

/// One language a study offers: what `study.get` lists and a UI's language picker shows.
public struct StudyLanguage: Sendable, Hashable, Codable {
    /// The BCP 47 tag (`en`, `de`, `pt-BR`): the Contract's `language`, or the translation's folder name.
    public var tag: String
    /// The language's name in itself ("Deutsch", "Français"), for a picker; the tag when unknown.
    public var name: String
    /// The version hash of this language's files.
    public var version: String
    public var isDefault: Bool

    public init(tag: String, version: String, isDefault: Bool) {
        self.tag = tag
        self.name = Self.name(of: tag)
        self.version = version
        self.isDefault = isDefault
    }

    /// A study without a declared language is English, as C3-PRO's texts are.
    public static let defaultTag = "en"

    /// The endonym from CLDR, first letter capitalised as a picker shows it ("français" → "Français").
    public static func name(of tag: String) -> String {
        guard let name = Locale(identifier: tag).localizedString(forIdentifier: tag), !name.isEmpty else { return tag }
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Whether `text` is a language tag a study folder may use: a 2–3 letter language, then optionally a script
    /// (`Hant`) and a region (`BR`, `419`), e.g. `de`, `pt-BR`, `zh-Hant-TW`. Case as BCP 47 recommends, so a
    /// folder such as `HTMLContent` or `images` is never taken for a language.
    public static func isTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLowercase })
        else { return false }
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4, script.allSatisfy({ $0.isASCII && $0.isLetter }),
            script.first?.isUppercase == true, script.dropFirst().allSatisfy(\.isLowercase)
        {
            rest = rest.dropFirst()
        }
        if let region = rest.first,
            (region.count == 2 && region.allSatisfy({ $0.isASCII && $0.isUppercase }))
                || (region.count == 3 && region.allSatisfy({ $0.isASCII && $0.isNumber }))
        {
            rest = rest.dropFirst()
        }
        return rest.isEmpty
    }

    /// The Contract's `language`, checked; nil when it has none.
    static func declared(by contract: JSONValue, file: String) throws -> String? {
        guard let value = contract["language"] else { return nil }
        guard let tag = value.stringValue, isTag(tag) else {
            throw ConsentCoreError(
                .invalidField,
                "Contract.language must be a language tag such as \"en\", \"de\" or \"pt-BR\", found \(value.stringValue.map { "\"\($0)\"" } ?? value.typeName)",
                file: file)
        }
        return tag
    }

    /// The sub-folders of a study folder named by a language tag, sorted.
    static func translationFolders(in folder: URL) throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return isTag(name)
                && FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
    }
}
