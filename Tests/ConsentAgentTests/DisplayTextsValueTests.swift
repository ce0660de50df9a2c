import AgentProtocol
import ConsentCore
import Testing

@testable import ConsentAgent

/// study.get's `texts.display` and `texts.keys` letters: what the reference UI renders its text-size buttons, its
/// contrast toggle and its touch keyboard from.
@Suite struct DisplayTextsValueTests {
    @Test(arguments: ["en", "de", "fr", "es"])
    func theDisplayControlsAndTheKeyboardAreInTheTexts(_ language: String) throws {
        let texts = UITexts(language: language)
        let value = UITextsValue.value(texts)
        #expect(value["display"]?["textSize"] == .string(texts.display.textSize))
        #expect(value["display"]?["contrast"] == .string(texts.display.contrast))
        guard case .array(let sizes)? = value["display"]?["sizes"] else {
            Issue.record("no sizes")
            return
        }
        #expect(sizes.map { $0["percent"] } == DisplayTexts.percents.map { .integer(Int64($0)) })
        #expect(value["keys"]?["layout"] == .string(texts.display.keyboardLayout))
        guard case .array(let rows)? = value["keys"]?["letters"] else {
            Issue.record("no letters")
            return
        }
        #expect(rows == texts.display.letters.map { .array($0.map { .string($0) }) })
        #expect(value["keys"]?["erase"] == .string(texts.keyErase), "the special keys stay")
    }
}
