// How the target is entered: libFuzzer's callback under `scripts/fuzz`, else a replay `main` (FuzzSupport's
// `FuzzEntry` says why both).
//
// The harness drives `ConnectionStateMachine`, which is internal to ConsentAgent (`@testable import`), so like
// FuzzProtocol it exists in debug builds only.
import FuzzSupport

#if DEBUG
private func runOne(_ input: [UInt8]) {
    fuzzer.run(input)
}

private let fuzzer = ConnectionFuzzer()
#endif

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runOne(FuzzEntry.bytes(data, size))
    return 0
}

/// `main` in the scoped build (scripts/fuzz; `FuzzEntry.runDriver` says why).
@_cdecl("FuzzConnection_main")
public func fuzzRequestMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzEntry.runDriver(argc, argv, fuzzTestOneInput)
}
#else
@main
enum FuzzConnectionReplay {
    static func main() {
        #if DEBUG
        FuzzEntry.replay(CommandLine.arguments.dropFirst(), through: runOne)
        #else
        FuzzEntry.needsDebugBuild("FuzzConnection")
        #endif
    }
}
#endif
