import Foundation

/// The sample study bundled with the agent: the default when no `--study` is given.
///
/// It is a realistic study folder (a FHIR Contract, its HTML files and an intro config) that `make run`, the
/// tests and the benchmarks all use, so it ships as a resource of this small module.
public enum SampleStudy {
    /// The folder of the bundled sample study, or nil when the resource bundle was not installed beside the binary.
    public static var folder: URL? {
        Bundle.module.url(forResource: "sample", withExtension: nil)
    }
}
