import Foundation
import Testing

/// Control, bidi and invisible formatting characters in what a participant or a staff member types never reach a
/// record or the log: names, the staff note, a withdrawal reason, a FHIR Patient's and Address's strings and the
/// client's name are refused (InvalidField; the client's name InvalidParams), through a real consentd
/// (Sources/EnteredText/EnteredText.swift has the rule).
enum TypedTextAttack {
    /// NUL, an escape sequence, a line break, NEL (C1), the right-to-left override that shows "Ada evoL" as
    /// "Ada Love", an isolate, a right-to-left mark, a byte-order mark, a tag character. Inside the text: a line
    /// break or NEL at either end is whitespace, trimmed before anything is kept.
    static let texts = [
        "Ada\u{0}", "Ada\u{202E}ecalevoL", "Ada\nLovelace", "\u{1B}[2JAda", "Ada\u{85}x", "Ada\u{2067}x\u{2069}",
        "Ada\u{200F}", "A\u{FEFF}da", "Ada\u{E0041}",
    ]

    /// Scalars no record or log line may hold: every C0 but the line feed that ends a log line, DEL, C1, the bidi
    /// marks, embeddings, overrides and isolates, the byte-order mark, tag characters.
    static func isForbidden(_ scalar: Unicode.Scalar, inLog: Bool = false) -> Bool {
        switch scalar.value {
        case 0x0A: !inLog
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0xE0000...0xE007F: true
        default: false
        }
    }

    /// Every string (and member name) of a JSON value.
    static func strings(_ value: Any) -> [String] {
        switch value {
        case let text as String: [text]
        case let array as [Any]: array.flatMap(strings)
        case let object as [String: Any]: object.keys.map { $0 } + object.values.flatMap(strings)
        default: []
        }
    }

    /// The forbidden scalars in a record's JSON files and its PDF's text, by file.
    static func forbidden(inRecord directory: URL) throws -> [String: [UInt32]] {
        var found: [String: [UInt32]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".json") {
            let value = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name)))
            let bad = strings(value).flatMap { $0.unicodeScalars.filter { isForbidden($0) }.map(\.value) }
            if !bad.isEmpty { found[name] = bad }
        }
        let text = try Tools.run("/usr/bin/pdftotext", ["-enc", "UTF-8", directory.appendingPathComponent("consent.pdf").path, "-"])
        // pdftotext ends pages with a form feed and lines with line feeds: its own, not the input's.
        let bad = text.output.unicodeScalars.filter { isForbidden($0) && $0.value != 0x0C && $0.value != 0x0A }.map(\.value)
        if !bad.isEmpty { found["consent.pdf"] = bad }
        return found
    }
}

extension ConsentdIntegration {
    @Suite struct TypedText {
        @Test func controlAndBidiCharactersAreRefusedAndReachNoRecordNorTheLog() throws {
            let agent = try StaffFixture.agent("typed-text")
            // The client's name goes into the record of the strokes it drew.
            let raw = try agent.client("raw")
            #expect(raw.next()?.string("method") == "hello")
            for client in TypedTextAttack.texts {
                let refused = raw.call("session.negotiate", ["client": client, "version": 1])
                #expect(refused.errorType == "InvalidParams", "\(client.unicodeScalars.map(\.value)): \(refused)")
                #expect(refused.string("error.data.field") == "client")
            }
            raw.close()

            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSharing()
            #expect(flow.call("sharing.choose", ["shareWidely": true]).string("result.step") == "optional")
            #expect(flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]]).string("result.view.review.page") == "document")
            #expect(flow.agree().string("result.view.review.page") == "name")
            for attack in TypedTextAttack.texts {
                let scalars = "\(attack.unicodeScalars.map(\.value))"
                let given = flow.call("participant.setName", ["given": attack, "family": "Lovelace"])
                #expect(given.errorType == "InvalidField", "\(scalars): \(given)")
                let family = flow.call("participant.setName", ["given": "Ada", "family": attack])
                #expect(family.errorType == "InvalidField", "\(scalars): \(family)")
                #expect(!jsonLine(given).contains("Lovelace") && !jsonLine(family).contains("ecalevoL"), "never echoed")
            }
            // Real names of many kinds pass (on the signature page, a name given again replaces the last).
            for (given, family) in [("Jean-Luc", "O'Brien"), ("J. R. R.", "de la Cruz"), ("Nguyễn", "Thị"), ("山田", "太郎")] {
                #expect(flow.call("participant.setName", ["given": given, "family": family]).string("result.view.review.page") == "signature")
            }
            #expect(flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"]).string("result.view.review.page") == "signature")
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "staff")
            #expect(flow.call("staff.unlock", ["staffId": "jroe", "pin": "482913"]).string("result.view.staff.page") == "attest")
            for attack in TypedTextAttack.texts {
                let note = flow.call("staff.attestIdentity", ["method": "other", "note": "Passport " + attack])
                #expect(note.errorType == "InvalidField", "\(attack.unicodeScalars.map(\.value)): \(note)")
            }
            #expect(flow.call("staff.attestIdentity", ["method": "other", "note": "Passport, checked – ok"]).string("result.view.staff.page") == "signature")
            let countersigned = flow.call("signature.submit", ["strokes": FlowDriver.signature, "role": "personObtainingConsent"])
            #expect(countersigned.string("result.step") == "done")

