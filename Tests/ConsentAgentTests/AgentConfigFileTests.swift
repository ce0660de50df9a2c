import Foundation
import Testing

@testable import ConsentAgent

@Suite struct AgentConfigFileTests {
    private func load(_ json: String) throws -> AgentConfigFile {
        let url = try TestSupport.temporaryDirectory().appendingPathComponent("consentd.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return try AgentConfigFile.load(from: url)
    }

    @Test func readsKnownKeys() throws {
        let file = try load(#"{"socket":"/run/c.sock","inactivityTimeoutSeconds":30,"maxLineBytes":4096,"studies":["a"]}"#)
        #expect(file.socket == "/run/c.sock")
        #expect(file.inactivityTimeoutSeconds == 30)
        #expect(file.maxLineBytes == 4096)
        #expect(file.studies == ["a"])
    }

    @Test func refusesUnknownKeysByName() throws {
        do {
            _ = try load(#"{"sockett":"/x"}"#)
            Issue.record("accepted a typo")
        } catch let error as AgentError {
            #expect(error.message.contains("\"sockett\""))
        }
    }

    @Test func refusesWrongTypes() {
        #expect(throws: AgentError.self) { _ = try load(#"{"maxLineBytes":"big"}"#) }
        #expect(throws: AgentError.self) { _ = try load(#"[1]"#) }
    }
}
