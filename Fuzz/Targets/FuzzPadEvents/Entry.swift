// How the target is entered: FuzzSupport's `FuzzTarget` (libFuzzer's callback under `scripts/fuzz`, else a replay
// `main`; `FuzzEntry` says why both).
//
// Unlike most targets this harness needs no `@testable import` (it drives SignaturePad's public API only), so it
// is not limited to debug builds: the replay `main` works in a release build too. It is the one target built
// unscoped, where libFuzzer's own `main` runs: so no `FuzzPadEvents_main`.
import FuzzSupport

private let fuzzer = PadFuzzer()

enum Target: FuzzTarget {
    static func runOne(_ input: [UInt8]) { fuzzer.run(input) }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { Target.fuzzOne(data, size) }
#else
@main extension Target {}
#endif
