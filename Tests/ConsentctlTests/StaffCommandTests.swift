import Foundation
import Testing

/// `consentctl staff add|list|remove` as an administrator runs it: the PIN as two lines on a piped stdin (never an
/// argument), the file `0600` without the PIN, the config's `staffFile` as the default.
@Suite struct StaffCommandTests {
    /// Runs consentctl with `input` on its stdin.
    static func run(_ arguments: [String], input: String = "") throws -> CommandRunner.Result {
        let process = Process()
        process.executableURL = CommandRunner.productsFolder.appendingPathComponent("consentctl")
        process.arguments = arguments
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    @Test func addListRemoveWithThePinOnStdin() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("staff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("staff.json").path

        let added = try Self.run(["staff", "add", "jroe", "--name", "Jane Roe", "--file", file], input: "482913\n482913\n")
        #expect(added.status == 0, "\(added.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains("482913") && text.contains("PBKDF2-SHA256") && text.contains("Jane Roe"))

        // Two PINs that differ, a short PIN, an id already there: refused, the file unchanged.
        let differ = try Self.run(["staff", "add", "mmax", "--name", "Max", "--file", file], input: "135790\n135791\n")
        #expect(differ.status != 0 && differ.stderr.contains("differ"))
        let short = try Self.run(["staff", "add", "mmax", "--name", "Max", "--file", file], input: "1357\n1357\n")
        #expect(short.status != 0 && short.stderr.contains("6 to 12 digits"))
        let twice = try Self.run(["staff", "add", "JROE", "--name", "Other", "--file", file], input: "135790\n135790\n")
        #expect(twice.status != 0 && twice.stderr.contains("exists"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == text)

        // The config's staffFile is the default file.
        let config = folder.appendingPathComponent("consentd.json")
        try Data(#"{"staffFile": "\#(file)"}"#.utf8).write(to: config)
        let listed = try Self.run(["staff", "list", "--config", config.path])
        #expect(listed.status == 0 && listed.stdout.contains("jroe\tJane Roe"), "\(listed.stderr)")
        #expect(!listed.stdout.contains("hash") && !listed.stdout.contains("salt"))

        let removed = try Self.run(["staff", "remove", "jroe", "--config", config.path])
        #expect(removed.status == 0)
        #expect(try Self.run(["staff", "list", "--file", file]).stdout.contains("no staff"))
        #expect(try Self.run(["staff", "remove", "jroe", "--file", file]).status != 0)
        // Without --file and without a config naming one: a clear error.
        let missing = try Self.run(["staff", "list", "--config", folder.appendingPathComponent("none.json").path])
        #expect(missing.status != 0 && missing.stderr.contains("--file"))
    }
}
