import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// The slip a participant who paused takes home: the study, the code as text and as a QR code a reader decodes to
/// what the kiosk's code field takes, the day, and nothing else.
@Suite struct ResumeSlipTests {
    @Test func theSlipShowsTheCodeAndItsQRCodeReadsAsTyped() throws {
        let slip = ResumeSlip(
            studyTitle: "Heartbeat & Sleep Study", codeLabel: "Ihr Code", code: "F4PR-CTCE",
            text: "Der Code gilt bis 10. Dezember 2026.")
        let rendered = try slip.render(paper: .a4)
        #expect(rendered.pageCount == 1)
        #expect(try Poppler.info(rendered.data)["Pages"] == "1")
        let text = try Poppler.text(rendered.data)
        for expected in ["Heartbeat & Sleep Study", "Ihr Code", "F4PR-CTCE", "10. Dezember 2026"] {
            #expect(text.contains(expected), "\(expected) in \(text)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("slip.pdf")
        try rendered.data.write(to: pdf)
        let png = folder.appendingPathComponent("slip")
        #expect(VerificationMarkTests.run("/usr/bin/pdftoppm", ["-r", "150", "-gray", "-png", "-singlefile", pdf.path, png.path]).status == 0)
        let read = VerificationMarkTests.run("/usr/bin/zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", png.path + ".png"])
        #expect(read.output.trimmingCharacters(in: .whitespacesAndNewlines) == "F4PRCTCE", "\(read.output)")
    }
}
