// How the target is entered. `scripts/fuzz` builds it with `-sanitize=fuzzer,address -DFUZZING`: libFuzzer then
// owns `main` and calls `LLVMFuzzerTestOneInput`. Every other build (a plain `swift build` of the package) gets a
// `@main` that replays input files through the same harness, so the target always compiles and links, and a
// crash file can be rerun without the fuzzer: `swift run FuzzPadEvents crash-<sha>`.
//
// Unlike the other targets this harness needs no `@testable import` (it drives SignaturePad's public API only),
// so it is not limited to debug builds: the replay `main` works in a release build too.
import Foundation

private func runOne(_ input: [UInt8]) {
    fuzzer.run(input)
}

private let fuzzer = PadFuzzer()

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runOne(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#else
@main
enum FuzzPadEventsReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("cannot read \(path)")
                exit(2)
            }
            runOne(Array(data))
            print("\(path): ok")
        }
    }
}
#endif
