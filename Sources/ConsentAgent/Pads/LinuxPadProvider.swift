import AgentProtocol
import ConsentCore
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import SignaturePad
import SignaturePadLinux

/// The agent's signature pads: one `PadCaptureSession`, one capture at a time, owned by one flow.
///
/// ```
///   pad ──(the session's I/O thread: read, frame, stroke, render the points once)──▶ hub ──▶ each client's loop
///   udev hot-plug ──▶ PadCaptureSession.events ──run()──▶ hub
///   signature.begin/clear/submit, flow end ──▶ beginCapture / clearCapture / finishCapture / cancelCapture
/// ```
/// Ink takes one hand-off: the capture's ink handler, called on the session's I/O thread for each frame, tags it
/// with the flow and role it was started for and publishes it to the hub, whose only hop is onto each subscribed
/// connection's event loop. As a `Service` it pumps the session's hot-plug events for as long as the agent runs;
/// consentd starts it before the listener, so on SIGTERM the listener stops first and the pad is released last.
/// The pad is released (ungrabbed) on finish, cancel, every flow end (the core calls `cancelCapture`) and
/// shutdown (`run()` closes the session).
///
/// When udev cannot start, the provider still serves: no pads, `signature.begin` answers `NoPad`, and `run()`
/// tries again every `retryInterval`. A pad plugged in later is picked up by the session's udev monitor.
///
/// Thread-safety: the state sits in one `NIOLockedValueBox`; the session's calls are quick and never wait on the
/// device, so holding the lock around them keeps "which flow owns the pad" and the session's capture in step. Nothing here
/// blocks an event loop. Stroke points are biometric data: they are never logged.
public final class LinuxPadProvider: PadProviding, Service {
    struct Capture {
        var flow: String
        var role: SigningRole?
        /// Updated when the pad comes back on another node.
        var pad: PadDescription
    }

    struct State {
        var session: (any PadCapturing)?
        var capture: Capture?
        /// Where ink and hot-plug go (`publishEvents(to:)`); nil until the agent attaches its hub.
        var hub: EventHub?
        /// Told after each `pad.added`/`pad.removed` (`onPadsChanged`); nil until the core attaches.
        var padsChanged: (@Sendable () -> Void)?
        var isClosed = false
        var hasLoggedUnavailable = false
    }

    let configuration: Configuration
    private let makeSession: @Sendable () throws -> any PadCapturing
    private let state: NIOLockedValueBox<State>
    private let logger: Logger

    /// Starts the pad session now, so `pads.list` answers as soon as the listener is up.
    public convenience init(configuration: Configuration = .init(), logger: Logger) {
        let sessionConfiguration = configuration.session
        self.init(configuration: configuration, logger: logger) {
            try PadCaptureSession(configuration: sessionConfiguration)
        }
    }

    /// - Parameter makeSession: opens the pad session (tests pass a fake).
    init(
        configuration: Configuration, logger: Logger, makeSession: @escaping @Sendable () throws -> any PadCapturing
    ) {
        self.configuration = configuration
        self.logger = logger
        self.makeSession = makeSession
        state = NIOLockedValueBox(State())
        _ = currentSession()
    }

    deinit { close() }

    // MARK: PadProviding

    public func pads() async -> [PadInfo] {
        let session = state.withLockedValue { $0.session }
        return (session?.pads ?? []).filter(\.isUsable).map(PadInfo.init)
    }

    public func publishEvents(to hub: EventHub) {
        state.withLockedValue { $0.hub = hub }
    }

    public func hasUsablePad() -> Bool {
        let session = state.withLockedValue { $0.session }
        return session?.pads.contains(where: \.isUsable) ?? false
    }

    public func onPadsChanged(_ handler: @escaping @Sendable () -> Void) {
        state.withLockedValue { $0.padsChanged = handler }
    }

