import Foundation
import IntegrationSupport
import Testing

extension ConsentdIntegration {
    /// The form to take home (`copy.printBlank`; 21 CFR 50.20, time to consider): printed through a private cupsd's
    /// cups-pdf queue, whose PDF is checked for its pages and the mark at the head of each (its words are checked on
    /// the agent's own rendering, ConsentPDFTests/ReadingCopyTests).
    @Suite struct TakeHomeForm {
        typealias PrivateCUPS = PrintCopy.PrivateCUPS

        /// The first PDF cups-pdf wrote, once it is whole: it appears as cups-pdf starts writing it, and reads as a
        /// PDF (pdfinfo) only when the job is done; up to a minute.
        static func printedForm(_ cups: PrivateCUPS) throws -> URL? {
            guard let pdf = cups.printed(count: 1).first else { return nil }
            for _ in 0..<600 {
                if try Tools.run("/usr/bin/pdfinfo", [pdf.path]).status == 0 { return pdf }
                usleep(100_000)
            }
            return nil
        }

        /// Whether page `page` of `pdf` has ink in its header band (the top 18 to 40 pt, where nothing but a reading
        /// copy's mark is printed), as a 36 dpi greyscale rendering shows. cups-pdf's PDF holds its text as
        /// outlines, so the words themselves are checked on the agent's rendering (ConsentPDFTests/ReadingCopyTests).
        static func hasMark(_ pdf: URL, page: Int, in folder: URL) throws -> Bool {
            let prefix = folder.appendingPathComponent("mark-\(page)").path
            let rendered = try Tools.run(
                "/usr/bin/pdftoppm", ["-r", "36", "-gray", "-singlefile", "-f", "\(page)", "-l", "\(page)", pdf.path, prefix])
            #expect(rendered.status == 0, "\(rendered.output)")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm")))
            // P5 <width> <height> 255, each after one whitespace, then the pixels row by row.
            var fields: [Int] = [], index = 2, number = 0, inNumber = false
            while fields.count < 3, index < bytes.count {
                let byte = bytes[index]
                if byte >= 48 && byte <= 57 { number = number * 10 + Int(byte - 48); inNumber = true } else if inNumber {
                    fields.append(number); number = 0; inNumber = false
                }
                index += 1
            }
            guard fields.count == 3 else { return false }
            let width = fields[0]
            // 36 dpi: half a pixel a point.
            let rows = (18 / 2)..<(40 / 2)
            return rows.contains { row in
                let start = index + row * width
                return start + width <= bytes.count && bytes[start..<(start + width)].contains { $0 < 128 }
            }
        }

        /// Before a flow, in German, of an approved study: the German form of that version, every page marked; a second
        /// form within the interval is refused; bad study, language or params are typed errors.
        @Test func theStartScreensFormIsMarkedOnEveryPageWithTheVersionAndTheApproval() throws {
            let cups = try PrivateCUPS()
            defer { cups.stop() }
            let sealed = try SealedStudy()
            let agent = try ConsentdProcess(
                "blank-form", arguments: ["--config", try sealed.config().path, "--study", sealed.study.path, "--printer", cups.queue],
                environment: ["CUPS_SERVER": cups.server])
            defer { agent.removeFiles() }
            let ui = try agent.client()
            ui.negotiate()
            let study = ui.call("study.get", ["language": "de"])
            #expect(study[path: "result.study.printBlank"] as? Bool == true, "\(study)")
            #expect(study.string("result.study.texts.printBlank") == "Formular zum Mitnehmen drucken")

            let printed = ui.call("copy.printBlank", ["language": "de"])
            let job = try #require(printed[path: "result.job"] as? Int, "\(printed)\nlog:\n\(agent.log)")
            #expect(job > 0)
            #expect(printed.string("result.language") == "de")
            let languages = study[path: "result.study.languages"] as? [JSONObject] ?? []
            #expect(printed.string("result.version") == languages.first { $0["tag"] as? String == "de" }?["version"] as? String)
            let pages = try #require(printed[path: "result.pages"] as? Int)
            // A second tap while the first form prints: refused, not printed again.
            let again = ui.call("copy.printBlank", ["language": "de"])
            #expect(again.string("error.data.type") == "PrinterUnavailable", "\(again)")
            #expect(again.string("error.data.state") == "printing")
            #expect(ui.call("copy.printBlank", ["language": "xx"]).string("error.data.type") == "UnknownLanguage")
            #expect(ui.call("copy.printBlank", ["study": "nope"]).string("error.data.type") == "UnknownStudy")
            #expect(ui.call("copy.printBlank", ["flow": "nope", "language": "de"]).string("error.data.type") == "InvalidParams")

            let pdf = try #require(try Self.printedForm(cups), "cups-pdf wrote nothing whole\nlog:\n\(agent.log)")
            #expect(try PrintCopy.pages(pdf) == pages)
            for page in 1...pages {
                #expect(try Self.hasMark(pdf, page: page, in: cups.directory), "page \(page) has no mark")
            }
            #expect(agent.log.contains("form to take home sent to the printer"))
        }

