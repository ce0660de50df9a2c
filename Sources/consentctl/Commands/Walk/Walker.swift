import Foundation
import JSON

/// One walk through a flow: show the step, ask, send the action, repeat until the flow ends.
///
/// Everything is read from the flow replies (`step`, `view`, `view.actions`), never assumed: the agent decides
/// which step comes next and what it offers.
struct Walker {
    enum SignatureSource {
        /// `signature.begin` on this pad (nil: the agent's choice), then `signature.submit` of its capture.
        case pad(String?)
        /// `signature.submit` with `SampleSignature`.
        case sample
    }

    enum Ending: Equatable {
        case completed
        case ended(String)
    }

    /// The steps after which nothing can be done; any step offering no action is treated alike.
    static let endSteps: Set<String> = ["completed", "declined", "cancelled", "ineligible", "expired", "paused"]

    /// Actions that take only the flow id (and the step, for next/back), so any step can offer them.
    static let plainActions: [String: String] = [
        "next": "flow.next", "back": "flow.back", "agree": "review.agree", "disagree": "review.disagree",
        "decline": "flow.decline", "cancel": "flow.cancel", "pause": "flow.pause",
    ]

    let connection: AgentConnection
    let console: Console
    let signature: SignatureSource
    private var flow: JSONValue
    private var flowID: String
    private var padCaptureRunning = false
    /// Answers typed at the eligibility prompt itself (`y`, `n y`, `yyny`); the questions after them are asked.
    private var typedAnswers: [Bool] = []

    /// - Parameter start: the `flow.start` params besides none: `study`, `language`, `withdraw` + `passcode`,
    ///   `previous`.
    init(connection: AgentConnection, console: Console, signature: SignatureSource, start: [String: JSONValue]) throws {
        self.connection = connection
        self.console = console
        self.signature = signature
        if case .pad = signature {
            _ = try connection.call("events.subscribe", ["topics": ["ink", "pad"]])
        }
        flow = try connection.call("flow.start", start)
        flowID = flow["flow"]?.stringValue ?? ""
        console.say("Flow \(flowID) started for study \(flow["study"]?.stringValue ?? "?"). Enter takes the usual action; q or Ctrl-D cancels.")
    }

    mutating func run() throws -> Ending {
        while true {
            let view = flow["view"]?.asObject ?? [:]
            let step = flow["step"]?.stringValue ?? view["step"]?.stringValue ?? "?"
            let actions = view["actions"]?.stringsValue ?? []
            console.say()
            if Self.endSteps.contains(step) || actions.isEmpty {
                if step == "completed", actions.contains("printCopy") { printCopy(view) }
                return finish(step: step, view: view)
            }
            StepPrinter(console: console).show(step: step, view: view)
            let usual = Self.usualAction(step: step, view: view, actions: actions)
            let offered = actions.joined(separator: ", ")
            console.say("Actions: \(offered)" + (usual.map { "  [Enter: \($0)]" } ?? "") + "  [q: cancel]")
            guard let input = console.ask(">") else {
                console.say("(end of input)")
                try cancel()
                continue
            }
            if input == "q" || input == "quit" {
                try cancel()
                continue
            }
            // At eligibility, y/n answer the questions at once (so `n` there is an answer, never `next`).
            let questionCount = view["eligibility"]?["questions"]?.arrayValue?.count ?? 0
            let typed = step == "eligibility" && actions.contains("answer") ? Self.eligibilityAnswers(input) : nil
            if let typed, typed.count > questionCount {
                console.say("\(typed.count) answers for \(questionCount) questions; type at most \(questionCount) (y or n each).")
                continue
            }
            if let typed { typedAnswers = typed }
            let chosen = typed != nil ? "answer" : input.isEmpty ? usual : Self.resolve(input, among: actions)
            guard let action = chosen else {
                console.say(input.isEmpty ? "Type one of the actions." : "\"\(input)\" is not an action of this step; type one of: \(offered)")
                continue
            }
            do {
                try perform(action, step: step, view: view)
            } catch let refusal as AgentConnection.Refusal {
                console.say("The agent refused: \(refusal)")
                flow = try connection.call("flow.get", ["flow": .string(flowID)])
            }
        }
    }

