import AgentProtocol
import ConsentCore
import ConsentSigning
import FileBytes
import Foundation
import SignaturePad
import UploadQueue
import Logging

extension AgentCore {
    /// Handles one request and answers it through `connection` before returning.
    ///
    /// Params are read (unknown members refused) before anything is touched, so a bad request has no effect.
    func handle(_ request: RPCRequest, method: Method, from connection: ConnectionHandle) async {
        // A completion counts as in flight until its reply is handed to the connection, so a graceful shutdown
        // (which waits for completions, then closes connections) never closes before the reply is on its way.
        if method == .flowComplete { completionsInFlight += 1 }
        if case .string(let flow)? = request.params["flow"] { adopt(flow, by: connection.id) }
        defer {
            if method == .flowComplete { completionFinished() }
        }
        do {
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
        case .error: return outcome
        case .subscribed(let snapshot):
            guard case .object(var members) = snapshot, case .array(let running)? = members["flows"] else { return outcome }
            members["flows"] = .array(running.map(flow))
            return .subscribed(snapshot: .object(members))
        }
    }

    private func dispatch(_ request: RPCRequest, _ method: Method, _ connection: ConnectionHandle) async throws -> DispatchOutcome {
        let params = request.params
        switch method {
        case .sessionNegotiate, .sessionSync, .rpcDiscover:
            // Handled on the connection's loop; never sent here.
            throw RPCErrorObject(code: RPCErrorCode.internalError, type: .internalError, message: "misrouted request")

        case .eventsSubscribe:
            let reader = try ParamsReader(params, allowed: ["topics"])
            var topics: Set<Topic> = []
            for (i, name) in try reader.stringArray("topics").enumerated() {
                guard let topic = Topic(rawValue: name) else {
                    throw RPCErrorObject.invalidParams(field: "topics[\(i)]", "unknown topic; topics are flow, ink, pad")
                }
                topics.insert(topic)
            }
            let padList = await pads.pads()
            // No suspension between here and the reply: every event published after the snapshot reaches
            // this connection after the reply.
            hub.subscribe(connection, topics: topics)
            let running = flows.filter { !$0.value.session.step.isFinished }.sorted { $0.key < $1.key }
            return .subscribed(snapshot: [
                "topics": .array(topics.map(\.rawValue).sorted().map(RPCValue.string)),
                "flows": .array(running.map { flowValue($0.key, $0.value) }),
                "pads": try RPCValue(encoding: padList),
            ])

        case .studyGet:
            let reader = try ParamsReader(params, allowed: ["study", "language"])
            let study = try study(try reader.optionalString("study"))
            // The UI's words in the asked language (a tag of the study's); the rest of the reply is unchanged.
            let language = try reader.optionalString("language").map { try translation(of: study, $0).language } ?? study.language
            return .result([
                "study": [
                    "id": .string(study.id), "version": .string(study.version), "title": .string(study.title),
                    "eligibilityQuestions": .array(study.document.eligibility.map { .string($0.question) }),
                    "sections": .integer(Int64(study.document.sections.count)),
                    "askForSharing": .bool(study.options.askForSharing),
                    "askToCreatePasscode": .bool(study.options.askToCreatePasscode),
                    "requireWitness": .bool(study.options.requireWitness),
                    "allowRepresentative": .bool(study.options.allowRepresentative),
                    "language": .string(study.language),
                    "languages": .array(study.languages.map { Self.languageValue($0, title: study.inLanguage($0.tag)?.title ?? study.title) }),
                    "texts": UITextsValue.value(UITexts(language: language)),
                ],
                "studies": .array(studies.map { .string($0.id) }),
            ])

        case .studyAsset:
            let reader = try ParamsReader(params, allowed: ["name", "study", "language"])
            let name = try reader.string("name")
            let study = try study(try reader.optionalString("study"), language: try reader.optionalString("language"))
            return .result(try Self.assetValue(study, name))

        case .flowStart:
            let reader = try ParamsReader(params, allowed: ["study", "language", "withdraw", "passcode", "previous"])
            let language = try reader.optionalString("language")
            let plan = try flowPlan(
                study: try reader.optionalString("study"), withdraw: try reader.optionalString("withdraw"),
                passcode: try reader.optionalString("passcode"), previous: try reader.optionalString("previous"))
            let study = try language.map { try translation(of: plan.study, $0) } ?? plan.study
            guard !isShuttingDown else { throw AgentError(.shuttingDown, "the agent is shutting down") }
            let running = flows.values.reduce(0) { $0 + ($1.session.step.isFinished ? 0 : 1) }
            guard running < settings.maximumFlows else {
                logger.notice("flow refused: too many running flows", metadata: ["maximum": "\(settings.maximumFlows)"])
                throw AgentError(
                    .overloaded, "the agent runs as many flows as it may (maxFlows); end or cancel one, or retry later")
            }
            let id = Self.makeFlowID()
            let entry = FlowEntry(
                session: ConsentSession(
                    id: id, study: study, now: now(), inactivityTimeout: settings.inactivityTimeout, purpose: plan.purpose),
                driver: connection.id)
            flows[id] = entry
            adopt(id, by: connection.id)
            logger.info("flow started", metadata: ["flow": "\(id)", "study": "\(study.id)", "language": "\(study.language)"])
            auditor.started(id, entry.session)
            publishChanged(id, entry)
            return .result(flowValue(id, entry))

        case .flowGet:
            let reader = try ParamsReader(params, allowed: ["flow"])
            let id = try reader.string("flow")
            guard let entry = flows[id] else {
                if let record = keptBeforeRestart[id] {
                    // Its reply was lost to a stop; the record is whole, so the UI must not ask for a second consent.
                    throw RPCErrorObject.domain(
                        .flowFinished, "the flow was completed before the agent restarted; data.record is its record",
                        details: ["record": .string(record)])
                }
                throw AgentError(.unknownFlow, "no flow has this id")
            }
            return .result(flowValue(id, entry))

        case .eligibilityAnswer:
            let reader = try ParamsReader(params, allowed: ["flow", "answers"])
            let id = try reader.string("flow")
            let answers = try reader.optionalBoolArray("answers")
            return .result(try apply(.answerEligibility(answers), to: id))

        case .flowNext, .flowBack:
            let reader = try ParamsReader(params, allowed: ["flow", "step"])
            let id = try reader.string("flow")
            let name = try reader.string("step")
            guard let step = ConsentStep(rawValue: name) else {
                throw RPCErrorObject.invalidParams(field: "step", "unknown step; Protocol/schemas/types/Step lists the steps")
            }
            return .result(try apply(method == .flowNext ? .next(step) : .back(step), to: id))

        case .sharingChoose:
            let reader = try ParamsReader(params, allowed: ["flow", "shareWidely"])
            let id = try reader.string("flow")
            let widely = try reader.bool("shareWidely")
            return .result(try apply(.chooseSharing(shareWidely: widely), to: id))

        case .reviewAgree, .reviewDisagree, .flowDecline, .flowCancel:
            let reader = try ParamsReader(params, allowed: ["flow"])
            let id = try reader.string("flow")
            let action: ConsentAction
            switch method {
            case .reviewAgree: action = .agree
            case .reviewDisagree: action = .disagree
            case .flowDecline: action = .decline
            default: action = .cancel
            }
            return .result(try apply(action, to: id))

        case .withdrawalConfirm:
            let reader = try ParamsReader(params, allowed: ["flow", "reason"])
            let id = try reader.string("flow")
            let reason = try reader.optionalString("reason")
            return .result(try apply(.confirmWithdrawal(reason: reason), to: id))

        case .participantSetName:
            let reader = try ParamsReader(params, allowed: ["flow", "given", "family"])
            let id = try reader.string("flow")
            let given = try reader.string("given")
            let family = try reader.string("family")
            return .result(try apply(.setName(given: given, family: family), to: id))

        case .signerChoose:
            let reader = try ParamsReader(params, allowed: ["flow", "signer"])
            let id = try reader.string("flow")
            let role = try Self.role(try reader.string("signer"), "signer", allowed: [.participant, .representative])
            return .result(try apply(.chooseSigner(role), to: id))

        case .signerSetName:
            let reader = try ParamsReader(params, allowed: ["flow", "role", "given", "family", "relationship"])
            let id = try reader.string("flow")
            let role = try Self.role(try reader.string("role"), "role", allowed: SigningRole.allCases)
            let given = try reader.string("given")
            let family = try reader.string("family")
            let relationship = try reader.optionalString("relationship")
            return .result(try apply(.setSignerName(role, given: given, family: family, relationship: relationship), to: id))

        case .passcodeSet:
            let reader = try ParamsReader(params, allowed: ["flow", "passcode"])
            let id = try reader.string("flow")
            let passcode = try reader.string("passcode")
            return .result(try apply(.setPasscode(passcode), to: id))

        case .signatureBegin:
            let reader = try ParamsReader(params, allowed: ["flow", "pad", "role"])
            let id = try reader.string("flow")
            let pad = try reader.optionalString("pad")
            let role = try Self.role(try reader.optionalString("role") ?? "participant", "role", allowed: SigningRole.allCases)
            try requireSignaturePage(id, role: role)
            if captures.removeValue(forKey: id) != nil { await pads.cancelCapture(flow: id) }
            // Before the capture starts: a pad's first frames may arrive before beginCapture returns.
            inkRoles.set(role, for: id)
            let info = try await pads.beginCapture(flow: id, pad: pad)
            // The flow may have moved on while the pad started.
            guard let entry = flows[id], (try? entry.session.requireSignaturePage(role: role)) != nil, !entry.isCompleting else {
                await pads.cancelCapture(flow: id)
                throw AgentError(.unknownFlow, "the flow left the signature page while the pad started")
            }
            captures[id] = info.id
            capturePads[info.id] = info
            guard case .object(var value) = flowValue(id, entry) else { return .result(flowValue(id, entry)) }
            value["pad"] = try RPCValue(encoding: info)
            return .result(.object(value))

        case .signatureClear:
            let reader = try ParamsReader(params, allowed: ["flow", "role"])
            let id = try reader.string("flow")
            let role = try Self.role(try reader.optionalString("role") ?? "participant", "role", allowed: SigningRole.allCases)
            try requireSignaturePage(id, role: role)
            let result = try apply(.clearSignature, to: id)
            if captures[id] != nil { try await pads.clearCapture(flow: id) }
            return .result(result)

        case .signatureSubmit:
            let reader = try ParamsReader(params, allowed: ["flow", "strokes", "role"])
            let id = try reader.string("flow")
            let role = try Self.role(try reader.optionalString("role") ?? "participant", "role", allowed: SigningRole.allCases)
            var strokes: SignatureStrokes?
            if let raw = reader.optionalValue("strokes") {
                strokes = try UIDrawnStrokes.read(
                    raw, client: connection.clientName,
                    requirements: SignatureRequirements(
                        minimumInkLength: settings.minimumInkLength, minimumPoints: settings.minimumSignaturePoints))
            }
            try requireSignaturePage(id, role: role)
            if strokes == nil {
                guard captures[id] != nil else {
                    throw AgentError(.noCapture, "no pad capture runs for this flow; pass the strokes captured by the UI")
                }
                strokes = try await pads.finishCapture(flow: id)
                captures[id] = nil
            } else if captures.removeValue(forKey: id) != nil {
                await pads.cancelCapture(flow: id)
            }
            guard let strokes, strokes.pointCount >= settings.minimumSignaturePoints else {
                throw AgentError(
                    .signatureTooShort,
                    "the signature has fewer than \(settings.minimumSignaturePoints) points; sign again")
            }
            return .result(try apply(.submitSignature(strokes), to: id))

        case .flowComplete:
            let reader = try ParamsReader(params, allowed: ["flow", "patient", "deidentify", "location"])
            let id = try reader.string("flow")
            var options = CompletionOptions()
            if let patient = reader.optionalValue("patient") {
                guard case .object = patient else {
                    throw RPCErrorObject.invalidParams(field: "patient", "patient must be a FHIR Patient object")
                }
                let json = JSONValue(patient)
                // Bad FHIR is the client's fault, refused here: it must never surface as RecordFailed ("try again").
                do { try FHIRInputCheck.patient(json, today: Date()) } catch let error as FHIRInputCheck.Fault {
                    throw RPCErrorObject.invalidParams(field: error.field, "\(error.field) \(error.message)")
                }
                options.patient = json
            }
            options.deidentify = try reader.optionalBool("deidentify") ?? false
            if let location = reader.optionalValue("location") {
                guard case .object = location else {
                    throw RPCErrorObject.invalidParams(field: "location", "location must be a FHIR Address object")
                }
                let json = JSONValue(location)
                do { try FHIRInputCheck.address(json) } catch let error as FHIRInputCheck.Fault {
                    throw RPCErrorObject.invalidParams(field: error.field, "\(error.field) \(error.message)")
                }
                options.location = json
            }
            return .result(try await complete(id, options: options))

        case .padsList:
            _ = try ParamsReader(params, allowed: [])
            return .result(["pads": try RPCValue(encoding: await pads.pads())])

        case .recordsGet:
            let reader = try ParamsReader(params, allowed: ["id"])
            return .result(try record(try reader.string("id")))

        case .uploadsStatus:
            _ = try ParamsReader(params, allowed: [])
            // Read from the queue's files, as consentctl queue does: a few small files, no record read.
            let status: QueueStatus
            do { status = try QueueStore(stateDirectory: settings.stateDirectory).status() } catch {
                logger.error("cannot read the upload queue for uploads.status", metadata: ["error": "\(error)"])
                throw RPCErrorObject(
                    code: RPCErrorCode.internalError, type: .internalError, message: "the upload queue cannot be read")
            }
            return .result(UploadQueueSummary.value(status, now: Date()))
        }
    }

