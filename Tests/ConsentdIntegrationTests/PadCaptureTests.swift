import Foundation
import Testing

/// The pen tablet of Tests/SignaturePadLinuxTests/Fixtures (generate.py), as umockdev-run serves it to consentd.
///
/// umockdev-run sets its preload for its child only, so this suite needs no LD_PRELOAD and runs with the others.
/// umockdev replays a recording once, when the capture opens the node, so each test starts its own consentd.
enum PenTablet {
    static let node = "/dev/input/event10"
    static let folder = Paths.root.appendingPathComponent("Tests/SignaturePadLinuxTests/Fixtures/pen-tablet")
    static let umockdevRun = "/usr/bin/umockdev-run"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: umockdevRun) }

    /// `umockdev-run` with the tablet and `scenario`.evemu queued on its node.
    static func wrapper(_ scenario: String) -> [String] {
        [
            umockdevRun, "-d", folder.appendingPathComponent("device.umockdev").path,
            "-i", "\(node)=\(folder.appendingPathComponent("device.ioctl").path)",
            "-e", "\(node)=\(folder.appendingPathComponent("\(scenario).evemu").path)",
        ]
    }

    /// The strokes the recording `signature.evemu` makes (written by generate.py from the same data; the pure
    /// pipeline's replay of the .evemu is checked against the same file in ConsentAgentTests).
    static func expectedSignature() throws -> JSONObject {
        let data = try Data(contentsOf: folder.appendingPathComponent("signature.strokes.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? JSONObject)
    }
}

extension ConsentdIntegration {
    @Suite(.enabled(if: PenTablet.isAvailable, "umockdev-run is not installed (scripts/ensure-deps installs it)"))
    struct PadCapture {
        /// A signature drawn on the (mock) tablet: echoed as `ink.points`, taken by `signature.submit` without
        /// strokes, and written into the record exactly as the recording says.
        @Test func padSignatureIsEchoedAndEndsInTheRecord() throws {
            let agent = try ConsentdProcess(
                "pad-capture", arguments: ["--pad-include-uninitialized"], wrapper: PenTablet.wrapper("signature"))
            let ui = try agent.client()
            ui.negotiate()
            let subscribed = ui.call("events.subscribe", ["topics": ["flow", "ink", "pad"]])
            let pads = subscribed.array("result.snapshot.pads") as? [JSONObject] ?? []
            #expect(pads.map { $0.string("id") } == [PenTablet.node])
            #expect(pads.first?.string("name") == "Wacom One Pen Display Pen")
            #expect(pads.first?.int("widthMM") == 216 && pads.first?.int("heightMM") == 135)
            #expect(pads.first?[path: "hasPressure"] as? Bool == true)
            #expect((ui.call("pads.list").array("result.pads") as? [JSONObject])?.map { $0.string("id") } == [PenTablet.node])

            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            // With a pad connected, the signature page offers the pad capture, with its label.
            let page = flow.call("flow.get")
            #expect((page.array("result.view.actions") as? [String])?.contains("beginSignature") == true)
            #expect(page.string("result.view.labels.beginSignature")?.isEmpty == false)
            let begun = flow.call("signature.begin")
            #expect(begun.string("result.pad.id") == PenTablet.node)
            #expect(begun.string("result.view.review.page") == "signature")
            // The view gives the UI the capturing pad's area, to draw the ink at its aspect ratio.
            #expect(begun.string("result.view.review.signingArea.source") == "pad")
            #expect(begun.string("result.view.review.signingArea.pad") == PenTablet.node)
            #expect(begun.int("result.view.review.signingArea.widthMM") == 216)
            #expect(begun.int("result.view.review.signingArea.heightMM") == 135)

            // One capture at a time: another flow at its signature page finds the pad busy.
            let other = FlowDriver(ui)
            other.toSignaturePage()
            #expect(other.call("signature.begin").errorType == "PadBusy")
            #expect(other.call("flow.cancel").string("result.step") == "cancelled")

            // The replay started when the capture opened the node; wait (bounded) for both strokes to end.
            let deadline = ContinuousClock.now + .seconds(15)
            while ui.events.filter({ $0.string("method") == "ink.strokeEnded" }).count < 2, ContinuousClock.now < deadline {
                usleep(50_000)
                ui.call("session.sync")
            }
            let ink = ui.takeEvents("ink.points")
            let ended = ui.takeEvents("ink.strokeEnded")
            #expect(ended.map { $0.int("params.data.stroke") } == [0, 1])
            #expect(ink.allSatisfy { $0.string("params.data.flow") == flow.flow && $0.string("params.data.pad") == PenTablet.node })
            // Ink says whose signature it is (signature.begin's role, participant by default).
            #expect(ink.allSatisfy { $0.string("params.data.role") == "participant" })
            #expect(ended.allSatisfy { $0.string("params.data.role") == "participant" })

            // The echo, stroke by stroke: normalised, t from the first point, pressure 0…1.
            var echoed: [[[Double]]] = []
            for event in ink {
                let stroke = event.int("params.data.stroke") ?? -1
                let points = (event.array("params.data.points") as? [[Any]] ?? []).map(Self.numbers)
                if stroke == echoed.count { echoed.append([]) }
                guard echoed.indices.contains(stroke) else {
                    Issue.record("ink for stroke \(stroke) after \(echoed.count) strokes")
                    continue
                }
                echoed[stroke] += points
            }
            #expect(echoed.joined().allSatisfy { p in p.count == 4 && (0...1).contains(p[0]) && (0...1).contains(p[1]) && (0...1).contains(p[3]) })
            let expected = try PenTablet.expectedSignature()
            let expectedStrokes = (expected["strokes"] as? [[[Any]]] ?? []).map { $0.map(Self.numbers) }
            #expect(expectedStrokes.map(\.count) == [14, 6])
            #expect(Self.same(echoed, expectedStrokes), "echoed ink \(echoed.map(\.count)) vs expected")

            let signed = flow.call("signature.submit")
            #expect(signed.string("result.step") == "done")
            let completed = flow.call("flow.complete")
            #expect(completed.string("result.step") == "completed")
            let directory = try #require(completed.string("result.directory"))
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/signature.json"))
            let saved = try #require(try JSONSerialization.jsonObject(with: data) as? JSONObject)
            let savedStrokes = (saved["strokes"] as? [[[Any]]] ?? []).map { $0.map(Self.numbers) }
            #expect(Self.same(savedStrokes, expectedStrokes), "recorded strokes \(savedStrokes.map(\.count)) vs expected")
            #expect(saved.int("widthMM") == 216 && saved.int("heightMM") == 135)
            #expect(saved.string("device.name") == "Wacom One Pen Display Pen")
            #expect(saved.string("device.vendorId") == "056a" && saved.string("device.productId") == "03a6")
            #expect(saved.int("device.pressureLevels") == 4096)
            #expect(saved.int("device.x.maximum") == 21600 && saved.int("device.x.resolution") == 100)
            #expect((saved.array("device.interruptedStrokes"))?.isEmpty == true)

            // The pad was released at submit (and the log never holds a point).
            #expect(agent.log.contains("pad capture finished"))
            #expect(!agent.log.contains("0.0925925"))
            agent.finish()
        }

        /// A dot is refused with the pad module's reason; the capture goes on, and ending the flow releases the pad.
        @Test func aDotIsTooShortAndTheFlowEndReleasesThePad() throws {
            let agent = try ConsentdProcess(
                "pad-dot", arguments: ["--pad-include-uninitialized"], wrapper: PenTablet.wrapper("dot"))
            let ui = try agent.client()
            ui.negotiate()
            ui.call("events.subscribe", ["topics": ["ink"]])
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.begin").string("result.pad.id") == PenTablet.node)
            let deadline = ContinuousClock.now + .seconds(15)
            while ui.events.filter({ $0.string("method") == "ink.strokeEnded" }).isEmpty, ContinuousClock.now < deadline {
                usleep(50_000)
                ui.call("session.sync")
            }
            #expect(ui.takeEvents("ink.strokeEnded").count == 1)

            let dot = flow.call("signature.submit")
            #expect(dot.errorType == "SignatureTooShort")
            #expect(dot.string("error.message")?.contains("only 2 points") == true, "\(dot)")
            // The capture restarted on the same pad: the flow still holds it, with no ink yet.
            let empty = flow.call("signature.submit")
            #expect(empty.errorType == "SignatureTooShort")
            #expect(empty.string("error.message")?.contains("No ink") == true, "\(empty)")

            #expect(flow.call("flow.cancel").string("result.step") == "cancelled")
            ui.call("session.sync")
            let released = ContinuousClock.now + .seconds(5)
            while !agent.log.contains("pad capture cancelled"), ContinuousClock.now < released { usleep(20_000) }
            #expect(agent.log.contains("pad capture cancelled"))
            agent.finish()
        }

        /// The person obtaining consent signs on the pad too: the staff step's view says so as the review's does
        /// (its signing area is the capturing pad's), so a UI knows a pad captures from the view model alone.
        @Test func theStaffStepsSigningAreaIsThePadsWhileItCaptures() throws {
            let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("staffpad-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let agent = try ConsentdProcess(
                "pad-staff", arguments: ["--pad-include-uninitialized", "--config", try StaffFixture.config(in: directory).path],
                wrapper: PenTablet.wrapper("dot"))
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "staff")
            #expect(flow.call("staff.unlock", ["staffId": "jroe", "pin": "482913"]).string("result.view.staff.page") == "attest")
            let page = flow.call("staff.attestIdentity", ["method": "photoId"])
            #expect(page.string("result.view.staff.page") == "signature")
            #expect(page.string("result.view.staff.signingArea.source") == "default")
            let begun = flow.call("signature.begin", ["role": "personObtainingConsent"])
            #expect(begun.string("result.pad.id") == PenTablet.node)
            #expect(begun.string("result.view.staff.signingArea.source") == "pad")
            #expect(begun.string("result.view.staff.signingArea.pad") == PenTablet.node)
            #expect(begun.int("result.view.staff.signingArea.widthMM") == 216)
            #expect(flow.call("flow.get").string("result.view.staff.signingArea.source") == "pad")
            #expect(flow.call("flow.cancel").string("result.step") == "cancelled")
            agent.finish()
        }

        /// `--no-pads`: even with a tablet connected, there are no pads and `signature.begin` answers `NoPad`.
        @Test func noPadsIgnoresConnectedPads() throws {
            let agent = try ConsentdProcess(
                "pad-none", arguments: ["--no-pads", "--pad-include-uninitialized"], wrapper: PenTablet.wrapper("dot"))
            let ui = try agent.client()
            ui.negotiate()
            #expect(ui.call("pads.list").array("result.pads")?.isEmpty == true)
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            // No pad: the view offers no pad capture (a button that could only answer NoPad); the UI draws.
            let page = flow.call("flow.get")
            let actions = page.array("result.view.actions") as? [String] ?? []
            #expect(actions.contains("submitSignature") && !actions.contains("beginSignature"), "\(actions)")
            #expect(page.string("result.view.labels.beginSignature") == nil)
            #expect(flow.call("signature.begin").errorType == "NoPad")
            #expect(agent.log.contains("running without signature pads"))
            agent.finish()
        }

        static func numbers(_ point: [Any]) -> [Double] {
            point.map { ($0 as? NSNumber)?.doubleValue ?? .nan }
        }

        /// Equal stroke by stroke and point by point (JSON numbers, compared to 1e-12).
        static func same(_ a: [[[Double]]], _ b: [[[Double]]]) -> Bool {
            a.count == b.count
                && zip(a, b).allSatisfy { s, t in
                    s.count == t.count
                        && zip(s, t).allSatisfy { p, q in p.count == q.count && zip(p, q).allSatisfy { abs($0 - $1) < 1e-12 } }
                }
        }
    }
}
