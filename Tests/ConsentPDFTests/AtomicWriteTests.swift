import Foundation
import Testing

@testable import ConsentPDF

@Suite struct AtomicWriteTests {
    func tempDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("consentpdf-write-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func writesTheWholeFileWithMode0600() throws {
        let directory = try tempDirectory()
        let url = directory.appendingPathComponent("consent-signed.pdf")
        try Data("old".utf8).write(to: url)
        let pdf = RenderedPDF(data: Data(repeating: 7, count: 100_000), pageCount: 1, warnings: [])
        try pdf.writeAtomically(to: url)
        #expect(try Data(contentsOf: url) == pdf.data)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["consent-signed.pdf"])
    }

    @Test func aFailedWriteLeavesNothingBehind() throws {
        let directory = try tempDirectory()
        // The destination is a non-empty directory, so the final rename fails after the bytes were written.
        let target = directory.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data().write(to: target.appendingPathComponent("keep"))
        let pdf = RenderedPDF(data: Data(repeating: 1, count: 1000), pageCount: 1, warnings: [])
        #expect(throws: ConsentPDFError(.writeFailed, "")) { try pdf.writeAtomically(to: target) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["taken"])

        let missing = directory.appendingPathComponent("no/such/dir/out.pdf")
        #expect(throws: ConsentPDFError(.writeFailed, "")) { try pdf.writeAtomically(to: missing) }
    }
}
