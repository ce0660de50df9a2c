import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// The PDF draws a study's images from what the study read when it loaded (`Study.assets`, the bytes its version
/// covers), never from the folder: a file changed after the version was fixed is not printed.
@Suite struct StudyImageTests {
    /// A PNG of `width` × `height` padded after its IEND to over what a UI can be sent (such images were once left
    /// unread at load, and read by the renderer from disk at every render).
    static func largePNG(width: Int, height: Int) throws -> Data {
        var png = try SignaturePNG.render(strokes: Fixtures.strokes(), width: width, height: height)
        png.append(Data(repeating: 0x5A, count: StudyAsset.maximumBytes))
        return png
    }

    /// Each image's width × height, as `pdfimages -list` gives them.
    static func imageSizes(_ pdf: Data) throws -> [String] {
        let list = try Poppler.withFile(pdf) { try Poppler.run("pdfimages", ["-list", $0]) }
        return list.split(separator: "\n").dropFirst(2).map { line in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            return columns.count > 4 ? "\(columns[3])x\(columns[4])" : String(line)
        }
    }

    @Test func anImageSwappedAfterLoadIsNotPrinted() throws {
        let html = #"<p>The sensor:</p><img src="sensor.png" alt="The sensor">"#
        let study = try Fixtures.study(sections: [(title: "Images", html: html)], files: ["sensor.png": try Self.largePNG(width: 300, height: 100)])
        #expect(study.files.contains("sensor.png"), "the image is in the version")
        // After the load: another picture in its place, then none at all.
        try Self.largePNG(width: 120, height: 40).write(to: study.folder.appendingPathComponent("sensor.png"))
        for removed in [false, true] {
            if removed { try FileManager.default.removeItem(at: study.folder.appendingPathComponent("sensor.png")) }
            let pdf = try ConsentPDFRenderer(options: Fixtures.options).render(
                study: study, signers: [.participant(printedName: "A B", strokes: Fixtures.strokes())], signedAt: Fixtures.signedAt)
            #expect(pdf.warnings.isEmpty, "\(pdf.warnings)")
            #expect(try Self.imageSizes(pdf.data).first == "300x100", "the image as loaded, not the file now on disk")
        }
    }

    @Test func onlyImagesTheStudyReadArePrinted() throws {
        // A file that appears after the load is not one of the study's images: its description is printed.
        let study = try Fixtures.study(sections: [(title: "Images", html: #"<img src="late.png" alt="Late">"#)])
        try Self.largePNG(width: 50, height: 50).write(to: study.folder.appendingPathComponent("late.png"))
        let pdf = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study, signers: [.participant(printedName: "A B", strokes: Fixtures.strokes())], signedAt: Fixtures.signedAt)
        #expect(try Poppler.text(pdf.data).contains("[image: Late]"))
        #expect(pdf.warnings.contains { $0.contains("late.png") && $0.contains("is not in the study folder") }, "\(pdf.warnings)")
    }
}