    // MARK: Choosing

    /// What Enter does: the way forward a participant would usually take.
    static func usualAction(step: String, view: JSONValue, actions: [String]) -> String? {
        func offered(_ name: String) -> String? { actions.contains(name) ? name : nil }
        switch step {
        case "eligibility":
            let status = view["eligibility"]?["status"]?.stringValue
            return status == "eligible" ? offered("next") : offered("answer")
        case "sharing":
            return offered("chooseSharing") ?? offered("next")
        case "optional":
            return offered("optionalAnswer") ?? offered("next")
        case "withdrawal":
            return offered("confirmWithdrawal")
        case "reviewStep":
            let review = view["review"]?.asObject ?? [:]
            switch review["page"]?.stringValue {
            case "document": return offered("agree")
            case "signer": return review["signedBy"] != nil ? offered("next") : offered("chooseSigner")
            case "name": return review["hasName"]?.boolValue == true ? offered("next") : offered("setName")
            case "representative":
                return review["hasRepresentative"]?.boolValue == true ? offered("next") : offered("setSignerName")
            case "witness":
                return review["hasWitnessName"]?.boolValue == true ? offered("next") : offered("setSignerName")
            case "signature":
                return (review["hasSignature"]?.boolValue == true ? offered("next") : nil) ?? offered("submitSignature")
            case "witnessSignature":
                return (review["hasWitnessSignature"]?.boolValue == true ? offered("next") : nil) ?? offered("submitSignature")
            default: return offered("next")
            }
        case "comprehension":
            let phase = view["comprehension"]?["phase"]?.stringValue
            return phase == "question" ? offered("comprehensionAnswer") : offered("next")
        case "passcode":
            return offered("setPasscode")
        case "staff":
            // The person obtaining consent: unlock, attest, countersign.
            switch view["staff"]?["page"]?.stringValue {
            case "unlock": return offered("staffUnlock")
            case "attest": return offered("attestIdentity")
            default: return offered("submitSignature")
            }
        case "done":
            return offered("complete")
        default:
            return offered("next")
        }
    }

    /// Eligibility answers typed at the step's prompt: `y`/`n`/`yes`/`no` words separated by spaces or commas, or
    /// one run of `y` and `n` letters (`yyny`); nil when the input is anything else.
    static func eligibilityAnswers(_ input: String) -> [Bool]? {
        let words = input.lowercased().split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        guard !words.isEmpty else { return nil }
        if words.count == 1, let run = words.first, run.count > 1, run.allSatisfy({ $0 == "y" || $0 == "n" }) {
            return run.map { $0 == "y" }
        }
        var answers: [Bool] = []
        for word in words {
            switch word {
            case "y", "yes": answers.append(true)
            case "n", "no": answers.append(false)
            default: return nil
            }
        }
        return answers
    }

    /// An action by name, case-insensitively, or by a unique prefix (`n` for next).
    static func resolve(_ input: String, among actions: [String]) -> String? {
        let lower = input.lowercased()
        if let exact = actions.first(where: { $0.lowercased() == lower }) { return exact }
        let matches = actions.filter { $0.lowercased().hasPrefix(lower) }
        return matches.count == 1 ? matches[0] : nil
    }

    // MARK: Acting

