import ConsentCore
import Foundation
import SignatureInterchange
import Testing

@testable import ConsentSigning

/// ISO/IEC 19794-7 as other readers read it: the sample count, the signed channels, the one-byte tip switch and the
/// upward Y at their published offsets, pen-up samples and all, cross-checked by an independent reader; the legacy
/// layout of records written before still reads and verifies (Tests/Fixtures/legacy-iso19794-7).
@Suite struct ISO19794PublishedLayoutTests {
    static let legacy = Fixture.packageRoot.appendingPathComponent("Tests/Fixtures/legacy-iso19794-7")

    /// One point at x = 1200, y = 1500 device units (of 9600 × 6000) and a second at the axis ends.
    static let onePad = pad()

    static func pad(kind: String = "pen", xMaximum: Int = 9600, xResolution: Int = 100) -> SignatureStrokes {
        SignatureStrokes(
            strokes: [[StrokePoint(x: 0.125, y: 0.25, t: 0, p: 0.5), StrokePoint(x: 1, y: 1, t: 10, p: 1)]],
            widthMM: 96, heightMM: 60,
            device: [
                "source": "pad", "name": "Test Pen", "vendorId": "056a", "productId": "00a8", "kind": .string(kind),
                "x": ["minimum": 0, "maximum": .integer(Int64(xMaximum)), "resolution": .integer(Int64(xResolution))],
                "y": ["minimum": 0, "maximum": 6000, "resolution": 100], "pressureLevels": 1024,
            ])
    }

