import Foundation

/// Where things are, found from this file so the tests work from any working directory.
enum Paths {
    /// The package root (this file is `Tests/ConsentdIntegrationTests/Paths.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The built agent; `swift build` puts it next to the test bundle.
    static var consentd: URL {
        let bundle = Bundle.main.bundleURL
        for candidate in [
            bundle.appendingPathComponent("consentd"), bundle.deletingLastPathComponent().appendingPathComponent("consentd"),
            root.appendingPathComponent(".build/debug/consentd"),
        ] where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        return root.appendingPathComponent(".build/debug/consentd")
    }

    static let socat = "/usr/bin/socat"
    static let validatorPython = root.appendingPathComponent(".build/test-venv/bin/python")
    static let validator = root.appendingPathComponent("Protocol/tools/validate.py")
    static let examples = root.appendingPathComponent("Protocol/examples")
    static let transcripts = root.appendingPathComponent(".build/protocol-transcripts")
    /// The signature files of the records the tests wrote, which scripts/run-tests reads with the independent
    /// 19794-7 reader (Tests/Interchange) after the suite.
    static let writtenISO19794 = root.appendingPathComponent(".build/iso19794-7-written")
}
