// How the target is entered: libFuzzer's callback under `scripts/fuzz`, else a replay `main` (FuzzSupport's
// `FuzzEntry` says why both).
//
// Unlike the other targets this harness needs no `@testable import` (it drives SignaturePad's public API only),
// so it is not limited to debug builds: the replay `main` works in a release build too.
import FuzzSupport

private func runOne(_ input: [UInt8]) {
    fuzzer.run(input)
}

private let fuzzer = PadFuzzer()

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runOne(FuzzEntry.bytes(data, size))
    return 0
}
#else
@main
enum FuzzPadEventsReplay {
    static func main() {
        FuzzEntry.replay(CommandLine.arguments.dropFirst(), through: runOne)
    }
}
#endif
