// How the target is entered: FuzzSupport's `FuzzTarget` (libFuzzer's callback under `scripts/fuzz`, else a replay
// `main`; `FuzzEntry` says why both).
import Dispatch
import FuzzSupport

#if DEBUG
private let fuzzer = FuzzEntry.harness("FuzzProtocol") { try ProtocolFuzzer() }

enum Target: FuzzTarget {
    /// Runs the async harness to completion from libFuzzer's synchronous callback.
    static func runOne(_ input: [UInt8]) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await fuzzer.run(input)
            done.signal()
        }
        done.wait()
    }
}
#else
typealias Target = NeedsDebugBuild
#endif

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { Target.fuzzOne(data, size) }

@_cdecl("FuzzProtocol_main")
public func fuzzMain(_ argc: CInt, _ argv: FuzzEntry.Arguments) -> CInt { FuzzEntry.runDriver(argc, argv, fuzzOne) }
#else
@main extension Target {}
#endif
