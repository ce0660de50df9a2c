import ConsentCore
import Crypto
import CryptoExtras
import Foundation
import SignatureInterchange
import Testing

@testable import ConsentSigning

/// Each signature as ISO/IEC 19794-7 in the record, bound in the manifest to the document it was given
/// on (verify reports each signature), and the biometric data sealed to an escrow key on request.
@Suite struct BiometricRecordTests {
    static let escrowPEM: String = (try? _RSA.Encryption.PrivateKey(keySize: .bits2048).pemRepresentation) ?? ""
    static let recordPEM: String = (try? _RSA.Encryption.PrivateKey(keySize: .bits2048).pemRepresentation) ?? ""

    static func publicKey(_ pem: String, id: String) throws -> RecordEncryption {
        let key = try _RSA.Encryption.PrivateKey(pemRepresentation: pem)
        return try RecordEncryption(recipientPublicKeyDER: key.publicKey.derRepresentation, keyID: id)
    }

    /// A pad-captured participant signature (axes, pressure levels) and a UI-drawn witness signature.
    static let padStrokes = SignatureStrokes(
        strokes: [
            (0..<20).map { StrokePoint(x: Double($0) / 25, y: 0.3 + Double($0 % 3) * 0.1, t: Double($0) * 5, p: Double($0) / 40) },
            (0..<6).map { StrokePoint(x: 0.2 + Double($0) * 0.1, y: 0.8, t: 300 + Double($0) * 5, p: 0.7) },
        ], widthMM: 96, heightMM: 60,
        device: [
            "source": "pad", "name": "Test Pen", "vendorId": "056a", "productId": "00a8", "kind": "pen",
            "x": ["minimum": 0, "maximum": 9600, "resolution": 100], "y": ["minimum": 0, "maximum": 6000, "resolution": 100],
            "pressureLevels": 1024,
        ])

    static func outcome(_ study: Study, witness: Bool = true) -> ConsentOutcome {
        var outcome = Fixture.outcome(study)
        outcome.signature = padStrokes
        if witness {
            outcome.witness = .init(givenName: "Wanda", familyName: "Witness", signature: Fixture.strokes)
        }
        return outcome
    }