    private mutating func perform(_ action: String, step: String, view: JSONValue) throws {
        switch action {
        case "answer":
            guard let answers = askEligibility(view) else { return try cancel() }
            flow = try call("eligibility.answer", ["answers": .array(answers.map(JSONValue.bool))])
        case "next", "back":
            flow = try call(action == "next" ? "flow.next" : "flow.back", ["step": .string(step)])
        case "chooseSharing":
            guard let choice = askSharing(view) else { return try cancel() }
            flow = try call("sharing.choose", ["shareWidely": .bool(choice)])
        case "setName":
            guard let given = console.ask("Given name:"), let family = console.ask("Family name:") else {
                return try cancel()
            }
            flow = try call("participant.setName", ["given": .string(given), "family": .string(family)])
        case "chooseSigner":
            guard let signer = askSigner(view) else { return try cancel() }
            flow = try call("signer.choose", ["signer": .string(signer)])
        case "setSignerName":
            guard let params = askSignerName(view) else { return try cancel() }
            flow = try call("signer.setName", params)
        case "confirmWithdrawal":
            guard let reason = console.ask("Reason (optional, Enter for none):") else { return try cancel() }
            flow = try call("withdrawal.confirm", reason.isEmpty ? [:] : ["reason": .string(reason)])
        case "beginSignature":
            try beginPadCapture(role: Self.role(view))
        case "submitSignature":
            try submitSignature(role: Self.role(view))
        case "clearSignature":
            flow = try call("signature.clear", ["role": .string(Self.role(view))])
        case "comprehensionAnswer":
            let comprehension = view["comprehension"]?.asObject ?? [:]
            guard let choice = askChoice(comprehension["choices"]?.stringsValue ?? []) else { return try cancel() }
            flow = try call(
                "comprehension.answer",
                ["question": .integer(Int64(comprehension["index"]?.intValue ?? 0)), "choice": .integer(Int64(choice))])
        case "optionalAnswer":
            guard let answers = askOptional(view) else { return try cancel() }
            flow = try call("optional.answer", ["answers": .object(answers.mapValues(JSONValue.bool))])
        case "setPasscode":
            guard let passcode = console.ask("Passcode (4 to 8 digits):") else { return try cancel() }
            flow = try call("passcode.set", ["passcode": .string(passcode)])
        case "staffUnlock":
            guard let id = console.ask("Staff ID:"), let pin = console.askSecret("PIN:") else { return try cancel() }
            flow = try call("staff.unlock", ["staffId": .string(id), "pin": .string(pin)])
        case "attestIdentity":
            guard let params = askIdentity(view) else { return try cancel() }
            flow = try call("staff.attestIdentity", params)
        case "complete":
            flow = try call("flow.complete")
        case "printCopy":
            // Offered on done so that a UI knows a copy will be printed; it is printed from the end screen, once the
            // record is written (asked below, after complete).
            console.say("The copy is printed once the record is written: finish first (complete).")
        case "cancel":
            try cancel()
        default:
            guard let method = Self.plainActions[action] else {
                console.say(
                    "consentctl walk does not know how to perform \"\(action)\"; this agent is newer than this tool. "
                        + "Finish this step with a kiosk UI, or type q to cancel.")
                return
            }
            flow = try call(method)
        }
    }

    private func call(_ method: String, _ params: [String: JSONValue] = [:]) throws -> JSONValue {
        var params = params
        params["flow"] = .string(flowID)
        return try connection.call(method, params)
    }

    private mutating func cancel() throws {
        do {
            flow = try call("flow.cancel")
        } catch let refusal as AgentConnection.Refusal {
            // Already ended (expired meanwhile, say): show how it ended instead.
            console.say("The agent refused to cancel: \(refusal)")
            flow = try call("flow.get")
            if !Self.endSteps.contains(flow["step"]?.stringValue ?? "") { throw refusal }
        }
    }

    /// Whose signature the page takes (`review.role`; the staff step's is the person obtaining consent's);
    /// `participant` when the agent does not say.
    static func role(_ view: JSONValue) -> String {
        if view["staff"] != nil { return "personObtainingConsent" }
        return view["review"]?["role"]?.stringValue ?? "participant"
    }

    /// How the person obtaining consent verified identity, from `staff.methods`, and a note (required for
    /// `other`); nil at end of input.
    private func askIdentity(_ view: JSONValue) -> [String: JSONValue]? {
        let methods = view["staff"]?["methods"]?.objectsValue ?? []
        for (index, method) in methods.enumerated() { console.say("  \(index + 1). \(method["text"]?.stringValue ?? "")") }
        while true {
            guard let reply = console.ask("How was identity verified? [1-\(methods.count)]:") else { return nil }
            if let number = Int(reply), methods.indices.contains(number - 1), let method = methods[number - 1]["method"]?.stringValue {
                guard let note = console.ask("Note (\(method == "other" ? "required" : "optional, Enter for none")):") else { return nil }
                return note.isEmpty ? ["method": .string(method)] : ["method": .string(method), "note": .string(note)]
            }
            console.say("Type the number of a method.")
        }
    }

