import ArgumentParser
import Foundation
import SignaturePad
import SignaturePadLinux

/// `consentctl capture`: waits for one signature on a pad and prints it in the project's stroke format.
struct Capture: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Capture one signature and print its strokes, so a technician can check a pad.",
        discussion: """
            The capture ends when the pen has been up for --pause seconds after some ink, or after --timeout.
            Strokes are printed as [[[x, y, t, p], ...], ...]: x and y normalised 0...1 from the top-left,
            t in milliseconds from the first point, p pressure 0...1 (null when the pad has none).
            """)

    @Argument(help: "The pad, by node (/dev/input/eventN) or name; default: the pad the agent would choose.")
    var pad: String?

    @Flag(help: "Print one JSON object {device, strokes, widthMM, heightMM, interrupted}.")
    var json = false

    @Option(help: "Seconds with the pen up, after some ink, that end the signature.")
    var pause: Double = 3

    @Option(help: "Seconds to wait at most for the whole signature.")
    var timeout: Double = 120

    @Option(help: "Minimum ink length, as a fraction of the signing area's width, for the signature check.")
    var minLength: Double = SignatureRequirements().minimumInkLength

    @Option(help: "Minimum number of points for the signature check.")
    var minPoints: Int = SignatureRequirements().minimumPoints

    @Flag(help: "Do not grab a dedicated pad while capturing.")
    var noGrab = false

    @Flag(help: "Also use devices udev has not finished processing (umockdev testbeds).")
    var includeUninitialized = false

    func validate() throws {
        guard pause > 0, timeout > 0 else { throw ValidationError("Please give --pause and --timeout in seconds above 0.") }
    }

    func run() async throws {
        let session = try PadCaptureSession(
            configuration: .init(
                grabsDedicatedPads: !noGrab,
                requirements: SignatureRequirements(minimumInkLength: minLength, minimumPoints: minPoints),
                discovery: .init(requireInitialized: !includeUninitialized)))
        defer { session.close() }
        let used = try session.startCapture(on: pad.map(PadSelector.init(argument:)))
        log("Sign on \(used.node) \"\(used.name)\"; the capture ends \(pause) s after the pen lifts.")

        let watcher = Task {
            for await event in session.events {
                switch event {
                case .captureSuspended(let p): log("The pad \(p.node) was unplugged; plug it in again to go on.")
                case .captureResumed(let p): log("The pad is back on \(p.node).")
                default: continue
                }
            }
        }
        defer { watcher.cancel() }

        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        var lastCount = 0
        var quietSince = clock.now
        while clock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            guard let status = session.captureStatus else { break }
            if status.pointCount != lastCount || status.isPenDown {
                lastCount = status.pointCount
                quietSince = clock.now
            } else if status.pointCount > 0, clock.now - quietSince >= .seconds(pause) {
                break
            }
        }
        let signature = try session.finishCapture()
        let output = SignatureOutput(signature)
        if json {
            print(try JSONOutput.text(output))
        } else {
            let box = signature.boundingBox.map { String(format: "%.3f,%.3f–%.3f,%.3f", $0.minX, $0.minY, $0.maxX, $0.maxY) }
            print("device: \(signature.device.node) \"\(signature.device.name)\" \(signature.device.usbID)")
            print("strokes: \(signature.strokes.count), points: \(signature.pointCount), "
                + "duration: \(signature.duration), box: \(box ?? "none"), interrupted: \(signature.isInterrupted)")
            // Arrays of numbers only: no keys to sort, no strings to escape, as JSONEncoder printed them.
            print(try JSONOutput.text(output.strokes, pretty: false))
        }
        do {
            try signature.validate(session.configuration.requirements)
        } catch let error as SignaturePadError {
            log("Signature check failed: \(error.message)")
            throw ExitCode.failure
        }
    }
}

/// The project's stroke format (shared with signing, PDF and the protocol), until the consent core owns it.
struct SignatureOutput: Encodable {
    /// `[x, y, t, p]`: normalised position, milliseconds from the first point, pressure or null.
    struct Point: Encodable {
        var x: Double
        var y: Double
        var t: Double
        var p: Double?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(x)
            try c.encode(y)
            try c.encode(t)
            if let p { try c.encode(p) } else { try c.encodeNil() }
        }
    }

    var device: PadDescription
    var strokes: [[Point]]
    var widthMM: Double?
    var heightMM: Double?
    var interrupted: Bool

    init(_ signature: Signature) {
        let start = signature.startTime ?? 0
        func round(_ v: Double, _ digits: Double) -> Double { (v * digits).rounded() / digits }
        device = signature.device
        strokes = signature.strokes.map { stroke in
            stroke.points.map { p in
                Point(
                    x: round(p.x, 1e6), y: round(p.y, 1e6), t: Double(p.time - start) / 1000,
                    p: p.pressure.map { round($0, 1e4) })
            }
        }
        widthMM = signature.device.widthMM
        heightMM = signature.device.heightMM
        interrupted = signature.isInterrupted
    }
}

/// Progress goes to stderr so stdout stays machine-readable.
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
