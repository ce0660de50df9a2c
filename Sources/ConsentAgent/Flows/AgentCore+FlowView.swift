import AgentProtocol
import ConsentCore
import HTMLSanitizer

/// What UIs see of a flow: every flow reply and `flow.changed` carry `flowValue`, built from the flow's view model
/// (`view`) with the study's HTML sanitised and the pads and the printed copy taken into account.
extension AgentCore {
    /// `flow.changed`: every UI gets the flow without the eligibility answers, its driver gets them too.
    func publishChanged(_ id: String, _ entry: FlowEntry) {
        let full = flowValue(id, entry)
        var event = AgentEvent(.flowChanged, data: FlowVisibility.withheld(full), clock: eventClock)
        if let driver = entry.driver { event.driverCopy = (driver, full) }
        outbox.publish(event)
    }

    /// `{flow, study, step, view}`: what every flow reply and `flow.changed` carries. No name or signature: the
    /// view model says whether one was given, never what it is. The eligibility answers are in it; connections
    /// that do not drive the flow get it through `FlowVisibility.withheld`.
    func flowValue(_ id: String, _ entry: FlowEntry) -> RPCValue {
        var value: [String: RPCValue] = [
            "flow": .string(id),
            "study": .string(entry.session.study.id),
            "language": .string(entry.session.study.language),
            "version": .string(entry.session.study.version),
            "step": .string(entry.session.step.rawValue),
            "view": (try? RPCValue(encoding: view(id, entry))) ?? .null,
        ]
        if let record = entry.recordID { value["record"] = .string(record) }
        if let copy = entry.copy?.value { value["copy"] = copy }
        // For a staff page that connects while someone waits: since when, and where (as `staff.called` said).
        if let call = entry.session.staffCall, !entry.session.step.isFinished {
            let waited = max(.zero, now() - call.since)
            let wall = eventClock.wallMilliseconds() - waited.components.seconds * 1000
            value["staffCall"] = [
                "at": .string(EventClock.rfc3339(milliseconds: wall)), "kioskId": .string(settings.kioskID),
                "reason": .string(call.reason.rawValue),
            ]
        }
        switch entry.session.purpose {
        case .consent: break
        case .withdrawal(let target): value["withdraws"] = .string(target.recordID)
        case .reconsent(let basis): value["previous"] = .string(basis.previousRecordID)
        case .change(let basis): value["amends"] = .string(basis.recordID)
        }
        return .object(value)
    }

    /// The flow's view model as UIs get it: the study's HTML sanitised, and the signing area of the pad that
    /// captures for the flow.
    func view(_ id: String, _ entry: FlowEntry) -> StepViewModel {
        var model = entry.session.viewModel
        let study = entry.session.study
        if let html = model.scene?.learnMoreHTML { model.scene?.learnMoreHTML = sanitized(html, of: study) }
        if let html = model.sharing?.learnMoreHTML { model.sharing?.learnMoreHTML = sanitized(html, of: study) }
        if let html = model.review?.html { model.review?.html = sanitized(html, of: study) }
        if let html = model.keyInformation?.html { model.keyInformation?.html = sanitized(html, of: study) }
        if let elements = model.optional?.elements {
            model.optional?.elements = elements.map { element in
                var element = element
                element.learnMoreHTML = element.learnMoreHTML.map { sanitized($0, of: study) }
                return element
            }
        }
        // The review's and the staff step's signing pages alike: a UI reads "a pad captures" from here alone.
        if model.review?.signingArea != nil || model.staff?.signingArea != nil, let pad = pads.capture(of: id) {
            let area = StepViewModel.SigningArea.pad(pad.id, widthMM: pad.widthMM, heightMM: pad.heightMM)
            if model.review?.signingArea != nil { model.review?.signingArea = area }
            if model.staff?.signingArea != nil { model.staff?.signingArea = area }
        }
        // The session offers a pad capture on every signing page; only the agent knows whether a pad is there. With
        // none, `signature.begin` could only answer `NoPad`, so the view does not list it (nor its label): a UI
        // that offers the listed actions shows no dead button, and draws the signature itself (`ui-strokes`).
        if model.actions.contains(.beginSignature), !pads.hasUsablePad() {
            model.actions.removeAll { $0 == .beginSignature }
            model.labels[ConsentActionName.beginSignature.rawValue] = nil
        }
        addCopy(to: &model, entry)
        addBlankForm(to: &model, entry)
        addPause(to: &model, entry)
        return model
    }

    /// The sanitised form of a study page, parsed once per page and language (whose images it may show).
    func sanitized(_ html: String, of study: Study) -> String {
        let key = "\(study.id)\u{0}\(study.language)\u{0}\(html)"
        if let known = sanitizedHTML[key] { return known }
        let safe = HTMLSanitizer.sanitize(html, assets: Set(study.assets.keys))
        // Study pages are a fixed set; the bound only guards against a bug feeding it generated text.
        if sanitizedHTML.count > 4096 { sanitizedHTML.removeAll() }
        sanitizedHTML[key] = safe
        return safe
    }
}
