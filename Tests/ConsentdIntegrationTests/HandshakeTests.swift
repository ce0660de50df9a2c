import Testing

extension ConsentdIntegration {
    @Suite struct Handshake {
        @Test func helloThenOnlyNegotiateAndDiscoverUntilNegotiated() throws {
            let agent = try ConsentdProcess("handshake")
            let ui = try agent.client()
            let hello = try #require(ui.next())
            #expect(hello.string("method") == "hello")
            #expect(hello.string("params.protocol") == "consent-kiosk-agent")
            #expect(hello.int("params.limits.maxLineBytes") == 1_048_576)
            #expect(hello[path: "params.seq"] == nil)

            #expect(ui.call("study.get").errorType == "NotNegotiated")
            #expect(ui.call("events.subscribe", ["topics": ["flow"]]).errorType == "NotNegotiated")
            let discover = ui.call("rpc.discover")
            let names = (discover.array("result.methods") as? [JSONObject])?.compactMap { $0["name"] as? String } ?? []
            #expect(names.contains("flow.complete") && names.contains("session.sync") && names.contains("signer.setName") && names.contains("study.asset") && names.contains("uploads.status") && names.contains("copy.print") && names.contains("comprehension.answer") && names.contains("staff.unlock") && names.contains("speech.get") && names.contains("optional.answer") && names.contains("staff.call") && names.contains("staff.answer") && names.contains("copy.printBlank") && names.contains("flow.pause") && names.count == 40)

            let wrong = ui.call("session.negotiate", ["client": "t", "version": 2])
            #expect(wrong.errorType == "UnsupportedVersion")
            #expect(wrong.int("error.code") == -32000)
            let missing = ui.call("session.negotiate", ["version": 1])
            #expect(missing.int("error.code") == -32602)
            #expect(missing.string("error.data.field") == "client")
            let ok = ui.call("session.negotiate", ["client": "t", "version": 1])
            #expect(ok.int("result.version") == 1)
            #expect(ok.string("result.session") != nil)
            #expect(ui.call("session.negotiate", ["client": "t", "version": 1]).errorType == "AlreadyNegotiated")
            #expect(ui.call("study.get").string("result.study.id") != nil)
            // No event was sent before negotiation.
            #expect(ui.events.isEmpty)
            agent.finish()
        }

        @Test func subscribeReturnsSnapshotAndSyncIsABarrier() throws {
            let agent = try ConsentdProcess("subscribe")
            let staff = try agent.client("staff")
            staff.negotiate()
            let ui = try agent.client("ui")
            ui.negotiate()
            let flow = FlowDriver(ui)
            let subscribed = staff.call("events.subscribe", ["topics": ["flow", "pad"]])
            #expect(subscribed.int("result.seq") == 0)
            let flows = subscribed.array("result.snapshot.flows") as? [JSONObject]
            #expect(flows?.first?["flow"] as? String == flow.flow)
            flow.call("eligibility.answer", ["answers": [true]])
            let sync = staff.call("session.sync")
            #expect(sync.int("result.seq") == 1)
            let changed = staff.takeEvents("flow.changed")
            #expect(changed.count == 1)
            #expect(changed.first?.int("params.seq") == 1)
            #expect(changed.first?.string("params.data.flow") == flow.flow)
            #expect(ui.events.isEmpty, "the UI did not subscribe")
            agent.finish()
        }
    }
}
