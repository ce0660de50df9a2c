import AgentProtocol
import ConsentCore
import SignaturePad

/// `signature.begin {flow, pad?, role?}`.
struct SignatureBeginParams {
    var flow: String
    var pad: String?
    var role: SigningRole

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["flow", "pad", "role"])
        flow = try reader.string("flow")
        pad = try reader.optionalString("pad")
        role = try reader.role("role", whenAbsent: .participant)
    }
}

/// `signature.clear {flow, role?}`.
struct SignatureClearParams {
    var flow: String
    var role: SigningRole

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["flow", "role"])
        flow = try reader.string("flow")
        role = try reader.role("role", whenAbsent: .participant)
    }
}

/// `signature.submit {flow, role?, strokes?}`: `strokes` stays raw here; the handler reads it against the agent's
/// signature requirements and the connection's client name.
struct SignatureSubmitParams {
    var flow: String
    var role: SigningRole
    var strokes: RPCValue?

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["flow", "strokes", "role"])
        flow = try reader.string("flow")
        role = try reader.role("role", whenAbsent: .participant)
        strokes = reader.optionalValue("strokes")
    }
}

extension SignatureContext {
    /// Starts a pad capture for the flow's signature page (a capture already running for it is cancelled first).
    func beginSignature(_ params: SignatureBeginParams) async throws -> RPCValue {
        let id = params.flow
        try requireSignaturePage(id, role: params.role)
        // A capture already running for this flow is started afresh by the provider.
        let info = try await pads.beginCapture(flow: id, pad: params.pad, role: params.role)
        // The flow may have moved on while the pad started.
        guard let entry = flows[id], (try? entry.session.requireSignaturePage(role: params.role)) != nil, !table.isCompleting(id) else {
            await pads.cancelCapture(flow: id)
            throw AgentError(.unknownFlow, "the flow left the signature page while the pad started")
        }
        guard case .object(var value) = flowValue(id, entry) else { return flowValue(id, entry) }
        value["pad"] = try RPCValue(encoding: info)
        return .object(value)
    }

    /// Clears the signature page's signature, and the pad's strokes when a capture runs.
    func clearSignature(_ params: SignatureClearParams) async throws -> RPCValue {
        try requireSignaturePage(params.flow, role: params.role)
        let result = try apply(.clearSignature, to: params.flow)
        if pads.capture(of: params.flow) != nil { try await pads.clearCapture(flow: params.flow) }
        return result
    }

    /// Takes the signature: the strokes the UI drew, or the running pad capture's.
    func submitSignature(_ params: SignatureSubmitParams, _ connection: ConnectionHandle) async throws -> RPCValue {
        let id = params.flow
        var strokes: SignatureStrokes?
        if let raw = params.strokes {
            strokes = try UIDrawnStrokes.read(
                raw, client: connection.clientName,
                requirements: SignatureRequirements(
                    minimumInkLength: settings.minimumInkLength, minimumPoints: settings.minimumSignaturePoints))
        }
        try takeTheWheel(of: id, for: .signatureSubmit, from: connection)
        try requireSignaturePage(id, role: params.role)
        if strokes == nil {
            guard pads.capture(of: id) != nil else {
                throw AgentError(.noCapture, "no pad capture runs for this flow; pass the strokes captured by the UI")
            }
            strokes = try await pads.finishCapture(flow: id)
        } else if pads.capture(of: id) != nil {
            await pads.cancelCapture(flow: id)
        }
        guard let strokes, strokes.pointCount >= settings.minimumSignaturePoints else {
            throw AgentError(
                .signatureTooShort,
                "the signature has fewer than \(settings.minimumSignaturePoints) points; sign again")
        }
        return try apply(.submitSignature(strokes), to: id)
    }

    /// Checks the flow is at the signature page of `role` (expiring it first when it is idle).
    private func requireSignaturePage(_ id: String, role: SigningRole) throws {
        try expiringIfIdle(id).session.requireSignaturePage(role: role)
    }
}
