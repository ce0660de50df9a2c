import ArgumentParser
import Foundation
import SignaturePad
import SignaturePadLinux

/// `consentctl pads`: the pads as the agent sees them, best first, the chosen one marked.
struct Pads: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the signature pads the agent can use; the one it would choose is marked with *.")

    @Flag(help: "Print JSON (an array of pads, each with \"chosen\") instead of a table.")
    var json = false

    @Option(name: .customLong("pad"), help: "The preferred pad, by node (/dev/input/eventN) or name, as the agent is configured.")
    var preferred: String?

    @Flag(help: "Also list devices udev has not finished processing (umockdev testbeds, early boot).")
    var includeUninitialized = false

    func run() throws {
        let pads = try PadDiscovery.pads(options: .init(requireInitialized: !includeUninitialized))
        let chosen = PadPreference.choose(from: pads, selector: preferred.map(PadSelector.init(argument:)))
        if json {
            let entries = pads.map { PadListing(pad: $0, chosen: $0 == chosen) }
            print(try JSONOutput.text(entries))
            return
        }
        if pads.isEmpty {
            print("No signature pad, pen tablet or touch screen found (see udev/README.md).")
            return
        }
        for pad in pads { print(PadListing.line(pad, chosen: pad == chosen)) }
        if chosen == nil { print("No usable pad: fix the access or axes problems listed above.") }
    }
}

/// One pad in `pads --json`: the description plus the derived facts a technician looks for.
struct PadListing: Encodable {
    var chosen: Bool
    var usable: Bool
    var dedicated: Bool
    var usbID: String
    var widthMM: Double?
    var heightMM: Double?
    var pressureLevels: Int?
    var device: PadDescription

    init(pad: PadDescription, chosen: Bool) {
        self.chosen = chosen
        usable = pad.isUsable
        dedicated = pad.isDedicated
        usbID = pad.usbID
        widthMM = pad.widthMM
        heightMM = pad.heightMM
        pressureLevels = pad.pressureLevels
        device = pad
    }

    static func line(_ pad: PadDescription, chosen: Bool) -> String {
        var parts = [chosen ? "*" : " ", pad.node, "\"\(pad.name)\"", pad.usbID, pad.kind.rawValue]
        if let x = pad.x, let y = pad.y { parts.append("\(x.minimum)...\(x.maximum) x \(y.minimum)...\(y.maximum)") }
        if let w = pad.widthMM, let h = pad.heightMM {
            parts.append(String(format: "%.0fx%.0f mm", w, h))
        } else if pad.isUsable {
            parts.append("size unknown")
        }
        if let levels = pad.pressureLevels { parts.append("\(levels) pressure levels") }
        if pad.hasTilt { parts.append("tilt") }
        var tags: [String] = []
        if pad.isTagged { tags.append("tagged") }
        if pad.isTablet { tags.append("tablet") }
        if pad.isTouchscreen { tags.append("touchscreen") }
        if pad.isDedicated { tags.append("grabbed while signing") }
        if !pad.isAccessible { tags.append("PERMISSION DENIED") } else if !pad.isUsable { tags.append("NO AXES") }
        parts.append("[" + tags.joined(separator: ", ") + "]")
        return parts.joined(separator: "  ")
    }
}
