import CEvdev
import Foundation
import Glibc
import NIOConcurrencyHelpers
import SignaturePad

/// The state and the I/O thread behind ``PadCaptureSession``.
///
/// One dedicated thread polls three descriptors: the wake pipe, the udev monitor and (while capturing) the pad.
/// `poll` has no timeout because every state change writes to the wake pipe, so the thread never spins and never
/// needs to be interrupted. All state lives in one `NIOLockedValueBox` (a pthread mutex, which ThreadSanitizer
/// understands); public calls take it briefly and never wait on I/O, so a caller cannot hang on the pad. Events go out through an `AsyncStream` continuation, which never blocks.
final class CaptureEngine: Sendable {
    struct Capture {
        var pad: PadDescription
        var device: EvdevDevice?
        var strokes: StrokeCapture
        var buffer: [InputEvent] = []
    }

    /// `@unchecked Sendable`: the udev and evdev handles in it are used only with the lock held, never beside it.
    struct State: @unchecked Sendable {
        var udev: UdevContext
        var monitor: UdevMonitor
        var pads: [PadDescription] = []
        var capture: Capture?
        var isClosed = false
    }

    let configuration: PadCaptureSession.Configuration
    let continuation: AsyncStream<PadEvent>.Continuation
    private let state: NIOLockedValueBox<State>
    private let wake: WakePipe

    init(configuration: PadCaptureSession.Configuration, continuation: AsyncStream<PadEvent>.Continuation) throws {
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
        state = NIOLockedValueBox(State(udev: udev, monitor: monitor, pads: PadPreference.sorted(pads)))
        wake = try WakePipe()
    }

    // MARK: Public operations (any thread)

    var pads: [PadDescription] { state.withLockedValue { $0.pads } }

    func start(selector: PadSelector?) throws -> PadDescription {
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
            let device = try EvdevDevice(node: pad.node)
            let described = device.describe(udev: nil)
            var capture = Capture(pad: pad, device: device, strokes: strokes)
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
            return CaptureStatus(
                pad: c.pad, isGrabbed: c.device?.isGrabbed ?? false, isWaitingForPad: c.device == nil,
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

    private func run() {
        while true {
            guard let (monitorFD, deviceFD) = state.withLockedValue({ s -> (Int32, Int32?)? in
                s.isClosed ? nil : (s.monitor.fileDescriptor, s.capture?.device?.fileDescriptor)
            }) else { return }

            var fds = [
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: monitorFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: deviceFD ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let rc = Syscall.retryingEINTR { poll(&fds, nfds_t(fds.count), -1) }
            if rc < 0 { return }  // EFAULT/EINVAL: programming error; stop rather than spin

            if fds[0].revents != 0 { wake.drain() }
            if fds[1].revents != 0 { serviceMonitor() }
            if deviceFD != nil, fds[2].revents != 0 {
                let isHangup = fds[2].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
                serviceDevice(fd: deviceFD, isHangup: isHangup)
            }
        }
    }

    private func serviceMonitor() {
        state.withLockedValue { s in
            while let info = s.monitor.receive() {
                switch info.action {
                case "remove":
                    handleRemove(info, in: &s)
                case "add", "change":
                    handleAdd(info, in: &s)
                default:
                    continue
                }
            }
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
        guard var capture = s.capture, capture.device != nil else { return }
        capture.device = nil
        if let batch = capture.strokes.interrupt(.deviceRemoved, at: cevdev_monotonic_usec()) {
            continuation.yield(.ink(batch))
        }
        s.capture = capture
        continuation.yield(.captureSuspended(capture.pad))
    }

    private func serviceDevice(fd: Int32?, isHangup: Bool) {
        state.withLockedValue { s in
            guard var capture = s.capture, let device = capture.device, device.fileDescriptor == fd else { return }
            capture.buffer.removeAll(keepingCapacity: true)
            var isGone = false
            do {
                let n = try device.readAvailable(into: &capture.buffer)
                // A hang-up with nothing to read would make poll return at once forever: treat it as an unplug.
                isGone = n == 0 && isHangup
            } catch {
                isGone = true
            }
            for event in capture.buffer {
                if let batch = capture.strokes.process(event) { continuation.yield(.ink(batch)) }
            }
            s.capture = capture
            if isGone { suspendCapture(in: &s) }
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
