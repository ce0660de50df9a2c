import AgentProtocol
import ConsentCore
import Testing

@testable import ConsentAgent

/// study.get's `texts`: every member the protocol promises, in each language, and a sentence for every error type.
@Suite struct UITextsValueTests {
    @Test(arguments: ["en", "de", "fr", "es"])
    func everyErrorTypeHasASentenceInTheLanguage(_ language: String) throws {
        let texts = UITexts(language: language)
        let value = UITextsValue.value(texts)
        #expect(value["language"] == .string(language))
        guard case .object(let errors)? = value["errors"] else {
            Issue.record("no errors object")
            return
        }
        #expect(Set(errors.keys) == Set(RPCErrorType.allCases.map(\.rawValue)))
        for (type, sentence) in errors {
            guard case .string(let text) = sentence else { Issue.record("\(type) is not a string"); continue }
            #expect(!text.isEmpty, "\(language) \(type)")
        }
        #expect(errors["WrongPasscode"] == .string(texts.errors.wrongPasscode))
        #expect(errors["SignatureTooShort"] == .string(texts.errors.signatureTooShort))
        #expect(errors["UnknownFlow"] == .string(texts.interrupted))
        #expect(errors["CapabilityNotGranted"] == .string(texts.errors.askStaff))
        #expect(value["keys"]?["erase"] == .string(texts.keyErase))
        for member in ["start", "languagePicker", "existingRecord", "existingRecordText", "recordLabel",
                       "recordPasscodeLabel", "withdraw", "reconsent", "back", "learnMore", "close", "startAgain",
                       "saving", "savingWithdrawal", "savingChange", "reconnecting", "interrupted", "expired"] {
            guard case .string(let text)? = value[member] else { Issue.record("\(member) missing"); continue }
            #expect(!text.isEmpty)
        }
    }

    /// A withdrawal being saved has its own words: "Ihre Einwilligung wird gespeichert…" would tell a participant
    /// who is withdrawing the opposite of what happens.
    @Test(arguments: [("en", "withdrawal"), ("de", "Widerruf"), ("fr", "retrait")])
    func savingAWithdrawalSpeaksOfTheWithdrawal(_ language: String, _ word: String) throws {
        let value = UITextsValue.value(UITexts(language: language))
        let saving = try #require(value["savingWithdrawal"]?.stringValue)
        #expect(saving.contains(word), "\(saving)")
        #expect(value["saving"]?.stringValue != saving)
    }

    @Test func theLanguagesSpeakTheirOwnWords() {
        let english = UITextsValue.value(.english)
        let german = UITextsValue.value(.german)
        let french = UITextsValue.value(.french)
        #expect(german["start"] == .string("Beginnen") && french["start"] == .string("Commencer"))
        #expect(german["errors"]?["PadBusy"] != english["errors"]?["PadBusy"])
        #expect(french["errors"]?["PadBusy"] != english["errors"]?["PadBusy"])
    }
}
