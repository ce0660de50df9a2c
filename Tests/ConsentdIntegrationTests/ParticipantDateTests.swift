import Foundation
import Testing

/// The day a withdrawal or a re-consent names, as a German or French participant reads it: "am 27. November 2026
/// für „Studie Heartbeat & Sleep“", "le 27 novembre 2026", never the record's `YYYY-MM-DD`.
enum ParticipantDates {
    static let germanMonths = [
        "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November",
        "Dezember",
    ]
    static let frenchMonths = [
        "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre",
        "décembre",
    ]

    /// `YYYY-MM-DD` as (day, month 1-12, year).
    static func parts(_ signedOn: String?) throws -> (day: Int, month: Int, year: Int) {
        let fields = try #require(signedOn).split(separator: "-").compactMap { Int($0) }
        try #require(fields.count == 3 && (1...12).contains(fields[1]))
        return (fields[2], fields[1], fields[0])
    }

    /// A config file with the zone the agent names days in: UTC, so the day is the record's `signedOn`.
    static func utcConfig() throws -> URL {
        let config = URL(fileURLWithPath: "/tmp").appendingPathComponent("cdi-dates-\(UUID().uuidString.prefix(8)).json")
        try #"{"timeZone": "UTC", "locale": "en_US"}"#.write(to: config, atomically: true, encoding: .utf8)
        return config
    }
}

extension ConsentdIntegration {
    @Suite struct ParticipantDateTexts {
        @Test func aGermanWithdrawalNamesTheDayInGermanWords() throws {
            let config = try ParticipantDates.utcConfig()
            defer { try? FileManager.default.removeItem(at: config) }
            let agent = try ConsentdProcess("dates-de", arguments: ["--config", config.path])
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui, language: "de")
            flow.toSignaturePage()
            let record = try #require(flow.signAndComplete().string("result.record"))

            let started = ui.call("flow.start", ["withdraw": record])
            #expect(started.string("result.language") == "de")
            let signedOn = started.string("result.view.withdrawal.signedOn")
            // The machine-readable day is unchanged.
            #expect(signedOn?.count == 10)
            let day = try ParticipantDates.parts(signedOn)
            let text = try #require(started.string("result.view.withdrawal.text"))
            let words = "am \(day.day). \(ParticipantDates.germanMonths[day.month - 1]) \(day.year) für „Studie Heartbeat & Sleep“"
            #expect(text.contains(words), "\(text)")
            #expect(!text.contains(try #require(signedOn)), "\(text)")
            agent.finish()
        }

        @Test func aFrenchReconsentNamesTheDayOfThePreviousSignatureInFrenchWords() throws {
            let config = try ParticipantDates.utcConfig()
            defer { try? FileManager.default.removeItem(at: config) }
            let first = try ConsentdProcess("dates-fr-1", arguments: ["--config", config.path])
            let ui = try first.client()
            ui.negotiate()
            let flow = FlowDriver(ui, language: "fr")
            flow.toSignaturePage()
            let record = try #require(flow.signAndComplete().string("result.record"))
            // The French withdrawal text too, before the study changes.
            let withdrawal = ui.call("flow.start", ["withdraw": record])
            let day = try ParticipantDates.parts(withdrawal.string("result.view.withdrawal.signedOn"))
            let french = "\(day.day) \(ParticipantDates.frenchMonths[day.month - 1]) \(day.year)"
            let withdrawalText = try #require(withdrawal.string("result.view.withdrawal.text"))
            #expect(withdrawalText.contains("le \(french) pour « Étude Heartbeat & Sleep »"), "\(withdrawalText)")
            #expect(ui.call("flow.cancel", ["flow": withdrawal.string("result.flow") ?? ""]).string("result.step") == "cancelled")
            first.finish(keepingState: true)
            defer { first.removeFiles() }

            let study = try LinkedRecords.sampleCopy { folder in
                let url = folder.appendingPathComponent("fr/withdrawing.html")
                let text = try String(contentsOf: url, encoding: .utf8)
                try (text + "<p>Vous pouvez aussi demander la destruction de vos échantillons.</p>\n")
                    .write(to: url, atomically: true, encoding: .utf8)
            }
            defer { try? FileManager.default.removeItem(at: study) }
            let second = try ConsentdProcess(
                "dates-fr-2",
                arguments: ["--config", config.path, "--state-dir", first.stateDirectory.path, "--study", study.path])
            let kiosk = try second.client()
            kiosk.negotiate()
            let started = kiosk.call("flow.start", ["previous": record])
            #expect(started.string("result.step") == "changes")
            let text = try #require(started.string("result.view.changes.text"))
            #expect(text.contains("signé le \(french)"), "\(text)")
            second.finish()
        }
    }
}
