import AgentProtocol
import NIOCore

/// Which page a WebSocket serves, from the endpoint it opened, and so which credential opened it and what it may do.
///
/// Every holder of the kiosk's token used to be the same peer to the agent with every capability, the participant's
/// page included. Now each credential is granted only its page's capabilities, whatever a client asks for in
/// `session.negotiate`: the participant's page never obtains `records`, and the staff page never draws strokes.
public enum PageRole: Sendable, Hashable, CustomStringConvertible {
    /// `/rpc`, opened with the kiosk's token: the consent flow.
    case participant
    /// `/staff/rpc`, opened with the staff token: flows in progress, pads, the upload queue.
    case staff

    /// The WebSocket endpoint of the role.
    public var endpoint: String {
        switch self {
        case .participant: return "/rpc"
        case .staff: return "/staff/rpc"
        }
    }

    /// The role of a WebSocket endpoint, nil for any other path.
    public static func of(endpoint path: String) -> PageRole? {
        switch path {
        case "/rpc": return .participant
        case "/staff/rpc": return .staff
        default: return nil
        }
    }

    /// What the role's credential may negotiate.
    public var ceiling: CapabilityCeiling {
        switch self {
        case .participant: return CapabilityCeiling(allowed: [.events, .inkStream, .uiStrokes])
        case .staff: return CapabilityCeiling(allowed: [.events, .records])
        }
    }

    public var description: String {
        switch self {
        case .participant: return "participant"
        case .staff: return "staff"
        }
    }
}

/// The capabilities one credential may hold, enforced on the lines a page sends: a `session.negotiate` request asks
/// for at most these (those it names among them; all of them when it names none, or sends `null`). Every other line passes
/// unchanged, byte for byte.
///
/// It decides on a line as the agent will read it: `PageLines` frames each message with the agent's own line
/// decoder first, and hands over the value the agent's own parser (`RPCValue.parse`, the wire's strict form) made of
/// exactly those bytes; the request is read with the agent's `RPCRequestParser`. A repeated member is read the same
/// way on both sides (the last one wins), so is blank space. A line that does not parse never gets here.
public struct CapabilityCeiling: Sendable, Equatable {
    public let allowed: [Capability]

    public init(allowed: [Capability]) { self.allowed = allowed }

    /// The line to send the agent in place of `line`, whose parsed value is `value`.
    public func limit(_ line: ByteBuffer, parsed value: RPCValue) -> ByteBuffer {
        guard case .success(let request) = RPCRequestParser.parse(value),
            request.method == Method.sessionNegotiate.rawValue,
            case .object(var envelope) = value, case .object(var params)? = envelope["params"]
        else { return line }
        // Read with the agent's own reading (`Capability.requested`): a list it would refuse is passed on for the
        // agent to refuse with its own error, which grants nothing.
        let wanted: [String]?
        do throws(RPCErrorObject) {
            wanted = try Capability.requested(by: ParamsReader(params, allowed: Capability.negotiationParams))
        } catch {
            return line
        }
        // Names outside the ceiling go, known or not: the agent would ignore unknown ones anyway.
        let names = wanted.map { $0.filter { Capability(rawValue: $0).map(allowed.contains) ?? false } }
        params["capabilities"] = .array((names ?? allowed.map(\.rawValue)).map(RPCValue.string))
        envelope["params"] = .object(params)
        var out = ByteBuffer()
        RPCValue.object(envelope).write(to: &out)
        return out
    }
}
