/// What a client may use, agreed in `session.negotiate`. Raw values are the wire names of Protocol/README.md §5.
///
/// A client that offers no `capabilities` gets all of them (what older clients expect); one that offers a list
/// gets the ones it named that the agent has, and a request needing a capability it was not granted is refused
/// with `CapabilityNotGranted` before anything happens. So a staff monitor that negotiates `["events"]` can be
/// sure it never receives ink, and a kiosk UI that drives a pad can be sure it cannot submit strokes by mistake.
public enum Capability: String, Sendable, Hashable, CaseIterable {
    /// `events.subscribe` (topics `flow` and `pad`); without it the client receives only `events.overflow`
    /// and `agent.stopping`.
    case events = "events"
    /// The `ink` topic of `events.subscribe` (`ink.points`, `ink.strokeEnded`); also needs `events`.
    case inkStream = "ink-stream"
    /// `signature.submit` with `strokes` the UI captured itself.
    case uiStrokes = "ui-strokes"
    /// `records.get`, `uploads.status`, `printer.status` and `staff.answer`: what a staff page does.
    case records = "records"

    /// The capabilities a request needs, in the order they are checked; empty for most methods.
    ///
    /// Only the request's envelope-level facts are read (a param's presence, the topic names), so a request
    /// refused here is refused before its params are checked.
    public static func required(by method: Method, params: [String: RPCValue]) -> [Capability] {
        switch method {
        case .eventsSubscribe:
            if case .array(let topics)? = params["topics"], topics.contains(.string(Topic.ink.rawValue)) {
                return [.events, .inkStream]
            }
            return [.events]
        case .signatureSubmit:
            return params["strokes"] == nil ? [] : [.uiStrokes]
        case .recordsGet, .uploadsStatus, .printerStatus, .staffAnswer:
            return [.records]
        default:
            return []
        }
    }
}

extension Capability {
    /// The members of `session.negotiate`'s params.
    public static let negotiationParams: Set<String> = ["client", "version", "capabilities"]

    /// What a `session.negotiate` asks for: nil for every capability (no `capabilities` member, or `null`, which
    /// `ParamsReader` reads as absent), else the names listed. The one reading of the list: the agent grants from
    /// it and consentweb holds a page to its ceiling with it, so the two can never read the same bytes apart (the
    /// ceiling once passed `"capabilities": null` on as it came, "not a list", and the agent granted everything).
    /// - Throws: `InvalidParams` naming `capabilities` or an element of it when it is neither null nor strings.
    public static func requested(by reader: ParamsReader) throws(RPCErrorObject) -> [String]? {
        guard reader.optionalValue("capabilities") != nil else { return nil }
        return try reader.stringArray("capabilities")
    }
}
