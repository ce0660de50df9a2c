import Foundation
import IntegrationSupport
import Testing

extension ConsentdIntegration {
    /// `consentctl walk` on a pseudo-terminal (pty_dialogue.py), typed at as a technician would, against the real
    /// consentd on the bundled sample study. A staff monitor on socat watches the same flow over the protocol.
    @Suite struct Walk {
        struct Session {
            var status: Int
            var output: String
            var failed: String?
        }

        static var consentctl: URL { Paths.consentd.deletingLastPathComponent().appendingPathComponent("consentctl") }

        /// Plays `dialogue` ([expect, send?] pairs; nil sends Ctrl-D) with `consentctl walk` on a pty.
        func walk(_ agent: ConsentdProcess, _ arguments: [String], _ dialogue: [[Any]]) throws -> Session {
            try walk(socket: agent.socket, in: agent.directory, arguments, dialogue)
        }

        func walk(socket: String, in directory: URL, _ arguments: [String], _ dialogue: [[Any]]) throws -> Session {
            let file = directory.appendingPathComponent("dialogue-\(UUID().uuidString.prefix(6)).json")
            try JSONSerialization.data(withJSONObject: dialogue.map { $0.map { $0 is NSNull ? NSNull() : $0 } }).write(to: file)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [
                Paths.root.appendingPathComponent("Tests/ConsentdIntegrationTests/pty_dialogue.py").path, file.path, "--",
                Self.consentctl.path, "walk", "--socket", socket,
            ] + arguments
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return Session(
                status: object["status"] as? Int ?? -1, output: object["output"] as? String ?? "",
                failed: object["failed"] as? String)
        }

        @Test func fullConsentWithTheSampleSignatureLeavesAVerifiedRecord() throws {
            let agent = try ConsentdProcess("walk-complete")
            let monitor = try agent.client("monitor")
            monitor.negotiate()
            _ = monitor.call("events.subscribe", ["topics": ["flow"]])

            var dialogue: [[Any]] = [
                ["[Enter: answer]", ""],
                ["Are you 18 years of age or older? [y/n]", "maybe"],  // refused locally, asked again
                ["Answer y or n."], ["Are you 18 years of age or older? [y/n]", "y"],
                ["[y/n]", "y"], ["[y/n]", "n"], ["[y/n]", "yes"],
                ["Status: eligible"], ["[Enter: next]", ""],
                // The sample study begins with its key information.
                ["[keyInformation] =="], ["Start here: the most important facts"], ["Why: Heartbeat & Sleep studies"], ["[Enter: next]", ""],
                ["Section 1 of 7 (Overview): Welcome to Heartbeat & Sleep"], ["[Enter: next]", ""],
                ["Section 2 of 7"], ["[Enter: next]", "back"],
                ["Section 1 of 7"], ["[Enter: next]", "n"],
                ["Section 2 of 7"], ["[Enter: next]", "wave"],
                ["\"wave\" is not an action of this step"],
            ]
            for scene in 2...7 {
                dialogue += [["Section \(scene) of 7"], ["[Enter: next]", ""]]
            }
            dialogue += [
                ["[sharing] =="], ["[Enter: chooseSharing]", ""], ["Choice [1-2]:", "2"],
                // The sample study's optional elements, each listed unanswered, then asked one by one.
                ["[optional] =="], ["1. Future research with your data: May we keep"], ["(not answered)"],
                ["Learn More: If you say yes"], ["2. Contact about other studies"],
                ["[Enter: optionalAnswer]", ""], ["Future research with your data:", "maybe"], ["Answer y or n."],
                ["[y/n]", "y"], ["Contact about other studies:", "n"],
                ["Review page: document"], ["[Enter: agree]", ""],
            ]
            dialogue += Self.comprehension
            dialogue += [
                ["Review page: name"], ["[Enter: setName]", ""], ["Given name:", "Ada"], ["Family name:", "Lovelace"],
                ["Review page: signature"], ["[Enter: submitSignature]", ""],
                ["Submitted the built-in sample stroke."],
                ["[done] =="], ["[Enter: complete]", ""],
                ["Completed. Record "],
            ]
            let session = try walk(agent, ["--sample-signature"], dialogue)
            #expect(session.failed == nil, "waited for \(session.failed ?? "") in:\n\(session.output)")
            #expect(session.status == 0, "\(session.output)")

            // The record the walk names exists and verifies as a whole.
            let line = try #require(session.output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("Completed. Record ") })
            let record = line.dropFirst("Completed. Record ".count).trimmingCharacters(in: .whitespacesAndNewlines)
            let directory = agent.stateDirectory.appendingPathComponent("records/\(record)").path
            #expect(FileManager.default.fileExists(atPath: directory + "/manifest.sig"), "\(session.output)")
            let verify = Process()
            verify.executableURL = Self.consentctl
            verify.arguments = ["verify", directory]
            verify.standardOutput = FileHandle.nullDevice
            try verify.run()
            verify.waitUntilExit()
            #expect(verify.terminationStatus == 0)
            // The name typed at the terminal is the participant's in the record.
            let patient = try String(contentsOfFile: directory + "/patient.json", encoding: .utf8)
            #expect(patient.contains("Lovelace") && patient.contains("Ada"))
            // Choice 2 was "share with the study team only": the Consent denies wider disclosure.
            let consent = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/consent.json"))) as? [String: Any]
            let nested = ((consent?["provision"] as? [String: Any])?["provision"] as? [[String: Any]])?.first
            #expect(nested?["type"] as? String == "deny")
            let signature = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/signature.json"))) as? [String: Any]
            #expect((signature?["strokes"] as? [[Any]])?.map(\.count) == [48, 16])

            // The staff monitor saw the same flow complete with the same record, over the protocol.
            _ = monitor.call("session.sync")
            #expect(monitor.takeEvents("flow.completed").first?.string("params.data.record") == record)
            agent.finish()
        }

