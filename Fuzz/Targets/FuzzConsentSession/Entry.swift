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
// Nothing else outlives an input, so the target runs with leak detection on (`FuzzEntry.harness` says why the
// harness itself is not checked).
private let fuzzer = FuzzEntry.harness("FuzzConsentSession") { try SessionFuzzer() }

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
