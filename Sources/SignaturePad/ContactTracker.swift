/// MT protocol B slot state, and the rule that picks the one contact that signs.
///
/// The kernel sends only changes, per slot (`ABS_MT_SLOT n` selects, `ABS_MT_TRACKING_ID ≥ 0` starts a contact,
/// `-1` ends it). The first contact to touch signs; every other contact present while it signs (a resting palm,
/// an extra finger) is ignored until it lifts, and may not take over when the signing finger lifts. Contacts the
/// hardware classifies as `MT_TOOL_PALM` never sign.
struct ContactTracker: Sendable, Hashable {
    struct Slot: Sendable, Hashable {
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var pressure: Int32?
        var toolType: Int32 = MTToolType.finger
        var isDirty = false

        var isActive: Bool { trackingID >= 0 }
    }

    /// The signing contact's state after a frame.
    struct Contact: Sendable, Hashable {
        var isDown: Bool
        var x: Int32
        var y: Int32
        var pressure: Int32?
    }

    private var slots: [Slot]
    private var current = 0
    /// Events for an out-of-range slot are dropped until a valid `ABS_MT_SLOT` arrives.
    private var isCurrentValid = true
    private var signing: (slot: Int, id: Int32)?
    private var ignored: Set<Int32> = []

    init(slotCount: Int) {
        slots = Array(repeating: Slot(), count: max(slotCount, 1))
    }

    mutating func apply(code: UInt16, value: Int32) {
        if code == AbsCode.mtSlot {
            isCurrentValid = value >= 0 && Int(value) < slots.count
            if isCurrentValid { current = Int(value) }
            return
        }
        guard isCurrentValid else { return }
        switch code {
        case AbsCode.mtTrackingID: slots[current].trackingID = value < 0 ? -1 : value
        case AbsCode.mtPositionX: slots[current].x = value
        case AbsCode.mtPositionY: slots[current].y = value
        case AbsCode.mtPressure: slots[current].pressure = value
        case AbsCode.mtToolType: slots[current].toolType = value
        default: return
        }
        slots[current].isDirty = true
    }

    /// Closes a frame: returns the signing contact when its state changed, nil otherwise.
    mutating func flush() -> Contact? {
        defer { for i in slots.indices { slots[i].isDirty = false } }
        var result: Contact?

        if let s = signing {
            let slot = slots[s.slot]
            if slot.trackingID != s.id || slot.toolType == MTToolType.palm {
                // Lifted (or replaced in the same frame, or reclassified as a palm): the stroke ends, and nobody
                // who is still touching may take over.
                signing = nil
                for other in slots where other.isActive { ignored.insert(other.trackingID) }
                result = Contact(isDown: false, x: slot.x, y: slot.y, pressure: slot.pressure)
            } else if slot.isDirty {
                result = Contact(isDown: true, x: slot.x, y: slot.y, pressure: slot.pressure)
            }
        }

        let active = Set(slots.lazy.filter(\.isActive).map(\.trackingID))
        ignored.formIntersection(active)

        if signing == nil, result == nil {
            let candidates = slots.indices.filter {
                slots[$0].isActive && !ignored.contains(slots[$0].trackingID) && slots[$0].toolType != MTToolType.palm
            }
            if let first = candidates.min(by: { slots[$0].trackingID < slots[$1].trackingID }) {
                let slot = slots[first]
                signing = (first, slot.trackingID)
                for i in candidates where i != first { ignored.insert(slots[i].trackingID) }
                result = Contact(isDown: true, x: slot.x, y: slot.y, pressure: slot.pressure)
            }
        }
        return result
    }

    /// Forgets everything (after a resync the device state is re-sent).
    mutating func reset() {
        self = ContactTracker(slotCount: slots.count)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.slots == rhs.slots && lhs.current == rhs.current && lhs.signing?.slot == rhs.signing?.slot
            && lhs.signing?.id == rhs.signing?.id && lhs.ignored == rhs.ignored
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(slots)
        hasher.combine(current)
    }
}
