import AgentProtocol
import NIOCore
import Testing

@testable import ConsentAgent

@Suite struct ConnectionStateMachineTests {
    private func machine(inFlight: Int = 16) -> ConnectionStateMachine {
        ConnectionStateMachine(limits: .init(maximumInFlight: inFlight, queue: .init(maximumMessages: 100, maximumBytes: 1 << 20)))
    }

    private func line(_ s: String) -> JSONLineFrameDecoder.Frame { .line(ByteBuffer(string: s)) }

    private func request(_ id: Int, _ method: String, _ params: String = "{}") -> JSONLineFrameDecoder.Frame {
        line(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
    }

    @Test(arguments: ["study.get", "flow.start", "events.subscribe", "session.sync", "pads.list"])
    func onlyNegotiateAndDiscoverBeforeNegotiation(_ method: String) {
        var m = machine()
        m.enqueueFrame(request(1, method), maximumLineBytes: 100)
        guard case .reject(_, let error)? = m.nextRequest() else {
            Issue.record("\(method) was not rejected")
            return
        }
        #expect(error.type == .notNegotiated)
        #expect(!m.isBusy)
    }

    @Test func negotiateThenDispatchOneAtATime() {
        var m = machine()
        m.enqueueFrame(request(1, "session.negotiate", #"{"client":"c","version":1}"#), maximumLineBytes: 1000)
        m.enqueueFrame(request(2, "flow.start"), maximumLineBytes: 1000)
        m.enqueueFrame(request(3, "session.sync"), maximumLineBytes: 1000)
        guard case .handleLocally(let negotiate, .sessionNegotiate)? = m.nextRequest() else {
            Issue.record("negotiate not local")
            return
        }
        #expect(m.nextRequest() == nil, "busy until the reply")
        #expect((try? m.negotiate(negotiate.params, sessionID: "s").get()) != nil)
        m.requestFinished()
        guard case .dispatch(_, .flowStart)? = m.nextRequest() else {
            Issue.record("flow.start not dispatched")
            return
        }
        #expect(m.nextRequest() == nil, "session.sync waits behind flow.start")
        m.requestFinished()
        // session.sync goes through the core: its answer then follows every event published before it.
        guard case .dispatch(_, .sessionSync)? = m.nextRequest() else {
            Issue.record("sync not handed to the core")
            return
        }
    }

    @Test func badLinesAreAnsweredInTheirPlace() {
        var m = machine()
        m.enqueueFrame(request(1, "rpc.discover"), maximumLineBytes: 1000)
        m.enqueueFrame(line("{oops"), maximumLineBytes: 1000)
        m.enqueueFrame(.lineTooLong, maximumLineBytes: 1000)
        guard case .handleLocally? = m.nextRequest() else { Issue.record("discover"); return }
        #expect(m.nextRequest() == nil)
        m.requestFinished()
        guard case .fail(let parse)? = m.nextRequest() else { Issue.record("parse error"); return }
        #expect(parse.error.type == .parseError)
        guard case .fail(let long)? = m.nextRequest() else { Issue.record("too long"); return }
        #expect(long.error.type == .lineTooLong)
        #expect(long.id == nil)
    }

    @Test func unknownMethodAndVersions() {
        var m = machine()
        m.enqueueFrame(request(1, "no.such"), maximumLineBytes: 1000)
        guard case .reject(_, let error)? = m.nextRequest() else { Issue.record("unknown"); return }
        #expect(error.code == -32601)
        guard case .failure(let unsupported) = m.negotiate(["client": "c", "version": 9], sessionID: "s") else {
            Issue.record("version 9 accepted"); return
        }
        #expect(unsupported.type == .unsupportedVersion)
        #expect(!m.isNegotiated)
        guard case .failure(let unknown) = m.negotiate(["client": "c", "version": 1, "x": 1], sessionID: "s") else {
            Issue.record("unknown param accepted"); return
        }
        #expect(unknown.details["field"] == "x")
    }

    @Test func readingPausesAtTheInFlightCap() {
        var m = machine(inFlight: 2)
        m.enqueueFrame(request(1, "rpc.discover"), maximumLineBytes: 1000)
        #expect(m.shouldRead)
        m.enqueueFrame(request(2, "rpc.discover"), maximumLineBytes: 1000)
        #expect(!m.shouldRead)
        _ = m.nextRequest()
        #expect(m.shouldRead)
    }

    @Test func noEventsBeforeNegotiationAndSeqCountsFromOne() {
        var m = machine()
        let r1 = !m.eventReceived(AgentEvent(.flowExpired, data: ["flow": "f"])).isEmpty
        #expect(!r1)
        #expect(m.popOutbound() == nil)
        _ = m.negotiate(["client": "c", "version": 1], sessionID: "s")
        let r2 = !m.eventReceived(AgentEvent(.flowExpired, data: ["flow": "f"])).isEmpty
        #expect(r2)
        let r3 = !m.eventReceived(AgentEvent(.flowExpired, data: ["flow": "g"])).isEmpty
        #expect(r3)
        #expect(m.lastSeq == 2)
        let first = m.popOutbound().map { String(buffer: $0) } ?? ""
        #expect(first.contains(#""seq":1"#))
    }

    /// Negotiates with `capabilities` and returns the action for each later request.
    private func actions(granting capabilities: String, _ requests: [(String, String)]) -> [ConnectionStateMachine.RequestAction?] {
        var m = machine()
        let params = #"{"client":"c","version":1,"capabilities":\#(capabilities)}"#
        guard case .success(let granted) = m.negotiate(
            (try? RPCValue.parse(Array(params.utf8)))?.objectValue ?? [:], sessionID: "s")
        else { Issue.record("negotiation failed"); return [] }
        #expect(granted.objectValue?["capabilities"] != nil)
        return requests.enumerated().map { i, r in
            m.enqueueFrame(request(i + 1, r.0, r.1), maximumLineBytes: 10_000)
            let action = m.nextRequest()
            m.requestFinished()
            return action
        }
    }

    private func refusedCapability(_ action: ConnectionStateMachine.RequestAction?) -> String? {
        guard case .reject(_, let error)? = action, error.type == .capabilityNotGranted else { return nil }
        #expect(error.code == -32000)
        guard case .string(let name)? = error.details["capability"] else { return nil }
        return name
    }

    @Test func noCapabilitiesRefusesWhatTheyGate() {
        let gated = actions(granting: "[]", [
            ("events.subscribe", #"{"topics":["flow"]}"#),
            ("signature.submit", #"{"flow":"f","strokes":{"strokes":[]}}"#),
            ("records.get", #"{"id":"r"}"#),
            ("signature.submit", #"{"flow":"f"}"#),
            ("flow.start", "{}"),
        ])
        #expect(gated.map(refusedCapability) == ["events", "ui-strokes", "records", nil, nil])
    }

    @Test func eventsWithoutInkStreamRefusesOnlyTheInkTopic() {
        let outcome = actions(granting: #"["events","unknown-thing"]"#, [
            ("events.subscribe", #"{"topics":["flow","pad"]}"#),
            ("events.subscribe", #"{"topics":["flow","ink"]}"#),
        ])
        #expect(outcome.map(refusedCapability) == [nil, "ink-stream"])
        guard case .dispatch(_, .eventsSubscribe)? = outcome.first ?? nil else {
            Issue.record("subscribe to flow was not dispatched"); return
        }
    }

    @Test func noCapabilityListGrantsEverything() {
        var m = machine()
        guard case .success(let result) = m.negotiate(["client": "c", "version": 1], sessionID: "s") else {
            Issue.record("negotiation failed"); return
        }
        #expect(result.objectValue?["capabilities"] == .array(Capability.allCases.map { .string($0.rawValue) }))
        #expect(m.granted == Set(Capability.allCases))
    }

    // MARK: The actions the handler carries out: the handler and the fuzz harness share them.

    private func lines(_ m: inout ConnectionStateMachine) -> [String] {
        var out: [String] = []
        while let line = m.popOutbound() { out.append(String(buffer: line)) }
        return out
    }

    /// The request handed to the core among `actions` (at most one, the last taken).
    private func dispatched(_ actions: [ConnectionStateMachine.Action]) -> (RPCRequest, Method)? {
        for case .dispatch(let request, let method) in actions { return (request, method) }
        return nil
    }

    private func negotiated(_ actions: [ConnectionStateMachine.Action]) -> ConnectionStateMachine.Action? {
        actions.first { if case .negotiated = $0 { true } else { false } }
    }

    /// With no event on its way to the connection (`ConnectionHandle.hasEventsInFlight` false), every event published
    /// to it before the request was read is queued already, so `session.sync` is answered on the loop, in its place,
    /// with the last queued seq, and its params checked as the core checks them; only the work of the core goes out.
    @Test func sessionSyncIsAnsweredHereWhenNoEventIsOnItsWay() {
        var m = machine()
        m.enqueueFrame(request(1, "session.negotiate", #"{"client":"kiosk","version":1}"#), maximumLineBytes: 1000)
        m.enqueueFrame(request(2, "session.sync"), maximumLineBytes: 1000)
        m.enqueueFrame(request(3, "session.sync", #"{"flow":"f-1"}"#), maximumLineBytes: 1000)
        m.enqueueFrame(request(4, "flow.start"), maximumLineBytes: 1000)
        m.enqueueFrame(request(5, "session.sync"), maximumLineBytes: 1000)
        let taken = m.takeRequests(eventsInFlight: false)
        #expect(negotiated(taken) == .negotiated(client: "kiosk", capabilities: Set(Capability.allCases)))
        guard case (let start, .flowStart)? = dispatched(taken) else {
            Issue.record("the syncs before flow.start were not answered here")
            return
        }
        #expect(dispatched(m.requestCompleted(start.id, .result(["flow": "f-1"]), eventsInFlight: false)) == nil)
        let out = lines(&m)
        #expect(out.count == 5)
        #expect(out[1] == #"{"id":2,"jsonrpc":"2.0","result":{"seq":0}}"# + "\n")
        #expect(out[2].contains(#""id":3"#) && out[2].contains(#""type":"InvalidParams""#) && out[2].contains(#""field":"flow""#))
        #expect(out[3].contains(#""id":4"#))
        #expect(out[4] == #"{"id":5,"jsonrpc":"2.0","result":{"seq":0}}"# + "\n")
    }

    /// While an event is on its way, `session.sync` goes through the core, whose reply follows the events it sent.
    @Test func sessionSyncGoesThroughTheCoreWhileAnEventIsOnItsWay() {
        var m = machine()
        m.enqueueFrame(request(1, "session.negotiate", #"{"client":"kiosk","version":1}"#), maximumLineBytes: 1000)
        m.enqueueFrame(request(2, "session.sync"), maximumLineBytes: 1000)
        let taken = m.takeRequests(eventsInFlight: true)
        #expect(negotiated(taken) == .negotiated(client: "kiosk", capabilities: Set(Capability.allCases)))
        guard case (let sync, .sessionSync)? = dispatched(taken) else {
            Issue.record("session.sync answered although an event was on its way")
            return
        }
        _ = m.requestCompleted(sync.id, .synced)
        #expect(lines(&m).last == #"{"id":2,"jsonrpc":"2.0","result":{"seq":0}}"# + "\n")
    }

    @Test func helloOnceThenLocalMethodsAnsweredAndOnlyTheCoreWorkReturned() {
        var m = ConnectionStateMachine(
            limits: .init(maximumInFlight: 16, queue: .init(maximumMessages: 100, maximumBytes: 1 << 20)),
            sessionID: "s-7", discoverDocument: ["openrpc": "1.3.2"])
        #expect(m.greet(hello: ["protocol": "p"]) == [.greeted, .flush])
        #expect(m.greet(hello: ["protocol": "p"]) == [], "channelActive after handlerAdded greets once")
        m.enqueueFrame(request(1, "rpc.discover"), maximumLineBytes: 1000)
        m.enqueueFrame(request(2, "session.negotiate", #"{"client":"kiosk","version":1}"#), maximumLineBytes: 1000)
        m.enqueueFrame(request(3, "session.sync"), maximumLineBytes: 1000)
        m.enqueueFrame(line("{oops"), maximumLineBytes: 1000)
        m.enqueueFrame(request(4, "flow.start"), maximumLineBytes: 1000)
        let taken = m.takeRequests(eventsInFlight: true)
        #expect(negotiated(taken) == .negotiated(client: "kiosk", capabilities: Set(Capability.allCases)))
        guard case (let sync, .sessionSync)? = dispatched(taken) else {
            Issue.record("session.sync not handed to the core (the barrier)")
            return
        }
        #expect(dispatched(m.takeRequests(eventsInFlight: true)) == nil, "busy with the core")
        guard case (let start, .flowStart)? = dispatched(m.requestCompleted(sync.id, .synced)) else {
            Issue.record("flow.start not handed to the core")
            return
        }
        #expect(dispatched(m.takeRequests(eventsInFlight: true)) == nil, "busy with the core")
        #expect(dispatched(m.requestCompleted(start.id, .result(["flow": "f-1"]))) == nil)
        let out = lines(&m)
        #expect(out.count == 6)
        #expect(out[0].contains(#""method":"hello""#))
        #expect(out[1].contains(#""id":1"#) && out[1].contains(#""openrpc":"1.3.2""#))
        #expect(out[2].contains(#""id":2"#) && out[2].contains(#""session":"s-7""#))
        #expect(out[3].contains(#""id":3"#) && out[3].contains(#""seq":0"#))
        #expect(out[4].contains(#""id":null"#) && out[4].contains("ParseError"))
        #expect(out[5].contains(#""id":4"#) && out[5].contains(#""flow":"f-1""#))
    }

    @Test func theGoodbyeWaitsForTheCoresReplyThenTheConnectionClosesWhenFlushed() {
        var m = machine()
        _ = m.negotiate(["client": "c", "version": 1], sessionID: "s")
        m.enqueueFrame(request(1, "flow.complete", #"{"flow":"f"}"#), maximumLineBytes: 1000)
        m.enqueueFrame(request(2, "flow.get", #"{"flow":"f"}"#), maximumLineBytes: 1000)
        guard case (let complete, .flowComplete)? = dispatched(m.takeRequests(eventsInFlight: true)) else {
            Issue.record("flow.complete not handed to the core")
            return
        }
        let stop = m.stopRequested(unfinishedRecords: 0)
        #expect(!stop.contains(.saidGoodbye), "the record's reply comes first")
        #expect(dispatched(stop) == nil)
        #expect(m.stopRequested(unfinishedRecords: 0) == [], "one stop")
        let completed = m.requestCompleted(complete.id, .result(["record": "r"]))
        #expect(dispatched(completed) == nil, "flow.get is refused, not handed on")
        #expect(completed.suffix(2) == [.saidGoodbye, .flush])
        #expect(m.closeIfDone() == [], "not before the goodbye is written")
        let out = lines(&m)
        #expect(out.count == 3)
        #expect(out[0].contains(#""record":"r""#))
        #expect(out[1].contains(#""id":2"#) && out[1].contains("ShuttingDown"))
        #expect(out[2].contains(#""method":"agent.stopping""#) && out[2].contains(#""unfinishedRecords":0"#))
        #expect(m.closeIfDone() == [.closeAfterFlush])
        #expect(m.closeIfDone() == [], "once")
    }

    /// FuzzConnection's finding (Fuzz/corpus/FuzzConnection/finding-event-after-goodbye): while the client lagged,
    /// an event the hub published after the goodbye was queued behind it, so `agent.stopping` was not the last line.
    @Test func nothingFollowsTheGoodbyeNotAnEventNorALateReply() {
        var m = machine()
        _ = m.negotiate(["client": "c", "version": 1], sessionID: "s")
        m.enqueueFrame(request(1, "flow.complete", #"{"flow":"f"}"#), maximumLineBytes: 1000)
        guard case (let complete, .flowComplete)? = dispatched(m.takeRequests(eventsInFlight: true)) else {
            Issue.record("flow.complete not handed to the core")
            return
        }
        #expect(m.eventReceived(AgentEvent(.flowChanged, data: ["flow": "f"])) == [.flush], "events before the goodbye are sent")
        // The shutdown bound ran out with the record unfinished: the goodbye does not wait for its reply.
        #expect(m.stopRequested(unfinishedRecords: 1) == [.resumeReading, .saidGoodbye, .flush])
        #expect(m.eventReceived(AgentEvent(.padRemoved, data: ["pad": "p"])) == [], "an event after the goodbye")
        _ = m.requestCompleted(complete.id, .result(["record": "r"]))
        #expect(!m.isBusy)
        #expect(dispatched(m.frameReceived(request(2, "flow.get", #"{"flow":"f"}"#), maximumLineBytes: 1000)) == nil)
        #expect(!m.shouldRead)
        let out = lines(&m)
        #expect(out.count == 2)
        #expect(out[0].contains(#""method":"flow.changed""#))
        #expect(out[1].contains(#""method":"agent.stopping""#) && out[1].contains(#""unfinishedRecords":1"#))
        #expect(m.closeIfDone() == [.closeAfterFlush])
    }

    @Test func nothingFollowsTheNegotiationDeadlinesLine() {
        var m = machine()
        #expect(m.negotiationTimedOut(seconds: 10) == [.notNegotiatedInTime(seconds: 10), .flush])
        #expect(!m.shouldRead)
        m.enqueueFrame(request(1, "rpc.discover"), maximumLineBytes: 1000)
        #expect(m.takeRequests(eventsInFlight: true) == [.resumeReading], "nothing answered")
        let out = lines(&m)
        #expect(out.count == 1 && out[0].contains("NotNegotiated"))
    }

    @Test func theNegotiationDeadlineClosesOnlyAClientThatDidNotNegotiate() {
        var waiting = machine()
        #expect(waiting.negotiationTimedOut(seconds: 10) == [.notNegotiatedInTime(seconds: 10), .flush])
        #expect(waiting.negotiationTimedOut(seconds: 10) == [])
        let out = lines(&waiting)
        #expect(out.count == 1 && out[0].contains(#""id":null"#) && out[0].contains("NotNegotiated"))
        #expect(waiting.closeIfDone() == [.closeAfterFlush])

        var negotiated = machine()
        _ = negotiated.negotiate(["client": "c", "version": 1], sessionID: "s")
        #expect(negotiated.negotiationTimedOut(seconds: 10) == [])
        #expect(negotiated.closeIfDone() == [])
    }

    @Test func aClientThatSentEverythingIsClosedOnceAnswered() {
        var m = machine()
        _ = m.negotiate(["client": "c", "version": 1], sessionID: "s")
        m.enqueueFrame(request(1, "flow.start"), maximumLineBytes: 1000)
        guard case (let start, _)? = dispatched(m.takeRequests(eventsInFlight: true)) else { Issue.record("no dispatch"); return }
        #expect(m.inputClosed() == [.flush])
        #expect(m.closeIfDone() == [], "a request is with the core")
        _ = m.requestCompleted(start.id, .error(RPCErrorObject(code: RPCErrorCode.domainError, type: .noRecordMaker, message: "m")))
        #expect(m.closeIfDone() == [], "its reply is not written yet")
        #expect(lines(&m).count == 1)
        #expect(m.closeIfDone() == [.close])
    }

    // MARK: Replies the client has not taken

    private func negotiatedMachine(pipelining count: Int) -> ConnectionStateMachine {
        var m = machine()
        _ = m.negotiate(["client": "c", "version": 1], sessionID: "s")
        for id in 1...count {
            m.enqueueFrame(request(id, "speech.get", #"{"flow":"f","part":"screen"}"#), maximumLineBytes: 1000)
        }
        return m
    }

    /// A `speech.get` reply's size (~0.85 MB), past the socket's high water mark.
    private let audio = DispatchOutcome.result(["data": .string(String(repeating: "A", count: 850_000))])

    /// 16 pipelined `speech.get` of a client that never reads were all answered into its queue (the in-flight cap
    /// counts requests, not bytes): the next request is now taken only once the replies before it have gone to the
    /// socket and the socket takes more.
    @Test func noRequestIsTakenWhileTheRepliesBeforeItWaitForTheClient() {
        var m = negotiatedMachine(pipelining: 3)
        guard case (let first, .speechGet)? = dispatched(m.takeRequests(eventsInFlight: true)) else {
            Issue.record("speech.get not handed to the core")
            return
        }
        #expect(dispatched(m.requestCompleted(first.id, audio)) == nil, "its 850 KB reply is still queued")
        #expect(m.isBackedUp && m.pending.count == 2)
        // The shell writes it (the socket holds it, past its high water mark) and says so.
        #expect(m.popOutbound() != nil)
        #expect(m.flushed(isWritable: false) == [], "the socket takes no more")
        #expect(m.writabilityChanged(isWritable: false) == [.resumeReading])
        #expect(m.shouldRead, "reading waits for the in-flight cap and the channel's writability, as before")
        #expect(dispatched(m.frameReceived(request(4, "rpc.discover"), maximumLineBytes: 1000)) == nil)
        #expect(m.popOutbound() == nil, "nor is a local method answered")
        // The client reads: the socket takes bytes again, and the flush that follows takes the next request.
        #expect(m.writabilityChanged(isWritable: true) == [.flush, .resumeReading])
        guard case (let second, .speechGet)? = dispatched(m.flushed(isWritable: true)) else {
            Issue.record("the next speech.get waited on")
            return
        }
        #expect(second.id == .integer(2))
        #expect(dispatched(m.requestCompleted(second.id, audio)) == nil)
        #expect(m.popOutbound() != nil)
        guard case (let third, .speechGet)? = dispatched(m.flushed(isWritable: true)) else {
            Issue.record("the third speech.get waited on a socket that takes bytes")
            return
        }
        #expect(third.id == .integer(3))
    }

    /// Replies smaller than the socket's high water mark, to a client that reads, pipeline as before: the next
    /// request goes to the core as the reply is queued.
    @Test func smallRepliesStillPipeline() {
        var m = negotiatedMachine(pipelining: 2)
        guard case (let first, _)? = dispatched(m.takeRequests(eventsInFlight: true)) else { Issue.record("no dispatch"); return }
        guard case (let second, _)? = dispatched(m.requestCompleted(first.id, .result(["ok": true]))) else {
            Issue.record("the second request waited behind a small reply")
            return
        }
        #expect(second.id == .integer(2))
    }

    /// A stopping agent answers every line left `ShuttingDown` (short) even to a client that does not read, then
    /// says goodbye.
    @Test func aStoppingAgentAnswersTheLinesLeftToAClientThatDoesNotRead() {
        var m = negotiatedMachine(pipelining: 3)
        guard case (let first, _)? = dispatched(m.takeRequests(eventsInFlight: true)) else { Issue.record("no dispatch"); return }
        _ = m.requestCompleted(first.id, audio)
        #expect(m.flushed(isWritable: false) == [])
        let stop = m.stopRequested(unfinishedRecords: 0)
        #expect(stop.suffix(2) == [.saidGoodbye, .flush])
        let out = lines(&m)
        #expect(out.count == 4)
        #expect(out[1].contains(#""id":2"#) && out[1].contains("ShuttingDown"))
        #expect(out[2].contains(#""id":3"#) && out[2].contains("ShuttingDown"))
        #expect(out[3].contains("agent.stopping"))
    }
}
