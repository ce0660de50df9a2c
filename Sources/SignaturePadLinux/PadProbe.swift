import SignaturePad

/// Turns a udev candidate into a ``PadDescription`` by briefly opening its node for the absinfo.
enum PadProbe {
    /// nil when the device vanished between enumeration and open (it is simply not listed).
    static func describe(_ info: UdevDeviceInfo) -> PadDescription? {
        guard let node = info.devnode else { return nil }
        do {
            let device = try EvdevDevice(node: node)
            return device.describe(udev: info)
        } catch let error as SignaturePadError where error.code == .deviceGone {
            return nil
        } catch {
            // Permission denied, or not really an evdev node: list it, unusable, so a technician sees why.
            return PadDescription(
                node: node, syspath: info.syspath, name: info.name ?? "", vendorID: info.vendorID ?? 0,
                productID: info.productID ?? 0, kind: info.isTablet ? .pen : .touch, isTagged: info.isTagged,
                isTablet: info.isTablet, isTouchscreen: info.isTouchscreen,
                isAccessible: (error as? SignaturePadError)?.code != .permissionDenied, x: nil, y: nil)
        }
    }
}
