import ArgumentParser
import ConsentCore
import ConsentSigning
import FileBytes
import Foundation
import SampleStudy
import UTCTime

/// The kiosk a registry command describes: consentd's own `--config`, `--study` and `--state-dir`, read as consentd
/// reads them (flags over the file; the sample study and `./state` by default).
struct KioskOptions: ParsableArguments {
    @Option(help: ArgumentHelp("consentd's config file (its studies, stateDir, approvalKeys, site, timeZone).", valueName: "FILE"))
    var config: String?

    @Option(name: .customLong("study"), help: ArgumentHelp("A study folder, or a folder of versions (repeatable); as consentd's --study.", valueName: "DIR"))
    var studies: [String] = []

    @Option(help: ArgumentHelp("consentd's state directory (its records).", valueName: "DIR"))
    var stateDir: String?

    struct Kiosk {
        var catalog: StudyCatalog
        var stateDirectory: String
        var keyring: ApprovalKeyring?
        var site: String?
        var timeZone: TimeZone
        var today: String

        /// Whether a language's approval holds here today (every version holds when approvals are not checked).
        func holds(_ study: ConsentCore.Study) -> Bool { reason(study) == nil }

        /// Why a language's approval does not hold here today; nil when it does or approvals are not checked.
        func reason(_ study: ConsentCore.Study) -> StudyApprovalError? {
            guard let keyring else { return nil }
            let file = catalog.versions.first { $0.study.folder.path == study.folder.path }?.approval ?? .missing
            do { _ = try file.admit(study, site: site, today: today, keyring: keyring) } catch let error as StudyApprovalError {
                return error
            } catch { return StudyApprovalError(.malformed, "\(error)") }
            return nil
        }

        var served: [ConsentCore.Study] { catalog.served(holds: holds) }
    }

    /// Reads the config file (only the keys a registry needs; consentd checks the rest) and loads the studies.
    func kiosk() throws -> Kiosk {
        var file: [String: JSONValue] = [:]
        if let config {
            guard let bytes = try? FileBytes.read(config, limit: 16 << 20),
                let members = (try? JSONValue.parse(Data(bytes)))?.objectValue
            else { throw CommandFailure("\(config): cannot read it as consentd's JSON config file") }
            file = members
        }
        var paths = studies.isEmpty ? (file["studies"]?.arrayValue ?? []).compactMap(\.stringValue) : studies
        if paths.isEmpty, let sample = SampleStudy.folder { paths = [sample.path] }
        let catalog: StudyCatalog
        do { catalog = try StudyCatalog.load(paths) } catch let error as ConsentCoreError {
            throw CommandFailure(error.description)
        }
        var keyring: ApprovalKeyring?
        if let keys = file["approvalKeys"]?.arrayValue {
            do { keyring = try ApprovalKeyring.load(keys.compactMap(\.stringValue)) } catch let error as StudyApprovalError {
                throw CommandFailure(error.message)
            }
        }
        let zone = file["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? .current
        return Kiosk(
            catalog: catalog, stateDirectory: stateDir ?? file["stateDir"]?.stringValue ?? "./state", keyring: keyring,
            site: file["site"]?.stringValue, timeZone: zone, today: CivilDate.today(in: zone).text)
    }
}

/// What the registry reads of one record: its manifest, unverified (`consentctl verify` checks a record).
struct RecordSummary {
    var id: String
    var manifest: RecordManifest

    var date: String { String(manifest.signedAt.prefix(10)) }
    var isConsent: Bool { manifest.withdraws == nil }

    /// Every record of the state directory whose manifest reads, by id.
    static func all(stateDirectory: String) -> [RecordSummary] {
        let layout = StateLayout(root: stateDirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: layout.records)) ?? []
        return names.sorted().compactMap { id in
            let path = layout.record(id) + "/" + RecordManifest.fileName
            guard let bytes = try? FileBytes.read(path, limit: 16 << 20),
                let manifest = try? RecordManifest.decoded(bytes)
            else { return nil }
            return RecordSummary(id: id, manifest: manifest)
        }
    }
}

