// How the target is entered: FuzzSupport's `FuzzTarget` (libFuzzer's callback under `scripts/fuzz`, else a replay
// `main`; `FuzzEntry` says why both).
//
// The harness uses public API only, so its replay `main` works in a release build too; `FuzzISO19794 --write-seeds
// DIR` writes the seed corpus (Fuzz/make-corpus). Nothing outlives an input, so the target runs with leak detection on.
import Foundation
import FuzzSupport

private let fuzzer = FuzzEntry.harness("FuzzISO19794") { ISO19794Fuzzer() }

enum Target: FuzzTarget {
    static func runOne(_ input: [UInt8]) { fuzzer.run(input) }

    static func writeSeeds(to folder: String) throws -> Bool {
        try fuzzer.writeSeeds(to: URL(fileURLWithPath: folder))
        return true
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { Target.fuzzOne(data, size) }

@_cdecl("FuzzISO19794_main")
public func fuzzMain(_ argc: CInt, _ argv: FuzzEntry.Arguments) -> CInt { FuzzEntry.runDriver(argc, argv, fuzzOne) }
#else
@main extension Target {}
#endif
