import LocalSocket
import ArgumentParser
import FileBytes
import Foundation
import JSON

/// `consentctl walk`: drives a whole consent against a running consentd from a terminal, for a technician checking
/// a kiosk without its display app.
///
/// Plain lines on stdin and stdout, so it works in a dumb terminal, over ssh and in a pty. Each step shows its view
/// model and asks what to do; Enter takes the step's usual way forward. What to ask comes from the step and the
/// actions the agent sends, so a step this tool does not know is still shown and its plain actions offered.
struct Walk: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Walk through a full consent against a running consentd, step by step, from a terminal.",
        discussion: """
            Connects to consentd, starts a flow and, at every step, prints what a kiosk UI would show and asks \
            for input: eligibility answers (y/n; at the eligibility prompt y, n, "y n y" or "yyny" answer the first \
            questions at once and the rest are asked, so there n is an answer, not next), next/back through the sections, the sharing choice, review \
            agree, the comprehension questions (a choice by its number; after a wrong one the explanation, then Enter \
            asks again), the printed name, and the signature, from a pad (signature.begin; each stroke is reported as \
            its ink arrives, c clears, Enter submits) or a built-in sample stroke (signature.submit). Enter takes the step's usual action; type an action's \
            name (next, back, decline, ...) for another. q or Ctrl-D cancels the flow (flow.cancel) and exits.
            Studies that require a witness or allow a representative get their pages too (who signs, names, \
            relationship, each signature with its role). --language picks a translation; --withdraw RECORD \
            [--passcode PIN] walks a withdrawal, --previous RECORD a re-consent, --change RECORD [--passcode PIN] \
            a change of the record's answers to the optional elements (each shown with its answer; Enter keeps it); \
            pause (before the signature) prints a resume code, and --resume CODE goes on from there.
            Without --pad or --sample-signature, the sample stroke is used when the agent has no pad.
            The record id is printed when the consent completes; check it with consentctl verify.
            Exit status: 0 completed, 2 the flow ended without a record (cancelled, declined, ineligible, \
            expired), 1 the agent cannot be reached or refused to start a flow.
            """)

    static let endedExitCode: Int32 = 2

    @Option(help: ArgumentHelp("consentd's socket. Default: $XDG_RUNTIME_DIR/consentd.sock, else ./run/consentd.sock.", valueName: "PATH"))
    var socket: String?

    @Option(help: ArgumentHelp("The study to consent to (an id from study.get). Default: the agent's first study.", valueName: "ID"))
    var study: String?

    @Option(help: ArgumentHelp("Sign on this pad (an id from pads.list, e.g. /dev/input/event10).", valueName: "ID"))
    var pad: String?

    @Flag(help: "Sign with the built-in sample stroke instead of a pad.")
    var sampleSignature = false

    @Option(help: ArgumentHelp("The consent's language (a tag from study.get, e.g. de). Default: the study's.", valueName: "TAG"))
    var language: String?

    @Option(help: ArgumentHelp("Withdraw this record's consent instead of consenting (flow.start withdraw).", valueName: "RECORD"))
    var withdraw: String?

    @Option(help: ArgumentHelp("The PIN set when the record was signed, for --withdraw or --change.", valueName: "PIN"))
    var passcode: String?

    @Option(help: ArgumentHelp("Re-consent: show what changed since this record, then the consent (flow.start previous).", valueName: "RECORD"))
    var previous: String?

    @Option(help: ArgumentHelp("Go on with a paused flow (flow.start resume): the code its paused screen showed.", valueName: "CODE"))
    var resume: String?

    @Option(help: ArgumentHelp("Change this record's answers to the optional elements (flow.start change).", valueName: "RECORD"))
    var change: String?

    func validate() throws {
        if resume != nil && (study != nil || language != nil || withdraw != nil || passcode != nil || previous != nil || change != nil) {
            throw ValidationError("--resume brings its study and language: give it alone")
        }
        if pad != nil && sampleSignature {
            throw ValidationError("--pad and --sample-signature exclude each other")
        }
        if withdraw != nil && previous != nil {
            throw ValidationError("--withdraw and --previous exclude each other")
        }
        if change != nil && (withdraw != nil || previous != nil) {
            throw ValidationError("--change excludes --withdraw and --previous")
        }
        if passcode != nil && withdraw == nil && change == nil {
            throw ValidationError("--passcode goes with --withdraw or --change")
        }
    }

    /// The `flow.start` params the options ask for.
    var startParams: [String: JSONValue] {
        var params: [String: JSONValue] = [:]
        if let study { params["study"] = .string(study) }
        if let language { params["language"] = .string(language) }
        if let withdraw { params["withdraw"] = .string(withdraw) }
        if let passcode { params["passcode"] = .string(passcode) }
        if let previous { params["previous"] = .string(previous) }
        if let resume { params["resume"] = .string(resume) }
        if let change { params["change"] = .string(change) }
        return params
    }

    func run() throws {
        let path = socket ?? Self.defaultSocketPath()
        let connection: AgentConnection
        do {
            connection = try AgentConnection(path: path)
            try connection.negotiate(client: "consentctl-walk")
        } catch {
            throw CommandFailure("\(error)")
        }
        let console = Console()
        do {
            var walker = try Walker(connection: connection, console: console, signature: signatureSource(connection), start: startParams)
            let ending = try walker.run()
            if ending != .completed { throw ExitCode(Self.endedExitCode) }
        } catch let refusal as AgentConnection.Refusal {
            throw CommandFailure("the agent refused: \(refusal)")
        } catch let failure as AgentConnection.ConnectionFailure {
            throw CommandFailure(failure.description)
        }
    }

    private func signatureSource(_ connection: AgentConnection) throws -> Walker.SignatureSource {
        if sampleSignature { return .sample }
        if let pad { return .pad(pad) }
        let pads = try connection.call("pads.list")["pads"]?.arrayValue ?? []
        return pads.isEmpty ? .sample : .pad(nil)
    }

    /// consentd's own default.
    static func defaultSocketPath() -> String {
        LocalSocket.defaultAgentPath(environment: ProcessInfo.processInfo.environment)
    }
}

/// Lines out, lines in; nil input is end of input (Ctrl-D).
struct Console {
    func say(_ text: String = "") {
        print(text)
        fflush(nil)  // every stream: the prompt must show before reading, also on a pipe
    }

    /// Waits for a line on stdin, calling `whenReadable` each time `descriptor` has data meanwhile (ink arriving).
    func waitForLine(watching descriptor: Int32, whenReadable: () throws -> Void) throws -> String? {
        while true {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = FileBytes.retryingEINTR { poll(&fds, 2, -1) }
            guard ready > 0 else { return readLine(strippingNewline: true) }
            if fds[1].revents != 0 { try whenReadable() }
            if fds[0].revents != 0 { return readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// A line typed without echo when stdin is a terminal (a staff PIN); as `ask` on a pipe.
    func askSecret(_ question: String) -> String? {
        guard isatty(0) == 1 else { return ask(question) }
        // Echo goes off before the prompt shows, and without discarding input (TCSANOW, not TCSAFLUSH): a PIN typed
        // (or sent by a script) as soon as the prompt appears is neither echoed nor lost.
        var saved = termios()
        tcgetattr(0, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSANOW, &silent)
        defer {
            tcsetattr(0, TCSANOW, &saved)
            print("")
        }
        print(question, terminator: " ")
        fflush(nil)
        return readLine(strippingNewline: true)
    }

    func ask(_ question: String) -> String? {
        print(question, terminator: " ")
        fflush(nil)  // every stream: the prompt must show before reading, also on a pipe
        return readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces)
    }
}
