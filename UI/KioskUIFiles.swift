import Foundation

/// The reference kiosk UI (`UI/app`: plain HTML, CSS and ES modules, no build step), bundled with consentweb.
public enum KioskUIFiles {
    /// The folder holding `index.html`, `staff.html` and their modules.
    public static var folder: URL {
        Bundle.module.resourceURL?.appendingPathComponent("app") ?? Bundle.module.bundleURL.appendingPathComponent("app")
    }
}
