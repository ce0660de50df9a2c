import Foundation
import Testing

extension ConsentdIntegration {
    /// Where a client written from Protocol/ alone found the documents and the agent disagreeing.
    @Suite struct ProtocolContract {
        /// Negotiating `capabilities: []` grants nothing, and what each capability gates is then refused by type.
        @Test func capabilitiesAreEnforced() throws {
            let agent = try ConsentdProcess("capabilities")
            let bare = try agent.client("bare")
            #expect(bare.next()?.string("method") == "hello")
            let negotiated = bare.call("session.negotiate", ["client": "t", "version": 1, "capabilities": [] as [Any]])
            #expect((negotiated.array("result.capabilities") as? [String]) == [])
            let subscribe = bare.call("events.subscribe", ["topics": ["flow"]])
            #expect(subscribe.int("error.code") == -32000)
            #expect(subscribe.errorType == "CapabilityNotGranted")
            #expect(subscribe.string("error.data.capability") == "events")
            #expect(bare.call("records.get", ["id": "r-x"]).string("error.data.capability") == "records")
            // A flow still runs (no capability gates it), and no event reaches the connection.
            let flow = FlowDriver(bare)
            flow.toSignaturePage()
            let strokes = flow.call("signature.submit", ["strokes": FlowDriver.signature])
            #expect(strokes.string("error.data.capability") == "ui-strokes")
            #expect(flow.call("flow.get").string("result.view.review.page") == "signature", "the refusal changed nothing")
            #expect(bare.call("session.sync").int("result.seq") == 0)
            #expect(bare.events.isEmpty)

            let monitor = try agent.client("monitor")
            #expect(monitor.next()?.string("method") == "hello")
            #expect(monitor.call("session.negotiate", ["client": "m", "version": 1, "capabilities": ["events"]])
                .array("result.capabilities") as? [String] == ["events"])
            #expect(monitor.call("events.subscribe", ["topics": ["flow", "ink"]]).string("error.data.capability") == "ink-stream")
            #expect(monitor.call("events.subscribe", ["topics": ["flow", "pad"]]).int("result.seq") == 0)
            #expect(monitor.call("uploads.status").string("error.data.capability") == "records")
            #expect(bare.call("uploads.status").string("error.data.capability") == "records")

