/// The device part of an evemu recording (`N:`, `I:`, `P:`, `B:`, `A:` lines).
public struct EvemuDevice: Sendable, Hashable {
    public var name: String
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// `INPUT_PROP_*` bitmask bytes.
    public var properties: [UInt8]
    /// Per event type, the code bitmask bytes (`EVIOCGBIT`).
    public var bits: [UInt16: [UInt8]]
    /// Absolute axes by code.
    public var axes: [UInt16: AxisInfo]

    public init(
        name: String, bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
        properties: [UInt8] = [], bits: [UInt16: [UInt8]] = [:], axes: [UInt16: AxisInfo] = [:]
    ) {
        self.name = name
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.bits = bits
        self.axes = axes
    }

    public func hasCode(type: UInt16, code: UInt16) -> Bool {
        if type == EventType.abs { return axes[code] != nil }
        guard let mask = bits[type], Int(code / 8) < mask.count else { return false }
        return mask[Int(code / 8)] & (1 << (code % 8)) != 0
    }

    public mutating func setCode(type: UInt16, code: UInt16) {
        var mask = bits[type] ?? []
        let byte = Int(code / 8)
        if mask.count <= byte { mask += Array(repeating: 0, count: byte + 1 - mask.count) }
        mask[byte] |= 1 << (code % 8)
        bits[type] = mask
        var types = bits[EventType.syn] ?? []
        if types.isEmpty { types = [0, 0, 0, 0] }
        types[Int(type / 8)] |= 1 << (type % 8)
        types[0] |= 1
        bits[EventType.syn] = types
    }

    /// How the capture sees this device.
    public func padDescription(node: String) -> PadDescription {
        let mtX = axes[AbsCode.mtPositionX]
        let mtY = axes[AbsCode.mtPositionY]
        if let slots = axes[AbsCode.mtSlot], mtX != nil, mtY != nil {
            return PadDescription(
                node: node, name: name, vendorID: vendor, productID: product, kind: .multitouch, isTouchscreen: true,
                x: mtX, y: mtY, pressure: axes[AbsCode.mtPressure], slotCount: max(0, Int(slots.maximum) + 1))
        }
        let isPen = hasCode(type: EventType.key, code: KeyCode.btnToolPen)
        return PadDescription(
            node: node, name: name, vendorID: vendor, productID: product, kind: isPen ? .pen : .touch,
            isTablet: isPen, isTouchscreen: !isPen, x: axes[AbsCode.x], y: axes[AbsCode.y],
            pressure: axes[AbsCode.pressure], tiltX: axes[AbsCode.tiltX], tiltY: axes[AbsCode.tiltY])
    }
}

/// A parsed evemu file: the device (when the header is present) and its events.
public struct EvemuRecording: Sendable, Hashable {
    public var device: EvemuDevice?
    public var events: [InputEvent]

    public init(device: EvemuDevice?, events: [InputEvent]) {
        self.device = device
        self.events = events
    }
}
