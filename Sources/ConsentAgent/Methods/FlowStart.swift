import AgentProtocol
import ConsentCore
import Foundation

/// `flow.start {study?, language?, withdraw?, passcode?, previous?, change?}`, or `flow.start {resume}` alone.
struct FlowStartParams {
    var language: String?
    var study: String?
    var withdraw: String?
    var passcode: String?
    var previous: String?
    /// A change of the answers to the optional elements of this record (`passcode` as for `withdraw`).
    var change: String?
    /// A paused flow's resume code (`flow.pause`): its study, language and place come with it.
    var resume: String?

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(
            params, allowed: ["study", "language", "withdraw", "passcode", "previous", "change", "resume"])
        language = try reader.optionalString("language")
        study = try reader.optionalString("study")
        withdraw = try reader.optionalString("withdraw")
        passcode = try reader.optionalString("passcode")
        previous = try reader.optionalString("previous")
        change = try reader.optionalString("change")
        resume = try reader.optionalString("resume")
        if resume != nil, params.count > 1 {
            throw RPCErrorObject.invalidParams(
                field: "resume", "a resume code brings its study, language and place: pass it alone")
        }
    }
}

extension StartContext {
    /// Starts a consent, a withdrawal (`withdraw` + `passcode`), a re-consent (`previous`) or a change of answers
    /// (`change` + `passcode`), driven by `connection`.
    /// The earlier record of a withdrawal or re-consent is verified off the actor; everything after that runs on it
    /// without a suspension, so the checks below hold when the flow is added.
    func startFlow(_ params: FlowStartParams, _ connection: ConnectionHandle) async throws -> RPCValue {
        if let code = params.resume { return try await resumeFlow(code, connection) }
        let plan = try await flowPlan(
            study: params.study, withdraw: params.withdraw, passcode: params.passcode, previous: params.previous,
            change: params.change)
        var study = try params.language.map { try translation(of: plan.study, $0) } ?? plan.study
        // A withdrawal is always possible; a consent or re-consent only on an approved version.
        if case .withdrawal = plan.purpose {} else { study.approval = try admit(study) }
        guard !table.isStopping else { throw AgentError(.shuttingDown, "the agent is shutting down") }
        guard table.hasRoom else {
            logger.notice("flow refused: too many running flows", metadata: ["maximum": "\(settings.maximumFlows)"])
            throw AgentError(
                .overloaded, "the agent runs as many flows as it may (maxFlows); end or cancel one, or retry later")
        }
        let id = Self.makeFlowID()
        let entry = FlowEntry(
            session: ConsentSession(
                id: id, study: study, now: now(), inactivityTimeout: settings.inactivityTimeout, purpose: plan.purpose,
                staffCountersignature: staff != nil, pause: settings.resumeDays > 0),
            driver: connection.id)
        let driver = connection.id, instant = now()
        change { $0.start(id, entry, by: driver, now: instant) }
        return flowValue(id, entry)
    }

    static func makeFlowID() -> String {
        "f-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    }
}
