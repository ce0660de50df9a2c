import AgentProtocol
import ConsentCore
import Foundation
import HTMLSanitizer
import Speech

/// `speech.get {flow, part, section?, chunk?}`, or `{part: start|record|resume|introduction, study?, language?, page?,
/// chunk?}` before a flow.
struct SpeechGetParams {
    enum Part: String, CaseIterable {
        /// The current screen: title, texts, choices and the labels of its actions (`SpokenText.screen`).
        case screen
        /// The screen's learn-more page.
        case learnMore
        /// One section of the review document or of the key information (`section`, 0-based).
        case document
        /// The expiry warning (`flow.expiring`), with the seconds left.
        case expiring
        /// The start screen, before any flow: the study's title in `language`, and its controls (`UITexts`).
        case start
        /// The screen that asks for the record number of an earlier consent (withdraw or consent again).
        case record
        /// The screen that asks for the code of a flow paused to think it over.
        case resume
        /// A page of the study's introduction (`page`: its id in `study.get`'s `introduction.pages`).
        case introduction

        /// The parts of the screens before a flow: they name a study and language, not a flow.
        var isBeforeAFlow: Bool { self == .start || self == .record || self == .resume || self == .introduction }
    }

    /// The flow (nil for the parts before a flow), or the study and language those are spoken in.
    var flow: String?
    var study: String?
    var language: String?
    var part: Part
    var section: Int?
    /// The introduction page of the part `introduction`.
    var page: String?
    var chunk: Int

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["flow", "part", "section", "chunk", "study", "language", "page"])
        let name = try reader.string("part")
        guard let part = Part(rawValue: name) else {
            throw RPCErrorObject.invalidParams(
                field: "part", "\"part\" must be one of \(Part.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.part = part
        if part.isBeforeAFlow {
            flow = nil
            study = try reader.optionalString("study")
            language = try reader.optionalString("language")
            if reader.optionalValue("flow") != nil, reader.optionalValue("flow") != .null {
                throw RPCErrorObject.invalidParams(field: "flow", "\"flow\" is not for the parts start, record, resume and introduction")
            }
        } else {
            flow = try reader.string("flow")
            for key in ["study", "language"] where reader.optionalValue(key) != nil {
                throw RPCErrorObject.invalidParams(field: key, "\"\(key)\" is only for the parts start, record, resume and introduction")
            }
        }
        if part == .introduction {
            page = try reader.string("page")
        } else if reader.optionalValue("page") != nil {
            throw RPCErrorObject.invalidParams(field: "page", "\"page\" is only for the part introduction")
        }
        func index(_ key: String) throws -> Int? {
            guard reader.optionalValue(key) != nil, reader.optionalValue(key) != .null else { return nil }
            let value = try reader.integer(key)
            guard value >= 0, value <= 100_000 else {
                throw RPCErrorObject.invalidParams(field: key, "\"\(key)\" must be an integer from 0")
            }
            return Int(value)
        }
        section = try index("section")
        if section != nil, part != .document {
            throw RPCErrorObject.invalidParams(field: "section", "\"section\" is only for the part document")
        }
        chunk = try index("chunk") ?? 0
    }
}

extension SpeechContext {
    /// `speech.get`: a part of what the flow's current screen shows, spoken in the flow's language, one chunk of
    /// whole sentences per reply (`SpeechChunks`), as a base64 WAV. The text is taken from the view model the UI
    /// shows, so nothing the participant typed can be in it; it is never logged, nor echoed in the reply.
    /// The next chunk is synthesised ahead while the UI plays this one.
    func speechGet(_ params: SpeechGetParams) async throws -> RPCValue {
        guard let flow = params.flow else { return try await speakBeforeAFlow(params) }
        guard let entry = flows[flow] else {
            throw AgentError(.unknownFlow, "no flow has this id; start one with flow.start")
        }
        let language = entry.session.study.language
        let model = view(flow, entry)
        var reply: [String: RPCValue] = ["flow": .string(flow), "part": .string(params.part.rawValue)]
        let text: String
        switch params.part {
        case .start, .record, .resume, .introduction:
            throw RPCErrorObject.invalidParams(field: "flow", "\"flow\" is not for the parts start, record, resume and introduction")
        case .screen:
            text = SpokenText.screen(model)
        case .learnMore:
            guard let page = SpokenText.learnMore(model) else {
                throw RPCErrorObject.domain(.unknownPart, "this screen has no learn-more page")
            }
            text = page
        case .document:
            guard let sections = SpokenText.documentSections(model), !sections.isEmpty else {
                throw RPCErrorObject.domain(.unknownPart, "this screen shows no review document or key information")
            }
            let section = params.section ?? 0
            guard sections.indices.contains(section) else {
                throw RPCErrorObject.domain(
                    .unknownPart, "the document has fewer sections; data.sections is their count",
                    details: ["sections": .integer(Int64(sections.count))])
            }
            text = sections[section]
            reply["section"] = .integer(Int64(section))
            reply["sections"] = .integer(Int64(sections.count))
        case .expiring:
            guard !entry.session.step.isFinished else {
                throw RPCErrorObject.domain(.unknownPart, "the flow has ended; nothing expires")
            }
            text = Self.expiringText(UITexts(language: language), secondsLeft: Self.secondsLeft(until: entry.session.deadline, from: now()))
        }
        // A withdrawal's and a re-consent's texts name the day the earlier consent was signed: a date of the
        // participant's, which must not outlive the flow in the audio cache.
        // A paused flow's screen spells its resume code, which is kept nowhere but in the participant's hands.
        let keep: Bool
        if case .consent = entry.session.purpose, entry.session.step != .paused { keep = true } else { keep = false }
        return try await speak(text, language: language, chunk: params.chunk, reply: reply, cache: keep)
    }

