import ConsentCore
@testable import ConsentRecords
import ConsentSigning
import Crypto
import Foundation
import SampleStudy
import Testing

@Suite struct ConsentRecordComposerTests {
    static let strokes = SignatureStrokes(
        strokes: [
            [StrokePoint(x: 0.1, y: 0.6, t: 0, p: 0.3), StrokePoint(x: 0.3, y: 0.3, t: 40, p: 0.6), StrokePoint(x: 0.5, y: 0.7, t: 80, p: 0.5)],
            [StrokePoint(x: 0.6, y: 0.4, t: 300, p: 0.4), StrokePoint(x: 0.9, y: 0.5, t: 360, p: 0.4)],
        ], widthMM: 120, heightMM: 40)
    static let signedAt = Date(timeIntervalSince1970: 1_790_000_000)

    func outcome(_ study: Study) -> ConsentOutcome {
        ConsentOutcome(
            studyID: study.id, studyVersion: study.version, eligibilityAnswers: [true, true, false, true],
            shareWidely: true, givenName: "Zoë", familyName: "Müller-Østergaard", signature: Self.strokes)
    }

    func composer() -> ConsentRecordComposer {
        let kiosk = KioskIdentity(id: "kiosk-test", signingKey: Curve25519.Signing.PrivateKey())
        return ConsentRecordComposer(signer: ConsentSigner(kiosk: kiosk), settings: .init(pdf: .init(paper: .a4, timeZone: TimeZone(identifier: "UTC") ?? .current)))
    }

    @Test func recordCarriesThePDFAndTheSignatureImageAndVerifies() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        let composed = try composer().compose(outcome: outcome(study), study: study, signedAt: Self.signedAt)
        let record = composed.record
        #expect(composed.pdfWarnings.isEmpty)
        let pdf = try #require(record.file("consent.pdf"))
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
        // The R4 signature carries the PNG, and the Consent pins the PDF by SHA-1 as R4 defines it.
        let signature = try #require(record.contract["signer"]?[0]?["signature"]?[0])
        #expect(signature["sigFormat"] == "image/png")
        let png = try #require(signature["data"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        #expect(png.starts(with: Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(record.consent["sourceAttachment"]?["hash"] == .string(Data(Insecure.SHA1.hash(data: pdf)).base64EncodedString()))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("composer-\(UUID().uuidString)")
        let directory = try RecordWriter.write(record, into: folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == [
            "bundle.json", "consent.json", "consent.pdf", "contract.json", "manifest.json", "manifest.sig", "patient.json",
            "provenance.json", "signature-participant.iso19794-7", "signature.json",
        ])
        #expect(try RecordVerifier.verify(directory: directory).isIntact)
    }

    @Test func deidentifiedRecordUsesTheSiteAddressAndShipsNoPDF() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        let kiosk = KioskIdentity(id: "kiosk-test", signingKey: Curve25519.Signing.PrivateKey())
        let composer = ConsentRecordComposer(
            signer: ConsentSigner(kiosk: kiosk), settings: .init(siteAddress: ["country": "US", "state": "MA", "postalCode": "02115", "city": "Boston"]))
        let record = try composer.compose(outcome: outcome(study), study: study, deidentify: true, signedAt: Self.signedAt).record
        #expect(record.patient["address"] == [["country": "US", "state": "MA", "postalCode": "021"]])
        let bundle = String(decoding: try #require(record.file("bundle.json")), as: UTF8.self)
        for secret in ["Zoë", "Müller", "Binary", "image/png"] { #expect(!bundle.contains(secret), "\(secret)") }
        #expect(record.file("consent.pdf") != nil)  // kept locally, pinned by hash
    }

    /// Strokes with any signing area (as a record file or a pad could hold them)
    /// give an image size inside the PNG's bounds; the ratios that once trapped converting to Int are among them.
    @Test func imageSizeNeverTrapsOnAnyRatio() throws {
        let sizes: [(Double, Double)] = [
            (1, 1e17), (5e-324, 1e308), (1e308, 5e-324), (.greatestFiniteMagnitude, .leastNonzeroMagnitude),
            (.leastNonzeroMagnitude, .greatestFiniteMagnitude), (1, .infinity), (.infinity, 1), (.nan, 1), (1, .nan),
            (120, 40),
        ]
        for (width, height) in sizes {
            var strokes = Self.strokes
            strokes.widthMM = width
            strokes.heightMM = height
            let size = ConsentRecordComposer.imageSize(for: strokes)
            #expect(size.width == ConsentRecordComposer.signatureImageWidth)
            #expect((150...900).contains(size.height), "\(width) x \(height): \(size)")
        }
    }

    @Test func signatureImageKeepsTheAreasAspectRatio() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        var wide = outcome(study)
        wide.signature.widthMM = 150
        wide.signature.heightMM = 50
        let record = try composer().compose(outcome: wide, study: study, signedAt: Self.signedAt).record
        let png = try #require(record.contract["signer"]?[0]?["signature"]?[0]?["data"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        // IHDR: width and height as big-endian 32-bit integers at offsets 16 and 20.
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == ConsentRecordComposer.signatureImageWidth)
        #expect(height == ConsentRecordComposer.signatureImageWidth / 3)
    }
}
