import AgentProtocol
import ConsentCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import Speech
import Testing

@testable import ConsentAgent

/// Read-aloud (`speech.get`) with the real eSpeak NG, and time to think (`flow.expiring`, `flow.extend`).
@Suite struct ReadAloudTests {
    static let given = "Zebedee", family = "Quillfeather"

    /// Drives a core through a recording handle (connection 1), and records the flow events it publishes.
    final class Driver: Sendable {
        let core: AgentCore
        let clock = ManualClock()
        let state: URL
        private let nextID = NIOLockedValueBox<Int64>(0)
        private let seen = NIOLockedValueBox<[AgentEvent]>([])

        init(
            warning: Duration? = nil, speech: SpeechSynthesizer? = .shared, logger: Logger = Logger(label: "test"),
            eventClock: EventClock = .system
        ) throws {
            state = try TestSupport.temporaryDirectory()
            let clock = self.clock
            core = AgentCore(
                studies: [try TestSupport.sampleStudy()],
                settings: .init(
                    inactivityTimeout: .seconds(600), minimumSignaturePoints: 2, stateDirectory: state,
                    inactivityWarning: warning),
                hub: EventHub(), recordMaker: try TestSupport.recordMaker(state: state), logger: logger,
                eventClock: eventClock, now: { clock.now }, speech: speech)
            let seen = self.seen
            core.hub.subscribe(
                ConnectionHandle(id: 99) { delivery in
                    if case .event(let event) = delivery { seen.withLockedValue { $0.append(event) } }
                }, topics: [.flow])
        }

        func events(_ name: EventName) -> [RPCValue] {
            seen.withLockedValue { $0.filter { $0.name == name }.map(\.data) }
        }

        func call(_ method: String, _ params: [String: RPCValue] = [:]) async throws -> Result<RPCValue, RPCErrorObject> {
            let reply = NIOLockedValueBox<DispatchOutcome?>(nil)
            let handle = ConnectionHandle(id: 1) { delivery in
                guard case .reply(_, let outcome) = delivery else { return }
                reply.withLockedValue { $0 = outcome }
            }
            handle.negotiated(client: "test", capabilities: Set(Capability.allCases))
            let id = nextID.withLockedValue { $0 += 1; return $0 }
            let parsed = try #require(Method(rawValue: method))
            await core.handle(RPCRequest(id: .integer(id), method: method, params: params), method: parsed, from: handle)
            switch reply.withLockedValue({ $0 }) {
            case .result(let value)?: return .success(value)
            case .error(let error)?: return .failure(error)
            default: throw CocoaError(.featureUnsupported)
            }
        }

        func error(_ method: String, _ params: [String: RPCValue]) async throws -> RPCErrorObject? {
            guard case .failure(let error) = try await call(method, params) else { return nil }
            return error
        }

        func start(language: String = "en") async throws -> String {
            let started = try await call("flow.start", ["language": .string(language)]).get()
            return try #require(started["flow"]?.stringValue)
        }

        /// Answers eligibility and walks to the review document.
        func toReview(_ flow: String) async throws {
            let f = RPCValue.string(flow)
            _ = try await call("eligibility.answer", ["flow": f, "answers": [true, true, false, true]]).get()
            var step = try await call("flow.next", ["flow": f, "step": "eligibility"]).get()
            // The sample study begins with its key information.
            step = try await call("flow.next", ["flow": f, "step": "keyInformation"]).get()
            while step["step"] == "visual" { step = try await call("flow.next", ["flow": f, "step": "visual"]).get() }
            #expect(step["step"] == "sharing")
            _ = try await call("sharing.choose", ["flow": f, "shareWidely": true]).get()
            _ = try await call("optional.answer", ["flow": f, "answers": ["future-research": true, "contact-other-studies": false]]).get()
        }

        /// What the UI of the flow is shown now.
        func view(_ flow: String) async throws -> StepViewModel {
            let entry = try #require(await core.flows[flow])
            return await core.view(flow, entry)
        }
    }

    /// A decoded WAV: PCM 16-bit mono samples.
    struct Wave {
        var sampleRate: Int
        var samples: [Int16]

        init(base64: String) throws {
            let bytes = try #require(Data(base64Encoded: base64)).map { $0 }
            try #require(bytes.count >= 44)
            #expect(Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WAVE".utf8))
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
            #expect(u16(20) == 1, "PCM")
            #expect(u16(22) == 1, "mono")
            #expect(u16(34) == 16, "16-bit")
            #expect(Array(bytes[36..<40]) == Array("data".utf8))
            #expect(u32(40) == bytes.count - 44)
            sampleRate = u32(24)
            samples = stride(from: 44, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(u16($0))) }
        }

