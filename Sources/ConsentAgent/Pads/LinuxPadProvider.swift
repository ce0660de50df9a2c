import ConsentCore
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import SignaturePad
import SignaturePadLinux

/// The agent's signature pads: one `PadCaptureSession`, one capture at a time, owned by one flow.
///
/// ```
///   udev + evdev ──(I/O thread)──▶ PadCaptureSession.events ──run()──▶ events ──▶ AgentCore.pumpPadEvents ──▶ hub
///                                                                ▲
///   signature.begin/clear/submit, flow end ──▶ beginCapture / clearCapture / finishCapture / cancelCapture
/// ```
/// As a `Service` it pumps the session's events for as long as the agent runs; consentd starts it before the
/// listener, so on SIGTERM the listener stops first and the pad is released last. The pad is released (ungrabbed)
/// on finish, cancel, every flow end (the core calls `cancelCapture`) and shutdown (`run()` closes the session).
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
        /// Updated when the pad comes back on another node, so later ink names the right pad.
        var pad: PadDescription
        /// The timestamp (µs) of the first point since begin or clear: echoed `t` counts from it, as the
        /// record's does from the signature's first point.
        var origin: Int64?
    }

    struct State {
        var session: (any PadCapturing)?
        var capture: Capture?
        var isClosed = false
        var hasLoggedUnavailable = false
    }

    public let events: AsyncStream<PadEvent>
    let configuration: Configuration
    private let continuation: AsyncStream<PadEvent>.Continuation
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
        // Ink for a lagging agent is dropped oldest first; it is echo only, the signature itself loses nothing.
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(8192))
        state = NIOLockedValueBox(State())
        _ = currentSession()
    }

    deinit { close() }

    // MARK: PadProviding

    public func pads() async -> [PadInfo] {
        let session = state.withLockedValue { $0.session }
        return (session?.pads ?? []).filter(\.isUsable).map(PadInfo.init)
    }

    public func beginCapture(flow: String, pad: String?) async throws -> PadInfo {
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
            let described = try session.startCapture(on: pad.map(PadSelector.init(argument:)))
            s.capture = Capture(flow: flow, pad: described)
            logger.info("pad capture started", metadata: ["flow": "\(flow)", "pad": "\(described.node)"])
            return PadInfo(described)
        }
    }

    public func clearCapture(flow: String) async throws {
        try state.withLockedValue { s in
            guard let session = s.session, s.capture?.flow == flow else { throw Self.noCapture }
            try session.clearCapture()
            s.capture?.origin = nil
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
                if let restarted = try? session.startCapture(on: .node(capture.pad.node)) {
                    s.capture = Capture(flow: flow, pad: restarted)
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

    // MARK: Service

    /// Pumps the session's events until graceful shutdown (or cancellation), then releases the pad.
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

    /// Releases any pad, closes the session and ends `events`. Idempotent.
    func close() {
        let session = state.withLockedValue { s -> (any PadCapturing)? in
            s.isClosed = true
            s.capture = nil
            defer { s.session = nil }
            return s.session
        }
        session?.close()
        continuation.finish()
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
    func handle(_ event: SignaturePadLinux.PadEvent) {
        switch event {
        case .ink(let batch):
            for out in state.withLockedValue({ s in Self.convert(batch, capture: &s.capture) }) {
                continuation.yield(out)
            }
        case .padAdded(let pad):
            guard pad.isUsable else { return }
            logger.info("pad added", metadata: ["pad": "\(pad.node)", "name": "\(pad.name)"])
            continuation.yield(.added(PadInfo(pad)))
        case .padRemoved(let pad):
            guard pad.isUsable else { return }
            logger.info("pad removed", metadata: ["pad": "\(pad.node)", "name": "\(pad.name)"])
            continuation.yield(.removed(PadInfo(pad)))
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

    /// The agent's events for one frame of ink: its points (if any) and the end of the stroke (if it ended).
    ///
    /// Ink with no capture (it trailed a finish or cancel) is dropped: it belongs to no flow any more.
    static func convert(_ batch: SignaturePad.InkBatch, capture: inout Capture?) -> [PadEvent] {
        guard var current = capture else { return [] }
        let origin = current.origin ?? batch.points.first?.time
        current.origin = origin
        capture = current
        var out: [PadEvent] = []
        if let origin, !batch.points.isEmpty {
            out.append(.ink(InkBatch(
                flow: current.flow, pad: current.pad.node, stroke: batch.strokeIndex,
                points: batch.points.map { StrokePoint($0, origin: origin) })))
        }
        if batch.endsStroke {
            out.append(.strokeEnded(flow: current.flow, pad: current.pad.node, stroke: batch.strokeIndex))
        }
        return out
    }

    private static var noCapture: AgentError {
        AgentError(.noCapture, "no pad capture runs for this flow; call signature.begin first")
    }
}
