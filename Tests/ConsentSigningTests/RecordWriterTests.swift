import ConsentCore
import Crypto
import Foundation
import Testing

@testable import ConsentSigning

@Suite struct RecordWriterTests {
    private func record(pdf: Data? = nil) throws -> SignedRecord {
        let study = try Fixture.study()
        return try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, pdf: pdf)
    }

    private func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func writesEveryFile0600AndNothingElse() throws {
        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let record = try record(pdf: Fixture.pdf)
        let directory = try RecordWriter.write(record, into: parent)
        #expect(directory.lastPathComponent == record.id)
        #expect(try mode(directory) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == record.files.map(\.name).sorted())
        for file in record.files {
            let url = directory.appendingPathComponent(file.name)
            #expect(try Data(contentsOf: url) == file.contents)
            #expect(try mode(url) == 0o600)
        }
        // No temporary directory is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == [record.id])
    }

    @Test func neverOverwritesAnExistingRecordOrEvenAnEmptyDirectory() throws {
        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let target = parent.appendingPathComponent("r1")
        try RecordWriter.write(try record(), to: target)
        #expect(throws: ConsentSigningError(.recordExists, "")) { try RecordWriter.write(try record(), to: target) }

        let empty = parent.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        #expect(throws: ConsentSigningError(.recordExists, "")) { try RecordWriter.write(try record(), to: empty) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == ["empty", "r1"])
    }

    /// The rename itself refuses an existing target (RENAME_NOREPLACE), not only the early check.
    @Test func renameRefusesToReplace() throws {
        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let source = parent.appendingPathComponent("a"), target = parent.appendingPathComponent("b")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        #expect(throws: ConsentSigningError(.recordExists, "")) { try DurableFile.renameNoReplace(source, to: target) }
        #expect(FileManager.default.fileExists(atPath: source.path))
    }

    @Test func failedWriteLeavesNothing() throws {
        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        var bad = try record()
        bad.files.append(SignedRecord.File(name: "contract.json", contents: Data()))  // a duplicate name fails the O_EXCL create
        #expect(throws: ConsentSigningError(.recordExists, "")) { try RecordWriter.write(bad, into: parent) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    /// What a kill during `write` leaves (a hidden temporary directory, possibly with some of the files) is removed
    /// at the next start; records and anything not shaped like a leftover stay.
    @Test func interruptedWritesAreRemovedAndRecordsKept() throws {
        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let record = try record(pdf: Fixture.pdf)
        try RecordWriter.write(record, into: parent)
        let leftover = parent.appendingPathComponent(".\(UUID().uuidString.lowercased()).tmp-1f2e3d")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: false)
        try Data("{".utf8).write(to: leftover.appendingPathComponent("contract.json"))
        let empty = parent.appendingPathComponent(".\(UUID().uuidString.lowercased()).tmp-0")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        try Data().write(to: parent.appendingPathComponent("README"))

        let removed = RecordWriter.removeInterruptedWrites(in: parent)
        #expect(removed == [leftover.lastPathComponent, empty.lastPathComponent].sorted())
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: parent.path)) == ["README", record.id])
        #expect(try RecordVerifier.verify(directory: parent.appendingPathComponent(record.id)).isIntact)
        #expect(RecordWriter.removeInterruptedWrites(in: parent).isEmpty)
        #expect(RecordWriter.removeInterruptedWrites(in: parent.appendingPathComponent("absent")).isEmpty)
    }

    @Test func missingParentIsAWriteFailure() throws {
        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let target = parent.appendingPathComponent("no/such/dir/record")
        #expect(throws: ConsentSigningError(.writeFailed, "")) { try RecordWriter.write(try record(), to: target) }
    }
}

@Suite struct RecordVerifierTests {
    private func written(pdf: Data? = Fixture.pdf) throws -> (parent: URL, directory: URL) {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, pdf: pdf)
        let parent = try Fixture.temporaryDirectory()
        return (parent, try RecordWriter.write(record, into: parent))
    }

    @Test func intactRecordVerifies() throws {
        let (parent, directory) = try written()
        defer { try? FileManager.default.removeItem(at: parent) }
        let report = try RecordVerifier.verify(directory: directory, pinnedKey: Fixture.kiosk.publicKey)
        #expect(report.isIntact, "\(report.findings)")
        #expect(report.keyWasPinned)
    }

    @Test func recordWithoutPDFVerifies() throws {
        let (parent, directory) = try written(pdf: nil)
        defer { try? FileManager.default.removeItem(at: parent) }
        #expect(try RecordVerifier.verify(directory: directory).isIntact)
    }

    @Test func changedMissingAndAddedFilesAreNamed() throws {
        let (parent, directory) = try written()
        defer { try? FileManager.default.removeItem(at: parent) }
        try Data("{}".utf8).write(to: directory.appendingPathComponent("consent.json"))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("consent.pdf"))
        try Data("x".utf8).write(to: directory.appendingPathComponent("extra.txt"))
        let report = try RecordVerifier.verify(directory: directory)
        #expect(!report.isIntact)
        #expect(Set(report.findings.map(\.file)) == ["consent.json", "consent.pdf", "extra.txt"])
    }

    @Test func editedManifestBreaksTheSignature() throws {
        let (parent, directory) = try written()
        defer { try? FileManager.default.removeItem(at: parent) }
        let url = directory.appendingPathComponent("manifest.json")
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        try Data(text.replacingOccurrences(of: "kiosk-test-1", with: "kiosk-test-2").utf8).write(to: url)
        let report = try RecordVerifier.verify(directory: directory)
        #expect(report.findings.map(\.file) == ["manifest.sig"])
    }

    @Test func anotherKioskKeyIsCaughtWhenPinned() throws {
        let (parent, directory) = try written()
        defer { try? FileManager.default.removeItem(at: parent) }
        let other = Curve25519.Signing.PrivateKey().publicKey
        let report = try RecordVerifier.verify(directory: directory, pinnedKey: other)
        #expect(report.findings.contains { $0.file == "manifest.json" })
        #expect(report.findings.contains { $0.file == "manifest.sig" })
    }

    @Test func missingOrGarbageManifest() throws {
        let (parent, directory) = try written()
        defer { try? FileManager.default.removeItem(at: parent) }
        try Data("not json".utf8).write(to: directory.appendingPathComponent("manifest.json"))
        #expect(try RecordVerifier.verify(directory: directory).findings.map(\.file) == ["manifest.json"])
        try FileManager.default.removeItem(at: directory.appendingPathComponent("manifest.json"))
        #expect(try RecordVerifier.verify(directory: directory).findings.map(\.file) == ["manifest.json"])
        #expect(throws: ConsentSigningError(.manifestInvalid, "")) {
            try RecordVerifier.verify(directory: directory.appendingPathComponent("nope"))
        }
    }
}