    static func sign(escrow: Bool = false, encrypted: Bool = false, witness: Bool = true) throws -> SignedRecord {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: outcome(study, witness: witness), study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf,
            encryption: encrypted ? try publicKey(recordPEM, id: "irb") : nil,
            biometricEscrow: escrow ? try publicKey(escrowPEM, id: "notary-1") : nil)
        IndependentISOReader.keep(record, as: "BiometricRecordTests")
        return record
    }

    /// Point for point: the 19794-7 data gives back signature.json's strokes within one device unit.
    static func expectSame(_ iso: SignatureStrokes, _ json: SignatureStrokes, xSpan: Double, ySpan: Double, levels: Double) {
        #expect(iso.strokes.map(\.count) == json.strokes.map(\.count))
        for (a, b) in zip(iso.strokes.joined(), json.strokes.joined()) {
            #expect(abs(a.x - b.x) <= 0.5 / xSpan + 1e-12)
            #expect(abs(a.y - b.y) <= 0.5 / ySpan + 1e-12)
            #expect(abs(a.t - b.t) <= 0.5)
            #expect((a.p == nil) == (b.p == nil) || b.p == nil)
            if let p = a.p, let q = b.p { #expect(abs(p - q) <= 0.5 / levels + 1e-12) }
        }
    }

    @Test func eachSignatureIsWrittenAsISO19794_7AndListedInTheManifest() throws {
        let record = try Self.sign()
        let names = record.manifest.files.map(\.name)
        #expect(names.contains("signature-participant.iso19794-7"))
        #expect(names.contains("signature-witness.iso19794-7"))
        let bytes = try #require(record.file("signature-participant.iso19794-7"))
        #expect(Array(bytes.prefix(8)) == Array("SDI\0020\0".utf8))
        let iso = try ISO19794_7Record(decoding: bytes)
        // The vendor and type are CBEFF identifiers (none here); the pad's USB ids are in the extended data.
        #expect(iso.vendorID == 0 && iso.typeID == 0 && iso.technology == .electromagnetic)
        #expect(iso.extendedData.usb == .init(vendor: 0x056a, product: 0x00a8))
        #expect(iso.channels[.x]?.scaling == 100 && iso.channels[.x]?.maximum == 9600)
        #expect(iso.channels[.f]?.maximum == 1023)
        #expect(iso.includedChannels == [.x, .y, .t, .f, .s])
        #expect(iso.extendedData.strokeStarts == [0, 20])
        #expect(iso.extendedData.samplingRateHz == 200)
        // Against signature.json, point for point.
        let json = try JSONDecoder().decode(SignatureStrokes.self, from: try #require(record.file("signature.json")))
        Self.expectSame(iso.strokes(), json, xSpan: 9600, ySpan: 6000, levels: 1023)
        #expect(iso.strokes().widthMM == 96 && iso.strokes().heightMM == 60)
        // The UI-drawn witness: no pressure on its second point is kept as 0 (the channel is present).
        let witness = try ISO19794_7Record(decoding: try #require(record.file("signature-witness.iso19794-7")))
        #expect(witness.technology == .unknown && witness.vendorID == 0 && witness.extendedData.usb == nil)
        #expect(witness.strokes().strokes.map(\.count) == Fixture.strokes.strokes.map(\.count))
    }

    @Test func theFormatRoundTripsAndBadBytesAreRefusedNotTrapped() throws {
        let original = try ISO19794_7Record(strokes: Self.padStrokes, signedAt: Fixture.signedAt)
        let bytes = try original.encoded()
        let read = try ISO19794_7Record(decoding: bytes)
        #expect(read == original)
        #expect(try read.encoded() == bytes)
        #expect(read.captureTime == Fixture.signedAt)
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: ISO19794_7Error.self) { try ISO19794_7Record(decoding: bytes.prefix(length)) }
        }
        var wrongVersion = bytes
        wrongVersion[5] = UInt8(ascii: "1")
        #expect(throws: ISO19794_7Error.self) { try ISO19794_7Record(decoding: wrongVersion) }
        // Scaling values: exact for the usual resolutions, near for others.
        for value in [1000.0, 100, 10, 40, 0.5] {
            #expect(ISO19794_7Record.decodeScaling(try ISO19794_7Record.encodeScaling(value)) == value)
        }
        #expect(abs(ISO19794_7Record.decodeScaling(try ISO19794_7Record.encodeScaling(118.11)) - 118.11) < 0.05)
    }

    @Test func tiltThePadReportedBecomesTXAndTYAndComesBack() throws {
        var tilted = Self.padStrokes
        tilted.tilt = Self.padStrokes.strokes.map { $0.indices.map { [$0 - 10, 45] } }
        let study = try Fixture.study()
        var outcome = Self.outcome(study, witness: false)
        outcome.signature = tilted
        let record = try Fixture.signer().sign(outcome: outcome, study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        IndependentISOReader.keep(record, as: "BiometricRecordTests")
        let iso = try ISO19794_7Record(decoding: try #require(record.file("signature-participant.iso19794-7")))
        #expect(iso.includedChannels == [.x, .y, .t, .f, .s, .tx, .ty])
        #expect(iso.samples[0][.tx] == -10 && iso.samples[0][.ty] == 45)
        let json = try JSONDecoder().decode(SignatureStrokes.self, from: try #require(record.file("signature.json")))
        #expect(json.tilt == tilted.tilt)
        #expect(iso.strokes().tilt == json.tilt)
        // Shaped unlike the strokes: refused, not written.
        outcome.signature.tilt = [[[1, 2]]]
        #expect(throws: ConsentSigningError.self) {
            try Fixture.signer().sign(outcome: outcome, study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        }
    }

    @Test func hoverSamplesBecomePenUpSamplesInTimeOrderAndComeBack() throws {
        // The pen hovered between the strokes (t 100-290 ms) with tilt: the pad's pen-up samples.
        var hovered = Self.padStrokes
        hovered.tilt = Self.padStrokes.strokes.map { $0.indices.map { [$0, 30] } }
        hovered.hover = (0..<4).map { StrokePoint(x: 0.8 - Double($0) * 0.15, y: 0.5, t: 120 + Double($0) * 50, p: 0) }
        hovered.hoverTilt = (0..<4).map { [-$0, 20] }
        let study = try Fixture.study()
        var outcome = Self.outcome(study, witness: false)
        outcome.signature = hovered
        let record = try Fixture.signer().sign(outcome: outcome, study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        IndependentISOReader.keep(record, as: "BiometricRecordTests")
        let iso = try ISO19794_7Record(decoding: try #require(record.file("signature-participant.iso19794-7")))
        // 20 pen-down samples, the 4 pen-up ones, then the second stroke's 6: S = 0 marks them, in time order.
        #expect(iso.samples.map { $0[.s] ?? -1 } == Array(repeating: 1, count: 20) + Array(repeating: 0, count: 4) + Array(repeating: 1, count: 6))
        #expect(iso.samples.map { $0[.t] ?? -1 } == iso.samples.map { $0[.t] ?? -1 }.sorted())
        #expect(iso.extendedData.strokeStarts == [0, 24])
        #expect(iso.samples[20][.tx] == 0 && iso.samples[23][.tx] == -3 && iso.samples[23][.ty] == 20)
        let json = try JSONDecoder().decode(SignatureStrokes.self, from: try #require(record.file("signature.json")))
        #expect(json.hover == hovered.hover && json.hoverTilt == hovered.hoverTilt)
        // The reader gives back the strokes point for point and the hover samples beside them.
        let back = iso.strokes()
        Self.expectSame(back, json, xSpan: 9600, ySpan: 6000, levels: 1023)
        #expect(back.hover?.count == 4 && back.hoverTilt == hovered.hoverTilt)
        for (a, b) in zip(back.hover ?? [], hovered.hover ?? []) {
            #expect(abs(a.x - b.x) <= 0.5 / 9600 + 1e-12 && abs(a.t - b.t) <= 0.5 && a.p == 0)
        }
        // Hover that runs backwards in time is refused, not written.
        outcome.signature.hover = [StrokePoint(x: 0.5, y: 0.5, t: 200), StrokePoint(x: 0.5, y: 0.5, t: 100)]
        outcome.signature.hoverTilt = [[0, 0], [0, 0]]
        #expect(throws: ConsentSigningError.self) {
            try Fixture.signer().sign(outcome: outcome, study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        }
    }

    @Test func theManifestBindsEachSignatureAndVerifyReportsEachIntact() throws {
        let record = try Self.sign()
        let bindings = try #require(record.manifest.signatures)
        #expect(bindings.map(\.role) == ["participant", "witness"])
        let pdfHash = RecordManifest.entry(name: "consent.pdf", contents: Fixture.pdf).sha256
        for binding in bindings {
            #expect(binding.documentVersion == record.manifest.studyVersion)
            #expect(binding.pdfSHA256 == pdfHash)
            #expect(binding.signedAt == record.manifest.signedAt)
            let iso = try #require(record.file(binding.biometricFile))
            #expect(binding.biometricSHA256 == RecordManifest.entry(name: binding.biometricFile, contents: iso).sha256)
        }
        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = try RecordWriter.write(record, into: parent)
        let report = try RecordVerifier.verify(directory: directory)
        #expect(report.isIntact)
        #expect(report.signatures.map(\.description) == ["participant: intact", "witness: intact"])
    }

    @Test func aChangedDocumentOrChangedSignatureDataIsReportedPerSignature() throws {
        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let pdfChanged = try RecordWriter.write(try Self.sign(), to: parent.appendingPathComponent("a"))
        try Data("%PDF-1.7 another document".utf8).write(to: pdfChanged.appendingPathComponent("consent.pdf"))
        let a = try RecordVerifier.verify(directory: pdfChanged)
        #expect(!a.isIntact)
        #expect(a.signatures.map(\.status) == ["document changed", "document changed"])

        let dataChanged = try RecordWriter.write(try Self.sign(), to: parent.appendingPathComponent("b"))
        let iso = dataChanged.appendingPathComponent("signature-witness.iso19794-7")
        var bytes = try Data(contentsOf: iso)
        bytes[bytes.count - 20] ^= 0xFF
        try bytes.write(to: iso)
        let b = try RecordVerifier.verify(directory: dataChanged)
        #expect(!b.isIntact)
        #expect(b.signatures.map(\.description) == ["participant: intact", "witness: signature data changed"])
    }

    @Test func escrowedBiometricsAreStoredOnlySealedAndOpenWithTheEscrowKey() throws {
        let record = try Self.sign(escrow: true)
        let names = record.files.map(\.name)
        // No plaintext copy anywhere: neither signature.json nor the 19794-7 files, nor strokes in any other file.
        #expect(!names.contains("signature.json"))
        #expect(!names.contains { $0.hasSuffix(".iso19794-7") })
        #expect(Set(names.filter { $0.hasSuffix(".escrow") }) == [
            "signature.json.escrow", "signature-participant.iso19794-7.escrow", "signature-witness.iso19794-7.escrow",
        ])
        let needle = String(Self.padStrokes.strokes[0][3].x)
        for file in record.files where !file.name.hasSuffix(".escrow") {
            #expect(!String(decoding: file.contents, as: UTF8.self).contains("\"strokes\""), "\(file.name)")
            #expect(!String(decoding: file.contents, as: UTF8.self).contains(needle) || file.name == "manifest.json", "\(file.name)")
        }
        // The image and the PDF stay.
        #expect(names.contains("consent.pdf"))
        #expect(record.manifest.files.map(\.name).contains("signature.json.escrow"))
        let escrow = try #require(record.manifest.biometricEscrow)
        #expect(escrow.keyID == "notary-1" && escrow.files.allSatisfy { $0.plaintextSHA256 != nil })

        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = try RecordWriter.write(record, into: parent)
        let report = try RecordVerifier.verify(directory: directory)
        #expect(report.isIntact, "\(report.findings)")
        #expect(report.signatures.filter { !$0.isIntact }.isEmpty)
        let opened = try BiometricEscrow.open(directory: directory, with: try RecordRecipientKey(pemRepresentation: Self.escrowPEM))
        #expect(Set(opened.map(\.name)) == ["signature.json", "signature-participant.iso19794-7", "signature-witness.iso19794-7"])
        let plain = try Self.sign()
        for file in opened { #expect(file.contents == plain.file(file.name), "\(file.name)") }
        // Another key opens nothing.
        #expect(throws: ConsentSigningError.self) {
            try BiometricEscrow.open(directory: directory, with: try RecordRecipientKey(pemRepresentation: Self.recordPEM))
        }
        // What escrow open wrote reads like a record's signatures.
        let out = try RecordWriter.write(files: opened, to: parent.appendingPathComponent("examiner"))
        let entries = try RecordSignatures.read(directory: out)
        #expect(entries.map(\.role) == ["participant", "witness"])
        #expect(entries.allSatisfy { $0.iso19794_7 != nil })
    }

    @Test func escrowWorksWithRecordEncryption() throws {
        let record = try Self.sign(escrow: true, encrypted: true)
        #expect(record.files.map(\.name).contains("signature.json.escrow.enc"))
        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = try RecordWriter.write(record, into: parent)
        let recordKey = try RecordRecipientKey(pemRepresentation: Self.recordPEM)
        let report = try RecordVerifier.verify(directory: directory, privateKey: recordKey)
        #expect(report.isIntact, "\(report.findings)")
        #expect(report.signatures.filter { !$0.isIntact }.isEmpty)
        let escrowKey = try RecordRecipientKey(pemRepresentation: Self.escrowPEM)
        #expect(throws: ConsentSigningError.self) { try BiometricEscrow.open(directory: directory, with: escrowKey) }
        let opened = try BiometricEscrow.open(directory: directory, with: escrowKey, recordKey: recordKey)
        #expect(opened.count == 3)
        // The record key alone does not reveal the strokes: the decrypted copy still holds only escrow envelopes.
        let decrypted = try RecordDecryptor.decrypt(directory: directory, with: recordKey)
        #expect(!decrypted.map(\.name).contains("signature.json"))
    }

    @Test func recordsWithoutBindingsStillVerifyAndConvertToISO() throws {
        // The golden record predates bindings and 19794-7 files.
        let records = GoldenRecordTests.folder.appendingPathComponent("records")
        let id = try #require(try FileManager.default.contentsOfDirectory(atPath: records.path).first)
        let directory = records.appendingPathComponent(id)
        let report = try RecordVerifier.verify(directory: directory)
        #expect(report.isIntact && report.signatures.isEmpty)
        let entry = try #require(try RecordSignatures.read(directory: directory).first)
        #expect(entry.role == "participant" && entry.iso19794_7 == nil)
        let converted = try ISO19794_7Record(decoding: try RecordSignatures.iso19794_7(entry, signedAt: RecordSignatures.signingTime(directory: directory)))
        #expect(converted.samples.count == entry.strokes.pointCount)
    }
}
