import ConsentSigning
import Foundation
import Testing

/// The record of an earlier version (Tests/Fixtures/golden-record) still verifies: records on kiosks survive an
/// agent upgrade only if every later `RecordVerifier` accepts the records earlier agents wrote.
@Suite struct GoldenRecordTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden-record")

    @Test func theGoldenRecordVerifiesAgainstItsKiosksPinnedKey() throws {
        let records = Self.folder.appendingPathComponent("records")
        let ids = try FileManager.default.contentsOfDirectory(atPath: records.path)
        #expect(ids.count == 1)
        let id = try #require(ids.first)
        let pem = try String(contentsOf: Self.folder.appendingPathComponent("kiosk.pub"), encoding: .utf8)
        let key = try #require(KeyPEM.publicKey(fromText: pem))
        let report = try RecordVerifier.verify(directory: records.appendingPathComponent(id), pinnedKey: key)
        #expect(report.isIntact, "\(report.findings)")
        #expect(report.keyWasPinned)
        #expect(report.manifest?.recordID == id)
        #expect(report.manifest?.files.map(\.name).sorted() == [
            "bundle.json", "consent.json", "consent.pdf", "contract.json", "patient.json", "provenance.json",
            "signature.json",
        ])
    }
}
