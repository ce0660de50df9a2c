import Foundation
import Testing

/// `consentctl study seal`, `consentctl studies` and `consentctl reconsent list` as a coordinator runs them: two
/// versions of the sample study side by side, sealed with a new IRB key, and records signed on each.
@Suite struct StudyRegistryCommandTests {
    static let studyID = "org.example.heartbeat-sleep.consent"

    /// `root/heartbeat/v1` (the sample) and `root/heartbeat/v2` (an amendment: one page changed), an IRB key, a
    /// state directory; removed when the test is done.
    final class Fleet {
        let root: URL
        var versions: URL { root.appendingPathComponent("heartbeat") }
        var v1: URL { versions.appendingPathComponent("v1") }
        var v2: URL { versions.appendingPathComponent("v2") }
        var key: URL { root.appendingPathComponent("irb-key.pem") }
        var publicKey: URL { root.appendingPathComponent("irb-key.pub.pem") }
        var state: URL { root.appendingPathComponent("state") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: versions, withIntermediateDirectories: true)
            let sample = CommandRunner.packageRoot.appendingPathComponent("Sources/SampleStudy/sample")
            try FileManager.default.copyItem(at: sample, to: v1)
            try FileManager.default.copyItem(at: sample, to: v2)
            for folder in [v1, v2] { try? FileManager.default.removeItem(at: folder.appendingPathComponent("approval.json")) }
            let overview = v2.appendingPathComponent("overview.html")
            try (try String(contentsOf: overview, encoding: .utf8) + "<p>Amendment 2: a new sentence.</p>")
                .write(to: overview, atomically: true, encoding: .utf8)
            #expect(try run("/usr/bin/openssl", ["genpkey", "-algorithm", "ed25519", "-out", key.path]).status == 0)
            #expect(try run("/usr/bin/openssl", ["pkey", "-in", key.path, "-pubout", "-out", publicKey.path]).status == 0)
            try FileManager.default.createDirectory(at: state.appendingPathComponent("records"), withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func seal(_ folder: URL, _ extra: [String] = []) throws -> CommandRunner.Result {
            try CommandRunner.run(
                "consentctl", ["study", "seal", folder.path, "--key", key.path, "--approved", "2026-01-01", "--expires", "2099-12-31"] + extra)
        }

        /// Signs a consent on `folder` (as the agent would) into the state directory; returns the record id.
        func sign(_ folder: URL, language: String? = nil, family: String = "Lovelace") throws -> String {
            let session: [String: Any] = [
                "answers": [true, true, false, true], "shareWidely": true, "given": "Ada", "family": family,
                "strokes": [[[0.1, 0.2, 0, 0.5], [0.3, 0.4, 16, 0.5], [0.5, 0.2, 32, 0.5], [0.6, 0.5, 48, 0.5]]],
                "signedAt": "2026-09-14T10:15:30Z",
                // The sample study's comprehension questions, answered right at the first attempt.
                "comprehension": [[1], [1], [0]],
                // And its optional elements.
                "optional": ["future-research": true, "contact-other-studies": false],
            ]
            let input = root.appendingPathComponent("session-\(UUID().uuidString.prefix(6)).json")
            try JSONSerialization.data(withJSONObject: session).write(to: input)
            let id = UUID().uuidString.lowercased()
            let output = state.appendingPathComponent("records/\(id)")
            let signed = try CommandRunner.run(
                "consentctl",
                ["sign", folder.path, "-i", input.path, "-o", output.path, "--state-dir", state.path]
                    + (language.map { ["--language", $0] } ?? []))
            #expect(signed.status == 0, "\(signed.stdout)\(signed.stderr)")
            return id
        }

        func config(_ object: [String: Any]) throws -> URL {
            let url = root.appendingPathComponent("consentd-\(UUID().uuidString.prefix(6)).json")
            try JSONSerialization.data(withJSONObject: object).write(to: url)
            return url
        }

        func json(_ arguments: [String]) throws -> [String: Any] {
            let result = try CommandRunner.run("consentctl", arguments + ["--json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        }

        func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    /// The rows of `studies --json` for the sample study, by version folder and language.
    static func rows(_ report: [String: Any]) -> [[String: Any]] {
        let studies = report["studies"] as? [[String: Any]] ?? []
        return studies.first { $0["study"] as? String == studyID }?["versions"] as? [[String: Any]] ?? []
    }

    @Test func sealWritesAnApprovalNamingEachLanguagesVersion() throws {
        let fleet = try Fleet()
        let sealed = try fleet.seal(fleet.v1, ["--site", "clinic-3", "--language", "en", "de", "--reference", "IRB #2026-0042"])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        #expect(sealed.stdout.contains("key SHA256:"))
        let approval = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: fleet.v1.appendingPathComponent("approval.json"))) as? [String: Any])
        #expect(approval["format"] as? String == "consent-kiosk-approval/1")
        #expect(approval["study"] as? String == Self.studyID)
        #expect((approval["versions"] as? [String: String])?.keys.sorted() == ["de", "en"])
        #expect(approval["site"] as? String == "clinic-3")
        #expect(approval["reference"] as? String == "IRB #2026-0042")
        // The fingerprint is openssl's: SHA-256 over the public key's DER.
        let der = try fleet.run("/bin/sh", ["-c", "openssl pkey -pubin -in \(fleet.publicKey.path) -outform DER | sha256sum"])
        #expect(approval["keyFingerprint"] as? String == "SHA256:" + (der.output.split(separator: " ").first.map(String.init) ?? ""))
        // The approved version is the one `inspect` reports: sealing changed no version.
        let inspect = try CommandRunner.run("consentctl", ["inspect", fleet.v1.path, "--json"])
        let version = try #require((approval["versions"] as? [String: String])?["en"])
        #expect(inspect.stdout.contains(version))

        let backwards = try CommandRunner.run(
            "consentctl", ["study", "seal", fleet.v2.path, "--key", fleet.key.path, "--approved", "2026-06-01", "--expires", "2026-05-31"])
        #expect(backwards.status == 1)
        #expect(backwards.stderr.contains("before it starts"))
        let notADate = try CommandRunner.run(
            "consentctl", ["study", "seal", fleet.v2.path, "--key", fleet.key.path, "--approved", "2026-02-30", "--expires", "2027-01-01"])
        #expect(notADate.status == 1)
        #expect(notADate.stderr.contains("YYYY-MM-DD"))
        let publicKeyAsKey = try CommandRunner.run(
            "consentctl", ["study", "seal", fleet.v2.path, "--key", fleet.publicKey.path, "--approved", "2026-01-01", "--expires", "2027-01-01"])
        #expect(publicKeyAsKey.status == 1)
        #expect(publicKeyAsKey.stderr.contains("not an Ed25519 private key"))
        #expect(!FileManager.default.fileExists(atPath: fleet.v2.appendingPathComponent("approval.json").path))
    }

    /// Two versions side by side: the newest is served, the older one is superseded and keeps its record count;
    /// the records on it are who must re-consent, without names unless asked. The amendment changed English only:
    /// German and French are the same version in both folders (one row each), and a German consent stands.
    @Test func registryCountsRecordsPerVersionAndListsWhoMustReconsent() throws {
        let fleet = try Fleet()
        #expect(try fleet.seal(fleet.v1).status == 0)
        let old1 = try fleet.sign(fleet.v1)
        let old2 = try fleet.sign(fleet.v1, language: "de", family: "Byron")
        #expect(try fleet.seal(fleet.v2).status == 0)
        let current = try fleet.sign(fleet.v2)

        let report = try fleet.json(["studies", "--study", fleet.versions.path, "--state-dir", fleet.state.path])
        let rows = Self.rows(report)
        func row(_ folder: String, _ language: String) -> [String: Any]? {
            rows.first { ($0["folder"] as? String)?.hasSuffix("/\(folder)") == true && $0["language"] as? String == language }
        }
        #expect(row("v1", "en")?["state"] as? String == "superseded")
        #expect(row("v1", "en")?["records"] as? Int == 1)
        #expect(row("v1", "de")?["records"] as? Int == 1)
        #expect(row("v1", "de")?["state"] as? String == "active")
        #expect(rows.filter { $0["language"] as? String == "de" }.count == 1)
        #expect(row("v2", "en")?["state"] as? String == "active")
        #expect(row("v2", "en")?["records"] as? Int == 1)
        #expect(rows.first { $0["language"] as? String == "fr" }?["records"] as? Int == 0)
        #expect(row("v2", "en")?["approved"] as? String == "2026-01-01")
        #expect(row("v2", "en")?["expires"] as? String == "2099-12-31")

        let list = try fleet.json(["reconsent", "list", Self.studyID, "--study", fleet.versions.path, "--state-dir", fleet.state.path])
        let listed = (list["records"] as? [[String: Any]] ?? []).compactMap { $0["record"] as? String }
        #expect(listed == [old1])
        #expect(!listed.contains(old2), "German did not change")
        #expect(!listed.contains(current))
        let text = try CommandRunner.run(
            "consentctl", ["reconsent", "list", Self.studyID, "--study", fleet.versions.path, "--state-dir", fleet.state.path])
        #expect(text.status == 0)
        #expect(text.stdout.contains(old1) && text.stdout.contains("2026-09-14"))
        #expect(!text.stdout.contains("Lovelace") && !text.stdout.contains("Byron"), "no PHI without --show-names")
        let named = try CommandRunner.run(
            "consentctl",
            ["reconsent", "list", Self.studyID, "--study", fleet.versions.path, "--state-dir", fleet.state.path, "--show-names"])
        #expect(named.stdout.contains("\(old1)  ") && named.stdout.contains("Ada Lovelace"))
        #expect(!named.stdout.contains("Byron"))
    }

    /// With approvalKeys and a site: a newer version approved for another site is not served here; the older one
    /// stays active. An expired approval is listed as expired.
    @Test func registryFollowsTheKiosksApprovalsAndSite() throws {
        let fleet = try Fleet()
        #expect(try fleet.seal(fleet.v1, ["--site", "clinic-3"]).status == 0)
        #expect(try fleet.seal(fleet.v2, ["--site", "clinic-4"]).status == 0)
        let config = try fleet.config([
            "approvalKeys": [fleet.publicKey.path], "site": "clinic-3", "studies": [fleet.versions.path], "stateDir": fleet.state.path,
        ])
        let report = try fleet.json(["studies", "--config", config.path])
        #expect(report["approvalsChecked"] as? Bool == true)
        let rows = Self.rows(report)
        let v1 = rows.first { ($0["folder"] as? String)?.hasSuffix("/v1") == true && $0["language"] as? String == "en" }
        let v2 = rows.first { ($0["folder"] as? String)?.hasSuffix("/v2") == true && $0["language"] as? String == "en" }
        #expect(v1?["state"] as? String == "active")
        #expect(v1?["site"] as? String == "clinic-3")
        #expect(v2?["state"] as? String == "superseded" || v2?["state"] as? String == "notApproved")

        let expired = try CommandRunner.run(
            "consentctl",
            ["study", "seal", fleet.v2.path, "--key", fleet.key.path, "--approved", "2020-01-01", "--expires", "2020-12-31", "--site", "clinic-3"])
        #expect(expired.status == 0)
        let single = try fleet.config(["approvalKeys": [fleet.publicKey.path], "site": "clinic-3", "studies": [fleet.v2.path]])
        let later = Self.rows(try fleet.json(["studies", "--config", single.path, "--state-dir", fleet.state.path]))
        #expect(later.first { $0["language"] as? String == "en" }?["state"] as? String == "expired")
    }

    /// `consentctl lint` on a package: its approval present, sound, by a trusted key, current, covering every language.
    @Test func lintChecksThePackagesApproval() throws {
        let fleet = try Fleet()
        func approvalCodes(_ arguments: [String]) throws -> (status: Int32, codes: [String: String]) {
            let result = try CommandRunner.run("consentctl", ["lint"] + arguments + ["--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
            var codes: [String: String] = [:]
            for d in object["approval"] as? [[String: Any]] ?? [] {
                codes[d["code"] as? String ?? "?"] = d["severity"] as? String
            }
            return (result.status, codes)
        }
        #expect(try approvalCodes([fleet.v1.path]).codes == ["approvalMissing": "warning"])
        #expect(try approvalCodes([fleet.v1.path]).status == 0)

        #expect(try fleet.seal(fleet.v1, ["--language", "en", "fr"]).status == 0)
        let partial = try approvalCodes([fleet.v1.path, "--approval-key", fleet.publicKey.path])
        #expect(partial.codes == ["approvalLanguageMissing": "warning"])
        #expect(partial.status == 0)

        // Trusted by another key only.
        let other = fleet.root.appendingPathComponent("other.pem"), otherPublic = fleet.root.appendingPathComponent("other.pub.pem")
        _ = try fleet.run("/usr/bin/openssl", ["genpkey", "-algorithm", "ed25519", "-out", other.path])
        _ = try fleet.run("/usr/bin/openssl", ["pkey", "-in", other.path, "-pubout", "-out", otherPublic.path])
        let untrusted = try approvalCodes([fleet.v1.path, "--approval-key", otherPublic.path])
        #expect(untrusted.codes["approvalUntrusted"] == "error")
        #expect(untrusted.status == 3)

        // A page changed after sealing; then the file itself tampered with.
        let overview = fleet.v1.appendingPathComponent("de/overview.html")
        try (try String(contentsOf: overview, encoding: .utf8) + "<p>Neu.</p>").write(to: overview, atomically: true, encoding: .utf8)
        #expect(try fleet.seal(fleet.v1).status == 0)
        let fr = fleet.v1.appendingPathComponent("fr/overview.html")
        try (try String(contentsOf: fr, encoding: .utf8) + "<p>Nouveau.</p>").write(to: fr, atomically: true, encoding: .utf8)
        let outdated = try approvalCodes([fleet.v1.path])
        #expect(outdated.codes == ["approvalOutdated": "error"])
        #expect(outdated.status == 3)
        #expect(try fleet.seal(fleet.v1).status == 0)
        let file = fleet.v1.appendingPathComponent("approval.json")
        let tampered = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "2099-12-31", with: "2199-12-31")
        try tampered.write(to: file, atomically: true, encoding: .utf8)
        #expect(try approvalCodes([fleet.v1.path]).codes == ["approvalInvalid": "error"])

        // Expired, and ending soon.
        #expect(try CommandRunner.run(
            "consentctl", ["study", "seal", fleet.v1.path, "--key", fleet.key.path, "--approved", "2020-01-01", "--expires", "2020-06-30"]).status == 0)
        #expect(try approvalCodes([fleet.v1.path]).codes == ["approvalExpired": "error"])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let soon = calendar.date(byAdding: .day, value: 5, to: Date()) ?? Date()
        let c = calendar.dateComponents([.year, .month, .day], from: soon)
        #expect(try CommandRunner.run(
            "consentctl",
            ["study", "seal", fleet.v1.path, "--key", fleet.key.path, "--approved", "2020-01-01", "--expires",
             String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)]).status == 0)
        #expect(try approvalCodes([fleet.v1.path]).codes == ["approvalExpiring": "warning"])
    }
}
