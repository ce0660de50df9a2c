import ArgumentParser
import ConsentCore
import ConsentPDF
import ConsentSigning
import FileBytes
import Foundation
import Speech

extension StudyCommand {
    /// `consentctl study review STUDY -o FOLDER [--language L…] [--paper a4|letter] [--no-audio]`: the IRB review
    /// pack (docs/OPERATIONS.md, "The IRB review pack").
    struct Review: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the IRB review pack: every screen a participant can reach, as PDF and read-aloud WAV, per language.",
            discussion: """
                For each language of the study (or --language): <tag>/screens.pdf, every screen laid out by the \
                kiosk's PDF engine (start, introduction pages, eligibility and its messages, key information, each \
                scene, sharing, optional elements, comprehension questions and explanations, the review document, \
                the signature pages, the end screens), and <tag>/audio/<nn>-<screen>.wav, each screen read aloud by \
                the kiosk's voice. screens.json is the screens' words and settings as canonical JSON, and pack.json \
                lists every file with its SHA-256 and the screensDigest (the SHA-256 of screens.json compacted). \
                The same study gives the same bytes. Send the folder to the IRB; seal with \
                consentctl study seal --review-pack FOLDER. Exit status: 0 written, 1 usage or I/O error.
                """)

        @Argument(help: "The study folder (with contract.json).")
        var study: String

        @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The folder to write the pack to: new, empty, or an earlier pack.", valueName: "FOLDER"))
        var output: String

        @Option(parsing: .upToNextOption, help: ArgumentHelp("The languages to show (those the approval will cover); default: every language of the study.", valueName: "L"))
        var language: [String] = []

        @Option(help: "Paper size: a4 or letter. Default: a4 (the pack is the same wherever it is made).")
        var paper: PDFOptions.Paper = .a4

        @Flag(help: "Leave out the WAV files (a quick proof; a pack for the IRB has them).")
        var noAudio = false

        func run() async throws {
            let loaded: ConsentCore.Study
            do { loaded = try ConsentCore.Study.load(from: URL(fileURLWithPath: study)) } catch let error as ConsentCoreError {
                throw CommandFailure(error.description)
            }
            var languages: [ConsentCore.Study] = []
            for tag in language.isEmpty ? loaded.languages.map(\.tag) : language {
                guard let translated = loaded.inLanguage(tag) else {
                    throw CommandFailure(
                        "the study has no consent in \"\(tag)\"; it has \(loaded.languages.map(\.tag).joined(separator: ", "))")
                }
                languages.append(translated)
            }
            let tags = languages.map(\.language)
            let folder = URL(fileURLWithPath: output)
            try Self.prepare(folder)

            var files: [String: Data] = [:]
            let renderer = ConsentPDFRenderer(options: PDFOptions(paper: paper))
            for language in languages {
                let screens = ReviewScreens.of(language)
                let pdf: RenderedPDF
                do { pdf = try renderer.renderReviewScreens(study: language, screens: screens) } catch let error as ConsentPDFError {
                    throw CommandFailure("\(language.language): \(error.description)")
                }
                for warning in pdf.warnings {
                    FileHandle.standardError.write(Data("consentctl: warning: \(language.language): \(warning)\n".utf8))
                }
                files["\(language.language)/screens.pdf"] = pdf.data
                guard !noAudio else { continue }
                let voice = KioskLanguagePack.pack(for: language.language).voice
                for (index, screen) in screens.enumerated() {
                    let name = String(format: "%02d", index + 1) + "-\(screen.id).wav"
                    files["\(language.language)/audio/\(name)"] = try await Self.audio(
                        ReviewScreens.spokenText(screen), voice: voice, language: language.language)
                }
            }
            guard let canonical = ScreensDigest.canonical(loaded, languages: tags),
                let digest = ScreensDigest.of(loaded, languages: tags)
            else {
                throw CommandFailure("the study's screens cannot be listed")
            }
            files[ReviewPack.screensFileName] = try canonical.serialized(pretty: true) + Data("\n".utf8)
            let pack = ReviewPack(
                study: loaded.id, versions: Dictionary(uniqueKeysWithValues: languages.map { ($0.language, $0.version) }),
                screensDigest: digest, files: files.map { ReviewPack.File(name: $0.key, contents: $0.value) })
            for name in files.keys.sorted() {
                try Self.write(folder.appendingPathComponent(name), files[name] ?? Data())
            }
            try Self.write(folder.appendingPathComponent(ReviewPack.fileName), try pack.encoded())
            print("review pack of \(loaded.id): \(output)")
            for language in languages {
                let count = files.keys.filter { $0.hasPrefix("\(language.language)/") }.count
                print("  \(language.language) version \(language.shortVersion): \(count) file(s)")
            }
            print("  screens \(digest.prefix(12)); seal with consentctl study seal \(study) --review-pack \(output) …")
        }

        /// The audio of a screen: its text in the chunks the agent speaks (`SpeechChunks`), one after the other.
        static func audio(_ text: String, voice: String, language: String) async throws -> Data {
            var samples: [Int16] = []
            var rate = 0
            for chunk in SpeechChunks.split(text) {
                do {
                    let spoken = try await SpeechSynthesizer.shared.speak(chunk, voice: voice, cache: false)
                    samples += spoken.samples
                    rate = spoken.sampleRate
                } catch {
                    throw CommandFailure(
                        "\(language): the read-aloud cannot speak (\(error)); install espeak-ng-data, or leave the audio out with --no-audio")
                }
            }
            return Data(SpokenAudio(samples: samples, sampleRate: rate).wav)
        }

        /// A new or empty folder, or one holding an earlier pack (whose files are written over).
        static func prepare(_ folder: URL) throws {
            let manager = FileManager.default
            if let names = try? manager.contentsOfDirectory(atPath: folder.path) {
                guard names.isEmpty || names.contains(ReviewPack.fileName) else {
                    throw CommandFailure("\(folder.path) holds other files; name a new or empty folder, or an earlier pack")
                }
                // An earlier pack's audio of screens the study no longer has would linger unlisted: its listed files
                // go (only those: anything else in the folder stays).
                let listing = folder.appendingPathComponent(ReviewPack.fileName)
                if let bytes = try? FileBytes.read(listing.path, limit: 16 << 20), let earlier = try? ReviewPack.parse(Data(bytes)) {
                    for file in earlier.files { try? manager.removeItem(at: folder.appendingPathComponent(file.name)) }
                }
                try? manager.removeItem(at: listing)
            }
            do { try manager.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw CommandFailure("\(folder.path): cannot be made (\(error))")
            }
        }

        static func write(_ url: URL, _ data: Data) throws {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try DurableWrite.replace(url.path, contents: data, mode: 0o644)
            } catch {
                throw CommandFailure("\(url.path): cannot be written (\(error))")
            }
        }
    }
}
