import AgentProtocol
import ConsentCore
import Logging

extension AgentCore {
    /// Handles one request and answers it through `connection`: the reply leaves through the `Outbox` after the
    /// audit lines and events of the step, and is handed to the connection before this returns.
    ///
    /// Params are read (unknown members refused) before anything is touched, so a bad request has no effect.
    func handle(_ request: RPCRequest, method: Method, from connection: ConnectionHandle) async {
        // A completion counts as in flight until its reply is handed to the connection, so a graceful shutdown
        // (which waits for completions, then closes connections) never closes before the reply is on its way.
        if method == .flowComplete { change { $0.completionRequestArrived() } }
        defer {
            if method == .flowComplete { change { $0.completionRequestAnswered() } }
        }
        var completed: String?
        do {
            if case .string(let flow)? = request.params["flow"] { adopt(flow, by: connection.id) }
            let outcome = try await dispatch(request, method, connection)
            outbox.reply(connection, request.id, visible(outcome, to: connection.id))
            if method == .flowComplete, case .string(let flow)? = request.params["flow"] { completed = flow }
        } catch {
            var step: ConsentStep?
            if case .string(let flow)? = request.params["flow"] { step = flows[flow]?.session.step }
            let wire = RPCErrorMapping.wireError(for: error, step: step, requestID: request.id, logger: logger)
            logger.debug("request refused", metadata: ["method": "\(method.rawValue)", "type": "\(wire.type.rawValue)"])
            outbox.reply(connection, request.id, .error(wire))
        }
        await outbox.delivered()
        // The journal entry outlives the reply (and the audit lines before it): a stop before this line is reported
        // at the next start.
        if let completed, let recordMaker { _ = try? await disk.run { recordMaker.completionReported(flow: completed) } }
    }

    /// A reply as `connection` may see it: a flow it does not drive without the eligibility answers.
    private func visible(_ outcome: DispatchOutcome, to connection: UInt64) -> DispatchOutcome {
        func flow(_ value: RPCValue) -> RPCValue {
            guard case .string(let id)? = value["flow"], value["view"] != nil else { return value }
            return flows[id]?.driver == connection ? value : FlowVisibility.withheld(value)
        }
        switch outcome {
        case .result(let value): return .result(flow(value))
        case .error, .synced: return outcome
        case .subscribed(let snapshot):
            guard case .object(var members) = snapshot, case .array(let running)? = members["flows"] else { return outcome }
            members["flows"] = .array(running.map(flow))
            return .subscribed(snapshot: .object(members))
        }
    }

    /// One line per method: its params, read and checked by `MethodCall` (unknown members refused) before its
    /// handler, in `Methods/`, touches anything. A method that changes a flow then checks that this connection drives
    /// it (`driven`): a bad request is `InvalidParams` whoever sends it.
    private func dispatch(_ request: RPCRequest, _ method: Method, _ connection: ConnectionHandle) async throws -> DispatchOutcome {
        func driven<P>(_ checked: P, _ flow: KeyPath<P, String>) throws -> P {
            try takeTheWheel(of: checked[keyPath: flow], for: method, from: connection)
            return checked
        }
        switch try MethodCall(method, request.params) {
        // A barrier: this answer reaches the connection after every event published before it.
        case .sessionSync: return .synced
        case .eventsSubscribe(let params): return try await subscribe(params, connection)
        case .studyGet(let params): return .result(try studyGet(params, printsBlankForms: printsBlankForms))
        case .studyAsset(let params): return .result(try studyAsset(params))
        case .flowStart(let params): return .result(try await startFlow(params, connection))
        case .flowGet(let params): return .result(try getFlow(params))
        case .step(let params):
            let step = try driven(params, \.flow)
            return .result(try apply(step.action, to: step.flow))
        case .signatureBegin(let params): return .result(try await beginSignature(driven(params, \.flow)))
        case .signatureClear(let params): return .result(try await clearSignature(driven(params, \.flow)))
        // Its strokes are read and checked in the handler, before it asks whether this connection drives the flow.
        case .signatureSubmit(let params): return .result(try await submitSignature(params, connection))
        case .flowComplete(let params): return .result(try await complete(driven(params, \.flow)))
        case .padsList(let params): return .result(try await padsList(params))
        case .recordsGet(let params): return .result(try await record(params))
        case .uploadsStatus(let params): return .result(try await uploadsStatus(params))
        case .copyPrint(let params): return .result(try await printCopy(params, connection))
        case .copyPrintBlank(let params):
            // From a flow, only the connection that drives it; before one, any kiosk screen.
            if let flow = params.flow { try takeTheWheel(of: flow, for: method, from: connection) }
            return .result(try await printBlank(params))
        case .printerStatus(let params): return .result(try await printerStatus(params))
        case .staffUnlock(let params): return .result(try await unlockStaff(driven(params, \.flow)))
        case .staffAttestIdentity(let params): return .result(try attestIdentity(driven(params, \.flow)))
        case .speechGet(let params): return .result(try await speechGet(params))
        case .flowExtend(let params): return .result(try extendFlow(driven(params, \.flow)))
        case .staffCall(let params): return .result(try callStaff(driven(params, \.flow)))
        // A staff connection answers for any flow: it does not take the wheel of the participant's.
        case .staffAnswer(let params): return .result(try answerStaff(params))
        case .flowPause(let params): return .result(try await pauseFlow(driven(params, \.flow)))
        }
    }
}

