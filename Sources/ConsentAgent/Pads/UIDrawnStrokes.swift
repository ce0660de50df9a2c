import AgentProtocol
import ConsentCore
import SignaturePad

/// Strokes a kiosk UI drew itself and handed to `signature.submit`: read strictly, held to the pad's bar, and
/// stamped with a provenance only the agent states.
///
/// A record's `device` says how a signature was captured, and a disputed signature turns on it: so a UI may not
/// say it. A `device` (or any member the stroke format does not define) is refused, naming the member but never
/// echoing its value; the agent writes `{"source": "ui", "client": <the connection's negotiated client name>}`.
enum UIDrawnStrokes {
    /// The members of the stroke format a UI may send (Protocol/schemas: `Strokes`, `additionalProperties: false`).
    static let allowedMembers: Set<String> = ["strokes", "widthMM", "heightMM"]

    /// - Throws: `RPCErrorObject` `InvalidParams` (field `strokes` or `strokes.<member>`) for an unknown member, a
    ///   malformed stroke or time running backwards; `AgentError` `SignatureTooShort` below the requirements.
    static func read(_ raw: RPCValue, client: String?, requirements: SignatureRequirements) throws -> SignatureStrokes {
        guard case .object(let members) = raw else {
            throw RPCErrorObject.invalidParams(field: "strokes", "strokes must be an object {\"strokes\": [[[x, y, t, p], ...], ...]}")
        }
        if let unknown = members.keys.filter({ !allowedMembers.contains($0) }).sorted().first {
            // The member's name is the client's text: named in data.field only when it is a plain name, never in
            // the message (the same rule as unknown parameters, RPCErrorObject.unknownParameter).
            let field = RPCErrorObject.plainName(unknown).map { "strokes.\($0)" } ?? "strokes"
            let why = unknown == "device"
                ? "the agent alone states how a signature was captured; a UI may not send strokes.device"
                : "an unknown member of the stroke format (strokes, widthMM, heightMM); data.field names it"
            throw RPCErrorObject.invalidParams(field: field, why)
        }
        var strokes: SignatureStrokes
        do {
            strokes = try raw.decode(SignatureStrokes.self)
        } catch {
            throw RPCErrorObject.invalidParams(
                field: "strokes", "strokes must be {\"strokes\": [[[x, y, t, p], ...], ...]} (Protocol/schemas/types/strokes)")
        }
        do {
            try strokes.validateSubmitted()  // ranges and finiteness of every number a UI sends
        } catch let error as ConsentCoreError {
            throw RPCErrorObject.invalidParams(field: "strokes", error.message)
        }
        let drawn = strokes.strokes.map { $0.map { SignatureRequirements.DrawnPoint(x: $0.x, y: $0.y, t: $0.t) } }
        var heightPerWidth = SignatureRequirements.defaultHeightPerWidth
        if let w = strokes.widthMM, let h = strokes.heightMM, w > 0, h > 0 { heightPerWidth = h / w }
        do {
            try requirements.check(drawn: drawn, heightPerWidth: heightPerWidth)
        } catch let error as SignaturePadError where error.code == .timeRunsBackwards {
            throw RPCErrorObject.invalidParams(field: "strokes", error.message)
        } catch let error as SignaturePadError {
            throw AgentError(.signatureTooShort, error.message)
        }
        strokes.device = provenance(client: client)
        return strokes
    }

    /// What the record says of UI-drawn strokes.
    static func provenance(client: String?) -> JSONValue {
        ["source": "ui", "description": "drawn in the kiosk UI", "client": .string(client ?? "")]
    }
}