        /// `--change RECORD`: the record's answers are shown and Enter keeps each; one changed, the walk signs and
        /// the new record amends the original.
        @Test func changeWalksTheRecordsAnswersAndAmendsIt() throws {
            let agent = try ConsentdProcess("walk-change")
            let ui = try agent.client()
            ui.negotiate()
            let original = try LinkedRecords.consent(ui)
            let dialogue: [[Any]] = [
                ["[optional] =="], ["[Enter: optionalAnswer]", ""],
                ["Future research with your data:"], ["[y/n, Enter keeps yes]", ""],
                ["Contact about other studies:"], ["[y/n, Enter keeps no]", "y"],
                ["Review page: name"], ["[Enter: setName]", ""], ["Given name:", "Ada"], ["Family name:", "Lovelace"],
                ["Review page: signature"], ["[Enter: submitSignature]", ""],
                ["[done] =="], ["[Enter: complete]", ""],
                ["Completed. Record "],
            ]
            let session = try walk(agent, ["--sample-signature", "--change", original.id], dialogue)
            #expect(session.failed == nil, "waited for \(session.failed ?? "") in:\n\(session.output)")
            #expect(session.status == 0, "\(session.output)")
            let line = try #require(session.output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("Completed. Record ") })
            let record = line.dropFirst("Completed. Record ".count).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(ui.call("records.get", ["id": original.id]).string("result.amendedBy") == record)
            let manifest = try LinkedRecords.json(agent.stateDirectory.appendingPathComponent("records/\(record)"), "manifest.json")
            #expect((manifest["optionalElements"] as? [JSONObject])?.map { $0["permitted"] as? Bool } == [true, true])
            agent.finish()
        }

