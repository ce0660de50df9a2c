import Foundation
import IntegrationSupport
import Testing

extension ConsentdIntegration {
    /// The participant's printed copy (21 CFR 50.27(a), 45 CFR 46.117(a): the signer is given a copy), against a real
    /// CUPS: a private cupsd with a cups-pdf queue (Tests/Printing/private-cupsd), never the system's.
    @Suite struct PrintCopy {
        /// A private cupsd under a folder of its own, with one cups-pdf queue writing into `out`.
        final class PrivateCUPS {
            let directory: URL
            let server: String
            let queue: String
            var out: URL { directory.appendingPathComponent("out") }
            private static let script = Paths.root.appendingPathComponent("Tests/Printing/private-cupsd").path

            init() throws {
                directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("cups-\(UUID().uuidString.prefix(8))")
                let started = try Tools.run(Self.script, ["start", directory.path])
                var values: [String: String] = [:]
                for line in started.output.split(separator: "\n") {
                    let parts = line.split(separator: "=", maxSplits: 1)
                    if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
                }
                guard started.status == 0, let server = values["CUPS_SERVER"], let queue = values["QUEUE"] else {
                    _ = try? Tools.run(Self.script, ["stop", directory.path])
                    throw PrintingTestFailure("private cupsd did not start:\n\(started.output)")
                }
                self.server = server
                self.queue = queue
            }

            func lp(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
                try Tools.run("/usr/bin/env", ["CUPS_SERVER=\(server)", tool] + arguments)
            }

            /// The PDFs cups-pdf wrote, waiting up to a minute for `count` of them.
            func printed(count: Int) -> [URL] {
                for _ in 0..<600 {
                    let files = ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [])
                        .filter { $0.hasSuffix(".pdf") }.sorted().map { out.appendingPathComponent($0) }
                    if files.count >= count { return files }
                    usleep(100_000)
                }
                return []
            }

            func stop() {
                _ = try? Tools.run(Self.script, ["stop", directory.path])
                try? FileManager.default.removeItem(at: directory)
            }
        }

        /// `Tests/Printing/silent-server`: accepts every connection and never answers (a hung CUPS server on a UNIX
        /// socket, or a printer that never finishes taking a job on a loopback port).
        final class SilentServer {
            let port: Int
            private let process = Process()

            init(unixSocket path: String? = nil) throws {
                process.executableURL = Paths.root.appendingPathComponent("Tests/Printing/silent-server")
                process.arguments = path.map { ["unix", $0] } ?? ["tcp"]
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let line = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
                guard line.hasPrefix("ready "), let port = Int(line.dropFirst(6).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    process.end()
                    throw PrintingTestFailure("silent-server printed \(line)")
                }
                self.port = port
            }

            func stop() { process.end() }
            deinit { process.end() }
        }

        struct PrintingTestFailure: Error, CustomStringConvertible {
            var description: String
            init(_ description: String) { self.description = description }
        }

        static func pages(_ pdf: URL) throws -> Int? {
            let info = try Tools.run("/usr/bin/pdfinfo", [pdf.path])
            let line = info.output.split(separator: "\n").first { $0.hasPrefix("Pages:") }
            return line.flatMap { Int($0.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) }
        }

        /// The copy's last state once CUPS has finished its job (`printed` or `failed`), polling `flow.get` for up to a
        /// minute; nil if neither came.
        static func copyOutcome(_ flow: FlowDriver) -> String? {
            for _ in 0..<600 {
                let state = flow.call("flow.get").string("result.copy.state")
                if state == "printed" || state == "failed" { return state }
                usleep(100_000)
            }
            return nil
        }

