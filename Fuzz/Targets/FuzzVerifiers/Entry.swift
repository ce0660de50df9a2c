// How the target is entered: FuzzSupport's `FuzzTarget` (libFuzzer's callback under `scripts/fuzz`, else a replay
// `main`; `FuzzEntry` says why both).
//
// The harness uses public API only, so its replay `main` works in a release build too; `FuzzVerifiers --write-seeds
// DIR` writes the seed corpus (Fuzz/make-corpus).
import Foundation
import FuzzSupport

// Made once per process: signing three records (and an RSA key) costs far more than an input. Nothing else outlives
// an input, so the target runs with leak detection on.
private let fuzzer = FuzzEntry.harness("FuzzVerifiers") { try VerifierFuzzer() }

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

@_cdecl("FuzzVerifiers_main")
public func fuzzMain(_ argc: CInt, _ argv: FuzzEntry.Arguments) -> CInt { FuzzEntry.runDriver(argc, argv, fuzzOne) }
#else
@main extension Target {}
#endif
