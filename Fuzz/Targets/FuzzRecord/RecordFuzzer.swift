// Debug builds only: `@testable import` needs `-enable-testing` (see FuzzProtocol/ProtocolFuzzer.swift).
#if DEBUG
import ConsentCore
import Foundation
import FuzzStudy
import FuzzSupport
import SampleStudy

@testable import ConsentPDF
@testable import ConsentRecords

/// One input as the signature a record is composed from: strokes and signing-area sizes → the PNG's size
/// (`ConsentRecordComposer.imageSize`, where hostile sizes once trapped), its signing area and stroke segments, the PNG
/// drawn by cairo, and the signer block laid out on the PDF's signature page. Strokes the agent would refuse
/// (`validateSubmitted` for a UI's, `validate` for a pad's or a stored record's) end the input, as the agent
/// never composes them; everything accepted must compose.
///
/// Byte 0: bit 0 draws the PNG with cairo (at a tenth of its size: the same code, a hundredth of the pixels),
/// bit 1 lays out the signer block, bit 2 makes it a representative's, bit 3 uses the German texts, bit 4 checks
/// with `validate` instead of `validateSubmitted` (any size a stored record may hold). Bytes 1 and 2 pick
/// `widthMM` and `heightMM` from `edges` (a byte past the table reads the next 8 bytes as a Double). Then points
/// of 6 bytes (x and y as 16-bit fractions stretched past 0...1 at both ends, t, p; 0xFF p is none); a 0xFE or 0xFF
/// byte where a point would start begins a new stroke, and what follows a 0xFD byte is the printed name.
final class RecordFuzzer: Sendable {
    static let edges: [Double?] = [
        nil, 0, -1, 1, 5e-324, 1e-300, 0.5, 40, 120, 300, 1000, 1e17, 1e308, .infinity, -.infinity, .nan,
    ]
    let study: Study

    init() throws {
        guard let folder = SampleStudy.folder else { throw CocoaError(.fileNoSuchFile) }
        // Kept for the whole run: FuzzStudy says why not `Study.load` as it is.
        study = FuzzStudy.ownedByThisThread(try Study.load(from: folder))
    }

    func run(_ input: [UInt8]) {
        var reader = FuzzByteReader(bytes: input)
        let stages = reader.arg()
        let widthMM = size(&reader), heightMM = size(&reader)
        var strokes: [[StrokePoint]] = [[]]
        var name: String?
        while let op = reader.byte() {
            if op >= 0xFE {
                strokes.append([])
            } else if op == 0xFD {
                name = String(decoding: reader.bytes(upTo: 64), as: UTF8.self)
            } else {
                let x = fraction(op, reader.arg()), y = fraction(reader.arg(), reader.arg())
                let t = Double(reader.arg()) * 7, p = reader.arg()
                strokes[strokes.count - 1].append(StrokePoint(x: x, y: y, t: t, p: p == 0xFF ? nil : Double(p) / 254))
            }
        }
        let signature = SignatureStrokes(strokes: strokes.filter { !$0.isEmpty }, widthMM: widthMM, heightMM: heightMM)
        do {
            if stages & 0x10 != 0 { try signature.validate() } else { try signature.validateSubmitted() }
        } catch {
            return
        }
        compose(signature, name: name, stages: stages)
    }

    private func compose(_ signature: SignatureStrokes, name: String?, stages: UInt8) {
        let size = ConsentRecordComposer.imageSize(for: signature)
        precondition(size.width == ConsentRecordComposer.signatureImageWidth, "the PNG's width is fixed")
        precondition((size.width / 6...size.width).contains(size.height), "the PNG's height \(size.height) out of range")
        do {
            try SignaturePNG.check(signature, width: size.width, height: size.height)
        } catch {
            preconditionFailure("accepted strokes refused by the PNG renderer: \(error)")
        }
        let area = SignaturePNG.signingArea(of: signature, width: size.width, height: size.height)
        precondition(
            area.x >= 0 && area.y >= 0 && area.x + area.width <= Double(size.width) + 1e-6
                && area.y + area.height <= Double(size.height) + 1e-6,
            "the signing area \(area) leaves the image")
        for stroke in signature.strokes {
            let segments = StrokeGeometry.segments(stroke.map { StrokeGeometry.Point(x: $0.x, y: $0.y, pressure: $0.p) })
            precondition(segments.count <= max(stroke.count, 1), "more segments than points")
        }
        if stages & 1 != 0 {
            do {
                let png = try SignaturePNG.render(strokes: signature, width: size.width / 10, height: max(1, size.height / 10))
                precondition(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG")
            } catch {
                preconditionFailure("accepted strokes did not render: \(error)")
            }
        }
        if stages & 2 != 0 { layOut(signature, name: name, stages: stages) }
    }

    /// The signer block as the PDF's signature page places it: every placement inside the page.
    private func layOut(_ signature: SignatureStrokes, name: String?, stages: UInt8) {
        let texts = PDFBuiltInTexts(language: stages & 8 != 0 ? "de" : "en")
        let block: SignerBlock =
            stages & 4 != 0
            ? .representative(printedName: name, strokes: signature, relationship: name, participant: "Ada", in: texts)
            : .participant(printedName: name, strokes: signature, in: texts)
        let composer = DocumentComposer(
            study: study, signers: [block], signedAt: Date(timeIntervalSince1970: 1_790_000_000),
            timeZone: TimeZone(identifier: "UTC") ?? .current, texts: texts)
        let geometry = PageGeometry(width: 595, height: 842)
        var flow = FlowLayout(geometry: geometry, measurer: FixedMetricsMeasurer())
        flow.placeSigner(composer.signerModel(block))
        for placement in flow.pages.joined() {
            guard case .strokes(_, let rect) = placement else { continue }
            precondition(
                rect.x.isFinite && rect.y.isFinite && rect.width.isFinite && rect.height.isFinite && rect.width >= 0
                    && rect.height >= 0 && rect.x + rect.width <= geometry.width && rect.y + rect.height <= geometry.height,
                "the signature's box \(rect) leaves the page")
        }
    }

    /// A size from `edges`, or the next 8 bytes as a Double's bits.
    private func size(_ reader: inout FuzzByteReader) -> Double? {
        let pick = Int(reader.arg())
        if pick < Self.edges.count { return Self.edges[pick] }
        let bits = reader.bytes(upTo: 8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(bitPattern: bits)
    }

    /// Two bytes up to 0xFCFF (a point's first byte is below the markers) as a fraction from -0.01 to 1.01, so
    /// both ends of 0...1 and just past them are reached.
    private func fraction(_ high: UInt8, _ low: UInt8) -> Double {
        (Double(min(UInt16(high) << 8 | UInt16(low), 0xFCFF)) / 0xFCFF) * 1.02 - 0.01
    }
}
#endif