/// A request's params as its method's params type reads and checks them, before anything is touched: what
/// `AgentCore.dispatch` runs, and what the FuzzRequest harness (Fuzz/Targets/FuzzRequest) reads params with.
enum MethodCall {
    case sessionSync(NoParams)
    case eventsSubscribe(EventsSubscribeParams)
    case studyGet(StudyGetParams)
    case studyAsset(StudyAssetParams)
    case flowStart(FlowStartParams)
    case flowGet(FlowParams)
    /// The step methods (`flow.next`, `review.agree`, …): one action on the flow.
    case step(FlowActionParams)
    case signatureBegin(SignatureBeginParams)
    case signatureClear(SignatureClearParams)
    case signatureSubmit(SignatureSubmitParams)
    case flowComplete(FlowCompleteParams)
    case padsList(NoParams)
    case recordsGet(RecordsGetParams)
    case uploadsStatus(NoParams)
    case copyPrint(FlowParams)
    case copyPrintBlank(CopyPrintBlankParams)
    case printerStatus(NoParams)
    case staffUnlock(StaffUnlockParams)
    case staffAttestIdentity(StaffAttestParams)
    case speechGet(SpeechGetParams)
    case flowExtend(FlowParams)
    case staffCall(FlowParams)
    case staffAnswer(FlowParams)
    case flowPause(FlowParams)

    /// One line per method; unknown members are refused.
    init(_ method: Method, _ params: [String: RPCValue]) throws {
        switch method {
        case .sessionNegotiate, .rpcDiscover:
            // Handled on the connection's loop; never sent here.
            throw RPCErrorObject(code: RPCErrorCode.internalError, type: .internalError, message: "misrouted request")
        case .sessionSync: self = .sessionSync(try NoParams(params))
        case .eventsSubscribe: self = .eventsSubscribe(try EventsSubscribeParams(params))
        case .studyGet: self = .studyGet(try StudyGetParams(params))
        case .studyAsset: self = .studyAsset(try StudyAssetParams(params))
        case .flowStart: self = .flowStart(try FlowStartParams(params))
        case .flowGet: self = .flowGet(try FlowParams(params))
        case .eligibilityAnswer, .flowNext, .flowBack, .sharingChoose, .reviewAgree, .reviewDisagree, .flowDecline,
            .flowCancel, .withdrawalConfirm, .participantSetName, .signerChoose, .signerSetName, .passcodeSet,
            .comprehensionAnswer, .optionalAnswer:
            self = .step(try FlowActionParams(method, params))
        case .signatureBegin: self = .signatureBegin(try SignatureBeginParams(params))
        case .signatureClear: self = .signatureClear(try SignatureClearParams(params))
        case .signatureSubmit: self = .signatureSubmit(try SignatureSubmitParams(params))
        case .flowComplete: self = .flowComplete(try FlowCompleteParams(params))
        case .padsList: self = .padsList(try NoParams(params))
        case .recordsGet: self = .recordsGet(try RecordsGetParams(params))
        case .uploadsStatus: self = .uploadsStatus(try NoParams(params))
        case .copyPrint: self = .copyPrint(try FlowParams(params))
        case .copyPrintBlank: self = .copyPrintBlank(try CopyPrintBlankParams(params))
        case .printerStatus: self = .printerStatus(try NoParams(params))
        case .staffUnlock: self = .staffUnlock(try StaffUnlockParams(params))
        case .staffAttestIdentity: self = .staffAttestIdentity(try StaffAttestParams(params))
        case .speechGet: self = .speechGet(try SpeechGetParams(params))
        case .flowExtend: self = .flowExtend(try FlowParams(params))
        case .staffCall: self = .staffCall(try FlowParams(params))
        case .staffAnswer: self = .staffAnswer(try FlowParams(params))
        case .flowPause: self = .flowPause(try FlowParams(params))
        }
    }
}
