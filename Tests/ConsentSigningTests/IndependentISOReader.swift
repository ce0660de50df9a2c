import ConsentSigning
import Foundation
import Testing

/// The independent 19794-7 reader (Tests/Interchange, Python, written from the published field table and sharing no
/// code with Sources/SignatureInterchange): runs it over record folders, and keeps every record folder a test wrote
/// in `.build/iso19794-7-written/`, which scripts/run-tests reads again with it after the whole suite.
enum IndependentISOReader {
    static let script = Fixture.packageRoot.appendingPathComponent("Tests/Interchange/check_iso19794_7.py")
    static let written = Fixture.packageRoot.appendingPathComponent(".build/iso19794-7-written")

    struct Result {
        var status: Int32
        var output: String
    }

    /// `check_iso19794_7.py --expect-files` over `folders`: each 19794-7 file against the signature.json beside it.
    static func check(_ folders: [URL]) throws -> Result {
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let python else { throw FixtureError("python3 is not installed; scripts/ensure-deps installs it") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, "--expect-files"] + folders.map(\.path)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// Copies a record folder's signature.json and 19794-7 files to `.build/iso19794-7-written/<name>/`.
    static func keep(_ folder: URL, as name: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let kept = names.filter { $0 == "signature.json" || $0 == "manifest.json" || $0.hasSuffix(".iso19794-7") }
        guard kept.contains("signature.json") else { return }
        let target = written.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for file in kept {
            try? FileManager.default.copyItem(
                at: folder.appendingPathComponent(file), to: target.appendingPathComponent(file))
        }
    }

    /// Writes a signed record's signature.json and 19794-7 files to `.build/iso19794-7-written/<name>/` (nothing
    /// when its strokes are sealed to an escrow key).
    static func keep(_ record: SignedRecord, as name: String) {
        let kept = record.files.filter {
            $0.name == "signature.json" || $0.name == "manifest.json" || $0.name.hasSuffix(".iso19794-7")
        }
        guard kept.contains(where: { $0.name == "signature.json" }),
            kept.contains(where: { $0.name.hasSuffix(".iso19794-7") })
        else { return }
        let target = written.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for file in kept { try? file.contents.write(to: target.appendingPathComponent(file.name)) }
    }
}