    /// Who signs, from `review.signerChoices`; nil at end of input.
    private func askSigner(_ view: JSONValue) -> String? {
        let choices = view["review"]?["signerChoices"]?.objectsValue ?? []
        guard !choices.isEmpty else { return "participant" }
        while true {
            guard let reply = console.ask("Choice [1-\(choices.count)]:") else { return nil }
            if let number = Int(reply), choices.indices.contains(number - 1), let role = choices[number - 1]["role"]?.stringValue {
                return role
            }
            console.say("Type the number of a choice.")
        }
    }

    /// The `signer.setName` params of the page's role: a name, and a relationship for a representative; nil at end
    /// of input.
    private func askSignerName(_ view: JSONValue) -> [String: JSONValue]? {
        let review = view["review"]?.asObject ?? [:]
        let role = Self.role(view)
        guard let given = console.ask("\(role.capitalized)'s given name:"), let family = console.ask("\(role.capitalized)'s family name:")
        else { return nil }
        var params: [String: JSONValue] = ["role": .string(role), "given": .string(given), "family": .string(family)]
        let relationships = review["relationships"]?.objectsValue ?? []
        if role == "representative", !relationships.isEmpty {
            while true {
                guard let reply = console.ask("Relationship [1-\(relationships.count)]:") else { return nil }
                if let number = Int(reply), relationships.indices.contains(number - 1),
                    let code = relationships[number - 1]["code"]?.stringValue
                {
                    params["relationship"] = .string(code)
                    break
                }
                console.say("Type the number of a relationship.")
            }
        }
        return params
    }

    /// nil at end of input.
    private mutating func askEligibility(_ view: JSONValue) -> [Bool]? {
        let questions = view["eligibility"]?["questions"]?.stringsValue ?? []
        let typed = typedAnswers
        typedAnswers = []
        var answers: [Bool] = []
        for (index, question) in questions.enumerated() {
            if index < typed.count {
                console.say("  \(index + 1). \(question) \(typed[index] ? "yes" : "no")")
                answers.append(typed[index])
                continue
            }
            while true {
                guard let reply = console.ask("  \(index + 1). \(question) [y/n]")?.lowercased() else { return nil }
                if ["y", "yes"].contains(reply) { answers.append(true); break }
                if ["n", "no"].contains(reply) { answers.append(false); break }
                console.say("  Answer y or n.")
            }
        }
        return answers
    }

    /// nil at end of input.
    /// The 0-based index of a numbered choice typed as its number.
    private func askChoice(_ choices: [String]) -> Int? {
        while true {
            guard let reply = console.ask("Choice [1-\(max(choices.count, 1))]:") else { return nil }
            if let number = Int(reply), choices.indices.contains(number - 1) { return number - 1 }
            console.say("Type the number of a choice.")
        }
    }

    private func askSharing(_ view: JSONValue) -> Bool? {
        let choices = view["sharing"]?["choices"]?.objectsValue ?? []
        guard !choices.isEmpty else { return true }
        while true {
            guard let reply = console.ask("Choice [1-\(choices.count)]:") else { return nil }
            if let number = Int(reply), choices.indices.contains(number - 1),
                let shareWidely = choices[number - 1]["shareWidely"]?.boolValue
            {
                return shareWidely
            }
            console.say("Type the number of a choice.")
        }
    }

    /// Yes or No to every optional element, asked one by one as the screen lists them; nil when the input ends.
    /// An element that has its answer (a change starts with the record's) shows it, and Enter keeps it.
    private func askOptional(_ view: JSONValue) -> [String: Bool]? {
        var answers: [String: Bool] = [:]
        for element in view["optional"]?["elements"]?.objectsValue ?? [] {
            guard let id = element["id"]?.stringValue else { continue }
            let given = element["answer"]?.boolValue
            let prompt = given.map { $0 ? "[y/n, Enter keeps yes]" : "[y/n, Enter keeps no]" } ?? "[y/n]"
            while true {
                guard let reply = console.ask("\(element["title"]?.stringValue ?? id): \(element["text"]?.stringValue ?? "") \(prompt)")
                else { return nil }
                if reply.isEmpty, let given {
                    answers[id] = given
                    break
                }
                if let answer = Self.eligibilityAnswers(reply), answer.count == 1 {
                    answers[id] = answer[0]
                    break
                }
                console.say("Answer y or n.")
            }
        }
        return answers
    }

