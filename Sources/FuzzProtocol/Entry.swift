// How the target is entered. `scripts/fuzz` builds it with `-sanitize=fuzzer,address -DFUZZING`: libFuzzer then
// owns `main` and calls `LLVMFuzzerTestOneInput`. Every other build (a plain `swift build` of the package) gets a
// `@main` that replays input files through the same harness, so the target always compiles and links, and a
// crash file can be rerun without the fuzzer: `swift run FuzzProtocol crash-<sha>`.
import Dispatch
import Foundation

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

private let fuzzer: ProtocolFuzzer = {
    do {
        return try ProtocolFuzzer()
    } catch {
        fatalError("FuzzProtocol cannot start: \(error)")
    }
}()
#endif

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runOne(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#else
@main
enum FuzzProtocolReplay {
    static func main() {
        #if DEBUG
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("cannot read \(path)")
                exit(2)
            }
            runOne(Array(data))
            print("\(path): ok")
        }
        #else
        print("FuzzProtocol needs a debug build; fuzz it with scripts/fuzz FuzzProtocol")
        exit(2)
        #endif
    }
}
#endif
