import CUdev

/// The udev facts about one input device that the pad code uses, copied out of a `udev_device`.
///
/// Copying keeps every libudev pointer inside ``UdevContext`` and ``UdevMonitor``; this value is Sendable.
struct UdevDeviceInfo: Sendable, Hashable {
    var syspath: String
    var devnode: String?
    /// `add`, `remove`, `change`... for monitor events; nil for enumeration.
    var action: String?
    var properties: [String: String]
    var name: String?
    var vendorID: UInt16?
    var productID: UInt16?
    var isInitialized: Bool

    /// Properties that classify pads; only these are copied.
    static let interestingProperties = [
        "ID_INPUT_TOUCHSCREEN", "ID_INPUT_TABLET", "CONSENT_KIOSK_PAD", "ID_INPUT_KEYBOARD", "ID_INPUT_MOUSE",
        "ID_INPUT_TOUCHPAD", "ID_INPUT_JOYSTICK",
    ]

    func flag(_ key: String) -> Bool { properties[key] == "1" }

    var isTagged: Bool { flag("CONSENT_KIOSK_PAD") }
    var isTablet: Bool { flag("ID_INPUT_TABLET") }
    var isTouchscreen: Bool { flag("ID_INPUT_TOUCHSCREEN") }

    /// An event node that udev or our rule marks as a touch screen, tablet or consent pad.
    var isPadCandidate: Bool {
        guard let devnode, devnode.hasPrefix("/dev/input/event") else { return false }
        return isTagged || isTablet || isTouchscreen
    }

    /// Copies the facts out of `device` (borrowed; not unreferenced here).
    init(device: OpaquePointer) {
        syspath = udev_device_get_syspath(device).map { String(cString: $0) } ?? ""
        devnode = udev_device_get_devnode(device).map { String(cString: $0) }
        action = udev_device_get_action(device).map { String(cString: $0) }
        isInitialized = udev_device_get_is_initialized(device) != 0
        var props: [String: String] = [:]
        for key in Self.interestingProperties {
            if let v = udev_device_get_property_value(device, key) { props[key] = String(cString: v) }
        }
        properties = props
        // The parent `inputN` device carries the name and the PRODUCT=bus/vendor/product/version ids; it is borrowed
        // from the child, so it must not be unreferenced.
        let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil)
        if let parent {
            name = udev_device_get_sysattr_value(parent, "name").map { String(cString: $0) }
            if name == nil, let n = udev_device_get_property_value(parent, "NAME") {
                name = String(cString: n).trimmingQuotes()
            }
            if let product = udev_device_get_property_value(parent, "PRODUCT") {
                let parts = String(cString: product).split(separator: "/")
                if parts.count >= 3 {
                    vendorID = UInt16(parts[1], radix: 16)
                    productID = UInt16(parts[2], radix: 16)
                }
            }
        }
        name = name?.trimmingNewline()
    }

    init(syspath: String, devnode: String?, action: String? = nil, properties: [String: String] = [:]) {
        self.syspath = syspath
        self.devnode = devnode
        self.action = action
        self.properties = properties
        self.isInitialized = true
    }
}

extension String {
    fileprivate func trimmingQuotes() -> String {
        var s = Substring(self)
        if s.first == "\"" { s = s.dropFirst() }
        if s.last == "\"" { s = s.dropLast() }
        return String(s)
    }

    fileprivate func trimmingNewline() -> String {
        var s = Substring(self)
        while let l = s.last, l == "\n" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