    private mutating func beginPadCapture(role: String) throws {
        guard case .pad(let id) = signature else {
            console.say("This walk signs with the sample stroke; press Enter to submit it.")
            return
        }
        _ = connection.takeEvents()  // ink of an earlier capture is not this signature's
        var params: [String: JSONValue] = ["role": .string(role)]
        if let id { params["pad"] = .string(id) }
        let reply = try call("signature.begin", params)
        let pad = reply["pad"]?.asObject
        console.say("Sign on \(pad?["name"]?.stringValue ?? "the pad") (\(pad?["id"]?.stringValue ?? "?")); the ink is shown as it arrives.")
        padCaptureRunning = true
        flow = reply
    }

    /// Shows the ink that arrived: a line per stroke ended, and pads leaving or coming back. Returns the points.
    @discardableResult
    private func showInk() -> Int {
        var points = 0
        for event in connection.takeEvents() {
            let data = event["params"]?["data"]?.asObject ?? [:]
            switch event["method"]?.stringValue {
            case "ink.points":
                points += data["points"]?.arrayValue?.count ?? 0
            case "ink.strokeEnded":
                console.say("  stroke \((data["stroke"]?.intValue ?? 0) + 1) ended")
            case "pad.removed":
                console.say("  the pad was unplugged; plug it back in to go on signing")
            case "pad.added":
                console.say("  a pad was plugged in")
            default:
                continue
            }
        }
        return points
    }

    private mutating func submitSignature(role: String) throws {
        switch signature {
        case .sample:
            flow = try call("signature.submit", ["strokes": SampleSignature.strokes, "role": .string(role)])
            console.say("Submitted the built-in sample stroke.")
        case .pad:
            if !padCaptureRunning { try beginPadCapture(role: role) }
            console.say("Press Enter when signed (c and Enter clears the pad).")
            try connection.collectBuffered()
            var points = showInk()
            while true {
                let connection = connection
                var arrived = 0
                let line = try console.waitForLine(watching: connection.fileDescriptor) {
                    try connection.pump()
                    arrived += showInk()
                }
                points += arrived
                guard let line else { return try cancel() }
                guard line.lowercased() == "c" else { break }
                flow = try call("signature.clear", ["role": .string(role)])
                points = 0
                console.say("Cleared; sign again, then press Enter.")
            }
            flow = try call("signature.submit", ["role": .string(role)])
            padCaptureRunning = false
            console.say("Submitted the pad's signature (\(points + showInk()) ink points echoed).")
        }
    }

    // MARK: Ending

    /// The end screen's `printCopy`: asks, then `copy.print`, and says what CUPS did with it (the copy's job
    /// number, or the agent's refusal: `PrinterUnavailable`, `PrintFailed`).
    private func printCopy(_ view: JSONValue) {
        let label = view["labels"]?["printCopy"]?.stringValue ?? "Print my copy"
        guard let answer = console.ask("\(label)? [y/N]"), ["y", "yes"].contains(answer.lowercased()) else { return }
        do {
            let printed = try call("copy.print")
            console.say("The copy was sent to the printer (CUPS job \(printed["job"]?.intValue ?? 0)).")
        } catch {
            console.say("The copy was not printed: \(error)")
        }
    }

    private func finish(step: String, view: JSONValue) -> Ending {
        let message = view["end"]?["message"]?.stringValue
        if step == "completed", let record = flow["record"]?.stringValue {
            console.say("Completed. Record \(record)")
            if let directory = flow["directory"]?.stringValue { console.say("Directory \(directory)") }
            if let message { console.say(message) }
            return .completed
        }
        console.say("The flow ended: \(step)." + (message.map { " \($0)" } ?? ""))
        // Paused: the code to go on with (consentctl walk --resume CODE, or "I Have a Code" on a kiosk).
        if step == "paused", let code = view["paused"]?["code"]?.stringValue {
            console.say("\(view["paused"]?["codeLabel"]?.stringValue ?? "Code"): \(code)")
            if let text = view["paused"]?["text"]?.stringValue { console.say(text) }
        }
        return .ended(step)
    }
}
