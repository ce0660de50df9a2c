import Foundation

/// The sample study bundled with the agent: the default when no `--study` is given.
///
/// It is a realistic study folder (a FHIR Contract, its HTML files and an intro config) that `make run`, the
/// tests and the benchmarks all use, so it ships as a resource of this small module.
public enum SampleStudy {
    /// The resource bundle's name, beside the executable where SwiftPM builds it and `make install` copies it.
    static let bundleName = "consent-kiosk_SampleStudy.resources"

    /// The folder of the bundled sample study, or nil when the resource bundle is not beside the binary or the
    /// running user cannot open it.
    ///
    /// Not `Bundle.module`: it stops the process (`fatalError`) when it cannot open its bundle, so consentd run
    /// as another user from a checkout that user may not enter (a clone in a 0700 folder) crashed at start-up
    /// instead of saying that no study was found.
    public static var folder: URL? {
        Bundle(url: Bundle.main.bundleURL.appendingPathComponent(bundleName))?.url(forResource: "sample", withExtension: nil)
    }
}
