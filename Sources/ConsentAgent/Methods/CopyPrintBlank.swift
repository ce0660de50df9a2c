import AgentProtocol
import ConsentCore
import ConsentPDF
import CopyPrinting
import Foundation

/// `copy.printBlank {study?, language?}` before a flow, or `{flow}` from its review document: one or the other.
struct CopyPrintBlankParams {
    var flow: String?
    var study: String?
    var language: String?

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["flow", "study", "language"])
        flow = try reader.optionalString("flow")
        study = try reader.optionalString("study")
        language = try reader.optionalString("language")
        if flow != nil, study != nil || language != nil {
            // A flow's form is of the flow's study version and language; naming others would print a form the
            // participant is not being asked to sign.
            throw RPCErrorObject.invalidParams(
                field: study != nil ? "study" : "language", "a flow's form is in the flow's study and language: give flow alone")
        }
    }
}

/// `copy.printBlank`'s handler: the consent form of a study in one language, not signed, for reading only
/// (21 CFR 50.20: time to consider, at home, with family). Nothing of a participant is on it and nothing is kept.
protocol BlankFormContext: PrintContext, StudyContext {
    /// The study's approval (`Studies/AgentCore+Approval.swift`); throws `StudyNotApproved` when it has none.
    func admit(_ study: Study) throws -> StudyApprovalBinding?
    /// When the last form was sent (`now`): a kiosk prints one every `BlankForm.interval`.
    var lastBlankForm: Duration? { get set }
}

enum BlankForm {
    /// A form a participant asked for is on its way for this long: a second tap in the meantime is refused with
    /// `PrinterUnavailable` (state printing) instead of printing the form again, and a participant tapping on and
    /// on cannot empty the kiosk's paper tray.
    static let interval: Duration = .seconds(30)
}

extension AgentCore: BlankFormContext {
    /// `study.get`'s `printBlank`: the kiosk has a printer for participants.
    var printsBlankForms: Bool { printer != nil }
}

extension BlankFormContext {
    /// Prints the form; answers `{study, language, version, pages, job?}` once CUPS took it (no `job` when CUPS has not
    /// answered within `CopyReply.bound`, as for copies).
    func printBlank(_ params: CopyPrintBlankParams) async throws -> RPCValue {
        let study: Study
        let approval: StudyApprovalBinding?
        if let id = params.flow {
            guard let entry = flows[id] else { throw AgentError(.unknownFlow, "no flow has this id") }
            guard entry.session.position == .review(.document) else {
                throw ConsentCoreError(.invalidAction, "the form to take home is offered on the review document")
            }
            study = entry.session.study
            approval = study.approval
        } else {
            study = try self.study(params.study, language: params.language)
            approval = try admit(study)
        }
        guard let printer, let printing else {
            throw RPCErrorObject.domain(
                .printerUnavailable, "this kiosk has no printer for the form to take home", details: ["state": "unavailable"])
        }
        let now = self.now()
        if let last = lastBlankForm, now - last < BlankForm.interval {
            throw RPCErrorObject.domain(
                .printerUnavailable, "a form was sent to the printer moments ago; take it from the printer",
                details: ["state": "printing"])
        }
        // Set before anything is awaited: a second request meanwhile is refused, not printed.
        lastBlankForm = now
        let options = PDFOptions(
            paper: printing.paper, timeZone: settings.dates.timeZone,
            localeIdentifier: settings.dates.localeIdentifier ?? Locale.current.identifier)
        let rendered: RenderedPDF
        do {
            rendered = try await disk.run { try ConsentPDFRenderer(options: options).renderReadingCopy(study: study, approval: approval) }
        } catch {
            lastBlankForm = nil
            logger.error("the form to take home could not be made", metadata: ["study": "\(study.id)", "error": "\(error)"])
            throw RPCErrorObject.domain(.printFailed, "the form could not be made", details: ["state": "form-not-made"])
        }
        let pdf = [UInt8](rendered.data)
        // The job's name is seen by anyone who may list the queue: the study, never a participant.
        let title = "consent form \(study.id) \(study.language) (not signed)"
        let submission = Task { try await printer.print(pdf, title: title) }
        var value: [String: RPCValue] = [
            "study": .string(study.id), "language": .string(study.language), "version": .string(study.version),
            "pages": .integer(Int64(rendered.pageCount)),
        ]
        guard let taken = await Self.result(of: submission, within: CopyReply.bound) else {
            logger.notice("CUPS has not taken the form to take home yet; answered without its job", metadata: ["study": "\(study.id)"])
            return .object(value)
        }
        do {
            let job = try taken.get()
            logger.info(
                "form to take home sent to the printer",
                metadata: ["study": "\(study.id)", "language": "\(study.language)", "job": "\(job)"])
            value["job"] = .integer(Int64(job))
            return .object(value)
        } catch let error as CopyPrintingError {
            // Not taken: the next tap may try again at once.
            lastBlankForm = nil
            switch error {
            case .unavailable(let state, let reason):
                logger.warning("printer unavailable for the form to take home", metadata: ["state": "\(state)", "reason": "\(reason ?? "")"])
                var details: [String: RPCValue] = ["state": .string(state)]
                if let reason { details["reason"] = .string(reason) }
                throw RPCErrorObject.domain(.printerUnavailable, "the printer is \(state)\(reason.map { " (\($0))" } ?? "")", details: details)
            case .failed(let state):
                logger.warning("printing the form to take home failed", metadata: ["state": "\(state)"])
                throw RPCErrorObject.domain(.printFailed, "CUPS did not take the form (\(state))", details: ["state": .string(state)])
            }
        } catch {
            lastBlankForm = nil
            throw error
        }
    }

    /// `printBlank` on the review document while the kiosk has a printer: the participant may take the form home
    /// to read before signing it.
    func addBlankForm(to model: inout StepViewModel, _ entry: FlowEntry) {
        guard printer != nil, entry.session.position == .review(.document) else { return }
        model.actions.append(.printBlank)
        model.labels[ConsentActionName.printBlank.rawValue] = ScreenTexts(language: entry.session.study.language).printBlank
    }
}