        /// The QR code on the last page of `pdf`, as zbarimg reads it from a 200 dpi rendering.
        static func qrText(_ pdf: URL, page: Int, in folder: URL) throws -> String {
            let prefix = folder.appendingPathComponent("page").path
            let rendered = try Tools.run(
                "/usr/bin/pdftoppm", ["-r", "200", "-gray", "-png", "-singlefile", "-f", "\(page)", "-l", "\(page)", pdf.path, prefix])
            #expect(rendered.status == 0, "\(rendered.output)")
            let read = try Tools.run("/usr/bin/zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", prefix + ".png"])
            // stdout and stderr come together; zbarimg may warn on stderr (no D-Bus in a container): the code's
            // text is the line that is a mark, else everything, for the failure message.
            let lines = read.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            return lines.first { $0.hasPrefix("CK1:") } ?? read.output
        }

        @Test func aConsentEndsInAPrintedCopyWhoseMarkChecksAgainstTheRecord() throws {
            let cups = try PrivateCUPS()
            defer { cups.stop() }
            let agent = try ConsentdProcess(
                "print-copy", arguments: ["--printer", cups.queue], environment: ["CUPS_SERVER": cups.server])
            defer { agent.removeFiles() }
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            let done = flow.call("signature.submit", ["strokes": FlowDriver.signature])
            #expect(done.string("result.step") == "done")
            #expect((done[path: "result.view.actions"] as? [String])?.contains("printCopy") == true, "\(done)")
            #expect(done.string("result.view.labels.printCopy") == "Print my copy")
            let completed = flow.call("flow.complete")
            let record = try #require(completed.string("result.record"), "log:\n\(agent.log)")
            #expect((completed[path: "result.view.actions"] as? [String])?.contains("printCopy") == true, "\(completed)")

            let printed = flow.call("copy.print")
            let job = try #require(printed[path: "result.job"] as? Int, "\(printed)\nlog:\n\(agent.log)")
            #expect(job > 0)
            // Printed once: another copy is staff's business.
            #expect(flow.call("copy.print").string("error.data.type") == "InvalidAction")
            // A staff page sees the printer and the last copy's job, and prints nothing.
            let staff = try agent.client("staff")
            #expect(staff.next()?.string("method") == "hello")
            #expect(staff.call("session.negotiate", ["client": "staff", "version": 1, "capabilities": ["events", "records"]]).int("result.version") == 1)
            let printer = staff.call("printer.status")
            #expect(printer.string("result.printer") == cups.queue, "\(printer)")
            #expect(printer[path: "result.lastJob.job"] as? Int == job, "\(printer)")
            #expect(["idle", "printing"].contains(printer.string("result.state") ?? ""), "\(printer)")
            #expect(staff.call("copy.print", ["flow": flow.flow]).string("error.data.type") == "FlowDrivenElsewhere")

            // The end screen learns that the copy printed: CUPS finished the job, so cups-pdf's file is whole.
            let state = Self.copyOutcome(flow)
            #expect(state == "printed", "log:\n\(agent.log)")
            // Nothing of the copy stays in CUPS's spool once the job is done (PreserveJobFiles No): the job's
            // document files are d<job>-<n>; the c<job> control file holds no document.
            let spool = (try? FileManager.default.contentsOfDirectory(atPath: cups.directory.appendingPathComponent("spool").path)) ?? []
            #expect(!spool.contains { $0.hasPrefix("d") }, "\(spool)")
            let files = cups.printed(count: 1)
            let copy = try #require(files.first, "cups-pdf wrote nothing; log:\n\(agent.log)")
            let signed = agent.stateDirectory.appendingPathComponent("records/\(record)/consent.pdf")
            // cups-pdf turns text into outlines: compare pages, not text.
            let pages = try #require(try Self.pages(signed))
            #expect(try Self.pages(copy) == pages)
            let mark = try Self.qrText(copy, page: pages, in: cups.directory)
            #expect(mark.hasPrefix("CK1:\(record):"), "QR code read: \(mark)")

            let records = agent.stateDirectory.appendingPathComponent("records").path
            let checked = try Tools.run(Tools.consentctl, ["copy", "check", mark, "--records", records])
            #expect(checked.status == 0, "\(checked.output)")
            #expect(checked.output.contains("OK record \(record)"), "\(checked.output)")
            // The record's files are exactly as signed: the mark is only on the paper.
            let verified = try Tools.run(Tools.consentctl, ["verify", agent.stateDirectory.appendingPathComponent("records/\(record)").path])
            #expect(verified.status == 0, "\(verified.output)")

            // A mark naming no record, and one whose digest is not the manifest's.
            let unknown = try Tools.run(Tools.consentctl, ["copy", "check", "CK1:r-nosuchrecord:" + String(repeating: "0", count: 64), "--records", records])
            #expect(unknown.status == 2, "\(unknown.output)")
            let forged = mark.dropLast(1) + (mark.hasSuffix("0") ? "1" : "0")
            let changed = try Tools.run(Tools.consentctl, ["copy", "check", String(forged), "--records", records])
            #expect(changed.status == 2, "\(changed.output)")

            agent.finish()
        }

        @Test func aStoppedPrinterIsPrinterUnavailableAndTheConsentIsKept() throws {
            let cups = try PrivateCUPS()
            defer { cups.stop() }
            #expect(try cups.lp("/usr/sbin/cupsdisable", [cups.queue]).status == 0)
            let agent = try ConsentdProcess(
                "print-copy-stopped", arguments: ["--printer", cups.queue], environment: ["CUPS_SERVER": cups.server])
            defer { agent.removeFiles() }
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            let completed = flow.call("flow.complete")
            let record = try #require(completed.string("result.record"), "log:\n\(agent.log)")
            let refused = flow.call("copy.print")
            #expect(refused.string("error.data.type") == "PrinterUnavailable", "\(refused)")
            #expect(refused.string("error.data.state") == "stopped", "\(refused)")
            let verified = try Tools.run(Tools.consentctl, ["verify", agent.stateDirectory.appendingPathComponent("records/\(record)").path])
            #expect(verified.status == 0, "the consent is kept: \(verified.output)")
            #expect(flow.call("flow.get").string("result.step") == "completed")
            // The participant may ask again once staff restarted the printer.
            #expect(try cups.lp("/usr/sbin/cupsenable", [cups.queue]).status == 0)
            #expect(flow.call("copy.print")[path: "result.job"] as? Int != nil)
            #expect(!cups.printed(count: 1).isEmpty)
            agent.finish()
        }
        @Test func printCopyAlwaysPrintsWithoutBeingAsked() throws {
            let cups = try PrivateCUPS()
            defer { cups.stop() }
            let config = cups.directory.appendingPathComponent("consentd.json")
            try Data(#"{"printer": "\#(cups.queue)", "printCopy": "always"}"#.utf8).write(to: config)
            let agent = try ConsentdProcess(
                "print-copy-always", arguments: ["--config", config.path], environment: ["CUPS_SERVER": cups.server])
            defer { agent.removeFiles() }
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            let done = flow.call("signature.submit", ["strokes": FlowDriver.signature])
            #expect((done[path: "result.view.actions"] as? [String])?.contains("printCopy") == false, "nothing to ask")
            let completed = flow.call("flow.complete")
            #expect(completed.string("result.record") != nil, "log:\n\(agent.log)")
            #expect((completed[path: "result.view.actions"] as? [String])?.contains("printCopy") == false)
            let state = Self.copyOutcome(flow)
            #expect(state == "printed", "log:\n\(agent.log)")
            #expect(cups.printed(count: 1).count == 1)
            agent.finish()
        }

        /// A queue stopped while it prints the copy puts the job back to pending, where it would wait for ever: the
        /// copy ends as failed printTimeoutSeconds after CUPS took it, the job is cancelled (it does not come out once
        /// the participant has gone), flow.changed says so with the reason, the staff page's printer.status shows it,
        /// the log has a line, and the end screen's words for it ask the participant to see staff in every language.
        @Test func aCopyThatDoesNotPrintInTimeFailsAndTheStaffPageSaysWhy() throws {
            let cups = try PrivateCUPS()
            defer { cups.stop() }
            // A printer that takes the first bytes of a job and then nothing: the job stays processing.
            let printer = try SilentServer()
            defer { printer.stop() }
            let queue = cups.queue + "-slow"
            let added = try cups.lp("/usr/sbin/lpadmin", [
                "-p", queue, "-v", "socket://127.0.0.1:\(printer.port)", "-P", "/usr/share/ppd/cups-pdf/CUPS-PDF_noopt.ppd", "-E",
            ])
            #expect(added.status == 0, "\(added.output)")
            let config = cups.directory.appendingPathComponent("consentd.json")
            try Data(#"{"printer": "\#(queue)", "printTimeoutSeconds": 15}"#.utf8).write(to: config)
            let agent = try ConsentdProcess(
                "print-copy-timeout", arguments: ["--config", config.path], environment: ["CUPS_SERVER": cups.server])
            defer { agent.removeFiles() }
            let ui = try agent.client()
            ui.negotiate()
            ui.call("events.subscribe", ["topics": ["flow"]])
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            #expect(flow.call("flow.complete").string("result.step") == "completed", "log:\n\(agent.log)")
            let job = try #require(flow.call("copy.print")[path: "result.job"] as? Int, "log:\n\(agent.log)")

            let staff = try agent.client("staff")
            #expect(staff.next()?.string("method") == "hello")
            staff.call("session.negotiate", ["client": "staff", "version": 1, "capabilities": ["events", "records"]])
            // Mid-job: the queue is stopped while the job is being printed, and CUPS puts it back to pending.
            var state: String?
            for _ in 0..<100 where state != "processing" {
                state = staff.call("printer.status").string("result.lastJob.state")
                if state != "processing" { usleep(50_000) }
            }
            #expect(state == "processing")
            #expect(try cups.lp("/usr/sbin/cupsdisable", [queue]).status == 0)
            #expect(Self.copyOutcome(flow) == "failed", "log:\n\(agent.log)")
            let copy = flow.call("flow.get")
            #expect(copy.string("result.copy.reason") == "timedOut", "\(copy)")
            #expect(copy[path: "result.copy.job"] as? Int == job)
            #expect(ui.events.contains { $0.string("params.data.copy.state") == "failed" && $0.string("params.data.copy.reason") == "timedOut" },
                "flow.changed tells the end screen")
            let status = staff.call("printer.status")
            #expect(status.string("result.lastCopy.state") == "failed", "\(status)")
            #expect(status.string("result.lastCopy.reason") == "timedOut", "\(status)")
            #expect(status[path: "result.lastCopy.job"] as? Int == job, "\(status)")
            #expect(status.string("result.lastJob.state") == "cancelled", "the job is cancelled: \(status)")
            #expect(agent.log.contains("did not print in time"), "\(agent.log)")
            // Enabled again, the queue prints nothing of it.
            #expect(try cups.lp("/usr/sbin/cupsenable", [queue]).status == 0)
            let jobs = try cups.lp("/usr/bin/lpstat", ["-W", "not-completed", "-o", queue])
            #expect(jobs.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(jobs.output)")
            // The words of a failed copy ask the participant to see staff, in every language of the kiosk.
            let sentences = ["en": "ask staff", "de": "Personal", "fr": "personnel"]
            for (language, staffWord) in sentences {
                let texts = ui.call("study.get", ["language": language])
                let failed = texts.string("result.study.texts.copyFailed") ?? ""
                #expect(failed.contains(staffWord), "\(language): \(failed)")
            }
            agent.finish()
        }

        /// A CUPS server that accepts and never answers (given as CUPS_SERVER) freezes nothing: copy.print answers
        /// within its bound without a job, the connection's next request is answered at once after it, a staff page's
        /// printer.status answers within the CUPS timeouts, and the copy ends as failed when the submission times out.
        @Test func aHungCUPSServerNeverHoldsUpTheParticipantsConnection() throws {
            let socket = "/tmp/hung-cups-\(UUID().uuidString.prefix(8)).sock"
            let server = try SilentServer(unixSocket: socket)
            defer {
                server.stop()
                unlink(socket)
            }
            let agent = try ConsentdProcess(
                "print-copy-hung", arguments: ["--printer", "kiosk"], environment: ["CUPS_SERVER": socket])
            defer { agent.removeFiles() }
            let ui = try agent.client()
            ui.negotiate()
            ui.call("events.subscribe", ["topics": ["flow"]])
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            #expect(flow.call("flow.complete").string("result.step") == "completed", "log:\n\(agent.log)")
            _ = ui.takeEvents("flow.changed")
            // Pipelined: copy.print, then flow.get, on the participant's connection.
            for (id, method) in [("print", "copy.print"), ("after", "flow.get")] {
                ui.send(jsonLine(["jsonrpc": "2.0", "id": id, "method": method, "params": ["flow": flow.flow]]))
            }
            let printed = ui.reply(to: "print")
            #expect(printed.string("result.flow") == flow.flow, "\(printed)")
            #expect(printed[path: "result.job"] == nil, "CUPS never took it: \(printed)")
            let after = ui.reply(to: "after")
            #expect(after.string("result.copy.state") == "printing", "\(after)")
            // Both came before the submission gave up: nothing has failed yet.
            #expect(!ui.events.contains { $0.string("params.data.copy.state") == "failed" }, "\(ui.events)")

            let staff = try agent.client("staff")
            #expect(staff.next()?.string("method") == "hello")
            staff.call("session.negotiate", ["client": "staff", "version": 1, "capabilities": ["events", "records"]])
            let status = staff.call("printer.status")
            #expect(status.string("result.state") == "unavailable", "\(status)")
            #expect(Self.copyOutcome(flow) == "failed", "log:\n\(agent.log)")
            #expect(flow.call("flow.get").string("result.copy.reason") == "printerUnavailable")
            #expect(staff.call("printer.status").string("result.lastCopy.reason") == "printerUnavailable")
            #expect(agent.log.contains("printer unavailable for the participant's copy"), "\(agent.log)")
            agent.finish()
        }
    }
}
