// How the target is entered: libFuzzer's callback under `scripts/fuzz`, else a replay `main` (FuzzSupport's
// `FuzzEntry` says why both).
//
// The harness reads ConsentRecords' and ConsentPDF's internals (`@testable import`), so like FuzzHTML it exists
// in debug builds only.
import FuzzSupport

#if DEBUG
private func runOne(_ input: [UInt8]) {
    fuzzer.run(input)
}

// Made once per process, loading the sample study.
private let fuzzer = FuzzEntry.harness("FuzzRecord") { try RecordFuzzer() }
#endif

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runOne(FuzzEntry.bytes(data, size))
    return 0
}

/// `main` in the scoped build (scripts/fuzz; `FuzzEntry.runDriver` says why).
@_cdecl("FuzzRecord_main")
public func fuzzRecordMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzEntry.runDriver(argc, argv, fuzzTestOneInput)
}
#else
@main
enum FuzzRecordReplay {
    static func main() {
        #if DEBUG
        FuzzEntry.replay(CommandLine.arguments.dropFirst(), through: runOne)
        #else
        FuzzEntry.needsDebugBuild("FuzzRecord")
        #endif
    }
}
#endif
