import AgentProtocol
import ConsentCore
import Foundation
import Testing

@testable import ConsentAgent

/// Only the connection that drives a flow acts on it (Protocol/README.md, "Who may act on a flow"): every holder of
/// the kiosk's credential reaches the agent as the same peer, and a second page could otherwise set another name
/// in, or sign, the participant's flow.
@Suite struct FlowDriverTests {
    typealias Driver = HardeningCoreTests.Driver

    @Test func anotherConnectionObservesButCannotAct() async throws {
        let driver = try Driver()
        defer { try? FileManager.default.removeItem(at: driver.state) }
        let flow = try await driver.start(connection: 1)
        let f = RPCValue.string(flow)
        // Observing is open to all.
        let seen = try await driver.call("flow.get", ["flow": f], connection: 2).get()
        #expect(seen["step"] == "eligibility")
        // Acting is not: each of these changes nothing.
        for (method, params) in [
            ("eligibility.answer", ["flow": f, "answers": [true, true, false, true]] as [String: RPCValue]),
            ("flow.decline", ["flow": f]),
            ("flow.cancel", ["flow": f]),
            ("participant.setName", ["flow": f, "given": "Mallory", "family": "X"]),
        ] {
            let refused = try await driver.call(method, params, connection: 2, capabilities: [.events, .inkStream, .uiStrokes])
            guard case .failure(let error) = refused else {
                Issue.record("\(method) from another connection was accepted")
                continue
            }
            #expect(error.type == .flowDrivenElsewhere, "\(method): \(error.type)")
        }
        #expect(await driver.step(flow) == .eligibility)
        // The driver goes on as before.
        _ = try await driver.call("eligibility.answer", ["flow": f, "answers": [true, true, false, true]], connection: 1).get()
        let next = try await driver.call("flow.next", ["flow": f, "step": "eligibility"], connection: 1).get()
        #expect(next["step"] == "keyInformation")
    }

    @Test func whenTheDriverClosesTheNextConnectionThatActsDrives() async throws {
        let driver = try Driver()
        defer { try? FileManager.default.removeItem(at: driver.state) }
        let flow = try await driver.start(connection: 1)
        let f = RPCValue.string(flow)
        await driver.core.connectionClosed(1)
        // A reloaded page (connection 2) takes it over by acting on it...
        _ = try await driver.call("eligibility.answer", ["flow": f, "answers": [true, true, false, true]], connection: 2).get()
        // ...and from then on a third connection may not, nor the first id if it came back.
        let third = try await driver.call("flow.next", ["flow": f, "step": "eligibility"], connection: 3)
        guard case .failure(let error) = third else {
            Issue.record("a third connection acted on the flow")
            return
        }
        #expect(error.type == .flowDrivenElsewhere)
        // The new driver sees the answers again (FlowVisibility follows the driver).
        let own = try await driver.call("flow.get", ["flow": f], connection: 2).get()
        #expect(own["view"]?["eligibility"]?["answers"] == [true, true, false, true])
    }

    @Test func aStaffConnectionMayCancelAnyFlowButNotDriveIt() async throws {
        let driver = try Driver()
        defer { try? FileManager.default.removeItem(at: driver.state) }
        let flow = try await driver.start(connection: 1)
        let f = RPCValue.string(flow)
        let staff: Set<Capability> = [.events, .records]
        let answer = try await driver.call(
            "eligibility.answer", ["flow": f, "answers": [true, true, false, true]], connection: 9, capabilities: staff)
        guard case .failure(let error) = answer else {
            Issue.record("a staff connection drove the flow")
            return
        }
        #expect(error.type == .flowDrivenElsewhere)
        let cancelled = try await driver.call("flow.cancel", ["flow": f], connection: 9, capabilities: staff).get()
        #expect(cancelled["step"] == "cancelled")
    }
}