        /// From a flow: only on the review document, in the flow's language, offered with the agent's label, only by the
        /// connection that drives the flow; the flow stays where it is.
        @Test func aFlowsFormIsOfferedOnTheReviewDocumentOnly() throws {
            let cups = try PrivateCUPS()
            defer { cups.stop() }
            let agent = try ConsentdProcess(
                "blank-form-flow", arguments: ["--printer", cups.queue], environment: ["CUPS_SERVER": cups.server])
            defer { agent.removeFiles() }
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            #expect(flow.call("copy.printBlank").string("error.data.type") == "InvalidAction")
            #expect(flow.call("copy.printBlank", ["language": "en"]).string("error.data.type") == "InvalidParams")
            flow.toSharing()
            #expect(flow.call("sharing.choose", ["shareWidely": true]).string("result.step") == "optional")
            let review = flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
            #expect(review.string("result.view.review.page") == "document")
            #expect((review[path: "result.view.actions"] as? [String])?.contains("printBlank") == true, "\(review)")
            #expect(review.string("result.view.labels.printBlank") == "Print the form to take home")
            // Another connection may watch the flow, not print from it.
            let other = try agent.client("other")
            other.negotiate()
            #expect(other.call("copy.printBlank", ["flow": flow.flow]).string("error.data.type") == "FlowDrivenElsewhere")

            let printed = flow.call("copy.printBlank")
            #expect(printed[path: "result.job"] as? Int != nil, "\(printed)\nlog:\n\(agent.log)")
            #expect(printed.string("result.language") == "en")
            // The flow is where it was: printing is not a step.
            #expect(flow.call("flow.get").string("result.view.review.page") == "document")
            let name = flow.agree()
            #expect(name.string("result.view.review.page") == "name")
            #expect((name[path: "result.view.actions"] as? [String])?.contains("printBlank") == false)

            let pdf = try #require(try Self.printedForm(cups), "cups-pdf wrote nothing whole\nlog:\n\(agent.log)")
            let pages = try #require(try PrintCopy.pages(pdf))
            #expect(pages == printed[path: "result.pages"] as? Int)
            for page in 1...pages {
                #expect(try Self.hasMark(pdf, page: page, in: cups.directory), "page \(page) has no mark")
            }
        }

        /// A kiosk without a printer says so before anyone taps.
        @Test func withoutAPrinterTheFormIsNotOffered() throws {
            let agent = try ConsentdProcess("blank-form-none")
            defer { agent.removeFiles() }
            let ui = try agent.client()
            ui.negotiate()
            #expect(ui.call("study.get")[path: "result.study.printBlank"] as? Bool == false)
            let refused = ui.call("copy.printBlank")
            #expect(refused.string("error.data.type") == "PrinterUnavailable")
            #expect(refused.string("error.data.state") == "unavailable")
        }
    }
}
