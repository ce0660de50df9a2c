// How the target is entered: libFuzzer's callback under `scripts/fuzz`, else a replay `main` (FuzzSupport's
// `FuzzEntry` says why both).
import Dispatch
import FuzzSupport

#if DEBUG
/// Runs the async harness to completion from libFuzzer's synchronous callback.
private func runOne(_ input: [UInt8]) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await fuzzer.run(input)
        done.signal()
    }
    done.wait()
}

private let fuzzer = FuzzEntry.harness("FuzzProtocol") { try ProtocolFuzzer() }
#endif

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runOne(FuzzEntry.bytes(data, size))
    return 0
}

/// `main` in the scoped build (scripts/fuzz; `FuzzEntry.runDriver` says why).
@_cdecl("FuzzProtocol_main")
public func fuzzProtocolMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzEntry.runDriver(argc, argv, fuzzTestOneInput)
}
#else
@main
enum FuzzProtocolReplay {
    static func main() {
        #if DEBUG
        FuzzEntry.replay(CommandLine.arguments.dropFirst(), through: runOne)
        #else
        FuzzEntry.needsDebugBuild("FuzzProtocol")
        #endif
    }
}
#endif
