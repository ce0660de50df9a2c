import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// The participant's copy's mark: its text is read back exactly, and stamping keeps every page of the signed PDF
/// and adds the mark, as text and as a QR code a reader decodes, to the last (signature) page only.
@Suite struct VerificationMarkTests {
    static let digest = String(repeating: "0123456789abcdef", count: 4)

    @Test func theTextIsReadBackAndMalformedMarksAreRefused() throws {
        let mark = try #require(VerificationMark(recordID: "r-2026-abc_1", manifestSHA256: Self.digest))
        #expect(mark.description == "CK1:r-2026-abc_1:\(Self.digest)")
        #expect(VerificationMark(text: " \(mark.description.uppercased().replacingOccurrences(of: "CK1:R-2026-ABC_1", with: "CK1:r-2026-abc_1"))\n") == mark)
        for bad in ["", "CK2:r:\(Self.digest)", "CK1::\(Self.digest)", "CK1:r:\(Self.digest.dropLast())", "CK1:../x:\(Self.digest)",
                    "CK1:r:\(Self.digest):x", "CK1:r/1:\(Self.digest)", "CK1:r:" + String(repeating: "g", count: 64)] {
            #expect(VerificationMark(text: bad) == nil, "\(bad)")
        }
    }

    @Test func stampingKeepsThePagesAndMarksTheSignaturePage() throws {
        let signed = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: try Fixtures.sampleStudy(), signers: [.participant(printedName: "Zoë Müller", strokes: Fixtures.strokes())],
            signedAt: Fixtures.signedAt)
        let mark = try #require(VerificationMark(recordID: "r-test", manifestSHA256: Self.digest))
        let copy = try mark.stamp(signed.data)
        #expect(try Poppler.info(copy)["Pages"] == "\(signed.pageCount)")
        let text = try Poppler.text(copy)
        let pages = text.split(separator: "\u{0C}", omittingEmptySubsequences: false)
        let last = try #require(pages.dropLast().last.map(String.init) ?? pages.last.map(String.init))
        #expect(last.contains("CK1:r-test:"), "\(last)")
        #expect(last.contains(String(Self.digest.prefix(32))) && last.contains(String(Self.digest.suffix(32))))
        #expect(!pages.dropLast(2).contains { $0.contains("CK1:") }, "only the signature page is marked")
        #expect(text.contains("Zoë Müller"), "the signed pages are drawn again as they were")
        // The QR code, read back from a 200 dpi rendering of the last page, when zbarimg is installed.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("copy.pdf")
        try copy.write(to: pdf)
        let png = folder.appendingPathComponent("page")
        #expect(Self.run("/usr/bin/pdftoppm", ["-r", "200", "-gray", "-png", "-singlefile", "-f", "\(signed.pageCount)",
                                               "-l", "\(signed.pageCount)", pdf.path, png.path]).status == 0)
        let read = Self.run("/usr/bin/zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", png.path + ".png"])
        #expect(read.output.split(separator: "\n").contains { $0 == mark.description }, "\(read.output)")
    }

    /// A signature page with content where the mark goes keeps all of it: the mark goes on a page of its own after it.
    @Test func aFullSignaturePageGetsTheMarkOnAPageAfterIt() throws {
        let canvas = try PDFCanvas(width: 595.276, height: 841.89)
        canvas.context.setGrey(0.2)
        canvas.context.rectangle(Rect(x: 18, y: 18, width: 559, height: 805))
        canvas.context.fill()
        canvas.showPage()
        let full = try canvas.finish()
        let mark = try #require(VerificationMark(recordID: "r-full", manifestSHA256: Self.digest))
        let copy = try mark.stamp(full)
        #expect(try Poppler.info(copy)["Pages"] == "2")
        #expect(try Poppler.text(copy, page: 2).contains("CK1:r-full:"))
        #expect(try !Poppler.text(copy, page: 1).contains("CK1:"))
    }

    static func run(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
