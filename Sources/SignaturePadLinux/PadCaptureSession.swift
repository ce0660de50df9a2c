import SignaturePad

/// The agent's handle on signature pads: live pad list with hot-plug, and one signature capture at a time.
///
/// ```swift
/// let session = try PadCaptureSession()
/// Task { for await event in session.events { ... .ink(batch) → echo; .padAdded/.padRemoved → UI ... } }
/// let pad = try session.startCapture()          // preferred pad; grabbed when dedicated
/// ...                                             // session.clearCapture() on "clear"
/// let signature = try session.finishCapture()    // strokes, device, bbox, duration
/// try signature.validate(configuration.requirements)
/// ```
/// Thread-safe: every method may be called from any thread or task and returns without waiting on the device.
/// A dedicated I/O thread reads the udev monitor and the pad. `close()` (or deinit) stops it and ends `events`.
public final class PadCaptureSession: Sendable {
    public struct Configuration: Sendable {
        /// The pad to use when `startCapture` names none (nil: tagged pad, then tablet, then touch screen).
        public var preferredPad: PadSelector?
        public var thresholds: PressureHysteresis.Thresholds
        /// Grab dedicated pads (tagged, or tablets that are not touch screens) while capturing.
        public var grabsDedicatedPads: Bool
        /// The default minimum-signature check used by ``PadCaptureSession/finishCapture(validating:)``.
        public var requirements: SignatureRequirements
        public var discovery: PadDiscovery.Options
        /// Events kept for a slow consumer of ``PadCaptureSession/events`` before the oldest are dropped (echo
        /// only; the signature itself never loses points).
        public var eventBufferLimit: Int

        public init(
            preferredPad: PadSelector? = nil, thresholds: PressureHysteresis.Thresholds = .init(),
            grabsDedicatedPads: Bool = true, requirements: SignatureRequirements = .init(),
            discovery: PadDiscovery.Options = .init(), eventBufferLimit: Int = 8192
        ) {
            self.preferredPad = preferredPad
            self.thresholds = thresholds
            self.grabsDedicatedPads = grabsDedicatedPads
            self.requirements = requirements
            self.discovery = discovery
            self.eventBufferLimit = eventBufferLimit
        }
    }

    /// Hot-plug events, and the ink (one batch per frame) of captures started without an ``InkHandler``.
    /// Single consumer.
    public let events: AsyncStream<PadSessionEvent>
    public let configuration: Configuration
    private let engine: CaptureEngine

    /// Starts the udev monitor, enumerates the pads and starts the I/O thread.
    ///
    /// - Throws: `.udevUnavailable` when libudev cannot start.
    public init(configuration: Configuration = .init()) throws {
        let (stream, continuation) = AsyncStream.makeStream(
            of: PadSessionEvent.self, bufferingPolicy: .bufferingNewest(max(16, configuration.eventBufferLimit)))
        self.events = stream
        self.configuration = configuration
        self.engine = try CaptureEngine(configuration: configuration, continuation: continuation)
        engine.startThread()
    }

    /// A session of one pad whose events come from a FIFO of raw `struct input_event` records: the benchmarks'
    /// pen (`consentd --pad-event-fifo PATH`, hidden). No udev and no hot-plug; otherwise the same engine, loop
    /// and capture as a real pad's. The FIFO must exist; it is opened read-write, so no writer is waited for.
    ///
    /// - Parameter pad: the pad it stands for (default ``fifoPad(path:)``).
    /// - Throws: `.noPad` when the FIFO cannot be opened.
    public init(eventFIFO path: String, pad: PadDescription? = nil, configuration: Configuration = .init()) throws {
        let (stream, continuation) = AsyncStream.makeStream(
            of: PadSessionEvent.self, bufferingPolicy: .bufferingNewest(max(16, configuration.eventBufferLimit)))
        self.events = stream
        self.configuration = configuration
        self.engine = try CaptureEngine(
            eventFIFO: path, pad: pad ?? Self.fifoPad(path: path), configuration: configuration,
            continuation: continuation)
        engine.startThread()
    }

    /// The pad a FIFO stands for: x and y 0…32767 at 100 units/mm (327 × 327 mm), pressure 0…4095, what
    /// `AgentBenchmark` writes.
    public static func fifoPad(path: String) -> PadDescription {
        PadDescription(
            node: path, name: "FIFO pen", kind: .pen, isTablet: true,
            x: AxisInfo(minimum: 0, maximum: 32767, resolution: 100),
            y: AxisInfo(minimum: 0, maximum: 32767, resolution: 100), pressure: AxisInfo(minimum: 0, maximum: 4095))
    }

    deinit { engine.close() }

    /// Pads connected now, best first.
    public var pads: [PadDescription] { engine.pads }

    /// The pad `startCapture()` would use.
    public var preferredPad: PadDescription? {
        PadPreference.choose(from: engine.pads, selector: configuration.preferredPad)
    }

    /// Starts capturing on the chosen pad.
    ///
    /// - Parameters:
    ///   - selector: a node or name; nil uses the configured preference.
    ///   - ink: where each frame's ink goes, called on the session's I/O thread as the frame is read (it must be
    ///     quick and never block); nil sends ink on ``events`` instead.
    /// - Returns: the pad used.
    /// - Throws: `.noPad`, `.permissionDenied`, `.deviceGone`, `.noAxes`, `.captureAlreadyActive`.
    @discardableResult
    public func startCapture(on selector: PadSelector? = nil, ink: InkHandler? = nil) throws -> PadDescription {
        try engine.start(selector: selector, ink: ink)
    }

    /// Discards the ink captured so far; the capture goes on.
    public func clearCapture() throws { try engine.clear() }

    /// Ends the capture, releases the pad and returns the signature (unchecked).
    public func finishCapture() throws -> Signature { try engine.finish() }

    /// Ends the capture and checks it against `requirements` (default: the configured ones).
    ///
    /// The capture ends either way; on failure the error says why (empty, a dot) and the caller starts again.
    public func finishCapture(validating requirements: SignatureRequirements?) throws -> Signature {
        let signature = try engine.finish()
        try signature.validate(requirements ?? configuration.requirements)
        return signature
    }

    /// Ends the capture and drops its ink.
    public func cancelCapture() { engine.cancel() }

    /// The running capture, nil when none runs.
    public var captureStatus: CaptureStatus? { engine.status }

    /// Stops the I/O thread, releases any pad and finishes ``events``. Idempotent.
    public func close() { engine.close() }
}
