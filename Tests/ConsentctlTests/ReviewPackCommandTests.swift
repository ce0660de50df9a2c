import Foundation
import Testing

/// `consentctl study review` and `study seal --review-pack` as a coordinator runs them on the sample study: the
/// pack written twice gives the same bytes, and the seal binds it.
@Suite struct ReviewPackCommandTests {
    /// Every file under `folder` with its bytes, by relative path.
    static func contents(of folder: URL) throws -> [String: Data] {
        let root = folder.standardizedFileURL.path
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            found[String(url.standardizedFileURL.path.dropFirst(root.count + 1))] = try Data(contentsOf: url)
        }
        return found
    }

    @Test func theSamplesPackIsTheSameBytesTwiceAndTheSealBindsIt() throws {
        let fleet = try StudyRegistryCommandTests.Fleet()
        let first = fleet.root.appendingPathComponent("pack-1"), second = fleet.root.appendingPathComponent("pack-2")
        let made = try CommandRunner.run("consentctl", ["study", "review", fleet.v1.path, "-o", first.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try CommandRunner.run("consentctl", ["study", "review", fleet.v1.path, "-o", second.path]).status == 0)
        let files = try Self.contents(of: first)
        #expect(try Self.contents(of: second) == files, "the same study, the same bytes")
        for tag in ["en", "de", "fr"] {
            #expect(files["\(tag)/screens.pdf"]?.starts(with: Data("%PDF-".utf8)) == true, "\(tag)")
            let audio = files.keys.filter { $0.hasPrefix("\(tag)/audio/") && $0.hasSuffix(".wav") }
            #expect(audio.count > 10, "\(tag): a WAV per screen")
            #expect(audio.allSatisfy { files[$0]?.starts(with: Data("RIFF".utf8)) == true })
        }
        // pack.json lists every other file with its SHA-256, and the screensDigest is screens.json's, compacted.
        let packBytes = try #require(files["pack.json"])
        let pack = try #require(try JSONSerialization.jsonObject(with: packBytes) as? [String: Any])
        let listed = (pack["files"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(Set(listed) == Set(files.keys).subtracting(["pack.json"]))
        let screensDigest = try #require(pack["screensDigest"] as? String)
        let compact = try fleet.run(
            "/bin/sh", ["-c", "python3 -c 'import json,sys; sys.stdout.write(json.dumps(json.load(open(sys.argv[1])), sort_keys=True, separators=(\",\",\":\"), ensure_ascii=False))' \(first.path)/screens.json | sha256sum"])
        #expect(compact.output.hasPrefix(screensDigest), "\(compact.output)")

        // A changed file of the pack is refused; the pack as made is sealed into the approval.
        let pdf = first.appendingPathComponent("en/screens.pdf")
        try (try Data(contentsOf: pdf) + Data(" ".utf8)).write(to: pdf)
        let tampered = try fleet.seal(fleet.v1, ["--review-pack", first.path])
        #expect(tampered.status == 1)
        #expect(tampered.stderr.contains("en/screens.pdf"))
        let sealed = try fleet.seal(fleet.v1, ["--review-pack", second.path])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        #expect(sealed.stdout.contains("review pack "))
        let approval = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: fleet.v1.appendingPathComponent("approval.json"))) as? [String: Any])
        #expect(approval["screensDigest"] as? String == screensDigest)
        let packDigest = try fleet.run("/usr/bin/sha256sum", [second.appendingPathComponent("pack.json").path])
        let reviewPack = try #require(approval["reviewPack"] as? String)
        #expect(packDigest.output.hasPrefix(reviewPack))
        // A pack of some languages seals only an approval of those.
        let english = fleet.root.appendingPathComponent("pack-en")
        #expect(try CommandRunner.run("consentctl", ["study", "review", fleet.v2.path, "-o", english.path, "--language", "en", "--no-audio"]).status == 0)
        let all = try fleet.seal(fleet.v2, ["--review-pack", english.path])
        #expect(all.status == 1)
        #expect(all.stderr.contains("--language"))
        #expect(try fleet.seal(fleet.v2, ["--review-pack", english.path, "--language", "en"]).status == 0)
    }
}