    public func beginCapture(flow: String, pad: String?, role: SigningRole?) async throws -> PadInfo {
        try state.withLockedValue { s in
            if let capture = s.capture {
                guard capture.flow == flow else {
                    throw AgentError(.padBusy, "the pad is capturing a signature for another flow; finish or cancel that one first")
                }
                // The same flow begins again: start afresh.
                s.session?.cancelCapture()
                s.capture = nil
            }
            guard let session = s.session else {
                throw AgentError(.noPad, "no signature pad is available (udev is not running); submit strokes captured by the UI instead")
            }
            let described = try session.startCapture(
                on: pad.map(PadSelector.init(argument:)), ink: Self.inkHandler(flow: flow, role: role, hub: s.hub))
            s.capture = Capture(flow: flow, role: role, pad: described)
            logger.info("pad capture started", metadata: ["flow": "\(flow)", "pad": "\(described.node)"])
            return PadInfo(described)
        }
    }

    public func clearCapture(flow: String) async throws {
        try state.withLockedValue { s in
            guard let session = s.session, s.capture?.flow == flow else { throw Self.noCapture }
            try session.clearCapture()
        }
    }

    /// Ends the capture and returns its strokes when they make a signature.
    ///
    /// A signature below the minimum (`SignaturePadError` `.emptySignature` / `.signatureTooShort`, with the pad
    /// module's reason) does not end the flow's hold on the pad: its ink is discarded and a fresh capture starts
    /// on the same pad, so the participant simply signs again (as after `signature.clear`).
    public func finishCapture(flow: String) async throws -> SignatureStrokes {
        try state.withLockedValue { s in
            guard let session = s.session, let capture = s.capture, capture.flow == flow else { throw Self.noCapture }
            s.capture = nil
            let signature = try session.finishCapture()
            do {
                try signature.validate(configuration.requirements)
            } catch {
                let ink = Self.inkHandler(flow: flow, role: capture.role, hub: s.hub)
                if let restarted = try? session.startCapture(on: .node(capture.pad.node), ink: ink) {
                    s.capture = Capture(flow: flow, role: capture.role, pad: restarted)
                }
                logger.info(
                    "pad signature refused as too short",
                    metadata: ["flow": "\(flow)", "restarted": "\(s.capture != nil)"])
                throw error
            }
            logger.info(
                "pad capture finished",
                metadata: [
                    "flow": "\(flow)", "pad": "\(capture.pad.node)", "strokes": "\(signature.strokes.count)",
                    "interrupted": "\(signature.isInterrupted)",
                ])
            return SignatureStrokes(signature)
        }
    }

    public func cancelCapture(flow: String) async {
        state.withLockedValue { s in
            guard s.capture?.flow == flow else { return }
            s.session?.cancelCapture()
            s.capture = nil
            logger.info("pad capture cancelled", metadata: ["flow": "\(flow)"])
        }
    }

    public func capture(of flow: String) -> PadInfo? {
        state.withLockedValue { s in
            guard let capture = s.capture, capture.flow == flow else { return nil }
            return PadInfo(capture.pad)
        }
    }

    // MARK: Service

