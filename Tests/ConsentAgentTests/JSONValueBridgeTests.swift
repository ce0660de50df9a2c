import AgentProtocol
import ConsentCore
import Testing

@testable import ConsentAgent

/// The wire's JSON tree and the domain's are converted case by case, with no JSON text between.
@Suite struct JSONValueBridgeTests {
    static let wire: RPCValue = [
        "resourceType": "Patient", "active": true, "deceased": nil,
        "big": .integer(Int64.max), "small": .integer(Int64.min), "half": .number(0.5), "whole": .number(2.0),
        "tiny": .number(5e-324), "name": [["given": ["Zoë", "李"], "family": "O'Brien \u{1F600}"]],
        "nested": ["deeper": ["deepest": [1, .number(2.5), "three", false, nil]]], "empty": [:], "none": [],
    ]

    @Test func everyCaseCrossesBothWaysUnchanged() {
        let domain = JSONValue(Self.wire)
        #expect(domain["resourceType"] == "Patient")
        #expect(domain["big"] == .integer(Int64.max) && domain["small"] == .integer(Int64.min))
        // A number stays a number and an integer an integer: 2.0 does not become 2 on the way, as a text round trip
        // through Codable would make it.
        #expect(domain["whole"] == .number(2.0) && domain["half"] == .number(0.5) && domain["tiny"] == .number(5e-324))
        #expect(domain["name"]?.arrayValue?.first?["family"] == "O'Brien \u{1F600}")
        #expect(domain["nested"]?["deeper"]?["deepest"] == [1, .number(2.5), "three", false, nil])
        #expect(domain["empty"] == .object([:]) && domain["none"] == .array([]) && domain["deceased"] == .null)
        #expect(RPCValue(domain) == Self.wire)
    }
}
