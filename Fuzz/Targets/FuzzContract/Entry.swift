// How the target is entered: FuzzSupport's `FuzzTarget` (libFuzzer's callback under `scripts/fuzz`, else a replay
// `main`; `FuzzEntry` says why both).
import FuzzSupport

#if DEBUG
private let fuzzer = FuzzEntry.harness("FuzzContract") { try ContractFuzzer() }

enum Target: FuzzTarget {
    static func runOne(_ input: [UInt8]) { fuzzer.run(input) }
}
#else
typealias Target = NeedsDebugBuild
#endif

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { Target.fuzzOne(data, size) }

@_cdecl("FuzzContract_main")
public func fuzzMain(_ argc: CInt, _ argv: FuzzEntry.Arguments) -> CInt { FuzzEntry.runDriver(argc, argv, fuzzOne) }
#else
@main extension Target {}
#endif
