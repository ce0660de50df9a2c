import ConsentCore
import Foundation
import SignatureInterchange

/// One input as the bytes of a `signature-<role>.iso19794-7` file, through the reader `consentctl signature export`
/// and `signature show` use: whatever the bytes, the reader returns a record or an `ISO19794_7Error` naming the
/// field, never traps, and never allocates more than the data can hold.
///
/// Invariants on what it reads (either layout): the record converts to strokes with one point per pen-down sample
/// and one hover sample per pen-up one; in the published layout (`inPublishedLayout()`) it always encodes, and the
/// bytes read back as the same record and encode to the same bytes. (Bytes that are published-layout and also
/// have the legacy writer's shape and length would read back as legacy; `ISO19794_7Record(decoding:)` says why that
/// is taken as legacy, and the round trip is then not compared.)
struct ISO19794Fuzzer: Sendable {
    func run(_ input: [UInt8]) {
        let record: ISO19794_7Record
        do {
            record = try ISO19794_7Record(decoding: Data(input))
        } catch let error as ISO19794_7Error {
            precondition(!error.message.isEmpty)
            return
        } catch {
            preconditionFailure("the reader threw \(type(of: error)), not ISO19794_7Error")
        }
        let strokes = record.strokes()
        let penUp = record.samples.filter { $0[.s] == 0 }.count
        precondition(strokes.pointCount == record.samples.count - penUp, "pen-down samples lost")
        precondition((strokes.hover?.count ?? 0) == penUp, "pen-up samples lost")

        let published = record.inPublishedLayout()
        let bytes: Data
        do {
            bytes = try published.encoded()
        } catch {
            preconditionFailure("a record that was read does not encode: \(error)")
        }
        let again: ISO19794_7Record
        do {
            again = try ISO19794_7Record(decoding: bytes)
        } catch {
            preconditionFailure("the encoder wrote what the reader refuses: \(error)")
        }
        guard again.layout == .published else { return }
        precondition(again == published, "the published layout does not round-trip")
        precondition((try? again.encoded()) == bytes, "re-encoding changed the bytes")
    }

    /// The seed corpus: signatures like the agent's (a pen pad with hover and tilt, UI-drawn strokes, a touch
    /// screen) in the published layout, a record with a constant DT and mean/std fields, each also cut short.
    func writeSeeds(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let at = Date(timeIntervalSince1970: 1_789_380_930)
        let pen = SignatureStrokes(
            strokes: [
                (0..<10).map {
                    StrokePoint(
                        x: Double($0) / 12, y: 0.3 + Double($0 % 3) * 0.1, t: Double($0) * 5, p: Double($0) / 20)
                },
                (0..<4).map { StrokePoint(x: 0.2 + Double($0) * 0.1, y: 0.8, t: 300 + Double($0) * 5, p: 0.7) },
            ], widthMM: 96, heightMM: 60,
            device: [
                "source": "pad", "name": "Seed Pen", "vendorId": "056a", "productId": "00a8", "kind": "pen",
                "x": ["minimum": 0, "maximum": 9600, "resolution": 100],
                "y": ["minimum": 0, "maximum": 6000, "resolution": 100],
                "pressureLevels": 1024,
            ],
            tilt: [(0..<10).map { [$0 - 5, 30] }, (0..<4).map { [$0, -20] }],
            hover: [StrokePoint(x: 0.7, y: 0.5, t: 120, p: 0), StrokePoint(x: 0.4, y: 0.6, t: 200, p: 0)],
            hoverTilt: [[1, 2], [3, 4]])
        let ui = SignatureStrokes(
            strokes: [[StrokePoint(x: 0.1, y: 0.2, t: 0, p: 0.5), StrokePoint(x: 0.3, y: 0.4, t: 16, p: nil)]],
            widthMM: 120, heightMM: 40)
        let touch = SignatureStrokes(
            strokes: [(0..<6).map { StrokePoint(x: 0.1 + Double($0) * 0.05, y: 0.6, t: Double($0) * 8) }],
            device: [
                "source": "pad", "kind": "touch", "x": ["minimum": 0, "maximum": 40000],
                "y": ["minimum": 0, "maximum": 4095],
            ])
        var records = try [pen, ui, touch].map { try ISO19794_7Record(strokes: $0, signedAt: at) }
        // Another writer's shape: a constant sampling interval (DT, 5 ms) instead of T, mean and deviation fields,
        // the capture time unknown.
        records.append(
            ISO19794_7Record(
                captureTime: nil,
                channels: [
                    .x: .init(minimum: -100, maximum: 100, mean: 0, standardDeviation: 40),
                    .y: .init(minimum: -50, maximum: 50),
                    .dt: .init(scaling: 1000, mean: 5, isConstant: true), .s: .init(),
                ],
                samples: (0..<5).map { [.x: $0 * 10 - 20, .y: 25 - $0 * 5, .dt: 5, .s: $0 == 2 ? 0 : 1] }))
        for (index, record) in records.enumerated() {
            let bytes = try record.encoded()
            try bytes.write(to: directory.appendingPathComponent("seed-published-\(index)"))
            // Cut short as a torn write leaves it, and cut with both length fields made to agree, so the reader gets
            // past them to the field that was cut.
            for cut in [bytes.count / 3, bytes.count - 3] {
                try bytes.prefix(cut).write(to: directory.appendingPathComponent("seed-published-\(index)-cut-\(cut)"))
                var agreeing = [UInt8](bytes.prefix(cut))
                agreeing.replaceSubrange(8..<12, with: withUnsafeBytes(of: UInt32(cut).bigEndian, Array.init))
                agreeing.replaceSubrange(15..<19, with: withUnsafeBytes(of: UInt32(cut - 15).bigEndian, Array.init))
                try Data(agreeing).write(
                    to: directory.appendingPathComponent("seed-published-\(index)-cut-\(cut)-agreeing"))
            }
        }
    }
}
