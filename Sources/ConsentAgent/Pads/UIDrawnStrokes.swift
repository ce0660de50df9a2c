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
        guard var strokes = Self.strokes(from: members) else {
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

    /// The stroke format read from the wire value's members, as `SignatureStrokes`' `Decodable` reads the same
    /// JSON: `strokes` an array of strokes, each an array of points `[x, y, t]` or `[x, y, t, p]` (p may be null);
    /// `widthMM` and `heightMM` numbers, null or absent. Nil when the shape does not match. Read in place: through
    /// JSON text and `JSONDecoder` it was most of `signature.submit`'s cost.
    static func strokes(from members: [String: RPCValue]) -> SignatureStrokes? {
        func number(_ value: RPCValue) -> Double? {
            switch value {
            case .integer(let i): return Double(i)
            case .number(let d): return d
            default: return nil
            }
        }
        func optionalNumber(_ key: String) -> Double?? {
            guard let value = members[key], value != .null else { return .some(nil) }
            return number(value).map { .some($0) }
        }
        guard case .array(let rawStrokes)? = members["strokes"], let widthMM = optionalNumber("widthMM"),
            let heightMM = optionalNumber("heightMM")
        else { return nil }
        var strokes: [[StrokePoint]] = []
        strokes.reserveCapacity(rawStrokes.count)
        for rawStroke in rawStrokes {
            guard case .array(let rawPoints) = rawStroke else { return nil }
            var points: [StrokePoint] = []
            points.reserveCapacity(rawPoints.count)
            for rawPoint in rawPoints {
                guard case .array(let v) = rawPoint, v.count == 3 || v.count == 4,
                    let x = number(v[0]), let y = number(v[1]), let t = number(v[2])
                else { return nil }
                var p: Double?
                if v.count == 4, v[3] != .null {
                    guard let pressure = number(v[3]) else { return nil }
                    p = pressure
                }
                points.append(StrokePoint(x: x, y: y, t: t, p: p))
            }
            strokes.append(points)
        }
        return SignatureStrokes(strokes: strokes, widthMM: widthMM, heightMM: heightMM)
    }

    /// What the record says of UI-drawn strokes.
    static func provenance(client: String?) -> JSONValue {
        ["source": "ui", "description": "drawn in the kiosk UI", "client": .string(client ?? "")]
    }
}