            // The FHIR the UI hands to flow.complete: a name part, any other string, a member's name.
            for attack in TypedTextAttack.texts {
                let cases: [(String, JSONObject, String)] = [
                    ("patient", ["resourceType": "Patient", "name": [["given": [attack], "family": "Lovelace"]]], "patient.name[0].given[0]"),
                    ("patient", ["resourceType": "Patient", "name": [["family": attack]]], "patient.name[0].family"),
                    ("patient", ["resourceType": "Patient", "name": [["text": "LOVELACE, " + attack]]], "patient.name[0].text"),
                    ("patient", ["resourceType": "Patient", "identifier": [["value": "MRN " + attack]]], "patient.identifier"),
                    ("patient", ["resourceType": "Patient", "extension": [[attack: "x"]]], "patient.extension"),
                    ("location", ["line": ["12 Main St " + attack]], "location.line"),
                    ("location", ["city": attack], "location.city"),
                ]
                for (param, value, field) in cases {
                    let reply = flow.call("flow.complete", [param: value])
                    #expect(reply.errorType == "InvalidField", "\(field) \(attack.unicodeScalars.map(\.value)): \(reply)")
                    #expect(reply.string("error.data.field") == field, "\(reply)")
                }
            }
            let patient: JSONObject = [
                "resourceType": "Patient", "name": [[
                    "given": ["Ada"], "family": "Lovelace", "prefix": ["Dr."], "suffix": ["M.D., Ph.D."],
                    // A record system's whole name, commas and all: visible text, not held to the name rule.
                    "text": "LOVELACE, ADA",
                ]],
                "identifier": [["value": "MRN-4711"]],
            ]
            let completed = flow.call("flow.complete", ["patient": patient, "location": ["city": "Boston", "country": "US"]])
            #expect(completed.string("result.step") == "completed", "\(completed)")
            let record = try #require(completed.string("result.record"))
            let directory = URL(fileURLWithPath: try #require(completed.string("result.directory")))

            // A withdrawal's reason.
            let started = ui.call("flow.start", ["withdraw": record])
            let withdrawal = FlowDriver(ui, flow: try #require(started.string("result.flow")))
            for attack in TypedTextAttack.texts {
                let reason = withdrawal.call("withdrawal.confirm", ["reason": "Moving " + attack])
                #expect(reason.errorType == "InvalidField", "\(attack.unicodeScalars.map(\.value)): \(reason)")
            }
            #expect(withdrawal.call("withdrawal.confirm", ["reason": "Moving away, sorry."]).string("result.view.review.page") == "name")
            withdrawal.call("flow.cancel")

            #expect(try TypedTextAttack.forbidden(inRecord: directory) == [:])
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }
            let log = agent.log + ((try? String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)) ?? "")
            #expect(log.unicodeScalars.filter { TypedTextAttack.isForbidden($0, inLog: true) }.map(\.value) == [])
        }
    }
}
