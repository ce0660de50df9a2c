// How the target is entered: libFuzzer's callback under `scripts/fuzz`, else a replay `main` (FuzzSupport's
// `FuzzEntry` says why both). The harness uses ConsentAgent's public API only, so its replay `main` works in a
// release build too.
import FuzzSupport

private func runOne(_ input: [UInt8]) {
    ConfigFuzzer().run(input)
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runOne(FuzzEntry.bytes(data, size))
    return 0
}

/// `main` in the scoped build (scripts/fuzz; `FuzzEntry.runDriver` says why).
@_cdecl("FuzzConfig_main")
public func fuzzConfigMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzEntry.runDriver(argc, argv, fuzzTestOneInput)
}
#else
@main
enum FuzzConfigReplay {
    static func main() {
        FuzzEntry.replay(CommandLine.arguments.dropFirst(), through: runOne)
    }
}
#endif
