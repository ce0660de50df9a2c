import Foundation
import IntegrationSupport
import Testing

/// The command-line tools the integration tests run besides consentd: consentctl, the FHIR validator, openssl,
/// pdftotext, the test FHIR server.
enum Tools {
    static var consentctl: String { Paths.consentd.deletingLastPathComponent().appendingPathComponent("consentctl").path }

    /// A command to run, its standard output and error into one pipe.
    private static func command(_ executable: String, _ arguments: [String]) -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        return (process, pipe)
    }

    /// Runs a command to its end; stdout and stderr together.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let (process, pipe) = command(executable, arguments)
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Runs a command, killed (SIGKILL) when it is still running after `seconds`: for a command that must end by
    /// itself, so a hang fails the test instead of holding the suite. Status -1 when killed.
    static func run(_ executable: String, _ arguments: [String], killAfter seconds: Double) throws -> (status: Int32, output: String) {
        let (process, pipe) = command(executable, arguments)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        // Foundation's Process and its termination handler hold each other until the handler is taken away
        // (LeakSanitizer saw the pair, and all they hold, at the test runner's exit).
        defer { process.terminationHandler = nil }
        try process.run()
        let output = OutputBox()
        let read = DispatchGroup()
        DispatchQueue.global().async(group: read) { output.set(pipe.fileHandleForReading.readDataToEndOfFile()) }
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            read.wait()
            return (-1, String(decoding: output.get(), as: UTF8.self) + "\n(still running after \(seconds) s: killed)")
        }
        read.wait()
        // Foundation lets the process go once its exit is reaped here, as on the killed path.
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output.get(), as: UTF8.self))
    }

    /// What a command wrote, handed from the thread that read it.
    private final class OutputBox: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ data: Data) { lock.withLock { self.data = data } }
        func get() -> Data { lock.withLock { data } }
    }

    /// The independent FHIR validator of the signing tests (fhir.resources) over `files`.
    static func validateFHIR(_ files: [URL]) throws -> (status: Int32, output: String) {
        try run(
            Paths.validatorPython.path,
            [Paths.root.appendingPathComponent("Tests/ConsentSigningTests/validate_fhir.py").path] + files.map(\.path))
    }

    /// The FHIR files of a record directory, for `validateFHIR`.
    static func fhirFiles(of record: URL) -> [URL] {
        let comprehension = record.appendingPathComponent("questionnaire-response.json")
        return ["contract.json", "consent.json", "provenance.json", "patient.json", "bundle.json"].map {
            record.appendingPathComponent($0)
        } + (FileManager.default.fileExists(atPath: comprehension.path) ? [comprehension] : [])
    }
}

/// `fhir_server.py`: a FHIR endpoint on a free local port that writes each request it receives to `received`.
final class FHIRTestServer {
    let port: Int
    private let process = Process()

    init(received: URL, failFirst: Int, lifetime: Int) throws {
        try FileManager.default.createDirectory(at: received, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            Paths.root.appendingPathComponent("Tests/ConsentdIntegrationTests/fhir_server.py").path,
            "--out", received.path, "--fail-first", "\(failFirst)", "--lifetime", "\(lifetime)",
        ]
        let portPipe = Pipe()
        process.standardOutput = portPipe
        try process.run()
        // The server prints its port once it listens.
        let portLine = String(decoding: portPipe.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(portLine.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.end()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "fhir_server.py printed no port: \(portLine)"])
        }
        self.port = port
    }

    var endpoint: String { "http://127.0.0.1:\(port)/fhir" }

    /// Call it in a `defer`: that also keeps the server alive to the end of the test (ARC could end it after its
    /// last use otherwise).
    func stop() { process.end() }

    deinit { process.end() }
}