    /// Pumps the session's hot-plug events until graceful shutdown (or cancellation), then releases the pad.
    public func run() async throws {
        defer { close() }
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            if let session = currentSession() {
                for await event in session.events.cancelOnGracefulShutdown() {
                    handle(event)
                }
                if Task.isCancelled || Task.isShuttingDownGracefully { return }
                // The stream ended without a shutdown: the session closed under us. Drop it; open a new one below.
                logger.warning("the pad session ended unexpectedly; starting a new one")
                state.withLockedValue { s in
                    if s.session === session {
                        s.session = nil
                        s.capture = nil
                    }
                }
                session.close()
            }
            // No session (udev unavailable, or it just ended): keep serving without pads and look again later.
            let interval = configuration.retryInterval
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
        }
    }

    /// Releases any pad and closes the session. Idempotent.
    func close() {
        let session = state.withLockedValue { s -> (any PadCapturing)? in
            s.isClosed = true
            s.capture = nil
            defer { s.session = nil }
            return s.session
        }
        session?.close()
    }

    // MARK: Internals

    /// The session, opened now if it is not yet (nil while udev is unavailable or after `close`).
    private func currentSession() -> (any PadCapturing)? {
        state.withLockedValue { s in
            guard !s.isClosed else { return nil }
            if let session = s.session { return session }
            do {
                let session = try makeSession()
                s.session = session
                let count = session.pads.filter(\.isUsable).count
                logger.info("pad session started", metadata: ["pads": "\(count)"])
                return session
            } catch {
                // The log line names the fault only; the pad module's errors carry no PHI.
                let level: Logger.Level = s.hasLoggedUnavailable ? .debug : .warning
                logger.log(
                    level: level, "pads unavailable; serving without them and trying again",
                    metadata: ["reason": "\(error)", "retrySeconds": "\(configuration.retryInterval.components.seconds)"])
                s.hasLoggedUnavailable = true
                return nil
            }
        }
    }

    /// Turns one session event into the agent's events.
    func handle(_ event: PadSessionEvent) {
        switch event {
        case .ink:
            // Captures started here hand their ink to `inkHandler`; the stream carries none.
            break
        case .padAdded(let pad):
            guard pad.isUsable else { return }
            logger.info("pad added", metadata: ["pad": "\(pad.node)", "name": "\(pad.name)"])
            publish(AgentEvent(.padAdded, data: ["pad": (try? RPCValue(encoding: PadInfo(pad))) ?? .null]))
            padsChanged()
        case .padRemoved(let pad):
            guard pad.isUsable else { return }
            logger.info("pad removed", metadata: ["pad": "\(pad.node)", "name": "\(pad.name)"])
            publish(AgentEvent(.padRemoved, data: ["pad": (try? RPCValue(encoding: PadInfo(pad))) ?? .null]))
            padsChanged()
        case .captureSuspended(let pad):
            logger.warning(
                // The kernel usually lifts the pen before it removes the device, so most removals end no stroke:
                // the record's interruptedStrokes says which one (if any) was cut, and this line does not guess.
                "the capturing pad went away; the capture waits for it (a stroke still open ended as interrupted)",
                metadata: ["pad": "\(pad.node)"])
        case .captureResumed(let pad):
            state.withLockedValue { s in s.capture?.pad = pad }
            logger.info("the capturing pad is back; the signature continues", metadata: ["pad": "\(pad.node)"])
        }
    }

    private func publish(_ event: AgentEvent) {
        state.withLockedValue { $0.hub }?.publish(event)
    }

    /// After the event, so a UI hears of the pad before it sees the view that offers (or stops offering) it.
    private func padsChanged() {
        state.withLockedValue { $0.padsChanged }?()
    }

    /// Where a capture's ink goes: called on the pad session's I/O thread for each frame, it tags the frame's
    /// points with the flow and role the capture was started for, renders them once (`InkBatch`) and publishes
    /// them, then the end of the stroke if the frame ended it. Nothing here waits: the hub only hops onto each
    /// subscriber's event loop.
    static func inkHandler(flow: String, role: SigningRole?, hub: EventHub?) -> InkHandler {
        { ink, pad in
            guard let hub else { return }
            if let origin = ink.origin, !ink.points.isEmpty {
                hub.publish(AgentEvent(ink: InkBatch(
                    flow: flow, pad: pad, stroke: ink.strokeIndex, role: role, points: ink.points, origin: origin)))
            }
            if ink.endsStroke {
                var data: [String: RPCValue] = [
                    "flow": .string(flow), "pad": .string(pad), "stroke": .integer(Int64(ink.strokeIndex)),
                ]
                if let role { data["role"] = .string(role.rawValue) }
                hub.publish(AgentEvent(.inkStrokeEnded, data: .object(data)))
            }
        }
    }

    private static var noCapture: AgentError {
        AgentError(.noCapture, "no pad capture runs for this flow; call signature.begin first")
    }
}
