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
        m.frameReceived(request(1, method), maximumLineBytes: 100)
        guard case .reject(_, let error)? = m.nextRequest() else {
            Issue.record("\(method) was not rejected")
            return
        }
        #expect(error.type == .notNegotiated)
        #expect(!m.isBusy)
    }

    @Test func negotiateThenDispatchOneAtATime() {
        var m = machine()
        m.frameReceived(request(1, "session.negotiate", #"{"client":"c","version":1}"#), maximumLineBytes: 1000)
        m.frameReceived(request(2, "flow.start"), maximumLineBytes: 1000)
        m.frameReceived(request(3, "session.sync"), maximumLineBytes: 1000)
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
        guard case .handleLocally(_, .sessionSync)? = m.nextRequest() else {
            Issue.record("sync not local")
            return
        }
    }

    @Test func badLinesAreAnsweredInTheirPlace() {
        var m = machine()
        m.frameReceived(request(1, "rpc.discover"), maximumLineBytes: 1000)
        m.frameReceived(line("{oops"), maximumLineBytes: 1000)
        m.frameReceived(.lineTooLong, maximumLineBytes: 1000)
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
        m.frameReceived(request(1, "no.such"), maximumLineBytes: 1000)
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
        m.frameReceived(request(1, "rpc.discover"), maximumLineBytes: 1000)
        #expect(m.shouldRead)
        m.frameReceived(request(2, "rpc.discover"), maximumLineBytes: 1000)
        #expect(!m.shouldRead)
        _ = m.nextRequest()
        #expect(m.shouldRead)
    }

    @Test func noEventsBeforeNegotiationAndSeqCountsFromOne() {
        var m = machine()
        let r1 = m.eventReceived(AgentEvent(.flowExpired, data: ["flow": "f"]))
        #expect(!r1)
        #expect(m.popOutbound() == nil)
        _ = m.negotiate(["client": "c", "version": 1], sessionID: "s")
        let r2 = m.eventReceived(AgentEvent(.flowExpired, data: ["flow": "f"]))
        #expect(r2)
        let r3 = m.eventReceived(AgentEvent(.flowExpired, data: ["flow": "g"]))
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
            m.frameReceived(request(i + 1, r.0, r.1), maximumLineBytes: 10_000)
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
}
