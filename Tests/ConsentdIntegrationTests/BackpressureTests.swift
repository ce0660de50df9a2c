import Foundation
import Testing

extension ConsentdIntegration {
    /// A staff monitor that stops reading must not slow the kiosk UI; it gets events.overflow, or is cut off.
    @Suite struct Backpressure {
        /// Makes many flow.changed events (each ~1 KiB) from `ui`, timing the slowest reply.
        private func churn(_ ui: SocatClient, rounds: Int) -> Duration {
            let flow = FlowDriver(ui)
            var slowest = Duration.zero
            for i in 0..<rounds {
                let start = ContinuousClock.now
                flow.call("eligibility.answer", ["answers": i % 2 == 0 ? [true] : [true, true]])
                slowest = max(slowest, ContinuousClock.now - start)
            }
            return slowest
        }

        @Test func laggingClientGetsOverflowAndResyncs() throws {
            let agent = try ConsentdProcess(
                "overflow", arguments: ["--outbound-queue-messages", "20", "--client-kill-timeout", "60"])
            let staff = try agent.client("staff", reading: false)
            staff.send(#"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"staff","version":1}}"#)
            staff.send(#"{"jsonrpc":"2.0","id":2,"method":"events.subscribe","params":{"topics":["flow"]}}"#)
            let ui = try agent.client("ui")
            ui.negotiate()
            usleep(200_000)
            let slowest = churn(ui, rounds: 1500)
            #expect(slowest < .seconds(1), "one stalled client delays nobody (slowest reply \(slowest))")

            staff.startReading()
            var overflow: JSONObject?
            while let message = staff.next(timeout: .seconds(5)) {
                if message.string("method") == "events.overflow" {
                    overflow = message
                    break
                }
            }
            let notice = try #require(overflow)
            #expect((notice.int("params.data.dropped") ?? 0) >= 1)
            #expect(notice.string("params.data.resync") == "flow.get")
            // The client catches up: a barrier still works afterwards.
            staff.send(#"{"jsonrpc":"2.0","id":3,"method":"session.sync"}"#)
            #expect(staff.reply(to: 3)["result"] != nil)
            agent.finish()
        }

        @Test func clientThatStopsReadingIsDisconnected() throws {
            let agent = try ConsentdProcess(
                "killslow", arguments: ["--outbound-queue-messages", "20", "--client-kill-timeout", "1"])
            let staff = try agent.client("staff", reading: false)
            staff.send(#"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"staff","version":1}}"#)
            staff.send(#"{"jsonrpc":"2.0","id":2,"method":"events.subscribe","params":{"topics":["flow"]}}"#)
            let ui = try agent.client("ui")
            ui.negotiate()
            usleep(200_000)
            let slowest = churn(ui, rounds: 1500)
            #expect(slowest < .seconds(1), "slowest reply \(slowest)")
            usleep(2_500_000)
            staff.startReading()
            _ = staff.linesUntilClosed()
            #expect(staff.isClosedByPeer)
            #expect(agent.log.contains("disconnecting a client that stopped reading"))
            // The UI is unaffected.
            #expect(ui.call("session.sync")["result"] != nil)
            agent.finish()
        }
    }
}