    /// The start screen or the record screen, in a language of a study (default: the study's default language).
    private func speakBeforeAFlow(_ params: SpeechGetParams) async throws -> RPCValue {
        let study = try study(params.study, language: params.language)
        let texts = UITexts(language: study.language)
        let lines: [String]
        switch params.part {
        case .record:
            lines = [texts.existingRecord, texts.existingRecordText, texts.recordLabel, texts.recordPasscodeLabel,
                     texts.reconsent, texts.change, texts.withdraw, texts.back]
        case .resume:
            lines = [texts.resume, texts.resumeText, texts.resumeCodeLabel, texts.resumeGoOn, texts.back]
        case .introduction:
            guard let page = study.introduction.pages.first(where: { $0.id == params.page }) else {
                throw RPCErrorObject.domain(
                    .unknownPart, "the study's introduction has no page of this id; study.get lists them (introduction.pages)")
            }
            let html = HTMLSanitizer.sanitize(page.htmlContent, assets: Set(study.assets.keys))
            lines = [page.title] + SpeakableHTML.blocks(html).map(\.text) + [texts.back]
        default:
            // What the start screen shows, in its order: the title, the welcome, the pages it offers, its buttons.
            let introduction = study.introduction
            lines = [study.title] + [introduction.title, introduction.subtitle].compactMap { $0 }
                + (introduction.pages.isEmpty ? [] : [texts.introductionPages] + introduction.pages.map(\.title))
                + (printsBlankForms ? [texts.printBlank] : []) + [texts.start, texts.existingRecord]
        }
        var reply: [String: RPCValue] = ["part": .string(params.part.rawValue), "study": .string(study.id)]
        if let page = params.page { reply["page"] = .string(page) }
        return try await speak(
            lines.map(SpokenText.sentence).joined(separator: "\n"), language: study.language, chunk: params.chunk,
            reply: reply)
    }

    /// One chunk of `text` as the reply, with the next chunk synthesised ahead.
    private func speak(
        _ text: String, language: String, chunk: Int, reply: [String: RPCValue], cache: Bool = true
    ) async throws -> RPCValue {
        var reply = reply
        // The voice is the language's (its file under ConsentCore's Languages/); a study language the kiosk has no
        // texts in is shown in English words but not read in an English voice.
        guard let speech, let voice = KioskLanguagePack.exactly(language)?.voice else {
            throw RPCErrorObject.domain(
                .speechUnavailable,
                "the kiosk cannot speak this language; it speaks "
                    + BuiltInTexts.supportedLanguages.joined(separator: ", "),
                details: ["language": .string(language)])
        }
        let chunks = SpeechChunks.split(text)
        guard chunks.indices.contains(chunk) else {
            throw RPCErrorObject.domain(
                .unknownPart, "the part has fewer chunks; data.chunks is their count",
                details: ["chunks": .integer(Int64(chunks.count))])
        }
        let audio: SpokenAudio
        do {
            audio = try await speech.speak(chunks[chunk], voice: voice, cache: cache)
        } catch {
            logger.error("speech synthesis failed", metadata: ["error": "\(error)"])
            throw RPCErrorObject.domain(
                .speechUnavailable, "the speech engine failed; see the agent's log", details: ["language": .string(language)])
        }
        if cache, chunks.indices.contains(chunk + 1) { speech.prefetch(chunks[chunk + 1], voice: voice) }
        let wav = audio.wav
        reply["language"] = .string(language)
        reply["chunk"] = .integer(Int64(chunk))
        reply["chunks"] = .integer(Int64(chunks.count))
        reply["mediaType"] = "audio/wav"
        reply["durationMs"] = .integer(Int64(audio.durationMilliseconds))
        reply["size"] = .integer(Int64(wav.count))
        reply["data"] = .string(Data(wav).base64EncodedString())
        return .object(reply)
    }

    /// The spoken expiry warning: its title, the sentence with the seconds left, and the button to press.
    static func expiringText(_ texts: UITexts, secondsLeft: Int) -> String {
        [texts.expiringTitle, Placeholder.fill(texts.expiring, [.seconds: String(secondsLeft)]), texts.moreTime]
            .map(SpokenText.sentence).joined(separator: "\n")
    }

    /// Whole seconds from `instant` until a flow's `deadline` (rounded up; 0 when due).
    static func secondsLeft(until deadline: Duration, from instant: Duration) -> Int {
        let left = deadline - instant
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
