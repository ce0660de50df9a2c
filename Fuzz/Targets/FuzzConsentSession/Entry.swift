// How the target is entered: FuzzSupport's `FuzzTarget` (libFuzzer's callback under `scripts/fuzz`, else a replay
// `main`; `FuzzEntry` says why both).
//
// Like FuzzPadEvents this harness needs no `@testable import` (it drives ConsentCore's public API only), so its
// replay `main` works in a release build too.
import FuzzSupport

// Made once per process: loading the sample study (its Contract and HTML files) costs far more than an input.
// Nothing else outlives an input, so the target runs with leak detection on (`FuzzEntry.harness` says why the
// harness itself is not checked).
private let fuzzer = FuzzEntry.harness("FuzzConsentSession") { try SessionFuzzer() }

enum Target: FuzzTarget {
    static func runOne(_ input: [UInt8]) { fuzzer.run(input) }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { Target.fuzzOne(data, size) }

@_cdecl("FuzzConsentSession_main")
public func fuzzMain(_ argc: CInt, _ argv: FuzzEntry.Arguments) -> CInt { FuzzEntry.runDriver(argc, argv, fuzzOne) }
#else
@main extension Target {}
#endif