        /// `staffCountersignature: required`: the walk counter-signs as the person obtaining consent (staff id, a
        /// PIN typed without echo, the identity check), and the record has their signature.
        @Test func theWalkCounterSignsAsThePersonObtainingConsent() throws {
            let agent = try StaffFixture.agent("walk-staff")
            var dialogue: [[Any]] = [
                ["[Enter: answer]", ""], ["[y/n]", "y"], ["[y/n]", "y"], ["[y/n]", "n"], ["[y/n]", "y"],
                ["[Enter: next]", ""], ["[keyInformation] =="], ["[Enter: next]", ""],
            ]
            for scene in 1...7 { dialogue += [["Section \(scene) of 7"], ["[Enter: next]", ""]] }
            dialogue += [
                ["[Enter: chooseSharing]", ""], ["Choice [1-2]:", "1"],
                ["[Enter: optionalAnswer]", ""], ["[y/n]", "y"], ["[y/n]", "y"], ["[Enter: agree]", ""],
            ]
            dialogue += Self.comprehension
            dialogue += [
                ["[Enter: setName]", ""], ["Given name:", "Ada"], ["Family name:", "Lovelace"],
                ["[Enter: submitSignature]", ""], ["Submitted the built-in sample stroke."],
                ["[staff] =="], ["[Enter: staffUnlock]", ""], ["Staff ID:", "jroe"], ["PIN:", "000000"],
                ["WrongStaffPin"], ["[Enter: staffUnlock]", ""], ["Staff ID:", "jroe"], ["PIN:", "482913"],
                ["Jane Roe"], ["[Enter: attestIdentity]", ""], ["1. Photo ID checked"],
                ["How was identity verified? [1-4]:", "1"], ["Note (optional", ""],
                ["[Enter: submitSignature]", ""], ["Submitted the built-in sample stroke."],
                ["[done] =="], ["[Enter: complete]", ""], ["Completed. Record "],
            ]
            let session = try walk(agent, ["--sample-signature"], dialogue)
            #expect(session.failed == nil, "waited for \(session.failed ?? "") in:\n\(session.output)")
            #expect(session.status == 0, "\(session.output)")
            // The PIN typed at the terminal is not echoed.
            #expect(!session.output.contains("482913"))
            let line = try #require(session.output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("Completed. Record ") })
            let record = line.dropFirst("Completed. Record ".count).trimmingCharacters(in: .whitespacesAndNewlines)
            let directory = agent.stateDirectory.appendingPathComponent("records/\(record)").path
            #expect(FileManager.default.fileExists(atPath: directory + "/signature-personObtainingConsent.iso19794-7"))
            agent.finish()
        }

        /// A study that allows a representative and requires a witness (the signers fixture): who signs, the
        /// participant's and the representative's names, the relationship, both signatures with their roles.
        @Test func representativeAndWitnessPagesAreWalked() throws {
            let agent = try ConsentdProcess("walk-signers", arguments: SignersStudy.arguments)
            let dialogue: [[Any]] = [
                ["[Enter: next]", ""], ["Section 1 of 1"], ["[Enter: next]", ""], ["[Enter: agree]", ""],
                ["Review page: signer"], ["2. I am the participant's legally authorized representative"],
                ["[Enter: chooseSigner]", ""], ["Choice [1-2]:", "2"],
                ["Review page: name"], ["[Enter: setName]", ""], ["Given name:", "Ada"], ["Family name:", "Lovelace"],
                ["Review page: representative"], ["2. Legal guardian (court-appointed)"], ["[Enter: setSignerName]", ""],
                ["Representative's given name:", "Anne"], ["Representative's family name:", "Byron"],
                ["Relationship [1-3]:", "2"],
                ["Signed by: representative"], ["[Enter: submitSignature]", ""], ["Submitted the built-in sample stroke."],
                ["Review page: witness"], ["[Enter: setSignerName]", ""],
                ["Witness's given name:", "Mary"], ["Witness's family name:", "Somerville"],
                ["Signed by: witness"], ["Signature given: no"], ["[Enter: submitSignature]", ""],
                ["Submitted the built-in sample stroke."],
                ["[done] =="], ["[Enter: complete]", ""], ["Completed. Record "],
            ]
            let session = try walk(agent, ["--sample-signature"], dialogue)
            #expect(session.failed == nil, "waited for \(session.failed ?? "") in:\n\(session.output)")
            #expect(session.status == 0, "\(session.output)")
            let line = try #require(session.output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("Completed. Record ") })
            let record = line.dropFirst("Completed. Record ".count).trimmingCharacters(in: .whitespacesAndNewlines)
            let directory = agent.stateDirectory.appendingPathComponent("records/\(record)")
            #expect(try Tools.run(Tools.consentctl, ["verify", directory.path]).status == 0)
            // The representative signed, with the relationship chosen at the terminal; the witness attested.
            let contract = try String(contentsOf: directory.appendingPathComponent("contract.json"), encoding: .utf8)
            #expect(contract.contains("GUARD") && contract.contains("Byron") && contract.contains("Somerville"), "\(contract)")
            #expect(contract.contains("CONSWIT") && contract.contains("1.2.840.10065.1.12.1.11"))
            agent.finish()
        }

