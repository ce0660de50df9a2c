import AgentProtocol

/// `events.subscribe {topics}`.
struct EventsSubscribeParams {
    var topics: Set<Topic> = []

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["topics"])
        for (i, name) in try reader.stringArray("topics").enumerated() {
            guard let topic = Topic(rawValue: name) else {
                throw RPCErrorObject.invalidParams(field: "topics[\(i)]", "unknown topic; topics are flow, ink, pad")
            }
            topics.insert(topic)
        }
    }
}

extension EventContext {
    /// Subscribes the connection; the reply is a snapshot of the running flows and the pads.
    func subscribe(_ params: EventsSubscribeParams, _ connection: ConnectionHandle) async throws -> DispatchOutcome {
        let padList = await pads.pads()
        // No suspension between here and the reply, and the outbox subscribes the connection in the same order:
        // every event decided after the snapshot reaches this connection after the reply, none before it.
        outbox.subscribe(connection, topics: params.topics)
        let running = flows.filter { !$0.value.session.step.isFinished }.sorted { $0.key < $1.key }
        return .subscribed(snapshot: [
            "topics": .array(params.topics.map(\.rawValue).sorted().map(RPCValue.string)),
            "flows": .array(running.map { flowValue($0.key, $0.value) }),
            "pads": try RPCValue(encoding: padList),
        ])
    }
}
