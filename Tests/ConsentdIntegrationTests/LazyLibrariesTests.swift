import Foundation
import Testing

extension ConsentdIntegration {
    /// libcups, poppler-glib, eSpeak NG, libsystemd, cairo and Pango are opened when first used, not at start (their
    /// shims in Sources/C*/shim.h): an agent that has started maps none of them, so its start-up does not pay for
    /// their hundred-odd libraries (docs/PERFORMANCE.md, "Start-up and idle memory", "Start-up: the PDF libraries
    /// opened on first use"); the first consent opens cairo and Pango and still signs its PDF; one served maps none
    /// of the others; read-aloud opens eSpeak NG, and still speaks.
    @Suite struct LazyLibraries {
        static let lazy = ["libcups.so", "libpoppler-glib.so", "libespeak-ng.so", "libsystemd.so"]
        /// What CCairoPango opens for the first PDF (libpangocairo and what it brings).
        static let pdf = ["libcairo.so", "libpangocairo-1.0.so", "libpango-1.0.so", "libharfbuzz.so", "libfontconfig.so"]

        /// The shared objects consentd has mapped (read to the end: /proc files have no size, and String's
        /// contentsOfFile reads only their first page).
        static func mapped(_ pid: Int32) throws -> Set<String> {
            let data = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps")).readDataToEndOfFile()
            let maps = String(decoding: data, as: UTF8.self)
            return Set(maps.split(separator: "\n").compactMap { line in
                line.split(separator: " ", omittingEmptySubsequences: true).last.map { String($0.split(separator: "/").last ?? "") }
            })
        }

        static func has(_ library: String, in mapped: Set<String>) -> Bool {
            mapped.contains { $0.hasPrefix(library) }
        }

        @Test func printingSpeechSystemdAndPDFLibrariesAreOpenedOnFirstUse() throws {
            let agent = try ConsentdProcess("lazy-libraries")
            let ui = try agent.client()
            ui.negotiate()
            let started = try Self.mapped(agent.pid)
            for library in Self.lazy + Self.pdf {
                #expect(!Self.has(library, in: started), "\(library) is mapped at start")
            }
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).errorType == nil)
            #expect(flow.call("flow.complete").string("result.step") == "completed")
            let served = try Self.mapped(agent.pid)
            for library in Self.pdf {
                #expect(Self.has(library, in: served), "\(library) is not mapped after a PDF was made: \(served.sorted())")
            }
            for library in Self.lazy {
                #expect(!Self.has(library, in: served), "\(library) is mapped before its first use")
            }

            let second = ui.call("flow.start")
            let next = try #require(second.string("result.flow"))
            let spoken = ui.call("speech.get", ["flow": next, "part": "screen"])
            #expect((spoken.string("result.data")?.utf8.count ?? 0) > 1000, "\(spoken)")
            let speaking = try Self.mapped(agent.pid)
            #expect(Self.has("libespeak-ng.so", in: speaking))
            #expect(!Self.has("libcups.so", in: speaking) && !Self.has("libpoppler-glib.so", in: speaking))
            agent.finish()
        }
    }
}