        /// The sample study's comprehension questions, each answered right by its number (choices are 1-based
        /// at the terminal); the first is missed once, so its explanation is shown and it is asked again.
        static var comprehension: [[Any]] {
            [
                ["Question 1 of 3"], ["How long does the study last?"], ["[Enter: comprehensionAnswer]", ""], ["Choice [1-3]:", "1"],
                ["That is not quite right."], ["Your answer: One night"], ["[Enter: next]", ""],
                ["Question 1 of 3"], ["[Enter: comprehensionAnswer]", ""], ["Choice [1-3]:", "2"],
                ["Question 2 of 3"], ["[Enter: comprehensionAnswer]", ""], ["Choice [1-3]:", "2"],
                ["Question 3 of 3"], ["[Enter: comprehensionAnswer]", ""], ["Choice [1-3]:", "1"],
            ]
        }

        /// Up to the signature page of the sample study, taking every usual action (Enter).
        static var toSignaturePage: [[Any]] {
            var dialogue: [[Any]] = [
                ["[Enter: answer]", ""], ["[y/n]", "y"], ["[y/n]", "y"], ["[y/n]", "n"], ["[y/n]", "y"],
                ["Status: eligible"], ["[Enter: next]", ""], ["[keyInformation] =="], ["[Enter: next]", ""],
            ]
            for scene in 1...7 { dialogue += [["Section \(scene) of 7"], ["[Enter: next]", ""]] }
            dialogue += [
                ["[Enter: chooseSharing]", ""], ["Choice [1-2]:", "1"],
                ["[Enter: optionalAnswer]", ""], ["[y/n]", "y"], ["[y/n]", "y"], ["[Enter: agree]", ""],
            ]
            dialogue += comprehension
            dialogue += [
                ["[Enter: setName]", ""], ["Given name:", "Test"], ["Family name:", "Technician"],
                ["Review page: signature"],
            ]
            return dialogue
        }

