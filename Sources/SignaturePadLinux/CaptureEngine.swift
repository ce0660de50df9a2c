import CEvdev
import Foundation
import FileBytes
import Glibc
import NIOConcurrencyHelpers
import SignaturePad

/// The state and the I/O thread behind ``PadCaptureSession``.
///
/// One dedicated thread polls three descriptors: the wake pipe, the pad source (the udev monitor, or the event
/// FIFO of a FIFO pad) and, while capturing an evdev pad, its node. `poll` has no timeout because every state
/// change writes to the wake pipe, so the thread never spins and never needs to be interrupted. All state lives in
/// one `NIOLockedValueBox` (a pthread mutex, which ThreadSanitizer understands), taken once per wake-up: the
/// thread services what is ready and picks its next descriptors in the same critical section. Public calls take
/// it briefly and never wait on I/O, so a caller cannot hang on the pad.
///
/// Ink leaves from this thread, once per frame: to the capture's ``InkHandler`` when the caller gave one (the
/// agent publishes it straight to its clients), otherwise on the `events` stream. Hot-plug always goes out
/// through the stream's continuation, which never blocks.
final class CaptureEngine: Sendable {
    struct Capture {
        var pad: PadDescription
        /// The open node of an evdev pad; nil while it is unplugged, and for a FIFO pad (the FIFO is the source's).
        var device: EvdevDevice?
        var strokes: StrokeCapture
        var ink: InkHandler?
    }

    /// Where pads come from: udev (enumeration and hot-plug), or one fixed pad whose events come from a FIFO.
    enum Source {
        case udev(UdevContext, UdevMonitor)
        /// Read for the session's lifetime; events that arrive while no capture runs are dropped, as a pad's are.
        case eventFIFO(EventFIFO)

        var fileDescriptor: Int32 {
            switch self {
            case .udev(_, let monitor): monitor.fileDescriptor
            case .eventFIFO(let fifo): fifo.source.fileDescriptor
            }
        }
    }

    /// `@unchecked Sendable`: the udev and evdev handles in it are used only with the lock held, never beside it.
    struct State: @unchecked Sendable {
        var source: Source
        var pads: [PadDescription] = []
        var capture: Capture?
        var isClosed = false
        /// Events read in one wake-up; kept to reuse its storage.
        var buffer: [InputEvent] = []
    }

    let configuration: PadCaptureSession.Configuration
    let continuation: AsyncStream<PadSessionEvent>.Continuation
    private let state: NIOLockedValueBox<State>
    private let wake: WakePipe
    /// The FIFO's descriptor, closed with the engine (udev sources close their own).
    private let ownedDescriptor: Int32?

    init(configuration: PadCaptureSession.Configuration, continuation: AsyncStream<PadSessionEvent>.Continuation) throws {
        self.configuration = configuration
        self.continuation = continuation
        let udev = try UdevContext()
        // Monitor first, then enumerate: a pad plugged in between is seen by one of them (deduplicated below).
        let monitor = try UdevMonitor(context: udev)
        let infos = udev.enumeratePadCandidates(requireInitialized: configuration.discovery.requireInitialized)
        var pads: [PadDescription] = []
        for info in infos where !pads.contains(where: { $0.syspath == info.syspath }) {
            if let pad = PadProbe.describe(info) { pads.append(pad) }
        }
        var initial = State(source: .udev(udev, monitor), pads: PadPreference.sorted(pads))
        initial.buffer.reserveCapacity(256)
        state = NIOLockedValueBox(initial)
        wake = try WakePipe()
        ownedDescriptor = nil
    }