    @Test func theFourEncodingsAreAtTheirPublishedOffsets() throws {
        let bytes = [UInt8](try ISO19794_7Record(strokes: Self.onePad, signedAt: Fixture.signedAt).encoded())
        // General header 15, representation length 4, capture time 9, technology 1, vendor 2, type 2, quality 1,
        // inclusion 2: descriptions from 36. X and Y 7 bytes each (scaling, min, max), T 5, F 5, S 5.
        #expect(bytes[28] == 1, "technology 1, electromagnetic, for a pen pad")
        #expect(Array(bytes[29..<33]) == [0, 0, 0, 0], "vendor and type 0: no CBEFF organisation identifier")
        #expect(Array(bytes[34..<36]) == [0xC1, 0x60], "X Y T F S included")
        #expect(
            Array(bytes[36..<43]) == [0xE0, 0xB4, 0x80, 0x80, 0x00, 0xA5, 0x80],
            "X: scaling 100, min 0, max 9600, signed")
        #expect(Array(bytes[65..<68]) == [0, 0, 2], "the sample count is 3 bytes")
        // Sample 0: X 1200 → 0x84B0; Y from the bottom: 6000 - 1500 = 4500 → 0x9194; T 0; F 512 of 1023; S one byte.
        #expect(Array(bytes[68..<77]) == [0x84, 0xB0, 0x91, 0x94, 0x00, 0x00, 0x02, 0x00, 0x01])
        // Sample 1 follows at once: X 9600 → 0xA580, Y 0 → 0x8000, T 10, F 1023, S 1.
        #expect(Array(bytes[77..<86]) == [0xA5, 0x80, 0x80, 0x00, 0x00, 0x0A, 0x03, 0xFF, 0x01])
        #expect(Array(bytes[86..<88]) == [0x00, UInt8(bytes.count - 88)], "then the extended data's length")
        let read = try ISO19794_7Record(decoding: Data(bytes))
        #expect(read.layout == .published)
        #expect(read.extendedData.usb == .init(vendor: 0x056a, product: 0x00a8))
        #expect(read.technology == .electromagnetic && read.vendorID == 0 && read.typeID == 0)
    }

    @Test func touchScreensAndUIDrawnStrokesAreOfUnknownTechnology() throws {
        #expect(
            try ISO19794_7Record(strokes: Self.pad(kind: "touch"), signedAt: Fixture.signedAt).technology == .unknown)
        let ui = try ISO19794_7Record(strokes: Fixture.strokes, signedAt: Fixture.signedAt)
        #expect(ui.technology == .unknown && ui.extendedData.usb == nil)
        // UI-drawn strokes: 1/32767 of the area, the largest span the signed channels hold.
        #expect(ui.channels[.x]?.maximum == 32_767 && ui.channels[.y]?.maximum == 32_767)
        // Its scaling (32767 steps over 120 mm) is held to the nearest value the format has; the rest is exact.
        let read = try ISO19794_7Record(decoding: try ui.encoded())
        #expect(abs((read.channels[.x]?.scaling ?? 0) - 32_767 / 120) < 0.1)
        #expect(read.samples == ui.samples)
        #expect(try ISO19794_7Record(decoding: try read.encoded()) == read)
    }

    @Test func aPadAxisLongerThanTheSignedRangeIsHeldInCoarserSteps() throws {
        let wide = Self.pad(xMaximum: 65_534, xResolution: 200)
        let record = try ISO19794_7Record(strokes: wide, signedAt: Fixture.signedAt)
        #expect(record.channels[.x]?.maximum == 32_767)
        #expect(record.channels[.x]?.scaling == 100)  // 200 units per mm in steps of two units
        let back = try ISO19794_7Record(decoding: try record.encoded()).strokes()
        #expect(abs(back.strokes[0][0].x - 0.125) <= 0.5 / 32_767)
    }

    /// FuzzISO19794's finding (Fuzz/corpus/FuzzISO19794/finding-capture-time-119ms): a time read as 119 ms is a Double
    /// a hair below it, and was written back as 118.
    @Test func captureTimesKeepTheirMillisecond() throws {
        for milliseconds in [0, 1, 119, 457, 999] {
            let time = Fixture.signedAt.addingTimeInterval(Double(milliseconds) / 1000)
            let bytes = try ISO19794_7Record(strokes: Self.onePad, signedAt: time).encoded()
            #expect(Int(bytes[26]) << 8 | Int(bytes[27]) == milliseconds)
            let read = try ISO19794_7Record(decoding: bytes)
            #expect(try read.encoded() == bytes, "\(milliseconds) ms")
        }
    }

    /// Another writer's record, built byte by byte: X and Y, a DT channel constant at 5 ms (preamble 0x04 with its
    /// value in the mean field), a mean and standard deviation on X, S; the capture time unknown.
    static func constantIntervalRecord(samples: Int = 3) -> [UInt8] {
        var representation: [UInt8] = Array(repeating: 0xFF, count: 9) + [0, 0, 0, 0, 0, 0]
        representation += [0xC0, 0xA0]  // X Y DT S (bits 15, 14, 7, 5)
        representation += [0x78, 0x80, 0x00, 0x80, 0x64, 0x80, 0x32, 0x00, 0x14]  // X: min 0, max 100, mean 50, std 20
        representation += [0x60, 0x80, 0x00, 0x80, 0x64]  // Y: min 0, max 100
        representation += [0x94, 0xCF, 0xA0, 0x00, 0x05]  // DT: scaling 1000, mean 5, constant
        representation += [0x60, 0x00, 0x00, 0x00, 0x01]  // S: min 0, max 1
        representation += [0x00, 0x00, UInt8(samples)]
        for i in 0..<samples {
            representation += [0x80, UInt8(10 * i), 0x80, UInt8(90 - 10 * i), i == 1 ? 0 : 1]
        }
        representation += [0x00, 0x00]
        let length = 4 + representation.count
        var bytes = Array("SDI\0020\0".utf8)
        bytes += withUnsafeBytes(of: UInt32(15 + length).bigEndian, Array.init) + [0x00, 0x01, 0x00]
        bytes += withUnsafeBytes(of: UInt32(length).bigEndian, Array.init) + representation
        return bytes
    }

    @Test func theConstantValueBitAndTheMeanAndDeviationFieldsAreRead() throws {
        let read = try ISO19794_7Record(decoding: Data(Self.constantIntervalRecord()))
        #expect(read.captureTime == nil)
        #expect(read.includedChannels == [.x, .y, .dt, .s])
        #expect(read.channels[.dt] == .init(scaling: 1000, mean: 5, isConstant: true))
        #expect(read.channels[.x]?.mean == 50 && read.channels[.x]?.standardDeviation == 20)
        #expect(read.samples.map { $0[.dt] } == [5, 5, 5])
        let strokes = read.strokes()
        // Pen down, pen up, pen down: two strokes of one point, the middle sample as hover; time from DT.
        #expect(strokes.strokes.map { $0.map(\.t) } == [[0], [10]])
        #expect(strokes.hover?.map(\.t) == [5])
        #expect(strokes.strokes[0][0].y == 0.1)  // Y 90 of 100 from the bottom
        #expect(try ISO19794_7Record(decoding: try read.encoded()) == read)
    }

    /// `bytes` cut to `count` with both length fields made to agree, so the reader gets past them to the field cut.
    static func cut(_ bytes: [UInt8], to count: Int) -> Data {
        var cut = Array(bytes.prefix(count))
        cut.replaceSubrange(8..<12, with: withUnsafeBytes(of: UInt32(count).bigEndian, Array.init))
        cut.replaceSubrange(15..<19, with: withUnsafeBytes(of: UInt32(count - 15).bigEndian, Array.init))
        return Data(cut)
    }

    @Test func truncatedOrInconsistentRecordsAreRefusedNamingTheField() throws {
        let good = Self.constantIntervalRecord()
        let count = good.count
        func field(_ bytes: Data) -> ISO19794_7Error.Field? {
            do {
                _ = try ISO19794_7Record(decoding: bytes)
                return nil
            } catch let error as ISO19794_7Error {
                #expect(error.message.hasPrefix(error.field.description))
                return error.field
            } catch {
                return nil
            }
        }
        for length in 0..<count {
            #expect(field(Data(good.prefix(length))) != nil, "cut at \(length)")
        }
        #expect(field(Data(good.prefix(10))) == .recordLength)
        #expect(field(Self.cut(good, to: 25)) == .captureTime)
        #expect(field(Self.cut(good, to: 40)) == .channelDescription)
        #expect(field(Self.cut(good, to: 62)) == .sampleCount)  // inside the count
        #expect(field(Self.cut(good, to: 70)) == .sampleCount)  // 3 samples no longer fit
        #expect(field(Self.cut(good, to: count - 1)) == .extendedData)
        var more = good
        more[62] = 200
        #expect(field(Data(more)) == .sampleCount)
        #expect(field(Data(good + [0])) == .recordLength)
        #expect(field(Self.cut(good + [0], to: count + 1)) == .representationLength)
        var month = good
        month.replaceSubrange(19..<28, with: [0x07, 0xEA, 13, 1, 0, 0, 0, 0, 0])
        #expect(field(Data(month)) == .captureTime)
        var none = good
        none.replaceSubrange(34..<36, with: [0, 0])
        #expect(field(Data(none)) == .channelInclusion)
        var allConstant = Array(good.prefix(36)) + [0x04, 0x04, 0x04, 0x04, 0x00, 0x00, 0x01, 0x00, 0x00]
        allConstant.replaceSubrange(34..<36, with: [0xC0, 0xA0])
        #expect(field(Self.cut(allConstant, to: allConstant.count)) == .channelDescription)
        #expect(field(Data("SDI\0010\0".utf8) + Data(count: 20)) == .version)
    }

    /// The legacy fixture's records: their files, byte for byte as the earlier writer left them.
    static func legacyRecords() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: legacy.path).sorted().filter { !$0.hasSuffix(".md") }
            .map { legacy.appendingPathComponent($0) }
    }

    @Test func recordsWrittenInTheLegacyLayoutStillVerifyAndRead() throws {
        let records = try Self.legacyRecords()
        #expect(records.count == 2)
        for directory in records {
            let report = try RecordVerifier.verify(directory: directory)
            #expect(report.isIntact, "\(directory.lastPathComponent): \(report.findings)")
            #expect(!report.signatures.isEmpty && report.signatures.allSatisfy(\.isIntact))
            let verified = try ConsentCtlSignVerifyTests.run(["verify", directory.path])
            #expect(verified.status == 0, "\(verified.output)")
            let entries = try RecordSignatures.read(directory: directory)
            for entry in entries {
                let bytes = try #require(entry.iso19794_7)
                let iso = try ISO19794_7Record(decoding: bytes)
                #expect(iso.layout == .legacy, "\(directory.lastPathComponent) \(entry.role)")
                let xSpan = Double(iso.channels[.x]?.maximum ?? 1)
                let ySpan = Double(iso.channels[.y]?.maximum ?? 1)
                BiometricRecordTests.expectSame(
                    iso.strokes(), entry.strokes, xSpan: xSpan, ySpan: ySpan,
                    levels: Double(iso.channels[.f]?.maximum ?? 1))
                #expect(iso.strokes().hover?.count == entry.strokes.hover?.count)
            }
        }
        // The pen pad's record: its USB ids move to the extended data, the touch screen's technology 2 to unknown.
        let pen = try RecordSignatures.read(directory: records[0]).first { $0.role == "participant" }
        let penISO = try ISO19794_7Record(decoding: try #require(pen?.iso19794_7))
        #expect(penISO.technology == .electromagnetic && penISO.vendorID == 0)
        #expect(penISO.extendedData.usb == .init(vendor: 0x056a, product: 0x00a8))
        #expect(penISO.includedChannels == [.x, .y, .t, .f, .s, .tx, .ty])
        let touch = try RecordSignatures.read(directory: records[1]).first { $0.role == "participant" }
        #expect(try ISO19794_7Record(decoding: try #require(touch?.iso19794_7)).technology == .unknown)
    }

    @Test func legacyFilesRewriteToThePublishedLayoutThatTheIndependentReaderReads() throws {
        let out = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        for directory in try Self.legacyRecords() {
            let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
                try Data(contentsOf: directory.appendingPathComponent($0))
            }
            let copy = out.appendingPathComponent(directory.lastPathComponent)
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: directory.appendingPathComponent("signature.json"),
                to: copy.appendingPathComponent("signature.json"))
            for entry in try RecordSignatures.read(directory: directory) {
                let name = RecordSignatures.isoFileName(role: entry.role)
                let target = copy.appendingPathComponent(name)
                let export = try ConsentCtlSignVerifyTests.run(
                    [
                        "signature", "export", directory.path, "--role", entry.role, "--format", "iso19794-7", "-o",
                        target.path,
                    ])
                #expect(export.status == 0, "\(export.output)")
                #expect(export.output.contains("rewrote"), "\(export.output)")
                let rewritten = try ISO19794_7Record(decoding: try Data(contentsOf: target))
                #expect(rewritten.layout == .published)
                // The record's own bytes, as its manifest hashes them, on request.
                let recorded = out.appendingPathComponent("\(directory.lastPathComponent)-\(entry.role).recorded")
                let asRecorded = try ConsentCtlSignVerifyTests.run(
                    [
                        "signature", "export", directory.path, "--role", entry.role, "--layout", "recorded", "-o",
                        recorded.path,
                    ])
                #expect(asRecorded.status == 0, "\(asRecorded.output)")
                #expect(try Data(contentsOf: recorded) == entry.iso19794_7)
            }
            let after = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
                try Data(contentsOf: directory.appendingPathComponent($0))
            }
            #expect(before == after, "the record is untouched")
        }
        let checked = try IndependentISOReader.check([out])
        #expect(checked.status == 0, "\(checked.output)")
        #expect(checked.output.contains("3 files checked, 0 mismatched"), "\(checked.output)")
    }

    @Test func theIndependentReaderGetsBackEverySignatureOfARecordPointForPoint() throws {
        let study = try Fixture.study()
        // A pen pad with hover (pen-up samples) and tilt, a UI-drawn witness, a touch-screen representative.
        var pen = BiometricRecordTests.padStrokes
        pen.tilt = pen.strokes.map { $0.indices.map { [$0 - 10, 30] } }
        pen.hover = (0..<4).map { StrokePoint(x: 0.8 - Double($0) * 0.15, y: 0.5, t: 120 + Double($0) * 50, p: 0) }
        pen.hoverTilt = (0..<4).map { [-$0, 20] }
        let touch = Self.pad(kind: "touch", xMaximum: 40_000, xResolution: 0)
        var outcome = BiometricRecordTests.outcome(study, witness: true)
        outcome.signature = pen
        let record = try Fixture.signer().sign(
            outcome: outcome, study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf,
            additionalSigners: [
                AdditionalSignature(
                    role: .legallyAuthorizedRepresentative, givenName: "Rita", familyName: "Rep", strokes: touch,
                    png: Fixture.png)
            ])
        let parent = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = try RecordWriter.write(record, into: parent)
        IndependentISOReader.keep(directory, as: "ISO19794PublishedLayoutTests")
        let checked = try IndependentISOReader.check([directory])
        #expect(checked.status == 0, "\(checked.output)")
        #expect(checked.output.contains("3 files checked, 0 mismatched"), "\(checked.output)")
        // A control: the same participant file with Y left as the device's (from the top) is caught.
        var unflipped = try ISO19794_7Record(decoding: try #require(record.file("signature-participant.iso19794-7")))
        let yMaximum = try #require(unflipped.channels[.y]?.maximum)
        for index in unflipped.samples.indices {
            unflipped.samples[index][.y] = yMaximum - (unflipped.samples[index][.y] ?? 0)
        }
        // Beside signature.json alone: with the record's manifest the reader would skip the changed file.
        let control = parent.appendingPathComponent("control")
        try FileManager.default.createDirectory(at: control, withIntermediateDirectories: true)
        try #require(record.file("signature.json")).write(to: control.appendingPathComponent("signature.json"))
        try unflipped.encoded().write(to: control.appendingPathComponent("signature-participant.iso19794-7"))
        let caught = try IndependentISOReader.check([control])
        #expect(caught.status == 1 && caught.output.contains("MISMATCH"), "\(caught.output)")
        // And in the record, where the manifest pins other bytes, it is skipped as changed after signing.
        try unflipped.encoded().write(to: directory.appendingPathComponent("signature-participant.iso19794-7"))
        let skipped = try IndependentISOReader.check([directory])
        #expect(skipped.output.contains("1 records skipped as changed after signing"), "\(skipped.output)")
        // The reader of this project agrees: the pen-up samples come back as hover.
        let iso = try ISO19794_7Record(decoding: try #require(record.file("signature-participant.iso19794-7")))
        #expect(iso.strokes().hover?.count == 4)
        #expect(iso.samples.filter { $0[.s] == 0 }.count == 4)
    }
}