    /// Checks the flow is at the signature page of `role` (expiring it first when it is idle).
    private func requireSignaturePage(_ id: String, role: SigningRole) throws {
        var entry = try runningEntry(id)
        if entry.session.expireIfIdle(now: now()) {
            flows[id] = entry
            flowEnded(id, entry)
        }
        try entry.session.requireSignaturePage(role: role)
    }

    /// A signer role param (`participant`, `representative`, `witness`), limited to `allowed`.
    private static func role(_ name: String, _ field: String, allowed: [SigningRole]) throws -> SigningRole {
        guard let role = SigningRole(rawValue: name), allowed.contains(role) else {
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            throw RPCErrorObject.invalidParams(field: field, "\(field) must be one of \(names)")
        }
        return role
    }

    /// Writes the record, then marks the flow completed; the reply waits until the record is durable.
    private func complete(_ id: String, options: CompletionOptions) async throws -> RPCValue {
        var entry = try runningEntry(id)
        if entry.session.expireIfIdle(now: now()) {
            flows[id] = entry
            flowEnded(id, entry)
            throw ConsentCoreError(.flowFinished, "the flow expired")
        }
        guard !entry.session.step.isFinished else {
            throw ConsentCoreError(.flowFinished, "the flow has ended (\(entry.session.step.rawValue))")
        }
        var outcome = try entry.session.outcome()
        guard let recordMaker else {
            throw AgentError(.noRecordMaker, "this agent has no record maker; it cannot complete consents")
        }
        guard !isShuttingDown else { throw AgentError(.shuttingDown, "the agent is shutting down; complete after restart") }
        var options = options
        if let link = outcome.link {
            try prepareLinked(link, options: &options)
            outcome.link?.enrollmentRecordID = RecordArchive(stateDirectory: settings.stateDirectory).enrollmentRecord(of: link.recordID)
        }
        let withdrawn = outcome.link?.kind == .withdrawal ? outcome.link?.recordID : nil
        if let withdrawn { withdrawalsInFlight.insert(withdrawn) }
        defer { if let withdrawn { withdrawalsInFlight.remove(withdrawn) } }
        entry.isCompleting = true
        flows[id] = entry
        options.auditHead = auditor.head
        options.flow = id
        logger.debug("writing the record", metadata: ["flow": "\(id)"])
        let receipt: RecordReceipt
        do {
            receipt = try await recordMaker.makeRecord(for: outcome, study: entry.session.study, options: options)
        } catch {
            flows[id]?.isCompleting = false
            if let refused = Self.refusedInput(error) {
                // Checked at the params already; this is the defence in depth, and not a storage fault.
                logger.notice("record refused its input", metadata: ["flow": "\(id)", "field": "\(refused.details["field"]?.stringValue ?? "")"])
                throw refused
            }
            var metadata: Logger.Metadata = ["flow": "\(id)", "error": "\(type(of: error))"]
            if let code = Self.storageErrno(of: error) { metadata["errno"] = "\(code.rawValue)"; metadata["errnoName"] = "\(code)" }
            logger.error("record failed", metadata: metadata)
            if error is AgentError { throw error }
            throw AgentError(.recordFailed, "the record could not be written; nothing was kept, try flow.complete again")
        }
        entry.isCompleting = false
        entry.recordID = receipt.id
        try entry.session.markCompleted()
        flows[id] = entry
        logger.info("record written", metadata: ["flow": "\(id)", "record": "\(receipt.id)"])
        auditor.completed(id, entry.session, record: receipt.id, directory: receipt.directory)
        if let withdrawn { auditor.withdrawn(id, entry.session, original: withdrawn) }
        flowEnded(id, entry)
        guard case .object(var value) = flowValue(id, entry) else { return flowValue(id, entry) }
        value["directory"] = .string(receipt.directory.path)
        value["files"] = .array(receipt.files.map(RPCValue.string))
        return .object(value)
    }

