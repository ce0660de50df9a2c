import Foundation

/// Every screen a participant can reach in one language of a study, as words, HTML pages and settings: what an IRB
/// reviews (`consentctl study review` lays each one out in the review pack's PDF and reads it aloud into a WAV) and
/// what the `ScreensDigest` binds (docs/OPERATIONS.md, "The IRB review pack").
///
/// Built from the loaded study and a language's `KioskLanguagePack` alone, as the step view models build their
/// screens (`StepViewModel`), without a session, rendering or speech: the kiosk recomputes the digest at every load.
public struct ReviewScreen: Sendable, Hashable {
    /// Stable and unique within a language (`start`, `scene-3`, `review-signature`): the pack's file names.
    public var id: String
    /// The screen's title as the view model gives it.
    public var title: String
    /// The words on the screen, in reading order: texts, questions, choices, button labels.
    public var lines: [String]
    /// The study HTML the screen shows or opens ("Learn more", a page of the introduction, the review document).
    public var html: [String]
    /// What else shapes the screen (an image or animation name, a passcode's digits), by name.
    public var settings: [String: String]

    public init(id: String, title: String, lines: [String], html: [String] = [], settings: [String: String] = [:]) {
        self.id = id
        self.title = title
        self.lines = lines.filter { !$0.isEmpty }
        self.html = html.filter { !$0.isEmpty }
        self.settings = settings
    }

    /// The screen as JSON (the digest's canonical form sorts its keys).
    public var json: JSONValue {
        .object([
            "id": .string(id), "title": .string(title), "lines": .array(lines.map(JSONValue.string)),
            "html": .array(html.map(JSONValue.string)), "settings": .object(settings.mapValues(JSONValue.string)),
        ])
    }
}

