import Foundation
import Testing

/// `--language` of the study commands, and what `inspect` says about a study's languages.
@Suite struct LanguageCommandTests {
    @Test func inspectListsLanguagesAndShowsOneWithLanguage() throws {
        let all = try CommandRunner.run("consentctl", ["inspect", "--json"])
        #expect(all.status == 0, "\(all.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])
        #expect(object["language"] as? String == "en")
        let languages = object["languages"] as? [String] ?? []
        #expect(languages.map { $0.split(separator: " ").first.map(String.init) } == ["en", "de", "es", "fr"])

        let german = try CommandRunner.run("consentctl", ["inspect", "--language", "de"])
        #expect(german.status == 0, "\(german.stderr)")
        #expect(german.stdout.contains("Language de"))
        #expect(german.stdout.contains("Sharing team: das Team von Heartbeat & Sleep"))
        #expect(german.stdout.contains("[DataGathering] Datenerhebung"))

        let unknown = try CommandRunner.run("consentctl", ["inspect", "--language", "it"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no consent in \"it\"") && unknown.stderr.contains("en, de, es, fr"))
    }

    @Test func previewInFrench() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CommandRunner.run("consentctl", ["preview", "--language", "fr", "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let pdftotext = Process()
        pdftotext.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        pdftotext.arguments = [output.path, "-"]
        let pipe = Pipe()
        pdftotext.standardOutput = pipe
        try pdftotext.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        pdftotext.waitUntilExit()
        // The key information first, under its French heading; then the French Contract's title heads the document.
        #expect(text.hasPrefix("Informations clés"), "\(text.prefix(200))")
        #expect(text.contains("Étude Heartbeat & Sleep"), "the French Contract's title heads the document")
        #expect(text.contains("Signature (Participant(e))"))
    }
}
