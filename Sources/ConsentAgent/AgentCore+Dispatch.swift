import AgentProtocol
import ConsentCore
import Logging

extension AgentCore {
    /// Handles one request and answers it through `connection` before returning.
    ///
    /// Params are read (unknown members refused) before anything is touched, so a bad request has no effect.
    func handle(_ request: RPCRequest, method: Method, from connection: ConnectionHandle) async {
        // A completion counts as in flight until its reply is handed to the connection, so a graceful shutdown
        // (which waits for completions, then closes connections) never closes before the reply is on its way.
        if method == .flowComplete { table.completionRequestArrived() }
        defer {
            if method == .flowComplete { perform(table.completionRequestAnswered()) }
        }
        do {
            if case .string(let flow)? = request.params["flow"] { adopt(flow, by: connection.id) }
            let outcome = try await dispatch(request, method, connection)
            connection.finish(request.id, visible(outcome, to: connection.id))
            // The journal entry outlives the reply: a stop before this line is reported at the next start.
            if method == .flowComplete, case .string(let flow)? = request.params["flow"] {
                recordMaker?.completionReported(flow: flow)
            }
        } catch {
            var step: ConsentStep?
            if case .string(let flow)? = request.params["flow"] { step = flows[flow]?.session.step }
            let wire = RPCErrorMapping.wireError(for: error, step: step, requestID: request.id, logger: logger)
            logger.debug("request refused", metadata: ["method": "\(method.rawValue)", "type": "\(wire.type.rawValue)"])
            connection.finish(request.id, .error(wire))
        }
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

    /// One line per method: its params type reads and checks the params (unknown members refused) before its
    /// handler, in `Methods/`, touches anything. A method that changes a flow then checks that this connection drives
    /// it (`driven`): a bad request is `InvalidParams` whoever sends it.
    private func dispatch(_ request: RPCRequest, _ method: Method, _ connection: ConnectionHandle) async throws -> DispatchOutcome {
        let params = request.params
        func driven<P>(_ checked: P, _ flow: KeyPath<P, String>) throws -> P {
            try takeTheWheel(of: checked[keyPath: flow], for: method, from: connection)
            return checked
        }
        switch method {
        case .sessionNegotiate, .rpcDiscover:
            // Handled on the connection's loop; never sent here.
            throw RPCErrorObject(code: RPCErrorCode.internalError, type: .internalError, message: "misrouted request")
        case .sessionSync:
            // A barrier: this answer reaches the connection after every event published before it.
            _ = try NoParams(params)
            return .synced
        case .eventsSubscribe: return try await subscribe(EventsSubscribeParams(params), connection)
        case .studyGet: return .result(try studyGet(StudyGetParams(params)))
        case .studyAsset: return .result(try studyAsset(StudyAssetParams(params)))
        case .flowStart: return .result(try await startFlow(FlowStartParams(params), connection))
        case .flowGet: return .result(try getFlow(FlowGetParams(params)))
        case .eligibilityAnswer, .flowNext, .flowBack, .sharingChoose, .reviewAgree, .reviewDisagree, .flowDecline,
            .flowCancel, .withdrawalConfirm, .participantSetName, .signerChoose, .signerSetName, .passcodeSet,
            .comprehensionAnswer:
            let step = try driven(FlowActionParams(method, params), \.flow)
            return .result(try apply(step.action, to: step.flow))
        case .signatureBegin: return .result(try await beginSignature(driven(SignatureBeginParams(params), \.flow)))
        case .signatureClear: return .result(try await clearSignature(driven(SignatureClearParams(params), \.flow)))
        // Its strokes are read and checked in the handler, before it asks whether this connection drives the flow.
        case .signatureSubmit: return .result(try await submitSignature(SignatureSubmitParams(params), connection))
        case .flowComplete: return .result(try await complete(driven(FlowCompleteParams(params), \.flow)))
        case .padsList: return .result(try await padsList(NoParams(params)))
        case .recordsGet: return .result(try await record(RecordsGetParams(params)))
        case .uploadsStatus: return .result(try await uploadsStatus(NoParams(params)))
        case .copyPrint: return .result(try await printCopy(CopyPrintParams(params), connection))
        case .printerStatus: return .result(try await printerStatus(NoParams(params)))
        case .staffUnlock: return .result(try await unlockStaff(driven(StaffUnlockParams(params), \.flow)))
        case .staffAttestIdentity: return .result(try attestIdentity(driven(StaffAttestParams(params), \.flow)))
        case .speechGet: return .result(try await speechGet(SpeechGetParams(params)))
        case .flowExtend: return .result(try extendFlow(driven(FlowExtendParams(params), \.flow)))
        }
    }
}