        var seconds: Double { Double(samples.count) / Double(sampleRate) }
        var rms: Double {
            guard !samples.isEmpty else { return 0 }
            return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
        }
    }

    /// The audio's length fits its text: speech at 160 words a minute runs at about 12-16 characters a second.
    static func expectFits(_ wave: Wave, text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let characters = Double(text.count)
        #expect(wave.seconds > characters / 30, "\(wave.seconds) s for \(text.count) characters", sourceLocation: sourceLocation)
        #expect(wave.seconds < characters / 5 + 1, "\(wave.seconds) s for \(text.count) characters", sourceLocation: sourceLocation)
        #expect(wave.rms > 300, "silent audio (RMS \(wave.rms))", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["en", "de", "fr", "es"])
    func theScreenIsSpokenInTheFlowsLanguage(language: String) async throws {
        let d = try Driver()
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start(language: language)
        let reply = try await d.call("speech.get", ["flow": .string(flow), "part": "screen"]).get()
        #expect(reply["language"]?.stringValue == language)
        #expect(reply["mediaType"] == "audio/wav")
        let wave = try Wave(base64: try #require(reply["data"]?.stringValue))
        #expect(wave.sampleRate == 22050)
        #expect(reply["durationMs"]?.integerValue == Int64(wave.samples.count * 1000 / wave.sampleRate))
        // The first chunk of the screen's text, as the agent cut it.
        let text = SpokenText.screen(try await d.view(flow))
        let chunks = SpeechChunks.split(text)
        #expect(reply["chunks"]?.integerValue == Int64(chunks.count))
        #expect(text.contains(try await d.view(flow).eligibility?.questions.first ?? "-"))
        Self.expectFits(wave, text: chunks[0])
        // Every chunk of the screen, in turn.
        for index in chunks.indices.dropFirst() {
            let next = try await d.call("speech.get", ["flow": .string(flow), "part": "screen", "chunk": .integer(Int64(index))]).get()
            Self.expectFits(try Wave(base64: try #require(next["data"]?.stringValue)), text: chunks[index])
        }
    }

    /// The screens before a flow are spoken too, in the language picked there.
    @Test(arguments: ["en", "de", "fr", "es"])
    func theStartAndRecordScreensAreSpoken(language: String) async throws {
        let d = try Driver()
        defer { try? FileManager.default.removeItem(at: d.state) }
        for part in ["start", "record", "resume"] {
            let reply = try await d.call("speech.get", ["part": .string(part), "language": .string(language)]).get()
            #expect(reply["language"]?.stringValue == language)
            #expect(reply["flow"] == nil)
            #expect(try Wave(base64: try #require(reply["data"]?.stringValue)).rms > 300)
        }
        #expect(try await d.error("speech.get", ["part": "start", "language": "it"])?.type == .unknownLanguage)
        #expect(try await d.error("speech.get", ["part": "start", "flow": "f-1"])?.type == .invalidParams)
        #expect(try await d.error("speech.get", ["part": "screen"])?.type == .invalidParams, "a flow's part needs the flow")
        let flow = try await d.start()
        #expect(try await d.error("speech.get", ["part": "screen", "flow": .string(flow), "language": "de"])?.type == .invalidParams)
    }

    /// A paused flow's screen says its resume code first, letter by letter, then the day it works until in words
    /// (never the RFC 3339 form); that audio is not kept in the cache, since the code is kept nowhere else.
    @Test(arguments: ["en", "de", "fr", "es"])
    func aPausedFlowSpellsItsResumeCode(language: String) async throws {
        let d = try Driver()
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start(language: language)
        let paused = try await d.call("flow.pause", ["flow": .string(flow)]).get()
        let code = try #require(paused["resumeCode"]?.stringValue)
        let view = try await d.view(flow)
        let pausedView = try #require(view.paused)
        let spoken = SpokenText.screen(view)
        let lines = spoken.split(separator: "\n").map(String.init)
        let spelled = SpokenText.spelled(code)
        let first: [String] = [SpokenText.sentence(view.title), SpokenText.sentence(pausedView.codeLabel), spelled]
        #expect(Array(lines.prefix(3)) == first)
        let spelledLength = 8 + 7 * 2 + 1  // eight characters, a comma or a stop and a space between them, a stop
        #expect(spelled.count == spelledLength, "\(spelled)")
        #expect(spelled.filter { $0.isLetter || $0.isNumber } == code.filter { $0 != "-" })
        #expect(lines.contains(SpokenText.sentence(pausedView.text)))
        #expect(!spoken.contains(pausedView.expires) && !spoken.contains(code))

        let reply = try await d.call("speech.get", ["flow": .string(flow), "part": "screen"]).get()
        #expect(try Wave(base64: try #require(reply["data"]?.stringValue)).rms > 300)
        let voice = try #require(KioskLanguagePack.exactly(language)?.voice)
        for chunk in SpeechChunks.split(spoken) {
            #expect(!SpeechSynthesizer.shared.isCached(chunk, voice: voice), "cached: \(chunk)")
        }
    }

    @Test func aCodeIsSpelledInItsGroups() {
        #expect(SpokenText.spelled("ACDE-FH34") == "A, C, D, E. F, H, 3, 4.")
    }

    /// The study introduction's pages, before any flow: each by its id, in the language asked; the start screen
    /// names them.
    @Test(arguments: ["en", "de", "fr", "es"])
    func theIntroductionPagesAreSpoken(language: String) async throws {
        let d = try Driver()
        defer { try? FileManager.default.removeItem(at: d.state) }
        let study = try await d.call("study.get", ["language": .string(language)]).get()["study"]
        let pages = try #require(study?["introduction"]?["pages"]?.arrayValue)
        #expect(pages.count == 2)
        for page in pages {
            let id = try #require(page["id"]?.stringValue)
            let reply = try await d.call("speech.get", ["part": "introduction", "page": .string(id), "language": .string(language)]).get()
            #expect(reply["page"]?.stringValue == id)
            #expect(reply["language"]?.stringValue == language)
            #expect(try Wave(base64: try #require(reply["data"]?.stringValue)).rms > 300)
        }
        let sample = try TestSupport.sampleStudy()
        let texts = UITexts(language: language)
        #expect(try await d.error("speech.get", ["part": "introduction", "page": "nope", "language": .string(language)])?.type == .unknownPart)
        #expect(try await d.error("speech.get", ["part": "introduction"])?.type == .invalidParams, "a page is needed")
        #expect(try await d.error("speech.get", ["part": "start", "page": "intro_about"])?.type == .invalidParams)
        #expect(!texts.introductionPages.isEmpty)
        #expect(sample.inLanguage(language)?.introduction.pages.map(\.id) == ["intro_about", "intro_visits"])
    }

    @Test func theReviewDocumentIsReadSectionBySection() async throws {
        let d = try Driver()
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start(language: "de")
        try await d.toReview(flow)
        let sections = try #require(SpokenText.documentSections(try await d.view(flow)))
        #expect(sections.count > 3, "a heading per section")
        let first = try await d.call("speech.get", ["flow": .string(flow), "part": "document"]).get()
        #expect(first["sections"]?.integerValue == Int64(sections.count))
        #expect(first["section"]?.integerValue == 0)
        let last = try await d.call(
            "speech.get", ["flow": .string(flow), "part": "document", "section": .integer(Int64(sections.count - 1))]).get()
        Self.expectFits(
            try Wave(base64: try #require(last["data"]?.stringValue)), text: SpeechChunks.split(sections[sections.count - 1])[0])
        // No markup is spoken.
        for section in sections { #expect(!section.contains("<") && !section.contains("&amp;")) }
        let past = try #require(try await d.error(
            "speech.get", ["flow": .string(flow), "part": "document", "section": .integer(Int64(sections.count))]))
        #expect(past.type == .unknownPart)
        #expect(past.details["sections"]?.integerValue == Int64(sections.count))
    }

    /// The key information screen: its page is the `document` part, read section by section (the sample's page
    /// has no heading: one section), never HTML; the screen part is its title and sentence, not the page.
    @Test func theKeyInformationIsReadAsADocument() async throws {
        let d = try Driver()
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start()
        _ = try await d.call("eligibility.answer", ["flow": .string(flow), "answers": [true, true, false, true]]).get()
        let reply = try await d.call("flow.next", ["flow": .string(flow), "step": "eligibility"]).get()
        #expect(reply["step"] == "keyInformation")
        let view = try await d.view(flow)
        let html = try #require(view.keyInformation?.html)
        #expect(html.contains("<strong>Risks:</strong>"))
        let sections = try #require(SpokenText.documentSections(view))
        #expect(sections.count == 1)
        #expect(sections[0].contains("Risks:") && sections[0].contains("Alternatives:") && !sections[0].contains("<"))
        #expect(!SpokenText.screen(view).contains("Risks"), "the page is not part of the screen")
        #expect(SpokenText.screen(view).hasPrefix("Key information."))
        let spoken = try await d.call("speech.get", ["flow": .string(flow), "part": "document"]).get()
        #expect(spoken["sections"]?.integerValue == 1)
        Self.expectFits(try Wave(base64: try #require(spoken["data"]?.stringValue)), text: SpeechChunks.split(sections[0])[0])
        #expect(try await d.error("speech.get", ["flow": .string(flow), "part": "learnMore"])?.type == .unknownPart)
    }

    @Test func learnMoreIsItsOwnPart() async throws {
        let d = try Driver()
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start()
        let none = try #require(try await d.error("speech.get", ["flow": .string(flow), "part": "learnMore"]))
        #expect(none.type == .unknownPart, "eligibility has no learn-more page")
        _ = try await d.call("eligibility.answer", ["flow": .string(flow), "answers": [true, true, false, true]]).get()
        _ = try await d.call("flow.next", ["flow": .string(flow), "step": "eligibility"]).get()
        _ = try await d.call("flow.next", ["flow": .string(flow), "step": "keyInformation"]).get()
        let view = try await d.view(flow)
        let page = try #require(SpokenText.learnMore(view))
        #expect(!page.contains("<"))
        #expect(!SpokenText.screen(view).contains(page.prefix(40)), "the page is not part of the screen")
        let reply = try await d.call("speech.get", ["flow": .string(flow), "part": "learnMore"]).get()
        Self.expectFits(try Wave(base64: try #require(reply["data"]?.stringValue)), text: SpeechChunks.split(page)[0])
    }

    @Test func typedErrors() async throws {
        let d = try Driver()
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start()
        #expect(try await d.error("speech.get", ["flow": "f-none", "part": "screen"])?.type == .unknownFlow)
        #expect(try await d.error("speech.get", ["flow": .string(flow), "part": "everything"])?.type == .invalidParams)
        #expect(try await d.error("speech.get", ["flow": .string(flow), "part": "screen", "chunk": -1])?.type == .invalidParams)
        #expect(try await d.error("speech.get", ["flow": .string(flow), "part": "screen", "section": 1])?.type == .invalidParams)
        #expect(try await d.error("speech.get", ["flow": .string(flow), "part": "screen", "text": "hi"])?.type == .invalidParams)
        #expect(try await d.error("speech.get", ["flow": .string(flow), "part": "document"])?.type == .unknownPart)
        let chunk = try #require(try await d.error("speech.get", ["flow": .string(flow), "part": "screen", "chunk": 999]))
        #expect(chunk.type == .unknownPart)
        #expect(chunk.details["chunks"]?.integerValue ?? 0 >= 1)
        // A kiosk without speech says so in its own error type.
        let silent = try Driver(speech: nil)
        defer { try? FileManager.default.removeItem(at: silent.state) }
        let other = try await silent.start()
        #expect(try await silent.error("speech.get", ["flow": .string(other), "part": "screen"])?.type == .speechUnavailable)
        // A language the kiosk has no file for has no voice; a voice eSpeak NG lacks is refused by name.
        #expect(KioskLanguagePack.exactly("it") == nil)
        await #expect(throws: SpeechError.noVoice(voice: "xx-none")) {
            try await SpeechSynthesizer.shared.speak("Ciao.", voice: "xx-none")
        }
    }

    /// No screen after the name was typed speaks it (the view model holds none of it); nor the passcode.
    @Test func neverSpeaksTheName() async throws {
        let d = try Driver()
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start()
        try await d.toReview(flow)
        let f = RPCValue.string(flow)
        _ = try await d.call("review.agree", ["flow": f]).get()
        for answer in TestSupport.sampleComprehensionAnswers {
            _ = try await d.call("comprehension.answer", answer.merging(["flow": f]) { $1 }).get()
        }
        _ = try await d.call("participant.setName", ["flow": f, "given": .string(Self.given), "family": .string(Self.family)]).get()
        let held = try #require(await d.core.flows[flow])
        #expect(held.session.familyName == Self.family, "the flow holds the name (else the check proves nothing)")
        for part in ["screen", "learnMore", "document", "expiring"] {
            let view = try await d.view(flow)
            let texts = [SpokenText.screen(view), SpokenText.learnMore(view) ?? ""] + (SpokenText.documentSections(view) ?? [])
            for text in texts { #expect(!text.contains(Self.given) && !text.contains(Self.family)) }
            _ = try? await d.call("speech.get", ["flow": f, "part": .string(part)])
        }
        let points: [[Double]] = [[0.2, 0.2, 0, 0.5], [0.6, 0.7, 40, 0.5], [0.7, 0.6, 80, 0.5]]
        let strokes: RPCValue = ["strokes": .array([.array(points.map { .array($0.map(RPCValue.number)) })])]
        _ = try await d.call("signature.submit", ["flow": f, "strokes": strokes]).get()
        let done = SpokenText.screen(try await d.view(flow))
        #expect(!done.contains(Self.given) && !done.contains(Self.family))
    }

    /// What the agent logs while it speaks (at trace level, its most talkative) holds none of the spoken text.
    @Test func theSpokenTextIsNeverLogged() async throws {
        let lines = NIOLockedValueBox<[String]>([])
        var logger = Logger(label: "speech-test") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .trace
        let d = try Driver(logger: logger)
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start()
        let f = RPCValue.string(flow)
        let question = try #require(try await d.view(flow).eligibility?.questions.first)
        _ = try await d.call("speech.get", ["flow": f, "part": "screen"]).get()
        _ = try await d.call("speech.get", ["flow": f, "part": "screen", "chunk": 99])
        try await d.toReview(flow)
        _ = try await d.call("speech.get", ["flow": f, "part": "document", "section": 1]).get()
        let section = try #require(SpokenText.documentSections(try await d.view(flow))?[1])
        let logged = lines.withLockedValue { $0 }.joined(separator: "\n")
        #expect(!logged.isEmpty, "the handler saw the agent's log (else the check proves nothing)")
        for text in [question, String(section.prefix(30))] { #expect(!logged.contains(text), "logged: \(text)") }
    }

    // MARK: Time to think

    @Test func theWarningComesBeforeTheWipeAndMoreTimeKeepsTheFlow() async throws {
        let d = try Driver(warning: .seconds(60))
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start()
        d.clock.advance(by: .seconds(539))
        await d.core.expireIdleFlows()
        #expect(d.events(.flowExpiring).isEmpty, "not yet: 61 s left")
        d.clock.advance(by: .seconds(1))
        await d.core.expireIdleFlows()
        #expect(d.events(.flowExpiring) == [["flow": .string(flow), "secondsLeft": 60]])
        d.clock.advance(by: .seconds(30))
        await d.core.expireIdleFlows()
        #expect(d.events(.flowExpiring).count == 1, "once per approach")
        // The warning spoken: its words with the seconds left.
        let spoken = try await d.call("speech.get", ["flow": .string(flow), "part": "expiring"]).get()
        #expect(spoken["part"] == "expiring")
        #expect(AgentCore.expiringText(UITexts(language: "en"), secondsLeft: 30).contains("in 30 seconds"))
        // "I need more time".
        let extended = try await d.call("flow.extend", ["flow": .string(flow)]).get()
        #expect(extended["step"] == "eligibility")
        d.clock.advance(by: .seconds(590))
        await d.core.expireIdleFlows()
        #expect(await d.core.flows[flow]?.session.step == .eligibility, "590 s after the extension: still running")
        #expect(d.events(.flowExpiring).count == 2, "warned again on the next approach")
        #expect(d.events(.flowExpired).isEmpty)
        // Without it, the flow expires.
        d.clock.advance(by: .seconds(10))
        await d.core.expireIdleFlows()
        #expect(await d.core.flows[flow]?.session.step == .expired)
        #expect(d.events(.flowExpired) == [["flow": .string(flow)]])
        #expect(try await d.error("flow.extend", ["flow": .string(flow)])?.type == .flowExpired)
    }

    @Test func anActionMovesTheWarningToo() async throws {
        let d = try Driver(warning: .seconds(60))
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start()
        d.clock.advance(by: .seconds(500))
        _ = try await d.call("eligibility.answer", ["flow": .string(flow), "answers": [true, nil, nil, nil]]).get()
        d.clock.advance(by: .seconds(500))
        await d.core.expireIdleFlows()
        #expect(d.events(.flowExpiring).isEmpty)
        d.clock.advance(by: .seconds(40))
        await d.core.expireIdleFlows()
        #expect(d.events(.flowExpiring).first?["secondsLeft"] == 60)
    }

    @Test func aFlowThatExpiredBeforeTheRequestIsNotExtended() async throws {
        let d = try Driver(warning: .seconds(60))
        defer { try? FileManager.default.removeItem(at: d.state) }
        let flow = try await d.start()
        d.clock.advance(by: .seconds(601))
        #expect(try await d.error("flow.extend", ["flow": .string(flow)])?.type == .flowExpired)
        #expect(d.events(.flowExpired).count == 1)
        #expect(try await d.error("flow.extend", ["flow": "f-none"])?.type == .unknownFlow)
    }

    @Test func noWarningWithoutTheSetting() async throws {
        let d = try Driver(warning: nil)
        defer { try? FileManager.default.removeItem(at: d.state) }
        _ = try await d.start()
        for _ in 0..<12 {
            d.clock.advance(by: .seconds(50))
            await d.core.expireIdleFlows()
        }
        #expect(d.events(.flowExpiring).isEmpty)
        #expect(d.events(.flowExpired).count == 1)
    }

    /// study.get's texts carry the controls' and the warning's words in each language; the warning counts down.
    @Test(arguments: ["en", "de", "fr", "es"])
    func theWordsComeFromTheAgent(language: String) {
        let value = UITextsValue.value(UITexts(language: language))
        for member in ["listen", "stopListening", "expiringTitle", "expiring", "moreTime"] {
            #expect(value[member]?.stringValue?.isEmpty == false, "\(member)")
        }
        #expect(value["expiring"]?.stringValue?.contains("{seconds}") == true)
        #expect(value["errors"]?["SpeechUnavailable"]?.stringValue == UITexts(language: language).errors.speechUnavailable)
        let spoken = AgentCore.expiringText(UITexts(language: language), secondsLeft: 42)
        #expect(spoken.contains("42") && !spoken.contains("{seconds}"))
    }

    /// `inactivityWarningSeconds`: read and checked like every key; 0 turns the warning off; it must be shorter than
    /// the timeout; the default's 60 s become half a shorter timeout.
    @Test func theWarningIsConfigured() throws {
        func options(_ json: String, flags: AgentFlags = AgentFlags()) throws -> AgentConfiguration {
            let file = try AgentConfigFile.parse(Data(json.utf8), file: "consentd.json")
            return try AgentOptions.merge(flags: flags, file: file, defaultSocketPath: "/run/x.sock").configuration
        }
        #expect(try options("{}").inactivityWarning == .seconds(60))
        #expect(try options(#"{"inactivityWarningSeconds": 90}"#).inactivityWarning == .seconds(90))
        #expect(try options(#"{"inactivityWarningSeconds": 0}"#).inactivityWarning == nil)
        for bad in [#"{"inactivityWarningSeconds": -1}"#, #"{"inactivityWarningSeconds": "60"}"#] {
            #expect(throws: AgentError.self) { try options(bad) }
        }
        #expect(throws: AgentOptions.Invalid.self) {
            try options(#"{"inactivityTimeoutSeconds": 60, "inactivityWarningSeconds": 60}"#)
        }
        var short = AgentFlags()
        short.inactivityTimeout = 30
        #expect(throws: AgentOptions.Invalid.self) { try options(#"{"inactivityWarningSeconds": 45}"#, flags: short) }
        // The default with a short timeout: the core warns halfway.
        let settings = AgentCore.Settings(
            inactivityTimeout: .seconds(30), stateDirectory: URL(fileURLWithPath: "/x"),
            inactivityWarning: try options("{}", flags: short).inactivityWarning)
        #expect(settings.inactivityWarning == .seconds(15))
    }

    // MARK: The text (how SpeechChunks cuts it: SpeechTests)

    @Test func htmlBecomesLinesAndSections() {
        let html = "<h1>Review</h1><p>Read &amp; agree.</p><h3>Title</h3><h4>One</h4><p>A <b>bold</b> word&#33;</p>"
            + "<h4>Two</h4><ul><li>first</li><li>second</li></ul>"
        #expect(SpeakableHTML.sections(html) == [
            "Review.\nRead & agree.", "Title.\nOne.\nA bold word!", "Two.\nfirst.\nsecond.",
        ])
    }
}

/// A log handler that keeps every line, message and metadata, as text.
struct CapturingLogHandler: LogHandler {
    let lines: NIOLockedValueBox<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
        function: String, line: UInt
    ) {
        let all = self.metadata.merging(metadata ?? [:]) { $1 }
        lines.withLockedValue { $0.append("\(message) \(all)") }
    }
}