    /// A signing error that says the client's patient or location is unusable, as the params error it is.
    private static func refusedInput(_ error: any Error) -> RPCErrorObject? {
        guard let error = error as? ConsentSigningError else { return nil }
        switch error.code {
        case .notAPatient, .invalidPatient, .invalidBirthDate:
            return .invalidParams(field: "patient", "patient is not a usable FHIR Patient")
        case .invalidLocation:
            return .invalidParams(field: "location", "location is not a usable FHIR Address")
        default:
            return nil
        }
    }

    /// The errno under a storage fault, for the log (ENOSPC, EROFS, EMFILE, EIO say what to fix).
    static func storageErrno(of error: any Error) -> POSIXErrorCode? {
        if let posix = error as? POSIXError { return posix.code }
        if let failure = error as? FileBytes.Failure { return POSIXErrorCode(rawValue: failure.errno) }
        if let signing = error as? ConsentSigningError, let cause = signing.cause { return storageErrno(of: cause) }
        return nil
    }

    private func completionFinished() {
        completionsInFlight -= 1
        if completionsInFlight == 0 {
            for waiter in drainWaiters.values { waiter.resume() }
            drainWaiters.removeAll()
        }
    }

    /// `records.get`: where a record is and which files it has (never its content: that is PHI).
    private func record(_ id: String) throws -> RPCValue {
        guard RecordID.isValid(id) else { throw AgentError(.unknownRecord, "no record has this id") }
        let directory = URL(fileURLWithPath: StateLayout(root: settings.stateDirectory.path).record(id))
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            throw AgentError(.unknownRecord, "no record has this id")
        }
        var value: [String: RPCValue] = [
            "id": .string(id), "directory": .string(directory.path), "files": .array(files.sorted().map(RPCValue.string)),
        ]
        value.merge(recordLinks(id)) { current, _ in current }
        return .object(value)
    }
}

extension AgentCore {
    /// `study.asset`: an image the study uses, base64, never any other file (the study read its images when it
    /// loaded; no request touches the file system).
    static func assetValue(_ study: Study, _ name: String) throws -> RPCValue {
        guard let asset = study.asset(named: name) else {
            throw RPCErrorObject.domain(.unknownAsset, "the study uses no image of this name; names come from view.scene.image and data-asset")
        }
        guard let bytes = asset.bytes, asset.size <= StudyAsset.maximumBytes else {
            throw RPCErrorObject.domain(
                .assetTooLarge, "the image is larger than a UI can be sent; the study's coordinator must shrink it",
                details: ["maximum": .integer(Int64(StudyAsset.maximumBytes)), "size": .integer(Int64(asset.size))])
        }
        return [
            "name": .string(asset.name), "mediaType": .string(asset.mediaType), "size": .integer(Int64(bytes.count)),
            "data": .string(bytes.base64EncodedString()),
        ]
    }
}
