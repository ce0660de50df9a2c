// How the target is entered: libFuzzer's callback under `scripts/fuzz`, else a replay `main` (FuzzSupport's
// `FuzzEntry` says why both).
//
// Like FuzzPadEvents this harness needs no `@testable import` (it drives ConsentCore's public API only), so its
// replay `main` works in a release build too.
import FuzzSupport

private func runOne(_ input: [UInt8]) {
    fuzzer.run(input)
}

// Made once per process: loading the sample study (its Contract and HTML files) costs far more than an input.
// Under the fuzzer, LeakSanitizer ignores what the loading allocates: Foundation's `Data(contentsOf:)` (the study
// reader's) leaks a little per file read (issue 18 item 5), once per process, and the target runs with leak
// detection on since nothing else outlives an input.
private let fuzzer = FuzzEntry.harnessIgnoringItsAllocations("FuzzConsentSession") { try SessionFuzzer() }

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runOne(FuzzEntry.bytes(data, size))
    return 0
}

/// `main` in the scoped build (scripts/fuzz; `FuzzEntry.runDriver` says why).
@_cdecl("FuzzConsentSession_main")
public func fuzzConsentSessionMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzEntry.runDriver(argc, argv, fuzzTestOneInput)
}
#else
@main
enum FuzzConsentSessionReplay {
    static func main() {
        FuzzEntry.replay(CommandLine.arguments.dropFirst(), through: runOne)
    }
}
#endif
