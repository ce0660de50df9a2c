import Foundation
import Testing

extension ConsentdIntegration {
    /// Every committed corpus file runs through its harness's replay mode (the debug build of each
    /// fuzz target, no fuzzer build), so a past finding kept in Fuzz/corpus cannot come back unnoticed.
    @Suite struct FuzzCorpusReplay {
        static let targets = [
            "FuzzProtocol", "FuzzContract", "FuzzHTML", "FuzzPadEvents", "FuzzConsentSession", "FuzzRequest",
            "FuzzConnection", "FuzzConfig", "FuzzVerifiers",
            "FuzzRecord", "FuzzISO19794", "FuzzBridge",
        ]

        @Test(arguments: targets)
        func everyCorpusFileReplaysCleanly(_ target: String) throws {
            let binary = Paths.consentd.deletingLastPathComponent().appendingPathComponent(target)
            try #require(FileManager.default.isExecutableFile(atPath: binary.path), "\(target) is built by swift build")
            let corpus = Paths.root.appendingPathComponent("Fuzz/corpus/\(target)")
            let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { !$0.hasPrefix(".") }.sorted()
            #expect(!files.isEmpty, "Fuzz/corpus/\(target) holds the seeds and findings")
            let process = Process()
            process.executableURL = binary
            process.arguments = files.map { corpus.appendingPathComponent($0).path }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(target):\n\(text.suffix(3000))")
            #expect(text.components(separatedBy: ": ok").count - 1 == files.count, "every input replayed")
        }
    }
}
