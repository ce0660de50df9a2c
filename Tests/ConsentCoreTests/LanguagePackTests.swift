import ConsentCore
import Foundation
import Testing

/// Every language's file against English's: the same texts, none empty, and each with the placeholders its English
/// original has, no other. What makes "copy English.swift, translate it, add its line" safe.
@Suite struct LanguagePackTests {
    /// Every string a pack holds, by its path (`ui.errors.busy`, `builtIn.sectionTitles.privacy`,
    /// `display.letters.2.5`), read by reflection so a member added to a table is checked without editing this test.
    static func texts(of pack: KioskLanguagePack) -> [String: String] {
        var texts: [String: String] = [:]
        func walk(_ value: Any, _ path: String) {
            if let text = value as? String {
                texts[path] = text
                return
            }
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .dictionary:
                for pair in mirror.children {
                    let entry = Array(Mirror(reflecting: pair.value).children)
                    guard entry.count == 2 else { continue }
                    walk(entry[1].value, "\(path).\(entry[0].value)")
                }
            default:
                for (index, child) in mirror.children.enumerated() {
                    walk(child.value, path.isEmpty ? (child.label ?? "\(index)") : "\(path).\(child.label ?? "\(index)")")
                }
            }
        }
        walk(pack, "")
        return texts
    }

    /// Paths whose number of entries is the language's own: a keyboard has the rows and keys its layout has.
    static func isLanguagesOwn(_ path: String) -> Bool { path.hasPrefix("display.letters.") }

    @Test func theRegistryListsEachLanguageOnceEnglishFirst() {
        let tags = KioskLanguagePack.all.map(\.tag)
        #expect(tags.first == "en")
        #expect(Set(tags).count == tags.count, "\(tags)")
        #expect(BuiltInTexts.supportedLanguages == tags)
        for pack in KioskLanguagePack.all {
            #expect(StudyLanguage.isTag(pack.tag) && !pack.tag.contains("-"), "\(pack.tag): a primary subtag")
            #expect(KioskLanguagePack.exactly(pack.tag)?.tag == pack.tag)
            #expect(KioskLanguagePack.exactly(pack.tag.uppercased() + "-XX")?.tag == pack.tag)
        }
        #expect(KioskLanguagePack.exactly("xx") == nil && KioskLanguagePack.pack(for: "xx").tag == "en")
    }

    @Test(arguments: KioskLanguagePack.all.map(\.tag))
    func everyLanguageHasEveryTextEnglishHas(_ tag: String) throws {
        let pack = try #require(KioskLanguagePack.exactly(tag))
        let english = Self.texts(of: .english)
        let texts = Self.texts(of: pack)
        let shared = { (paths: Dictionary<String, String>.Keys) in Set(paths.filter { !Self.isLanguagesOwn($0) }) }
        #expect(shared(texts.keys).subtracting(shared(english.keys)).sorted() == [], "\(tag): texts English lacks")
        #expect(shared(english.keys).subtracting(shared(texts.keys)).sorted() == [], "\(tag): texts missing")
        for (path, text) in texts {
            #expect(!text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(tag) \(path) is empty")
        }
        // Each table says which language it is: the pack's.
        let languages = texts.filter { $0.key.hasSuffix(".language") }
        #expect(languages.count == 7 && languages.values.allSatisfy { $0 == tag }, "\(languages)")
        #expect(!pack.voice.isEmpty && !pack.display.keyboardLayout.isEmpty)
        #expect(pack.display.letters.joined().allSatisfy { $0.unicodeScalars.count == 1 && $0 == $0.lowercased() })
    }

    @Test(arguments: KioskLanguagePack.all.map(\.tag))
    func everyTextHasThePlaceholdersOfItsEnglishOriginal(_ tag: String) throws {
        let pack = try #require(KioskLanguagePack.exactly(tag))
        let english = Self.texts(of: .english)
        let known = Set(Placeholder.allCases.map(\.rawValue))
        for (path, text) in Self.texts(of: pack) {
            let names = Placeholder.names(in: text)
            #expect(names.isSubset(of: known), "\(tag) \(path): unknown \(names.subtracting(known).sorted())")
            guard let original = english[path] else { continue }
            let wanted = Placeholder.names(in: original)
            #expect(names == wanted, "\(tag) \(path): has \(names.sorted()), English has \(wanted.sorted())")
        }
    }

    @Test func thePlaceholderCheckSeesAMissingAndAnUnknownPlaceholder() {
        // The check the test above makes, on a text of each fault.
        #expect(Placeholder.names(in: "Das Team von {team} und {tema}") == ["team", "tema"])
        #expect(Placeholder.names(in: "Seite {page} von") != Placeholder.names(in: "Page {page} of {count}"))
        #expect(Placeholder.names(in: "{ no } {}") == [" no ", ""])
    }

    @Test func fillReplacesEveryPlaceholderInOnePass() {
        #expect(Placeholder.fill("Page {page} of {count}", [.page: "2", .count: "3"]) == "Page 2 of 3")
        // A value is not filled again: a study titled "{date}" keeps its title.
        #expect(Placeholder.fill("“{study}” on {date}", [.study: "{date}", .date: "1 May"]) == "“{date}” on 1 May")
        // What has no value, or is no placeholder, stays.
        #expect(Placeholder.fill("{team} {x} {", [.date: "d"]) == "{team} {x} {")
        #expect(Placeholder.fill("a {b", [:]) == "a {b")
        // A stray brace before a placeholder (a study's own words) does not hide it.
        #expect(Placeholder.fill("Tap { here: {button}", [.button: "Next"]) == "Tap { here: Next")
        #expect(Placeholder.fill("{{button}}", [.button: "Next"]) == "{Next}")
        #expect(Placeholder.fill("no braces", [.team: "t"]) == "no braces")
    }
}