        /// The signature from a (mock) pen tablet: signature.begin, the ink shown stroke by stroke as it arrives,
        /// Enter submits the capture, and the record holds the tablet's strokes.
        @Test(.enabled(if: PenTablet.isAvailable, "umockdev-run is not installed (scripts/ensure-deps installs it)"))
        func padSignatureWithItsInkShown() throws {
            let agent = try ConsentdProcess(
                "walk-pad", arguments: ["--pad-include-uninitialized"], wrapper: PenTablet.wrapper("signature"))
            let session = try walk(agent, ["--pad", PenTablet.node], Self.toSignaturePage + [
                ["[Enter: submitSignature]", ""],
                ["Sign on Wacom One Pen Display Pen (\(PenTablet.node))"],
                ["Press Enter when signed"],
                ["stroke 1 ended"], ["stroke 2 ended", ""],
                ["Submitted the pad's signature (20 ink points echoed)."],
                ["[Enter: complete]", ""],
                ["Completed. Record "],
            ])
            #expect(session.failed == nil, "waited for \(session.failed ?? "") in:\n\(session.output)")
            #expect(session.status == 0, "\(session.output)")
            let line = try #require(session.output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("Completed. Record ") })
            let record = line.dropFirst("Completed. Record ".count).trimmingCharacters(in: .whitespacesAndNewlines)
            let data = try Data(contentsOf: agent.stateDirectory.appendingPathComponent("records/\(record)/signature.json"))
            let saved = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect((saved?["strokes"] as? [[Any]])?.map(\.count) == [14, 6])
            #expect((saved?["device"] as? [String: Any])?["name"] as? String == "Wacom One Pen Display Pen")
            agent.finish()
        }

