// How the target is entered: libFuzzer's callback under `scripts/fuzz`, else a replay `main` (FuzzSupport's
// `FuzzEntry` says why both). The harness uses public API only, so its replay `main` works in a release build too;
// `FuzzISO19794 --write-seeds DIR` writes the seed corpus (Fuzz/make-corpus).
import Foundation
import FuzzSupport

private func runOne(_ input: [UInt8]) {
    fuzzer.run(input)
}

// Nothing outlives an input, so the target runs with leak detection on.
private let fuzzer = FuzzEntry.harness("FuzzISO19794") { ISO19794Fuzzer() }

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runOne(FuzzEntry.bytes(data, size))
    return 0
}

/// `main` in the scoped build (scripts/fuzz; `FuzzEntry.runDriver` says why).
@_cdecl("FuzzISO19794_main")
public func fuzzISO19794Main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzEntry.runDriver(argc, argv, fuzzTestOneInput)
}
#else
@main
enum FuzzISO19794Replay {
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--write-seeds", arguments.count == 2 {
            try fuzzer.writeSeeds(to: URL(fileURLWithPath: arguments[1]))
            return
        }
        FuzzEntry.replay(arguments, through: runOne)
    }
}
#endif
