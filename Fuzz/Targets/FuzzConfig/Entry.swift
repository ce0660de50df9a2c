// How the target is entered: FuzzSupport's `FuzzTarget` (libFuzzer's callback under `scripts/fuzz`, else a replay
// `main`; `FuzzEntry` says why both).
//
// The harness uses ConsentAgent's public API only, so its replay `main` works in a release build too.
import FuzzSupport

enum Target: FuzzTarget {
    static func runOne(_ input: [UInt8]) { ConfigFuzzer().run(input) }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { Target.fuzzOne(data, size) }

@_cdecl("FuzzConfig_main")
public func fuzzMain(_ argc: CInt, _ argv: FuzzEntry.Arguments) -> CInt { FuzzEntry.runDriver(argc, argv, fuzzOne) }
#else
@main extension Target {}
#endif