/// `consentctl studies [--json]`: per study, version × site × language, its approval and how many records were
/// signed on it here.
struct Studies: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the study versions on this kiosk: approval, state and the records signed on each.",
        discussion: """
            One row per study, version and language: the approval's site, first and last day and reference, its \
            state (active: served here; expired; notApproved: its approval does not hold here; superseded: a newer \
            version is served for that language, or the version is no longer on the kiosk and only its records are) \
            and how many consent records the state directory holds for it (withdrawals not counted). No PHI.
            """)

    @OptionGroup var kiosk: KioskOptions

    @Flag(help: "Print one JSON object: studies[].versions[] {version, language, site, approved, expires, reference, state, records}.")
    var json = false

    struct Row: Encodable {
        var study: String
        var version: String
        var language: String
        var site: String?
        var approved: String?
        var expires: String?
        var reference: String?
        var state: String
        var reason: String?
        var records: Int
        var folder: String?
    }

    func run() throws {
        let kiosk = try self.kiosk.kiosk()
        let served = kiosk.served
        let records = RecordSummary.all(stateDirectory: kiosk.stateDirectory).filter(\.isConsent)
        var counts: [String: Int] = [:]
        for record in records {
            counts[Self.key(record.manifest.studyID, record.manifest.studyVersion, record.manifest.language ?? ""), default: 0] += 1
        }
        var rows: [Row] = []
        var listed: Set<String> = []
        for version in kiosk.catalog.versions {
            let approval = version.approval.approval
            for language in [version.study] + version.study.translations {
                let key = Self.key(language.id, language.version, language.language)
                guard listed.insert(key).inserted else { continue }
                var state = "active"
                var reason: String?
                if !StudyCatalog.isServed(language, in: served) {
                    state = "superseded"
                } else if let error = kiosk.reason(language) {
                    state = error.reason == .expired ? "expired" : "notApproved"
                    reason = error.message
                } else if let approval, kiosk.keyring == nil, kiosk.today > approval.expires {
                    state = "expired"
                }
                rows.append(Row(
                    study: language.id, version: language.version, language: language.language, site: approval?.site,
                    approved: approval?.approved, expires: approval?.expires, reference: approval?.reference, state: state,
                    reason: reason, records: counts[key] ?? 0, folder: language.folder.path))
            }
        }
        // Versions only the records know: gone from the kiosk, so superseded; their approval as the records bound it.
        for record in records {
            let m = record.manifest
            let key = Self.key(m.studyID, m.studyVersion, m.language ?? "")
            guard listed.insert(key).inserted else { continue }
            rows.append(Row(
                study: m.studyID, version: m.studyVersion, language: m.language ?? "", site: m.approval?.site,
                approved: m.approval?.approved, expires: m.approval?.expires, reference: m.approval?.reference,
                state: "superseded", reason: nil, records: counts[key] ?? 0, folder: nil))
        }
        if json {
            struct Study: Encodable {
                var study: String
                var versions: [Row]
            }
            struct Report: Encodable {
                var site: String?
                var today: String
                var approvalsChecked: Bool
                var studies: [Study]
            }
            var order: [String] = []
            for row in rows where !order.contains(row.study) { order.append(row.study) }
            let report = Report(
                site: kiosk.site, today: kiosk.today, approvalsChecked: kiosk.keyring != nil,
                studies: order.map { id in Study(study: id, versions: rows.filter { $0.study == id }) })
            print(try JSONOutput.text(report))
            return
        }
        let header = ["STUDY", "VERSION", "LANG", "SITE", "APPROVED", "EXPIRES", "STATE", "RECORDS", "REFERENCE"]
        let cells = rows.map { row in
            [
                row.study, String(row.version.prefix(12)), row.language, row.site ?? "any", row.approved ?? "-",
                row.expires ?? "-", row.state, String(row.records), row.reference ?? "-",
            ]
        }
        // Columns as wide as their widest cell; the reference, last, as long as it is.
        let widths = header.indices.map { column in ([header] + cells).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        print(line(header))
        for (row, cells) in zip(rows, cells) {
            print(line(cells))
            if let reason = row.reason { print("    \(reason)") }
        }
        if kiosk.keyring == nil { print("(approvals are not checked: no approvalKeys in the config)") }
    }

    static func key(_ study: String, _ version: String, _ language: String) -> String {
        "\(study)\u{0}\(version)\u{0}\(language.lowercased())"
    }
}

/// `consentctl reconsent list STUDY [--json] [--show-names]`: the consents signed on a superseded version.
struct Reconsent: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List who must re-consent: records signed on a version that is no longer served.",
        subcommands: [List.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the consent records of STUDY signed on a superseded version (record id, version, language, date).",
            discussion: """
                A record is listed while it is a consent (not a withdrawal), not withdrawn, not already replaced by a \
                re-consent, and its version is not the one served for its language. No names unless --show-names \
                (read from the record's patient.json; for staff at a staff terminal only). Exit status 0.
                """)

        @Argument(help: "The study id.")
        var study: String

        @OptionGroup var kiosk: KioskOptions

        @Flag(help: "Print one JSON object: records[] {record, version, language, date}.")
        var json = false

        @Flag(help: "Also print each participant's name (PHI): only on a staff terminal.")
        var showNames = false

        struct Entry: Encodable {
            var record: String
            var version: String
            var language: String
            var date: String
            var currentVersion: String?
            var name: String?
        }

        func run() throws {
            let kiosk = try self.kiosk.kiosk()
            let served = kiosk.served
            let all = RecordSummary.all(stateDirectory: kiosk.stateDirectory)
            let withdrawn = Set(all.compactMap(\.manifest.withdraws))
            let replaced = Set(all.compactMap(\.manifest.previousRecord))
            let current = served.first { $0.id == study }
            var entries: [Entry] = []
            for record in all where record.isConsent && record.manifest.studyID == study {
                guard !withdrawn.contains(record.id), !replaced.contains(record.id) else { continue }
                let language = record.manifest.language ?? current?.language ?? ""
                let now = current?.inLanguage(language)?.version
                guard record.manifest.studyVersion != now else { continue }
                entries.append(Entry(
                    record: record.id, version: record.manifest.studyVersion, language: language, date: record.date,
                    currentVersion: now, name: showNames ? Self.name(record, stateDirectory: kiosk.stateDirectory) : nil))
            }
            if json {
                struct Report: Encodable {
                    var study: String
                    var records: [Entry]
                }
                print(try JSONOutput.text(Report(study: study, records: entries)))
                return
            }
            for entry in entries {
                let name = entry.name.map { "  \($0)" } ?? ""
                print("\(entry.record)  \(entry.version.prefix(12))  \(entry.language)  \(entry.date)\(name)")
            }
            print("\(entries.count) record(s) of \(study) signed on a superseded version")
        }

        /// The participant's name from the record's Patient; nil for a de-identified or encrypted record.
        static func name(_ record: RecordSummary, stateDirectory: String) -> String? {
            let path = StateLayout(root: stateDirectory).record(record.id) + "/patient.json"
            guard let bytes = try? FileBytes.read(path, limit: 1 << 20), let patient = try? JSONValue.parse(Data(bytes)),
                let name = patient["name"]?[0]
            else { return nil }
            let given = (name["given"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: " ")
            let family = name["family"]?.stringValue ?? ""
            let full = [given, family].filter { !$0.isEmpty }.joined(separator: " ")
            return full.isEmpty ? nil : full
        }
    }
}
