import AgentProtocol
import Foundation
import Testing

@testable import ConsentAgent

@Suite struct DiscoverDocumentTests {
    /// The copy compiled into consentd is the published document, so an installed binary serves it.
    @Test func embeddedDocumentEqualsProtocolFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/consentd.openrpc.json")
        let published = try RPCValue.parse(Array(Data(contentsOf: file)))
        #expect(DiscoverDocument.load() == published)
        #expect(published["methods"]?.arrayValue?.count == Method.allCases.count)
    }
}
