import Foundation
import Testing

/// A study package sealed with `consentctl study seal`, in a folder of its own with the IRB key that sealed it.
final class SealedStudy {
    let directory: URL
    let study: URL
    let privateKey: URL
    let publicKey: URL

    static var consentctl: URL { Paths.consentd.deletingLastPathComponent().appendingPathComponent("consentctl") }

    /// A copy of the sample study and a new IRB key; sealed when `approved`/`expires` are given.
    init(approved: String? = "2026-01-01", expires: String? = "2099-12-31", site: String? = nil, languages: [String] = [],
         reference: String? = "IRB #2026-0042", sourceLocation: SourceLocation = #_sourceLocation) throws {
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("sealed-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        study = directory.appendingPathComponent("study")
        try FileManager.default.copyItem(at: Paths.root.appendingPathComponent("Sources/SampleStudy/sample"), to: study)
        // The copy's approval is the committed test key's; this study is sealed with its own.
        try? FileManager.default.removeItem(at: study.appendingPathComponent("approval.json"))
        privateKey = directory.appendingPathComponent("irb-key.pem")
        publicKey = directory.appendingPathComponent("irb-key.pub.pem")
        #expect(try Tools.run("/usr/bin/openssl", ["genpkey", "-algorithm", "ed25519", "-out", privateKey.path]).status == 0,
                sourceLocation: sourceLocation)
        #expect(try Tools.run("/usr/bin/openssl", ["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path]).status == 0,
                sourceLocation: sourceLocation)
        if let approved, let expires {
            let sealed = try seal(approved: approved, expires: expires, site: site, languages: languages, reference: reference)
            #expect(sealed.status == 0, "\(sealed.output)", sourceLocation: sourceLocation)
        }
    }

    @discardableResult
    func seal(
        approved: String, expires: String, site: String? = nil, languages: [String] = [], reference: String? = nil
    ) throws -> (status: Int32, output: String) {
        var arguments = ["study", "seal", study.path, "--key", privateKey.path, "--approved", approved, "--expires", expires]
        if let site { arguments += ["--site", site] }
        if !languages.isEmpty { arguments += ["--language"] + languages }
        if let reference { arguments += ["--reference", reference] }
        return try Tools.run(Self.consentctl.path, arguments)
    }

    /// Moves the sealed study into a folder of versions, as `heartbeat/2026-01` (a kiosk holding a study's versions
    /// side by side); returns that folder, which `--study` names.
    func movedIntoVersionsFolder() throws -> URL {
        let versions = directory.appendingPathComponent("heartbeat")
        try FileManager.default.createDirectory(at: versions, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: study, to: versions.appendingPathComponent("2026-01"))
        return versions
    }

    /// A consentd config that trusts this study's key, at `site`.
    func config(site: String? = nil, extra: [String: Any] = [:]) throws -> URL {
        var object: [String: Any] = ["approvalKeys": [publicKey.path]]
        if let site { object["site"] = site }
        object.merge(extra) { _, new in new }
        let url = directory.appendingPathComponent("consentd-\(UUID().uuidString.prefix(6)).json")
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        return url
    }

    /// A consentd on this study (or `study`, a folder of its versions) that trusts its key, at `site`.
    func agent(_ name: String, site: String? = nil, study: URL? = nil) throws -> ConsentdProcess {
        try ConsentdProcess(name, arguments: ["--config", try config(site: site).path, "--study", (study ?? self.study).path])
    }

    /// Today's date, `days` from now, as an approval writes it (the agent's zone: the test's, UTC on CI).
    static func day(_ days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let date = calendar.date(byAdding: .day, value: days, to: Date()) ?? Date()
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

extension ConsentdIntegration {
    @Suite struct StudyApproval {
        /// A sealed study at its site: flows run, and the record binds the approval in its manifest and its Consent.
        @Test func approvedStudyRecordsNameTheApproval() throws {
            let sealed = try SealedStudy(site: "clinic-3")
            let agent = try sealed.agent("approval-ok", site: "clinic-3")
            defer { agent.finish() }
            let ui = try agent.client()
            ui.negotiate()
            let approval = ui.call("study.get")
            #expect(approval.string("result.study.approval.state") == "active")
            #expect(approval.string("result.study.approval.reference") == "IRB #2026-0042")
            #expect(approval.string("result.study.approval.site") == "clinic-3")
            #expect(approval.string("result.study.approval.expires") == "2099-12-31")
            #expect(ui.call("study.get", ["language": "de"]).string("result.study.approval.state") == "active")

            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            let completed = flow.call("flow.complete")
            let directory = try #require(completed.string("result.directory"))
            let manifest = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))) as? JSONObject)
            let approvalBytes = try Data(contentsOf: sealed.study.appendingPathComponent("approval.json"))
            let digest = try Tools.run("/usr/bin/sha256sum", [sealed.study.appendingPathComponent("approval.json").path])
                .output.split(separator: " ").first.map(String.init)
            #expect(!approvalBytes.isEmpty)
            #expect(manifest[path: "approval.sha256"] as? String == digest)
            #expect(manifest[path: "approval.reference"] as? String == "IRB #2026-0042")
            #expect(manifest[path: "approval.site"] as? String == "clinic-3")
            #expect(manifest[path: "approval.approved"] as? String == "2026-01-01")
            #expect((manifest[path: "approval.keyFingerprint"] as? String)?.hasPrefix("SHA256:") == true)
            try LinkedRecords.expectValid(URL(fileURLWithPath: directory))
            let consent = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/consent.json"))) as? JSONObject)
            let policies = consent["policy"] as? [JSONObject] ?? []
            #expect(policies.count == 2)
            #expect(policies.last?["uri"] as? String == "urn:consent-kiosk:approval:sha256:\(digest ?? "")")
            #expect(policies.last?["authority"] as? String == "urn:consent-kiosk:approval-key:\(manifest[path: "approval.keyFingerprint"] as? String ?? "")")
        }

        /// A study sealed with its IRB review pack: the kiosk recomputes the screens at load and serves it, and the
        /// record's manifest carries both digests (the pack's and its screensDigest), as approval.json gives them.
        @Test func reviewPackSealedStudyRecordsBothDigests() throws {
            let sealed = try SealedStudy(approved: nil, expires: nil)
            let pack = sealed.directory.appendingPathComponent("review-pack")
            let review = try Tools.run(
                SealedStudy.consentctl.path, ["study", "review", sealed.study.path, "-o", pack.path, "--no-audio"])
            #expect(review.status == 0, "\(review.output)")
            let seal = try Tools.run(
                SealedStudy.consentctl.path,
                ["study", "seal", sealed.study.path, "--key", sealed.privateKey.path, "--approved", "2026-01-01",
                 "--expires", "2099-12-31", "--review-pack", pack.path])
            #expect(seal.status == 0, "\(seal.output)")
            let approval = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: sealed.study.appendingPathComponent("approval.json"))) as? JSONObject)
            let screensDigest = try #require(approval["screensDigest"] as? String)
            let packDigest = try #require(approval["reviewPack"] as? String)

            let agent = try sealed.agent("approval-review-pack")
            defer { agent.finish() }
            let ui = try agent.client()
            ui.negotiate()
            #expect(ui.call("study.get").string("result.study.approval.state") == "active")
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            let directory = try #require(flow.call("flow.complete").string("result.directory"))
            let manifest = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))) as? JSONObject)
            #expect(manifest[path: "approval.screensDigest"] as? String == screensDigest)
            #expect(manifest[path: "approval.reviewPack"] as? String == packDigest)
            try LinkedRecords.expectValid(URL(fileURLWithPath: directory))
        }

        /// Another site, an expired approval, a changed file, an unsealed language: each refused with its reason; a
        /// withdrawal is never refused.
        @Test func unapprovedStudiesAreRefusedWithTheReason() throws {
            let sealed = try SealedStudy(site: "clinic-3", languages: ["en", "fr"])
            let elsewhere = try sealed.agent("approval-site", site: "clinic-4")
            let ui = try elsewhere.client()
            ui.negotiate()
            let refused = ui.call("flow.start")
            #expect(refused.errorType == "StudyNotApproved")
            #expect(refused.string("error.message")?.contains("site \"clinic-3\", this kiosk is site \"clinic-4\"") == true)
            #expect(refused.string("error.data.reason") == "wrongSite")
            #expect(ui.call("study.get").string("result.study.approval.state") == "notApproved")
            #expect(ui.call("study.get").string("result.study.approval.reason") == "wrongSite")
            // The refusal is audited (with its reason code, no text), and the texts name it for the participant.
            elsewhere.finish(keepingState: true)
            let audit = try String(contentsOf: elsewhere.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            #expect(audit.contains("\"event\":\"study.approval\"") && audit.contains("\"reason\":\"wrongSite\""))

            let atSite = try sealed.agent("approval-lang", site: "clinic-3")
            let kiosk = try atSite.client()
            kiosk.negotiate()
            #expect(kiosk.call("flow.start", ["language": "fr"]).string("result.step") == "eligibility")
            // A translation no approval covers is not loaded at all: not offered, its files never read.
            #expect((kiosk.call("study.get").array("result.study.languages") as? [JSONObject])?.compactMap { $0["tag"] as? String } == ["en", "fr"])
            let german = kiosk.call("flow.start", ["language": "de"])
            #expect(german.errorType == "UnknownLanguage", "\(jsonLine(german))")
            atSite.finish()
            // The default language is always loaded (translations load on top of it); uncovered, it is refused.
            try sealed.seal(approved: "2026-01-01", expires: "2099-12-31", site: "clinic-3", languages: ["fr"])
            let frenchOnly = try sealed.agent("approval-fr", site: "clinic-3")
            let french = try frenchOnly.client()
            french.negotiate()
            let english = french.call("flow.start")
            #expect(english.errorType == "StudyNotApproved")
            #expect(english.string("error.message")?.contains("does not cover the consent in \"en\"") == true)
            #expect(english.string("error.data.reason") == "languageNotCovered")
            #expect(french.call("flow.start", ["language": "fr"]).string("result.step") == "eligibility")
            frenchOnly.finish()

            // Expired yesterday.
            try sealed.seal(approved: "2025-01-01", expires: SealedStudy.day(-1), site: "clinic-3")
            let expired = try sealed.agent("approval-expired", site: "clinic-3")
            let late = try expired.client()
            late.negotiate()
            let lateStart = late.call("flow.start")
            #expect(lateStart.errorType == "StudyNotApproved")
            #expect(lateStart.string("error.message")?.contains("expired") == true)
            #expect(lateStart.string("error.data.reason") == "expired")
            expired.finish()

            // A file changed after sealing: its version is not the approved one.
            try sealed.seal(approved: "2026-01-01", expires: "2099-12-31", site: "clinic-3")
            let overview = sealed.study.appendingPathComponent("overview.html")
            try (try String(contentsOf: overview, encoding: .utf8) + "<p>An unapproved sentence.</p>").write(to: overview, atomically: true, encoding: .utf8)
            let changed = try sealed.agent("approval-changed", site: "clinic-3")
            let edited = try changed.client()
            edited.negotiate()
            let editedStart = edited.call("flow.start")
            #expect(editedStart.errorType == "StudyNotApproved")
            #expect(editedStart.string("error.message")?.contains("changed since it was approved") == true)
            changed.finish()

            // No approval.json at all, and a key the kiosk does not trust.
            try FileManager.default.removeItem(at: sealed.study.appendingPathComponent("approval.json"))
            let unsealed = try sealed.agent("approval-missing")
            let bare = try unsealed.client()
            bare.negotiate()
            #expect(bare.call("flow.start").string("error.message")?.contains("no approval.json") == true)
            unsealed.finish()
        }

        /// An approval that ends within approvalWarningDays: flows run, staff are warned (study.get, audit log).
        @Test func expiringApprovalWarnsStaff() throws {
            let sealed = try SealedStudy(approved: "2026-01-01", expires: SealedStudy.day(10))
            let agent = try sealed.agent("approval-expiring")
            let ui = try agent.client()
            ui.negotiate()
            let status = ui.call("study.get")
            #expect(status.string("result.study.approval.state") == "expiring")
            #expect(status.int("result.study.approval.daysLeft") == 10)
            #expect(ui.call("flow.start").string("result.step") == "eligibility")
            agent.finish(keepingState: true)
            let audit = try String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            let expiring = audit.split(separator: "\n").filter { $0.contains("\"event\":\"study.approval\"") && $0.contains("\"outcome\":\"expiring\"") }
            #expect(!expiring.isEmpty)
            #expect(expiring.allSatisfy { $0.contains("\"days_left\":10") })
        }

        /// Versions side by side: an amendment copied in and `consentctl reload` serves it from the next flow on,
        /// while a flow in progress finishes on the version it started with; an unapproved amendment is not served.
        @Test func reloadServesANewVersionWithoutDisturbingARunningFlow() throws {
            let sealed = try SealedStudy()
            let versions = try sealed.movedIntoVersionsFolder()
            let agent = try sealed.agent("reload", study: versions)
            let ui = try agent.client()
            ui.negotiate()
            let running = FlowDriver(ui)
            let before = try #require(running.call("flow.get").string("result.version"))

            // An amendment sealed with a key the kiosk does not trust: copied in, reloaded, not served.
            let amendment = versions.appendingPathComponent("2026-06")
            try FileManager.default.copyItem(at: versions.appendingPathComponent("2026-01"), to: amendment)
            let overview = amendment.appendingPathComponent("overview.html")
            try (try String(contentsOf: overview, encoding: .utf8) + "<p>Amendment.</p>").write(to: overview, atomically: true, encoding: .utf8)
            let stranger = try SealedStudy(approved: nil, expires: nil)
            let strangerSeal = try Tools.run(
                SealedStudy.consentctl.path,
                ["study", "seal", amendment.path, "--key", stranger.privateKey.path, "--approved", "2026-01-01", "--expires", "2099-12-31"])
            #expect(strangerSeal.status == 0, "\(strangerSeal.output)")
            let reload = try Tools.run(SealedStudy.consentctl.path, ["reload", "--socket", agent.socket])
            #expect(reload.status == 0, "\(reload.output)")
            Thread.sleep(forTimeInterval: 1)
            #expect(ui.call("flow.start").string("result.version") == before)

            // Sealed by the IRB: served from the next flow on.
            let sealedAmendment = try Tools.run(
                SealedStudy.consentctl.path,
                ["study", "seal", amendment.path, "--key", sealed.privateKey.path, "--approved", "2026-06-01", "--expires", "2099-12-31"])
            #expect(sealedAmendment.status == 0)
            #expect(try Tools.run(SealedStudy.consentctl.path, ["reload", "--socket", agent.socket]).status == 0)
            var after: String?
            for _ in 0..<50 {
                after = ui.call("flow.start").string("result.version")
                if after != before { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(after != nil && after != before)
            // The running flow is untouched: same version, and it goes on to its end.
            #expect(running.call("flow.get").string("result.version") == before)
            running.toSignaturePage()
            #expect(running.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            let completed = running.call("flow.complete")
            let directory = try #require(completed.string("result.directory"))
            let manifest = try Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))
            #expect(String(decoding: manifest, as: UTF8.self).contains(before))
            agent.finish(keepingState: true)
            let audit = try String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            #expect(audit.contains("\"event\":\"study.served\"") && audit.contains(after ?? "-"))
            #expect(try String(contentsOf: agent.logFile, encoding: .utf8).contains("reloading the studies"))
        }

        /// `consentctl study pull` from an HTTPS server whose certificate a test CA signed: a package whose approval
        /// does not verify is refused and nothing is written; a sealed one is written beside the others and, with
        /// --reload, served from the next flow on (audited as study.served).
        @Test func pullAddsOnlyApprovedPackagesOverHTTPS() throws {
            let sealed = try SealedStudy()
            let versions = try sealed.movedIntoVersionsFolder()
            let config = try sealed.config()
            let agent = try ConsentdProcess("pull", arguments: ["--config", config.path, "--study", versions.path])
            let ui = try agent.client()
            ui.negotiate()
            let before = try #require(ui.call("flow.start").string("result.version"))

            // The coordinator's side: the amendment sealed and packed; a second one sealed by a stranger.
            let www = sealed.directory.appendingPathComponent("www")
            let staging = sealed.directory.appendingPathComponent("staging")
            try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            let amendment = staging.appendingPathComponent("2026-06")
            try FileManager.default.copyItem(at: versions.appendingPathComponent("2026-01"), to: amendment)
            let overview = amendment.appendingPathComponent("overview.html")
            try (try String(contentsOf: overview, encoding: .utf8) + "<p>Amendment.</p>").write(to: overview, atomically: true, encoding: .utf8)
            let ctl = SealedStudy.consentctl.path
            #expect(try Tools.run(ctl, ["study", "seal", amendment.path, "--key", sealed.privateKey.path, "--approved", "2026-06-01", "--expires", "2099-12-31"]).status == 0)
            let packed = try Tools.run(ctl, ["study", "pack", amendment.path, "-o", www.appendingPathComponent("good.json").path])
            #expect(packed.status == 0, "\(packed.output)")
            let stranger = try SealedStudy(approved: nil, expires: nil)
            #expect(try Tools.run(ctl, ["study", "seal", amendment.path, "--key", stranger.privateKey.path, "--approved", "2026-06-01", "--expires", "2099-12-31"]).status == 0)
            #expect(try Tools.run(ctl, ["study", "pack", amendment.path, "-o", www.appendingPathComponent("bad.json").path]).status == 0)

            let server = try TLSTestServer(serving: www, in: sealed.directory)
            defer { server.stop() }
            let base = "https://localhost:\(server.port)"
            let refused = try Tools.run(ctl, ["study", "pull", "\(base)/bad.json", "--into", versions.path, "--config", config.path, "--ca-file", server.caFile.path])
            #expect(refused.status == 4, "\(refused.output)")
            #expect(refused.output.contains("untrustedKey"))
            let untrustedServer = try Tools.run(ctl, ["study", "pull", "\(base)/good.json", "--into", versions.path, "--config", config.path])
            #expect(untrustedServer.status == 1, "the test CA is not a system CA: \(untrustedServer.output)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).sorted() == ["2026-01"], "nothing written")

            let pulled = try Tools.run(ctl, [
                "study", "pull", "\(base)/good.json", "--into", versions.path, "--config", config.path, "--ca-file", server.caFile.path,
                "--reload", "--socket", agent.socket,
            ])
            #expect(pulled.status == 0, "\(pulled.output)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).sorted() == ["2026-01", "2026-06"])
            var after: String?
            for _ in 0..<50 {
                after = ui.call("flow.start").string("result.version")
                if after != before { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(after != nil && after != before)
            let again = try Tools.run(ctl, ["study", "pull", "\(base)/good.json", "--into", versions.path, "--config", config.path, "--ca-file", server.caFile.path])
            #expect(again.status == 4 && again.output.contains("already there"))
            agent.finish(keepingState: true)
            let audit = try String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            #expect(audit.contains("\"event\":\"study.served\""))
        }

        /// A participant who signed a version that an amendment superseded: `consentctl reconsent list` names the
        /// record, the kiosk's re-consent shows what changed, and the new record links the old one, under the new
        /// approval; the list is then empty.
        @Test func reconsentOnASupersededVersionLinksTheRecords() throws {
            let sealed = try SealedStudy()
            let versions = try sealed.movedIntoVersionsFolder()
            let config = try sealed.config()
            let agent = try ConsentdProcess("reconsent-superseded", arguments: ["--config", config.path, "--study", versions.path])
            let ui = try agent.client()
            ui.negotiate()
            let original = try LinkedRecords.consent(ui)

            let amendment = versions.appendingPathComponent("2026-06")
            try FileManager.default.copyItem(at: versions.appendingPathComponent("2026-01"), to: amendment)
            let withdrawing = amendment.appendingPathComponent("withdrawing.html")
            try (try String(contentsOf: withdrawing, encoding: .utf8) + "<p>You may also ask us to delete your samples.</p>\n")
                .write(to: withdrawing, atomically: true, encoding: .utf8)
            let ctl = SealedStudy.consentctl.path
            #expect(try Tools.run(ctl, ["study", "seal", amendment.path, "--key", sealed.privateKey.path, "--approved", "2026-06-01",
                                        "--expires", "2099-12-31", "--reference", "IRB #2026-0042 amendment 2"]).status == 0)
            let registry = ["--config", config.path, "--study", versions.path, "--state-dir", agent.stateDirectory.path]
            let list = try Tools.run(ctl, ["reconsent", "list", "org.example.heartbeat-sleep.consent"] + registry)
            #expect(list.status == 0 && list.output.contains(original.id), "\(list.output)")
            #expect(try Tools.run(ctl, ["reload", "--socket", agent.socket]).status == 0)

            var started: JSONObject = [:]
            for _ in 0..<50 {
                started = ui.call("flow.start", ["previous": original.id])
                if started.string("result.step") == "changes" { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(started.string("result.step") == "changes", "\(jsonLine(started))")
            #expect(started.array("result.view.changes.edited")?.count == 1)
            let flow = FlowDriver(ui, flow: try #require(started.string("result.flow")))
            #expect(flow.call("flow.next", ["step": "changes"]).string("result.step") == "eligibility")
            flow.toSignaturePage()
            let completed = flow.signAndComplete()
            let directory = URL(fileURLWithPath: try #require(completed.string("result.directory")))
            try LinkedRecords.expectValid(directory)
            let manifest = try LinkedRecords.json(directory, "manifest.json")
            #expect(manifest["previousRecord"] as? String == original.id)
            #expect(manifest[path: "approval.reference"] as? String == "IRB #2026-0042 amendment 2")
            let after = try Tools.run(ctl, ["reconsent", "list", "org.example.heartbeat-sleep.consent", "--json"] + registry)
            #expect(after.status == 0 && !after.output.contains(original.id), "\(after.output)")
            let studies = try Tools.run(ctl, ["studies", "--json"] + registry)
            #expect(studies.output.contains("\"state\" : \"superseded\"") && studies.output.contains("\"records\" : 1"), "\(studies.output)")
            agent.finish()
        }

        /// The committed sample's approval verifies with the committed TEST key: `make run` is unchanged (no
        /// approvalKeys), and a kiosk that trusts the test key serves the sample.
        @Test func bundledSampleIsSealedWithTheTestKey() throws {
            let config = URL(fileURLWithPath: "/tmp").appendingPathComponent("sample-approval-\(UUID().uuidString.prefix(6)).json")
            let key = Paths.root.appendingPathComponent("deploy/test-keys/irb-TEST-ONLY.pub.pem").path
            try JSONSerialization.data(withJSONObject: ["approvalKeys": [key]]).write(to: config)
            defer { try? FileManager.default.removeItem(at: config) }
            let agent = try ConsentdProcess("approval-sample", arguments: ["--config", config.path])
            defer { agent.finish() }
            let ui = try agent.client()
            ui.negotiate()
            let study = ui.call("study.get")
            #expect(study.string("result.study.approval.state") == "active", "reseal with scripts/seal-sample-study: \(jsonLine(study))")
            #expect(study.string("result.study.approval.reference")?.hasPrefix("TEST ONLY") == true)
        }
    }
}

/// An HTTPS file server on a free local port (Python's http.server), its certificate for localhost signed by a
/// CA made for the test: what a clinic's own package server looks like to `consentctl study pull --ca-file`.
final class TLSTestServer {
    let caFile: URL
    let port: Int
    private let process = Process()

    /// What the server answers a GET with: the folder's files; or a head (200, a megabyte announced) and then
    /// nothing (`stall`) or a byte every 0.1 s (`trickle`), while the connection stays open.
    enum Mode: String {
        case files, stall, trickle
    }

    init(serving folder: URL, in directory: URL, mode: Mode = .files) throws {
        caFile = directory.appendingPathComponent("test-ca.pem")
        let caKey = directory.appendingPathComponent("test-ca.key").path
        let key = directory.appendingPathComponent("server.key").path, csr = directory.appendingPathComponent("server.csr").path
        let cert = directory.appendingPathComponent("server.pem").path, ext = directory.appendingPathComponent("san.ext")
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(to: ext, atomically: true, encoding: .utf8)
        let openssl = "/usr/bin/openssl"
        for arguments in [
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", caKey, "-out", caFile.path,
             "-days", "2", "-subj", "/CN=consent-kiosk test CA"],
            ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", csr, "-CA", caFile.path, "-CAkey", caKey, "-CAcreateserial", "-out", cert, "-days", "2",
             "-extfile", ext.path],
        ] {
            let result = try Tools.run(openssl, arguments)
            #expect(result.status == 0, "\(result.output)")
        }
        let script = """
            import http.server, ssl, sys, os, time
            os.chdir(sys.argv[1])
            mode = sys.argv[4]
            class Slow(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(200)
                    self.send_header('Content-Type', 'application/json')
                    self.send_header('Content-Length', '1000000')
                    self.end_headers()
                    self.wfile.flush()
                    try:
                        while True:
                            if mode == 'trickle':
                                self.wfile.write(b' ')
                                self.wfile.flush()
                            time.sleep(0.1)
                    except OSError:
                        pass
            handler = http.server.SimpleHTTPRequestHandler if mode == 'files' else Slow
            httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[2], sys.argv[3])
            httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
            print(httpd.server_address[1], flush=True)
            httpd.serve_forever()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, folder.path, cert, key, mode.rawValue]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(port > 0, "the HTTPS test server did not start")
    }

    /// SIGKILL: the server inherits the test runner's blocked signals, so SIGTERM would wait forever.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
