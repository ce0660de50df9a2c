import ArgumentParser
import ConsentCore
import ConsentPDF
import ConsentSigning
import Foundation
import SignatureInterchange

/// `consentctl signature`: a record's signatures for an examiner (docs/RECORDS.md, "Examining a signature").
///
/// ```
/// consentctl signature export RECORD --role ROLE [--format iso19794-7] [--layout published|recorded] -o FILE
/// consentctl signature show RECORD [--role ROLE] [--png-prefix PREFIX]
/// ```
/// RECORD is a record directory, or the folder `consentctl escrow open` wrote for an escrowed record.
struct SignatureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signature",
        abstract: "Export a record's signature as ISO/IEC 19794-7, or show what an examiner looks at first.",
        subcommands: [Export.self, Show.self])

    static func entries(_ record: String) throws -> [RecordSignatures.Entry] {
        do {
            return try RecordSignatures.read(directory: URL(fileURLWithPath: record))
        } catch let error as ConsentSigningError {
            throw CommandFailure(error.description)
        }
    }

    static func entry(_ record: String, role: String?) throws -> RecordSignatures.Entry {
        let all = try entries(record)
        let wanted = role ?? all.first?.role ?? "participant"
        guard let entry = all.first(where: { $0.role == wanted }) else {
            throw CommandFailure("the record has no \(wanted) signature; it has: \(all.map(\.role).joined(separator: ", "))")
        }
        return entry
    }

    /// The signing time of the record (for 19794-7 written from an older record's strokes).
    static func signedAt(_ record: String) -> Date {
        RecordSignatures.signingTime(directory: URL(fileURLWithPath: record))
    }
}

extension SignatureCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write one signature of a record as ISO/IEC 19794-7:2014 full-format data.",
            discussion: "The file holds biometric data (PHI): write it only where the examiner may keep it. Exit status: 0 written, 1 otherwise.")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case iso19794_7 = "iso19794-7"
        }

        @Argument(help: ArgumentHelp("A record directory (or the output of consentctl escrow open).", valueName: "RECORD"))
        var record: String

        @Option(help: ArgumentHelp("participant, representative or witness.", valueName: "ROLE"))
        var role: String

        /// Which bytes to write: other readers read the published layout; the record's manifest hashes its own.
        enum Layout: String, ExpressibleByArgument, CaseIterable {
            case published, recorded
        }

        @Option(help: "The format; only iso19794-7.")
        var format: Format = .iso19794_7

        @Option(
            help: ArgumentHelp(
                "published: the layout other 19794-7 readers read (a file a record kept in the layout this project wrote before is rewritten; the record is not touched). recorded: the record's own bytes, as its manifest hashes them.",
                valueName: "LAYOUT"))
        var layout: Layout = .published

        @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The file to create; it must not exist.", valueName: "FILE"))
        var output: String

        func run() throws {
            let entry = try SignatureCommand.entry(record, role: role)
            var bytes: Data
            var rewritten = false
            do {
                bytes = try RecordSignatures.iso19794_7(entry, signedAt: SignatureCommand.signedAt(record))
                if layout == .published { (bytes, rewritten) = try RecordSignatures.publishedLayout(bytes, role: entry.role) }
            } catch let error as ConsentSigningError {
                throw CommandFailure(error.description)
            }
            try writeNew(bytes, to: output)
            print("wrote the \(entry.role) signature as ISO/IEC 19794-7:2014 (\(bytes.count) bytes) to \(output)")
            if rewritten {
                print("rewrote it from the layout consent-kiosk wrote before it followed the published one; the record's own file is unchanged")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a signature's points, strokes, duration, sampling rate and pressure range; draw it by pressure and its speed over time.",
            discussion: "Writes PREFIX-pressure.png and PREFIX-speed.png (default prefix: signature-<role>). They show biometric data (PHI).")

        @Argument(help: ArgumentHelp("A record directory (or the output of consentctl escrow open).", valueName: "RECORD"))
        var record: String

        @Option(help: ArgumentHelp("participant, representative or witness; default: the consent signature.", valueName: "ROLE"))
        var role: String?

        @Option(help: ArgumentHelp("Where to write the two PNGs: PREFIX-pressure.png and PREFIX-speed.png.", valueName: "PREFIX"))
        var pngPrefix: String?

        func run() throws {
            let entry = try SignatureCommand.entry(record, role: role)
            let strokes = entry.strokes
            let summary = SignatureSummary(strokes)
            print("role: \(entry.role)")
            print("points: \(summary.points)")
            print("strokes: \(summary.strokes)")
            print("pen-up (hover) samples: \(summary.hoverSamples)")
            print("duration: \(String(format: "%.3f", summary.durationMs / 1000)) s")
            print("sampling rate: \(summary.samplingRateHz.map { String(format: "%.1f Hz", $0) } ?? "unknown")")
            print("pressure: \(summary.pressureRange.map { String(format: "%.3f ... %.3f", $0.lowerBound, $0.upperBound) } ?? "none recorded")")
            if let source = strokes.device?["source"]?.stringValue {
                let name = strokes.device?["name"]?.stringValue ?? strokes.device?["client"]?.stringValue ?? ""
                print("captured: \(source == "pad" ? "on the pad" : "in the UI") \(name)")
            }
            let prefix = pngPrefix ?? "signature-\(entry.role)"
            do {
                let width = 1200, height = 400
                try writeNew(try SignatureExaminationPNG.pressure(strokes: strokes, width: width, height: height), to: prefix + "-pressure.png")
                try writeNew(try SignatureExaminationPNG.speed(strokes: strokes, width: width, height: height), to: prefix + "-speed.png")
            } catch let error as ConsentPDFError {
                throw CommandFailure(error.description)
            }
            print("wrote \(prefix)-pressure.png and \(prefix)-speed.png")
        }
    }
}

/// The figures `signature show` prints.
struct SignatureSummary {
    var points: Int
    var strokes: Int
    /// The pen's hover between strokes, when the pad reported proximity (19794-7's pen-up samples).
    var hoverSamples: Int
    var durationMs: Double
    var samplingRateHz: Double?
    var pressureRange: ClosedRange<Double>?

    init(_ signature: SignatureStrokes) {
        points = signature.pointCount
        strokes = signature.strokes.filter { !$0.isEmpty }.count
        hoverSamples = signature.hover?.count ?? 0
        let times = signature.strokes.joined().map(\.t)
        durationMs = (times.max() ?? 0) - (times.min() ?? 0)
        samplingRateHz = ISO19794_7Record.samplingRate(signature)
        let pressures = signature.strokes.joined().compactMap(\.p)
        if let low = pressures.min(), let high = pressures.max() { pressureRange = low...high }
    }
}

/// Creates `path` with `bytes`, 0600 (biometric data is PHI), never over an existing file.
func writeNew(_ bytes: Data, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    guard !FileManager.default.fileExists(atPath: url.path) else {
        throw CommandFailure("\(path) exists; choose a new name (nothing is overwritten)")
    }
    do {
        try RecordWriter.writeFile(bytes, to: url)
    } catch let error as ConsentSigningError {
        throw CommandFailure(error.description)
    }
}
