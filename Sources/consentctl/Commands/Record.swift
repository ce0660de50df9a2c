import ArgumentParser
import Foundation
import SignaturePad
import SignaturePadLinux

/// `consentctl record`: raw events of a pad in evemu format, for bug reports and test fixtures.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a pad's raw events in evemu format (for bug reports and test fixtures).",
        discussion: """
            Microseconds are written without leading zeros, so umockdev replays the timestamps as recorded.
            A SYN_DROPPED is followed by libevdev's resync events, as the agent sees them.
            """)

    @Argument(help: "The pad, by node (/dev/input/eventN) or name.")
    var pad: String

    @Option(name: .shortAndLong, help: "The evemu file to write.")
    var output: String

    @Option(help: "Seconds to record.")
    var duration: Double = 10

    @Flag(help: "Also use devices udev has not finished processing (umockdev testbeds).")
    var includeUninitialized = false

    func validate() throws {
        guard duration > 0 else { throw ValidationError("Please give --duration in seconds above 0.") }
    }

    func run() throws {
        let node: String
        switch PadSelector(argument: pad) {
        case .node(let n):
            node = n
        case .name:
            let pads = try PadDiscovery.pads(options: .init(requireInitialized: !includeUninitialized))
            guard let found = PadPreference.choose(from: pads, selector: PadSelector(argument: pad)) else {
                throw SignaturePadError(.noPad, "No pad named \"\(pad)\" is connected; see `consentctl pads`.")
            }
            node = found.node
        }
        var source = try EvdevEventSource(node: node)
        guard FileManager.default.createFile(atPath: output, contents: Data(EvemuWriter.header(source.evemuDevice).utf8)),
            let file = FileHandle(forWritingAtPath: output)
        else {
            throw ValidationError("Cannot write \(output); check the directory and permissions.")
        }
        defer { try? file.close() }
        try file.seekToEnd()
        log("Recording \(node) for \(duration) s to \(output)...")

        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(duration)
        var events: [InputEvent] = []
        var count = 0
        while clock.now < deadline {
            events.removeAll(keepingCapacity: true)
            let left = deadline - clock.now
            let status = try source.read(into: &events, timeout: min(left, .milliseconds(200)))
            // Written as it arrives, so an interrupted recording is still a valid file.
            if !events.isEmpty { file.write(Data(events.map(EvemuWriter.line).joined().utf8)) }
            count += events.count
            if status == .endOfStream { break }
        }
        log("Recorded \(count) events.")
    }
}
