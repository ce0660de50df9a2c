// Debug builds only: `@testable import` needs `-enable-testing` (see FuzzProtocol/ProtocolFuzzer.swift).
#if DEBUG
import ConsentCore
import Foundation
import FuzzStudy
import SampleStudy

@testable import ConsentPDF

/// Runs one input as a consent section's HTML through what the PDF is built from: `DocumentComposer` (the input is
/// the first section's HTML and, when it starts with a space, the review document instead) → `BlockBuilder`
/// (libxml2's HTML parser → events → blocks; `<img src>` resolved by the composer against the images the sample
/// study read when it loaded, `data:` URIs decoded) → `FlowLayout`, the pure pagination, with a fake measurer
/// instead of Pango.
///
/// Checks beyond crashes: every link range lies inside its text, the layout never places text on a page that does
/// not exist, and every image drawn is one of the study's (the bytes its version covers) or came in the input as a
/// `data:` URI: no `src`, however it climbs or names a file of the folder, gets anything else printed.
final class HTMLFuzzer: Sendable {
    let sample: Study
    /// The bytes of every image the sample study read at load.
    let studyImages: Set<[UInt8]>

    init() throws {
        guard let folder = SampleStudy.folder else { throw CocoaError(.fileNoSuchFile) }
        // Kept for the whole run: FuzzStudy says why not `Study.load` as it is.
        sample = FuzzStudy.ownedByThisThread(try Study.load(from: folder))
        studyImages = Set(sample.assets.values.map { [UInt8]($0.bytes) })
    }

    func run(_ input: [UInt8]) {
        let html = String(decoding: input, as: UTF8.self)
        var study = sample
        if input.first == UInt8(ascii: " ") {
            study.reviewHTML = html
        } else {
            study.reviewHTML = nil
            study.document.sections = [study.document.sections[0]]
            study.document.sections[0].htmlContent = html
        }
        let signer = SignerBlock(
            role: "participant", printedName: "Ada Lovelace",
            strokes: SignatureStrokes(strokes: [[StrokePoint(x: 0.1, y: 0.2, t: 0), StrokePoint(x: 0.9, y: 0.8, t: 5)]]),
            meaning: "consent")
        let composer = DocumentComposer(
            study: study, signers: [signer], signedAt: nil, timeZone: TimeZone(identifier: "UTC")!, texts: .english)
        let (blocks, _) = composer.compose()
        let mayHaveDataURIs = html.lowercased().contains("data:")
        for block in blocks {
            Self.check(block)
            if case .image(let image) = block.content {
                precondition(studyImages.contains(image.png) || mayHaveDataURIs, "an image that is not one of the study's was drawn")
            }
        }

        var flow = FlowLayout(geometry: PageGeometry(width: 612, height: 792), measurer: FixedMetricsMeasurer())
        flow.layout(blocks) { page, count in ("Page \(page) of \(count)", "v1") }
        precondition(!flow.pages.isEmpty, "a layout without pages")
    }

    private static func check(_ block: Block) {
        switch block.content {
        case .text(let text):
            check(text.text)
        case .table(let table):
            for row in table.rows { for cell in row { check(cell.text) } }
        default:
            break
        }
    }

    private static func check(_ text: InlineText) {
        let count = text.plain.utf8.count
        for link in text.links {
            precondition(link.range.lowerBound >= 0 && link.range.upperBound <= count, "a link range outside its text")
        }
    }
}

#endif
