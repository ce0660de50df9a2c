import Foundation
import Speech
import Testing

/// eSpeak NG behind the agent's `speech.get`: what it says, what it keeps, how texts are cut. (What the agent
/// speaks for each screen: ConsentAgentTests' ReadAloudTests.)
@Suite struct SpeechSynthesizerTests {
    /// A text spoken without the cache is kept nowhere (a withdrawal's date of signing).
    @Test func uncachedTextsAreKeptNowhere() async throws {
        let text = "Consent signed on 2026-03-14, withdrawn today."
        let audio = try await SpeechSynthesizer.shared.speak(text, voice: "en-us", cache: false)
        #expect(audio.durationMilliseconds > 1000)
        #expect(!SpeechSynthesizer.shared.isCached(text, voice: "en-us"))
    }

    /// A longer text takes longer to say: the audio follows its text, not a fixed clip.
    @Test func longerTextsGiveLongerAudio() async throws {
        let short = try await SpeechSynthesizer.shared.speak("Yes.", voice: "en-us")
        let long = try await SpeechSynthesizer.shared.speak(
            "This study asks you to answer a few questions about your health every week for one year.", voice: "en-us")
        #expect(long.durationMilliseconds > 3 * short.durationMilliseconds)
        #expect(SpeechSynthesizer.shared.isCached("Yes.", voice: "en-us"))
    }

    @Test func chunksAreWholeSentencesWithinTheBound() {
        let sentence = "This is one sentence of a section that goes on. "
        let text = String(repeating: sentence, count: 20) + String(repeating: "word ", count: 100)
        let chunks = SpeechChunks.split(text, maximumCharacters: 120)
        #expect(chunks.allSatisfy { $0.count <= 120 })
        #expect(chunks.first?.hasSuffix("goes on.") == true)
        #expect(chunks.joined(separator: " ").split(separator: " ") == text.split(separator: " "))
    }
}