    /// A session of one fixed pad read from a FIFO of raw `struct input_event` records (no udev, no hot-plug).
    ///
    /// The FIFO is opened read-write and non-blocking, so opening never waits for a writer and a writer closing
    /// it is not an end of stream.
    init(
        eventFIFO path: String, pad: PadDescription, configuration: PadCaptureSession.Configuration,
        continuation: AsyncStream<PadSessionEvent>.Continuation
    ) throws {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw SignaturePadError(.noPad, "Cannot open the pad event FIFO \(path) (errno \(errno)).")
        }
        self.configuration = configuration
        self.continuation = continuation
        var initial = State(source: .eventFIFO(EventFIFO(FileDescriptorEventSource(fileDescriptor: fd))), pads: [pad])
        initial.buffer.reserveCapacity(256)
        state = NIOLockedValueBox(initial)
        do {
            wake = try WakePipe()
        } catch {
            Glibc.close(fd)
            throw error
        }
        ownedDescriptor = fd
    }

    deinit {
        if let ownedDescriptor { Glibc.close(ownedDescriptor) }
    }

    // MARK: Public operations (any thread)

    var pads: [PadDescription] { state.withLockedValue { $0.pads } }

    func start(selector: PadSelector?, ink: InkHandler?) throws -> PadDescription {
        let pad = try state.withLockedValue { s throws -> PadDescription in
            guard !s.isClosed else {
                throw SignaturePadError(.captureNotActive, "The pad session is closed; create a new session.")
            }
            guard s.capture == nil else {
                throw SignaturePadError(
                    .captureAlreadyActive, "A signature capture is already running; finish or cancel it first.")
            }
            let wanted = selector ?? configuration.preferredPad
            guard let pad = PadPreference.choose(from: s.pads, selector: wanted) else {
                let which = wanted.map { " matching \($0)" } ?? ""
                throw SignaturePadError(
                    .noPad,
                    "No signature pad\(which) is connected; connect one and check it with `consentctl pads`.")
            }
            guard pad.isAccessible else { throw Syscall.error(errno: EACCES, node: pad.node) }
            let strokes = try StrokeCapture(device: pad, thresholds: configuration.thresholds)
            if case .eventFIFO = s.source {
                s.capture = Capture(pad: pad, strokes: strokes, ink: ink)
                return pad
            }
            let device = try EvdevDevice(node: pad.node)
            let described = device.describe(udev: nil)
            var capture = Capture(pad: pad, device: device, strokes: strokes, ink: ink)
            if described.x != pad.x || described.y != pad.y {
                // Re-read axes in case the pad changed between listing and start.
                var fresh = pad
                fresh.x = described.x
                fresh.y = described.y
                fresh.pressure = described.pressure
                try capture.strokes.reconnect(device: fresh)
                capture.pad = fresh
            }
            grabIfDedicated(device, pad: capture.pad)
            s.capture = capture
            return capture.pad
        }
        wake.signal()
        return pad
    }

    func clear() throws {
        try state.withLockedValue { s in
            guard s.capture != nil else { throw notActive() }
            s.capture?.strokes.clear()
        }
    }

    func finish() throws -> Signature {
        let signature = try state.withLockedValue { s throws -> Signature in
            guard let capture = s.capture else { throw notActive() }
            s.capture = nil  // closes the device, which releases the grab
            return capture.strokes.signature
        }
        wake.signal()
        return signature
    }

    func cancel() {
        state.withLockedValue { $0.capture = nil }
        wake.signal()
    }

    var status: CaptureStatus? {
        state.withLockedValue { s in
            guard let c = s.capture else { return nil }
            var isWaiting = c.device == nil
            if case .eventFIFO = s.source { isWaiting = false }
            return CaptureStatus(
                pad: c.pad, isGrabbed: c.device?.isGrabbed ?? false, isWaitingForPad: isWaiting,
                isPenDown: c.strokes.isPenDown, pointCount: c.strokes.pointCount,
                strokeCount: c.strokes.strokes.count)
        }
    }

    func close() {
        let wasOpen = state.withLockedValue { s in
            defer {
                s.isClosed = true
                s.capture = nil
            }
            return !s.isClosed
        }
        guard wasOpen else { return }
        wake.signal()
        continuation.finish()
    }

    // MARK: The I/O thread

    func startThread() {
        let thread = Thread { [self] in self.run() }
        thread.name = "consent-pad-io"
        thread.start()
    }

    /// The descriptors to poll next: the source's, and the capturing evdev node's; nil once closed.
    private static func pollSet(_ s: State) -> (source: Int32, device: Int32?)? {
        s.isClosed ? nil : (s.source.fileDescriptor, s.capture?.device?.fileDescriptor)
    }

    private func run() {
        var next = state.withLockedValue { Self.pollSet($0) }
        while let (sourceFD, deviceFD) = next {
            var fds = [
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: sourceFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: deviceFD ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let rc = FileBytes.retryingEINTR { poll(&fds, nfds_t(fds.count), -1) }
            if rc < 0 { return }  // EFAULT/EINVAL: programming error; stop rather than spin

            if fds[0].revents != 0 { wake.drain() }
            let sourceReady = fds[1].revents != 0
            let deviceReady = deviceFD != nil && fds[2].revents != 0
            let isHangup = fds[2].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            // One critical section per wake-up: service what is ready, then choose what to wait on next.
            next = state.withLockedValue { s in
                if sourceReady { serviceSource(in: &s) }
                if deviceReady { serviceDevice(fd: deviceFD, isHangup: isHangup, in: &s) }
                return Self.pollSet(s)
            }
        }
    }

    private func serviceSource(in s: inout State) {
        switch s.source {
        case .udev(_, let monitor):
            while let info = monitor.receive() {
                switch info.action {
                case "remove":
                    handleRemove(info, in: &s)
                case "add", "change":
                    handleAdd(info, in: &s)
                default:
                    continue
                }
            }
        case .eventFIFO(let fifo):
            s.buffer.removeAll(keepingCapacity: true)
            // A failed read of a FIFO held open read-write is no unplug: there is simply nothing to process.
            _ = try? fifo.source.readAvailable(into: &s.buffer)
            processBuffer(in: &s)
        }
    }

    private func handleAdd(_ info: UdevDeviceInfo, in s: inout State) {
        guard info.isPadCandidate, !s.pads.contains(where: { $0.syspath == info.syspath }),
            let pad = PadProbe.describe(info)
        else { return }
        s.pads = PadPreference.sorted(s.pads + [pad])
        continuation.yield(.padAdded(pad))

        // The capturing pad came back: reopen it and carry on with the same strokes.
        guard var capture = s.capture, capture.device == nil, pad.identity == capture.pad.identity, pad.isUsable
        else { return }
        do {
            let device = try EvdevDevice(node: pad.node)
            try capture.strokes.reconnect(device: pad)
            capture.pad = pad
            capture.device = device
            grabIfDedicated(device, pad: pad)
            s.capture = capture
            continuation.yield(.captureResumed(pad))
        } catch {
            // Vanished again or not accessible: keep waiting for the next add.
        }
    }

    private func handleRemove(_ info: UdevDeviceInfo, in s: inout State) {
        guard
            let index = s.pads.firstIndex(where: {
                $0.syspath == info.syspath || (info.devnode != nil && $0.node == info.devnode)
            })
        else { return }
        let pad = s.pads.remove(at: index)
        if s.capture?.device?.node == pad.node { suspendCapture(in: &s) }
        continuation.yield(.padRemoved(pad))
    }

    /// The pad is gone mid-capture: end the stroke as interrupted, close the node, wait for the pad to return.
    private func suspendCapture(in s: inout State) {
        guard s.capture?.device != nil else { return }
        s.capture?.device = nil
        if let ink = s.capture?.strokes.interrupt(.deviceRemoved, at: cevdev_monotonic_usec()) { emit(ink, in: s) }
        if let pad = s.capture?.pad { continuation.yield(.captureSuspended(pad)) }
    }

    private func serviceDevice(fd: Int32?, isHangup: Bool, in s: inout State) {
        guard let device = s.capture?.device, device.fileDescriptor == fd else { return }
        s.buffer.removeAll(keepingCapacity: true)
        var isGone = false
        do {
            let n = try device.readAvailable(into: &s.buffer)
            // A hang-up with nothing to read would make poll return at once forever: treat it as an unplug.
            isGone = n == 0 && isHangup
        } catch {
            isGone = true
        }
        processBuffer(in: &s)
        if isGone { suspendCapture(in: &s) }
    }

    /// Feeds the events read into the capture, in place (a copy of the capture would copy its strokes on every
    /// read, quadratic in the signature), and sends each frame's ink on. Without a capture they are dropped.
    private func processBuffer(in s: inout State) {
        guard let node = s.capture?.pad.node else { return }
        let handler = s.capture?.ink
        for event in s.buffer {
            if let ink = s.capture?.strokes.process(event) { emit(ink, pad: node, to: handler) }
        }
    }

    private func emit(_ ink: FrameInk, in s: State) {
        guard let capture = s.capture else { return }
        emit(ink, pad: capture.pad.node, to: capture.ink)
    }

    private func emit(_ ink: FrameInk, pad: String, to handler: InkHandler?) {
        if let handler {
            handler(ink, pad)
        } else {
            continuation.yield(.ink(ink))
        }
    }

    private func grabIfDedicated(_ device: EvdevDevice, pad: PadDescription) {
        // Never the kiosk's own touch screen; a failed grab (another client holds it) is not fatal.
        guard configuration.grabsDedicatedPads, pad.isDedicated else { return }
        try? device.grab()
    }

    private func notActive() -> SignaturePadError {
        SignaturePadError(.captureNotActive, "No signature capture is running; start one first.")
    }
}

/// The FIFO of a FIFO pad: a reference, so reading it under the engine's lock decodes in place (no copy of its
/// buffers).
final class EventFIFO {
    var source: FileDescriptorEventSource

    init(_ source: FileDescriptorEventSource) {
        self.source = source
    }
}