            // The staff data: the upload queue's state (this agent has no destination, so nothing waits).
            let staff = try agent.client("staff")
            #expect(staff.next()?.string("method") == "hello")
            #expect(staff.call("session.negotiate", ["client": "s", "version": 1, "capabilities": ["records"]])
                .array("result.capabilities") as? [String] == ["records"])
            let queue = staff.call("uploads.status")
            #expect(queue.int("result.pending") == 0 && queue.int("result.parked") == 0 && queue.int("result.attempts") == 0)
            #expect(queue[path: "result.halted"] as? Bool == false)
            #expect(staff.call("uploads.status", ["record": "x"]).errorType == "InvalidParams")
            agent.finish()
        }

        /// A staff monitor sees where a flow it does not drive stands, never the participant's eligibility answers.
        @Test func otherConnectionsDoNotSeeEligibilityAnswers() throws {
            let agent = try ConsentdProcess("visibility")
            let ui = try agent.client("ui")
            ui.negotiate()
            #expect(ui.call("events.subscribe", ["topics": ["flow"]]).int("result.seq") == 0)
            let monitor = try agent.client("monitor")
            monitor.negotiate()
            #expect(monitor.call("events.subscribe", ["topics": ["flow"]]).int("result.seq") == 0)

            let flow = FlowDriver(ui)
            let answered = flow.call("eligibility.answer", ["answers": FlowDriver.eligibleAnswers])
            let full = [true, true, false, true] as [Bool]
            #expect(answered.array("result.view.eligibility.answers") as? [Bool] == full, "the driving UI sees its answers")
            #expect(ui.call("session.sync")["result"] != nil)
            let uiChanged = ui.takeEvents("flow.changed").last
            #expect(uiChanged?.array("params.data.view.eligibility.answers") as? [Bool] == full)
            #expect(uiChanged?[path: "params.data.view.eligibility.answersWithheld"] == nil)

            #expect(monitor.call("session.sync")["result"] != nil)
            let seen = monitor.takeEvents("flow.changed")
            #expect(seen.count == 2)
            for event in seen {
                let answers = event.array("params.data.view.eligibility.answers") ?? []
                #expect(answers.count == 4 && answers.allSatisfy { $0 is NSNull }, "\(event)")
                #expect(event[path: "params.data.view.eligibility.answersWithheld"] as? Bool == true)
            }
            #expect(seen.last?.string("params.data.view.eligibility.status") == "eligible", "progress stays visible")
            // flow.get and a later subscription's snapshot from the monitor: withheld too; from the UI: whole.
            #expect(monitor.call("flow.get", ["flow": flow.flow])[path: "result.view.eligibility.answersWithheld"] as? Bool == true)
            let snapshot = monitor.call("events.subscribe", ["topics": ["flow"]])
            let running = (snapshot.array("result.snapshot.flows") as? [JSONObject])?.first
            #expect(running?[path: "view.eligibility.answersWithheld"] as? Bool == true)
            #expect(flow.call("flow.get").array("result.view.eligibility.answers") as? [Bool] == full)
            agent.finish()
        }

        /// A UTF-8 byte-order mark before the first line (Windows tools) is tolerated; a later one is not JSON.
        @Test func byteOrderMarkBeforeTheFirstLine() throws {
            let agent = try ConsentdProcess("bom")
            let raw = try agent.rawClient("bom")
            #expect(raw.next()?.string("method") == "hello")
            let negotiate = #"{"jsonrpc":"2.0","id":"n","method":"session.negotiate","params":{"client":"w","version":1}}"#
            // The mark, then the line (recorded for the schema check), as one stream.
            #expect(raw.send([0xEF, 0xBB, 0xBF]))
            #expect(raw.send(line: negotiate + "\r"))
            #expect(raw.reply(to: "n").int("result.version") == 1)
            #expect(raw.send([0xEF, 0xBB, 0xBF]))
            #expect(raw.send(line: #"{"jsonrpc":"2.0","id":"s","method":"session.sync"}"#))
            #expect(raw.next()?.string("error.data.type") == "ParseError")
            #expect(raw.call("session.sync")["result"] != nil)
            raw.close()
            agent.finish()
        }

        /// Every flag the documents name is in `consentd --help`, and the README's flag list names every one.
        @Test func everyDocumentedFlagIsInHelp() throws {
            let help = try Tools.run(Paths.consentd.path, ["--help"])
            #expect(help.status == 0)
            let configuration = try String(contentsOf: Paths.root.appendingPathComponent("docs/CONFIGURATION.md"), encoding: .utf8)
            let readme = try String(contentsOf: Paths.root.appendingPathComponent("README.md"), encoding: .utf8)
            let flagPattern = try NSRegularExpression(pattern: "`(--[a-z][a-z-]+)")
            func flags(_ text: String) -> Set<String> {
                Set(flagPattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                    Range($0.range(at: 1), in: text).map { String(text[$0]) }
                })
            }
            // The Flag column of the key table.
            let keyRows = configuration.split(separator: "\n").filter { $0.hasPrefix("| `") }.joined(separator: "\n")
            let documented = flags(keyRows)
            #expect(documented.isSuperset(of: ["--inactivity-timeout", "--client-kill-timeout", "--max-line-bytes", "--outbound-queue-messages"]))
            for flag in documented {
                #expect(help.output.contains(flag), "consentd --help lacks \(flag)")
            }
            let readmeFlags = readme.components(separatedBy: "`consentd --help` lists the flags").dropFirst().first.map { String($0.prefix(1500)) } ?? ""
            for flag in documented {
                #expect(readmeFlags.contains(flag), "the README's flag list lacks \(flag)")
            }
        }
    }
}
