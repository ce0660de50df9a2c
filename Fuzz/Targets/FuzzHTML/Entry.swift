// How the target is entered: libFuzzer's callback under `scripts/fuzz`, else a replay `main` (FuzzSupport's
// `FuzzEntry` says why both).
import FuzzSupport

#if DEBUG
private func runOne(_ input: [UInt8]) {
    fuzzer.run(input)
}

private let fuzzer = FuzzEntry.harness("FuzzHTML") { try HTMLFuzzer() }
#endif

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runOne(FuzzEntry.bytes(data, size))
    return 0
}

/// `main` in the scoped build (scripts/fuzz; `FuzzEntry.runDriver` says why).
@_cdecl("FuzzHTML_main")
public func fuzzHTMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzEntry.runDriver(argc, argv, fuzzTestOneInput)
}
#else
@main
enum FuzzHTMLReplay {
    static func main() {
        #if DEBUG
        FuzzEntry.replay(CommandLine.arguments.dropFirst(), through: runOne)
        #else
        FuzzEntry.needsDebugBuild("FuzzHTML")
        #endif
    }
}
#endif
