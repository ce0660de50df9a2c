import Foundation
import Testing

/// What an approved version shows and prints is what its approval covers: the attacks of docs/RELIABILITY.md
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
    }
}