        @Test func qCancelsTheFlowCleanly() throws {
            let agent = try ConsentdProcess("walk-cancel")
            let monitor = try agent.client("monitor")
            monitor.negotiate()
            _ = monitor.call("events.subscribe", ["topics": ["flow"]])
            let session = try walk(agent, ["--sample-signature"], [
                ["[Enter: answer]", ""], ["[y/n]", "y"], ["[y/n]", "y"], ["[y/n]", "n"], ["[y/n]", "y"],
                ["[Enter: next]", ""], ["[keyInformation] =="], ["[Enter: next]", ""], ["Section 1 of 7"],
                ["[Enter: next]", "q"],
                ["The flow ended: cancelled."],
            ])
            #expect(session.failed == nil, "waited for \(session.failed ?? "") in:\n\(session.output)")
            #expect(session.status == 2, "\(session.output)")
            _ = monitor.call("session.sync")
            let last = monitor.takeEvents("flow.changed").last
            #expect(last?.string("params.data.step") == "cancelled")
            let records = agent.stateDirectory.appendingPathComponent("records").path
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: records)) ?? []).isEmpty, "no record was written")
            agent.finish()
        }

        /// "pause" on a scene ends the walk with the resume code; `--resume CODE` goes on at that scene.
        @Test func pauseGivesACodeAndResumeGoesOnFromThere() throws {
            let agent = try ConsentdProcess("walk-pause")
            let first = try walk(agent, ["--sample-signature"], [
                ["[Enter: answer]", ""], ["[y/n]", "y"], ["[y/n]", "y"], ["[y/n]", "n"], ["[y/n]", "y"],
                ["[Enter: next]", ""], ["[keyInformation] =="], ["[Enter: next]", ""], ["Section 1 of 7"],
                ["[Enter: next]", ""], ["Section 2 of 7"], ["[Enter: next]", "pause"],
                ["The flow ended: paused."], ["Your code: "],
            ])
            #expect(first.failed == nil, "waited for \(first.failed ?? "") in:\n\(first.output)")
            #expect(first.status == 2, "\(first.output)")
            let match = try #require(first.output.range(of: "[ACDEFHJKMNPRTUVWXY3479]{4}-[ACDEFHJKMNPRTUVWXY3479]{4}", options: .regularExpression))
            let code = String(first.output[match])
            let second = try walk(agent, ["--sample-signature", "--resume", code], [
                ["Section 2 of 7"], ["[Enter: next]", "q"], ["The flow ended: cancelled."],
            ])
            #expect(second.failed == nil, "waited for \(second.failed ?? "") in:\n\(second.output)")
            agent.finish()
        }

        @Test func ctrlDCancelsTheFlowCleanly() throws {
            let agent = try ConsentdProcess("walk-eof")
            let monitor = try agent.client("monitor")
            monitor.negotiate()
            _ = monitor.call("events.subscribe", ["topics": ["flow"]])
            let session = try walk(agent, [], [
                ["[Enter: answer]", ""], ["[y/n]", NSNull()],
                ["The flow ended: cancelled."],
            ])
            #expect(session.failed == nil, "waited for \(session.failed ?? "") in:\n\(session.output)")
            #expect(session.status == 2, "\(session.output)")
            _ = monitor.call("session.sync")
            #expect(monitor.takeEvents("flow.changed").last?.string("params.data.step") == "cancelled")
            // The agent keeps serving: a new flow starts.
            #expect(monitor.call("flow.start").string("result.step") == "eligibility")
            agent.finish()
        }

        @Test func ineligibleAnswersEndTheWalk() throws {
            let agent = try ConsentdProcess("walk-ineligible")
            let session = try walk(agent, ["--sample-signature"], [
                ["[Enter: answer]", ""], ["[y/n]", "n"], ["[y/n]", "y"], ["[y/n]", "n"], ["[y/n]", "y"],
                ["The flow ended: ineligible."],
            ])
            #expect(session.failed == nil, "waited for \(session.failed ?? "") in:\n\(session.output)")
            #expect(session.status == 2)
            agent.finish()
        }

        /// y/n answers typed at the eligibility prompt itself, all at once or the first ones (the rest asked).
        @Test func eligibilityAnswersTypedAtThePrompt() throws {
            let agent = try ConsentdProcess("walk-typed-answers")
            let session = try walk(agent, ["--sample-signature"], [
                ["[Enter: answer]", "y y n y y"],
                ["5 answers for 4 questions"], ["[Enter: answer]", "yyny"],
                ["older? yes"], ["Status: eligible"], ["[Enter: next]", "n"],
                ["older? no"], ["[y/n]", "y"], ["[y/n]", "n"], ["[y/n]", "y"],
                ["The flow ended: ineligible."],
            ])
            #expect(session.status == 2)
            #expect(session.failed == nil, "waited for \(session.failed ?? "") in:\n\(session.output)")
            agent.finish()
        }

        /// A newer agent's step (a witness, say) is shown as sent, its plain actions still work, and an action the
        /// tool cannot perform gets a clear message instead of a guess.
        @Test func unknownStepIsShownGenericallyAgainstANewerAgent() throws {
            let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("walk-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let socket = directory.appendingPathComponent("agent.sock").path
            let methods = directory.appendingPathComponent("methods.log")
            let fake = Process()
            fake.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            fake.arguments = [
                Paths.root.appendingPathComponent("Tests/ConsentdIntegrationTests/fake_newer_agent.py").path, socket, methods.path,
            ]
            try fake.run()
            defer { fake.end() }
            let deadline = ContinuousClock.now + .seconds(10)
            while !FileManager.default.fileExists(atPath: socket), ContinuousClock.now < deadline { usleep(20_000) }

            let session = try walk(socket: socket, in: directory, [], [
                ["does not know the step \"witness\""], ["instruction: A witness signs here"],
                ["[Enter: next]", "setWitness"],
                ["does not know how to perform \"setWitness\""],
                ["[Enter: next]", ""],
                ["Completed. Record r-1"],
            ])
            #expect(session.failed == nil, "waited for \(session.failed ?? "") in:\n\(session.output)")
            #expect(session.status == 0, "\(session.output)")
            fake.waitUntilExit()
            let sent = try String(contentsOf: methods, encoding: .utf8).split(separator: "\n")
            // setWitness was never sent: the tool does not invent params for an action it does not know.
            #expect(sent == ["session.negotiate", "pads.list", "flow.start", "flow.next"])
        }

        @Test func unreachableAgentIsAClearError() throws {
            let process = Process()
            process.executableURL = Self.consentctl
            process.arguments = ["walk", "--socket", "/tmp/no-such-consentd.sock"]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 1)
            #expect(message.contains("/tmp/no-such-consentd.sock") && message.contains("is it running?"), "\(message)")
        }
    }
}
