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

    @Test func readsThePadKeys() throws {
        let file = try load(#"{"pad":"/dev/input/event7","noPads":false,"minimumInkLength":0.2,"minimumSignaturePoints":12}"#)
        #expect(file.pad == "/dev/input/event7")
        #expect(file.noPads == false)
        #expect(file.minimumInkLength == 0.2)
        #expect(file.minimumSignaturePoints == 12)
        #expect(try load(#"{"minimumInkLength":1}"#).minimumInkLength == 1)
        #expect(throws: AgentError.self) { _ = try load(#"{"noPads":"yes"}"#) }
        #expect(throws: AgentError.self) { _ = try load(#"{"minimumInkLength":"short"}"#) }
        #expect(throws: AgentError.self) { _ = try load(#"{"padd":"x"}"#) }
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
