import ConsentSigning
import Foundation
import Testing

@testable import ConsentAgent

/// Who withdraws or replaces whom: read from each manifest once, and always as the records directory lists now.
@Suite struct RecordLinkIndexTests {
    private static func id(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    @Test func linksFollowTheListingAndEachManifestIsReadOnce() {
        let declared: [String: RecordLinkIndex.Declared] = [
            Self.id(2): .init(withdraws: Self.id(1)),
            Self.id(3): .init(previousRecord: Self.id(1)),
            Self.id(4): .init(previousRecord: Self.id(1)),
            Self.id(5): .init(withdraws: Self.id(1)),
        ]
        var reads: [String] = []
        func read(_ id: String) -> RecordLinkIndex.Declared {
            reads.append(id)
            return declared[id] ?? .init()
        }
        var index = RecordLinkIndex()
        index.update(ids: [Self.id(1), Self.id(4), Self.id(3)], declaredLinks: read)
        #expect(index.withdrawal(of: Self.id(1)) == nil)
        #expect(index.replacements(of: Self.id(1)) == [Self.id(3), Self.id(4)])

        index.update(ids: [Self.id(1), Self.id(5), Self.id(4), Self.id(3), Self.id(2)], declaredLinks: read)
        #expect(index.withdrawal(of: Self.id(1)) == Self.id(2))  // two withdrawals (not one the agent allows): the first
        #expect(reads.sorted() == (1...5).map(Self.id))  // once each

        // Records gone (removed by hand) take their links with them.
        index.update(ids: [Self.id(1), Self.id(5), Self.id(3)], declaredLinks: read)
        #expect(index.withdrawal(of: Self.id(1)) == Self.id(5))
        #expect(index.replacements(of: Self.id(1)) == [Self.id(3)])
        index.update(ids: [], declaredLinks: read)
        #expect(index.withdrawal(of: Self.id(1)) == nil && index.replacements(of: Self.id(1)).isEmpty)
        #expect(reads.count == 5)
    }

    @Test func theStoreSeesWhatIsOnDiskAtEachQuestion() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        var store = RecordStore(stateDirectory: state)
        let before = store.withdrawal(of: Self.id(1))  // no records directory yet
        #expect(before == nil)

        try Self.writeRecord(Self.id(1), in: store)
        try Self.writeRecord(Self.id(2), in: store, previousRecord: Self.id(1))
        var replacements = store.links(to: Self.id(1)).replacements
        var withdrawn = store.isWithdrawn(Self.id(1))
        #expect(replacements == [Self.id(2)] && !withdrawn)

        // A withdrawal that appears by another hand than this store's counts from the next question on.
        try Self.writeRecord(Self.id(3), in: store, withdraws: Self.id(1))
        withdrawn = store.isWithdrawn(Self.id(1))
        let withdrawal = store.links(to: Self.id(1)).withdrawal
        #expect(withdrawn && withdrawal == Self.id(3))
        try FileManager.default.removeItem(at: store.directory(of: Self.id(3)))
        withdrawn = store.isWithdrawn(Self.id(1))
        #expect(!withdrawn)

        // A manifest that names a link key but does not decode declares nothing; one that is missing, the same.
        let broken = store.directory(of: Self.id(4))
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data(#"{"withdraws": "\#(Self.id(1))"}"#.utf8).write(to: broken.appendingPathComponent(RecordManifest.fileName))
        try FileManager.default.createDirectory(at: store.directory(of: Self.id(5)), withIntermediateDirectories: true)
        withdrawn = store.isWithdrawn(Self.id(1))
        replacements = store.links(to: Self.id(1)).replacements
        #expect(!withdrawn && replacements == [Self.id(2)])
    }

    /// A manifest with the members `RecordManifest` requires, as `encoded()` writes it.
    private static func writeRecord(
        _ id: String, in store: RecordStore, withdraws: String? = nil, previousRecord: String? = nil
    ) throws {
        var json: [String: Any] = [
            "format": RecordManifest.currentFormat, "recordID": id, "studyID": "sample", "studyVersion": "v",
            "signedAt": "2026-11-27T00:00:00Z", "kioskID": "kiosk", "mode": "r4", "deidentified": false,
            "publicKey": ["algorithm": "ed25519", "key": "k"], "files": [[String: Any]](),
        ]
        if let withdraws { json["withdraws"] = withdraws }
        if let previousRecord { json["previousRecord"] = previousRecord }
        let manifest = try JSONDecoder().decode(RecordManifest.self, from: JSONSerialization.data(withJSONObject: json))
        let directory = store.directory(of: id)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try manifest.encoded().write(to: directory.appendingPathComponent(RecordManifest.fileName))
    }
}
