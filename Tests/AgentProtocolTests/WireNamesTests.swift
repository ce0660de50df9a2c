import AgentProtocol
import Foundation
import Testing

/// The wire names in Swift and in Protocol/ are the same contract.
@Suite struct WireNamesTests {
    static let protocolDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Protocol")

    private func json(_ name: String) throws -> RPCValue {
        try RPCValue.parse(Array(Data(contentsOf: Self.protocolDirectory.appendingPathComponent(name))))
    }

    @Test func methodsMatchTheOpenRPCDocument() throws {
        let names = try json("consentd.openrpc.json")["methods"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(Set(names) == Set(Method.allCases.map(\.rawValue)))
        #expect(names.count == Method.allCases.count)
    }

    @Test func eventsMatchTheOpenRPCDocument() throws {
        let names = try json("consentd.openrpc.json")["x-events"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(Set(names) == Set(EventName.allCases.filter { $0 != .hello }.map(\.rawValue)))
    }

    @Test func errorTypesMatchTheRegistry() throws {
        let registry = try json("errors.json").objectValue ?? [:]
        #expect(Set(registry.keys) == Set(RPCErrorType.allCases.map(\.rawValue)))
    }

    /// Every error type of the registry is named in the README's error section (InvalidStrokes and
    /// Overloaded were missing), and every capability in its capability table.
    @Test func readmeNamesEveryErrorTypeAndCapability() throws {
        let readme = try String(contentsOf: Self.protocolDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        let errors = try #require(readme.components(separatedBy: "## 4. Errors").dropFirst().first?
            .components(separatedBy: "## 5.").first)
        for type in RPCErrorType.allCases {
            #expect(errors.contains("`\(type.rawValue)`"), "README section 4 does not name \(type.rawValue)")
        }
        for capability in Capability.allCases {
            #expect(readme.contains("| `\(capability.rawValue)` |"), "README lacks the capability \(capability.rawValue)")
        }
    }
}