public enum ReviewScreens {
    /// The screens of `study` (one language) in flow order: start, introduction pages, eligibility and its
    /// outcomes, key information, the scenes, sharing, optional elements, the comprehension questions, the review
    /// document and signature pages, the passcode, the end screens; then the controls every screen carries.
    public static func of(_ study: Study, pack: KioskLanguagePack? = nil) -> [ReviewScreen] {
        let pack = pack ?? KioskLanguagePack.pack(for: study.language)
        let texts = pack.builtIn, screen = pack.screen, ui = pack.ui
        let document = study.document, options = study.options
        var screens: [ReviewScreen] = []

        let introduction = study.introduction
        screens.append(
            ReviewScreen(
                id: "start", title: study.title,
                lines: [introduction.title, introduction.subtitle].compactMap { $0 }
                    + (introduction.pages.isEmpty ? [] : [ui.introductionPages] + introduction.pages.map(\.title))
                    + [ui.start, ui.languagePicker, ui.printBlank, ui.existingRecord, ui.resume],
                settings: introduction.logo.map { ["logo": $0] } ?? [:]))
        for (index, page) in introduction.pages.enumerated() {
            screens.append(
                ReviewScreen(
                    id: "introduction-\(index + 1)", title: page.title, lines: [ui.close], html: [page.htmlContent],
                    settings: ["page": page.id]))
        }

        // From the start screen, a consent given earlier (by its record number) or a paused flow: a participant's
        // day and record stay placeholders, as no participant is here.
        let studyTitle = study.title, day = "{date}"
        screens.append(
            ReviewScreen(
                id: "record", title: ui.existingRecord,
                lines: [
                    ui.existingRecordText, ui.recordLabel, ui.recordPasscodeLabel, ui.withdraw, ui.reconsent, ui.change,
                    ui.back,
                ]))
        screens.append(
            ReviewScreen(
                id: "resume", title: ui.resume, lines: [ui.resumeText, ui.resumeCodeLabel, ui.resumeGoOn, ui.back]))
        screens.append(
            ReviewScreen(
                id: "withdrawal", title: texts.withdrawalTitle,
                lines: [
                    texts.withdrawalText(studyTitle: studyTitle, signedOn: day), texts.withdrawalReasonLabel,
                    screen.confirmWithdrawal, screen.declineWithdrawal, texts.withdrawalSignaturePageContent,
                    screen.doneMessage(button: screen.finish, saving: .withdrawal), screen.withdrawalCompletedMessage, ui.savingWithdrawal,
                    screen.withdrawalDeclinedTitle, screen.withdrawalDeclinedMessage,
                ]))
        screens.append(
            ReviewScreen(
                id: "changes", title: texts.changesTitle,
                lines: [
                    texts.changesText(detailed: true, signedOn: day), texts.changesText(detailed: false, signedOn: day),
                    texts.changesText(detailed: true, signedOn: nil), texts.changesText(detailed: false, signedOn: nil),
                ]))
        if !document.optionalElements.isEmpty {
            screens.append(
                ReviewScreen(
                    id: "change", title: texts.changeTitle,
                    lines: [
                        texts.changeText(studyTitle: studyTitle, signedOn: day), texts.changeSignaturePageContent,
                        screen.doneMessage(button: screen.finish, saving: .change), screen.changeCompletedMessage,
                        ui.savingChange,
                    ]))
        }

        if !document.eligibility.isEmpty {
            let messages = study.eligibilityMessages
            screens.append(
                ReviewScreen(
                    id: "eligibility", title: texts.eligibilityTitle,
                    lines: [messages.letsCheckMessage, texts.letsCheckBody]
                        + document.eligibility.flatMap { [$0.question, screen.yes, screen.no] } + [screen.confirmAnswers],
                    settings: Dictionary(
                        uniqueKeysWithValues: document.eligibility.enumerated().map {
                            ("question \($0.offset + 1) must be", $0.element.mustBeMet ? "yes" : "no")
                        })))
            screens.append(
                ReviewScreen(
                    id: "eligibility-eligible", title: texts.eligibilityTitle,
                    lines: [
                        messages.eligibleTitle, messages.eligibleMessage(button: texts.startConsent, texts: texts),
                        texts.startConsent,
                    ]))
            screens.append(
                ReviewScreen(
                    id: "eligibility-ineligible", title: screen.declinedTitle,
                    lines: [messages.ineligibleMessage, screen.finish]))
        }

        if let key = document.keyInformation {
            screens.append(
                ReviewScreen(
                    id: "key-information", title: texts.keyInformationTitle, lines: [texts.keyInformationText],
                    html: [key.htmlContent]))
        }

        let scenes = document.visualSections
        for (index, section) in scenes.enumerated() {
            var settings = ["type": section.type.rawValue]
            if let image = section.image { settings["image"] = image }
            if let animation = section.animation { settings["animation"] = animation }
            screens.append(
                ReviewScreen(
                    id: "scene-\(index + 1)", title: section.title ?? texts.learnMore,
                    lines: [section.title, section.summary, texts.learnMoreTitle(for: section)].compactMap { $0 },
                    html: section.isInDocument ? [section.htmlContent ?? ""] : [], settings: settings))
        }

        if options.askForSharing {
            let team = document.teamName
            screens.append(
                ReviewScreen(
                    id: "sharing", title: texts.sharingTitle,
                    lines: [
                        texts.sharingText(team: team), texts.shareWidelyChoice(team: team),
                        texts.shareTeamOnlyChoice(team: team), texts.sharingLearnMore,
                    ],
                    html: [study.sharingHTML ?? ""]))
        }

        if !document.optionalElements.isEmpty {
            screens.append(
                ReviewScreen(
                    id: "optional", title: texts.optionalTitle,
                    lines: [texts.optionalText]
                        + document.optionalElements.flatMap { [$0.title, $0.text, screen.yes, screen.no] },
                    html: document.optionalElements.compactMap(\.htmlContent)))
        }

        let questions = document.comprehension
        let comprehension = pack.comprehension
        for (index, question) in questions.enumerated() {
            let missed =
                options.comprehension.onRepeatedMiss == .continue
                ? comprehension.continueMessage : comprehension.stoppedMessage
            screens.append(
                ReviewScreen(
                    id: "comprehension-\(index + 1)", title: comprehension.title,
                    lines: [comprehension.progress(index + 1, of: questions.count), comprehension.instruction, question.question]
                        + question.choices
                        + [
                            comprehension.tryAgainMessage, missed, comprehension.explanationHeading, question.explanation,
                            comprehension.sectionHeading, comprehension.tryAgain, comprehension.goOn,
                        ],
                    settings: [
                        "answer": question.choices.indices.contains(question.answer) ? question.choices[question.answer] : "",
                        "attempts": "\(options.comprehension.attempts)",
                    ]))
        }

        // The review document: the study's own, else the sections in the document under the study's title.
        let reviewHTML =
            study.reviewHTML.map { [$0] }
            ?? document.documentSections.map { section in
                (section.title.map { "<h2>\(escaped($0))</h2>" } ?? "") + (section.htmlContent ?? "")
            }
        screens.append(
            ReviewScreen(
                id: "review-document", title: texts.reviewTitle,
                lines: [study.title, texts.reviewInstruction, screen.printBlank, texts.agree, texts.disagree],
                html: (document.keyInformation.map { [$0.htmlContent] } ?? []) + reviewHTML))
        if options.allowRepresentative {
            screens.append(
                ReviewScreen(
                    id: "review-signer", title: texts.signerTitle,
                    lines: [texts.signerParticipantChoice, texts.signerRepresentativeChoice]))
            screens.append(
                ReviewScreen(
                    id: "review-representative", title: texts.representativeTitle,
                    lines: [texts.givenNameLabel, texts.familyNameLabel, texts.relationshipLabel]
                        + study.representativeRelationships.map(\.display)
                        + [texts.participantNameTitle, texts.representativeSignatureInstruction]))
        }
        screens.append(
            ReviewScreen(
                id: "review-name", title: texts.nameFormTitle,
                lines: [texts.givenNameLabel, texts.familyNameLabel, texts.namePlaceholder]))
        screens.append(
            ReviewScreen(
                id: "review-signature", title: texts.signatureTitle,
                lines: [
                    document.signaturePageTitle, options.reasonForConsent, texts.signatureInstruction,
                    texts.signaturePlaceholder, screen.signOnPad, screen.clearSignature, screen.confirmSignature,
                    screen.changeName,
                ]))
        if options.requireWitness {
            screens.append(
                ReviewScreen(
                    id: "review-witness", title: texts.witnessTitle,
                    lines: [
                        texts.witnessText, texts.givenNameLabel, texts.familyNameLabel, texts.witnessSignatureTitle,
                        texts.witnessSignatureInstruction, screen.changeWitnessName,
                    ]))
        }
        if options.askToCreatePasscode {
            screens.append(
                ReviewScreen(
                    id: "passcode", title: texts.passcodeTitle, lines: [texts.passcodeText, screen.setPasscode]))
        }

        screens.append(
            ReviewScreen(
                id: "end-done", title: screen.doneTitle,
                lines: [screen.doneMessage(button: screen.finish, saving: .consent), screen.printCopy, screen.finish]))
        screens.append(
            ReviewScreen(
                id: "end-completed", title: screen.completedTitle, lines: [screen.completedMessage, ui.saving]))
        screens.append(
            ReviewScreen(id: "end-declined", title: screen.declinedTitle, lines: [screen.declinedMessage]))
        screens.append(
            ReviewScreen(id: "end-cancelled", title: screen.cancelledTitle, lines: [screen.cancelledMessage]))
        screens.append(
            ReviewScreen(
                id: "end-expired", title: screen.expiredTitle,
                lines: [screen.expiredMessage, ui.expiringTitle, ui.expiring, ui.moreTime]))
        screens.append(
            ReviewScreen(
                id: "end-paused", title: screen.pausedTitle,
                lines: [screen.pausedMessage, screen.pausedCodeLabel, screen.pausedSlip]))
        // What a UI shows between screens and when a request fails: the agent's sentences, every one.
        screens.append(
            ReviewScreen(
                id: "messages", title: ui.errors.tryAgain,
                lines: [
                    ui.reconnecting, ui.interrupted, ui.expired, ui.copyPrinting, ui.copyPrinted, ui.copyFailed,
                    ui.blankPrinting, ui.blankFailed, screen.resumedContinued, screen.resumedStartedOver,
                ] + Mirror(reflecting: ui.errors).children.compactMap { $0.value as? String }))
        screens.append(
            ReviewScreen(
                id: "controls", title: ui.learnMore,
                lines: [
                    screen.next, screen.back, screen.cancel, screen.declineConsent, screen.askStaff, screen.staffCalled,
                    screen.pause, ui.learnMore, ui.close, ui.listen, ui.stopListening, pack.display.textSize,
                    pack.display.contrast,
                ] + pack.display.sizes.map(\.name),
                settings: ["voice": pack.voice, "keyboard": pack.display.keyboardLayout]))
        return screens
    }

    /// The words of a screen as read aloud: its title, its lines, then its HTML as text (tags dropped, one
    /// line per block), for the review pack's WAV files.
    public static func spokenText(_ screen: ReviewScreen) -> String {
        ([screen.title] + screen.lines + screen.html.map(plainText)).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// Text as HTML character data (a section title set above its page).
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// HTML as the words it shows: block elements end a line, tags are dropped, the common entities decoded.
    static func plainText(_ html: String) -> String {
        var out = "", inTag = false, tag = ""
        for character in html {
            if inTag {
                if character == ">" {
                    inTag = false
                    let name = tag.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber }).lowercased()
                    if ["p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th"].contains(name) {
                        out.append("\n")
                    } else {
                        out.append(" ")
                    }
                } else {
                    tag.append(character)
                }
            } else if character == "<" {
                inTag = true
                tag = ""
            } else {
                out.append(character)
            }
        }
        for (entity, text) in [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: text)
        }
        return out.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }.joined(separator: "\n")
    }
}
