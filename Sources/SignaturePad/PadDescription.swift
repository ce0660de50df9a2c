/// What the agent knows about one pad: identity, classification and axes.
///
/// Built by the Linux discovery from udev properties plus the evdev absinfo; built by tests and the evemu reader
/// by hand. It is data only, so it can be stored in the signature record and shown to a technician.
public struct PadDescription: Sendable, Hashable, Codable {
    /// How ink is produced on this device.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A stylus (`BTN_TOOL_PEN`): pen displays, tablets, signature pads.
        case pen
        /// A single-touch screen (`BTN_TOUCH` with `ABS_X/Y`).
        case touch
        /// A multitouch screen speaking MT protocol B (slots).
        case multitouch
    }

    /// The device node, e.g. `/dev/input/event7`.
    public var node: String
    /// The sysfs path of the event device (empty when unknown, e.g. for recordings).
    public var syspath: String
    public var name: String
    public var vendorID: UInt16
    public var productID: UInt16
    public var kind: Kind
    /// A rule in `udev/` tagged it `CONSENT_KIOSK_PAD=1`.
    public var isTagged: Bool
    /// udev classified it `ID_INPUT_TABLET`.
    public var isTablet: Bool
    /// udev classified it `ID_INPUT_TOUCHSCREEN` (the kiosk's own screen: never grabbed).
    public var isTouchscreen: Bool
    /// False when the node could not be opened (permission denied); axes are then unknown.
    public var isAccessible: Bool
    /// The position axes the capture uses (`ABS_MT_POSITION_*` on multitouch devices).
    public var x: AxisInfo?
    public var y: AxisInfo?
    public var pressure: AxisInfo?
    public var tiltX: AxisInfo?
    public var tiltY: AxisInfo?
    /// Number of MT slots (0 when not multitouch).
    public var slotCount: Int

    public init(
        node: String, syspath: String = "", name: String, vendorID: UInt16 = 0, productID: UInt16 = 0,
        kind: Kind, isTagged: Bool = false, isTablet: Bool = false, isTouchscreen: Bool = false,
        isAccessible: Bool = true, x: AxisInfo?, y: AxisInfo?, pressure: AxisInfo? = nil, tiltX: AxisInfo? = nil,
        tiltY: AxisInfo? = nil, slotCount: Int = 0
    ) {
        self.node = node
        self.syspath = syspath
        self.name = name
        self.vendorID = vendorID
        self.productID = productID
        self.kind = kind
        self.isTagged = isTagged
        self.isTablet = isTablet
        self.isTouchscreen = isTouchscreen
        self.isAccessible = isAccessible
        self.x = x
        self.y = y
        self.pressure = pressure
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.slotCount = slotCount
    }

    /// Width of the active area in millimetres, when the resolution is known.
    public var widthMM: Double? { x?.lengthMM }
    /// Height of the active area in millimetres, when the resolution is known.
    public var heightMM: Double? { y?.lengthMM }
    /// Pressure levels, when the device reports pressure.
    public var pressureLevels: Int? { pressure.flatMap { $0.isUsable ? $0.levels : nil } }
    public var hasPressure: Bool { pressureLevels != nil }
    public var hasTilt: Bool { (tiltX?.isUsable ?? false) || (tiltY?.isUsable ?? false) }

    /// Whether ink can be captured: the node opens and has usable X and Y axes.
    public var isUsable: Bool { isAccessible && (x?.isUsable ?? false) && (y?.isUsable ?? false) }

    /// A dedicated signing device, which the capture may grab (EVIOCGRAB) while a signature is taken.
    ///
    /// The kiosk's own touch screen is never dedicated: grabbing it would take input away from the UI.
    public var isDedicated: Bool { !isTouchscreen && (isTagged || isTablet) }

    /// The identity used to recognise the same pad when it is plugged back in (the node may change).
    public var identity: String { "\(name)|\(String(vendorID, radix: 16))|\(String(productID, radix: 16))" }

    /// `056a:00a8`, as in udev rules and lsusb.
    public var usbID: String {
        func hex4(_ v: UInt16) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: Swift.max(0, 4 - s.count)) + s
        }
        return "\(hex4(vendorID)):\(hex4(productID))"
    }
}
