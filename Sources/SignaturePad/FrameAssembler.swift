/// Turns evdev events into per-frame pen states: accumulate per event, act on `SYN_REPORT` (libinput's model).
///
/// ```
///  EV_KEY BTN_TOUCH 1 ─┐
///  EV_ABS ABS_X 1000  ─┼─ accumulated ──► SYN_REPORT ──► PenFrame(isDown, x, y, pressure, tilt, time)
///  EV_ABS ABS_Y 2000  ─┘
///  (tip up, BTN_TOOL_PEN held) SYN_REPORT ──► .hover(PenFrame): pen-up samples, never ink
///  SYN_DROPPED ──► .dropped(at:) ; every event up to and including the next SYN_REPORT is ignored (kernel rule);
///                  the frame after that is flagged `isResync`.
/// ```
/// Single-touch devices and pens read `BTN_TOUCH`, `BTN_TOOL_PEN`, `ABS_X/Y`, `ABS_PRESSURE`, `ABS_TILT_X/Y`.
/// Multitouch devices read MT protocol B through ``ContactTracker`` and ignore the legacy pointer emulation.
/// Unknown types and codes, and keys on multitouch devices, are ignored, so garbage cannot derail the state.
public struct FrameAssembler: Sendable {
    public let profile: CaptureProfile

    private var touch = false
    private var toolPen = false
    private var toolRubber = false
    private var x: Int32 = 0
    private var y: Int32 = 0
    private var pressure: Int32 = 0
    private var tiltX: Int32 = 0
    private var tiltY: Int32 = 0
    private var hysteresis: PressureHysteresis?
    private var contacts: ContactTracker

    private var isChanged = false
    private var isDropping = false
    private var isResyncPending = false
    private var wasDown = false

    public init(profile: CaptureProfile) {
        self.profile = profile
        self.hysteresis = profile.pressure.map { PressureHysteresis(axis: $0, thresholds: profile.thresholds) }
        self.contacts = ContactTracker(slotCount: profile.slotCount)
    }

    /// Feeds one event; returns a frame when a `SYN_REPORT` closes a frame that changed the signing contact, or the
    /// pen's position while it hovers in proximity.
    public mutating func process(_ event: InputEvent) -> FrameOutput? {
        if isDropping {
            if event.isFrameEnd {
                isDropping = false
                isResyncPending = true
            }
            return nil
        }
        switch event.type {
        case EventType.syn:
            if event.code == SynCode.report { return flush(at: event.timestamp) }
            if event.code == SynCode.dropped {
                isDropping = true
                isChanged = false
                // The builder ends the open stroke on a drop; the next down frame must start a new one.
                wasDown = false
                hysteresis?.reset()
                return .dropped(at: event.timestamp)
            }
        case EventType.key where !profile.usesMultitouch:
            applyKey(code: event.code, isPressed: event.value != 0)
        case EventType.abs:
            if profile.usesMultitouch {
                contacts.apply(code: event.code, value: event.value)
            } else {
                applyAbs(code: event.code, value: event.value)
            }
        default:
            break
        }
        return nil
    }

    private mutating func applyKey(code: UInt16, isPressed: Bool) {
        switch code {
        case KeyCode.btnTouch: touch = isPressed
        case KeyCode.btnToolPen: toolPen = isPressed
        case KeyCode.btnToolRubber: toolRubber = isPressed
        default: return
        }
        isChanged = true
    }

    private mutating func applyAbs(code: UInt16, value: Int32) {
        switch code {
        case AbsCode.x: x = value
        case AbsCode.y: y = value
        case AbsCode.pressure: pressure = value
        case AbsCode.tiltX: tiltX = value
        case AbsCode.tiltY: tiltY = value
        default: return
        }
        isChanged = true
    }

    private mutating func flush(at time: Int64) -> FrameOutput? {
        let isResync = isResyncPending
        isResyncPending = false
        if profile.usesMultitouch {
            guard let contact = contacts.flush() else { return nil }
            wasDown = contact.isDown
            return .frame(
                PenFrame(
                    time: time, isDown: contact.isDown, x: contact.x, y: contact.y,
                    pressure: profile.pressure == nil ? nil : contact.pressure, isResync: isResync))
        }

        guard isChanged || isResync else { return nil }
        isChanged = false
        let isDown: Bool
        if toolRubber {
            // The eraser end never inks.
            hysteresis?.reset()
            isDown = false
        } else if var h = hysteresis, profile.usesPressureForTip {
            if toolPen || touch {
                h.update(pressure)
            } else {
                h.reset()
            }
            hysteresis = h
            isDown = h.isDown
        } else {
            isDown = touch
        }
        let frame = PenFrame(
            time: time, isDown: isDown, x: x, y: y, pressure: profile.pressure == nil ? nil : pressure,
            tiltX: profile.tiltX == nil ? nil : tiltX, tiltY: profile.tiltY == nil ? nil : tiltY, isResync: isResync)
        // Hover motion is not ink: only frames with the tip down, or the one that lifts it, are `.frame`s. The pen's
        // motion in proximity with the tip up (BTN_TOOL_PEN held, no contact) leaves as `.hover`, which the record's
        // ISO/IEC 19794-7 data keeps as pen-up samples; the eraser end and a contact without the tool are neither.
        guard isDown || wasDown else { return toolPen && !toolRubber ? .hover(frame) : nil }
        wasDown = isDown
        return .frame(frame)
    }
}
