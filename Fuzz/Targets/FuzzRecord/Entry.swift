// How the target is entered: FuzzSupport's `FuzzTarget` (libFuzzer's callback under `scripts/fuzz`, else a replay
// `main`; `FuzzEntry` says why both).
//
// The harness reads ConsentRecords' and ConsentPDF's internals (`@testable import`), so like FuzzHTML it exists
// in debug builds only.
import FuzzSupport

#if DEBUG
// Made once per process, loading the sample study.
private let fuzzer = FuzzEntry.harness("FuzzRecord") { try RecordFuzzer() }

enum Target: FuzzTarget {
    static func runOne(_ input: [UInt8]) { fuzzer.run(input) }
}
#else
typealias Target = NeedsDebugBuild
#endif

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { Target.fuzzOne(data, size) }

@_cdecl("FuzzRecord_main")
public func fuzzMain(_ argc: CInt, _ argv: FuzzEntry.Arguments) -> CInt { FuzzEntry.runDriver(argc, argv, fuzzOne) }
#else
@main extension Target {}
#endif
