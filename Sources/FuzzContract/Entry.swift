// How the target is entered. `scripts/fuzz` builds it with `-sanitize=fuzzer,address -DFUZZING`: libFuzzer then
// owns `main` and calls `LLVMFuzzerTestOneInput`. Every other build (a plain `swift build` of the package) gets a
// `@main` that replays input files through the same harness, so the target always compiles and links, and a
// crash file can be rerun without the fuzzer: `swift run FuzzContract crash-<sha>`.
import Foundation

#if DEBUG
private func runOne(_ input: [UInt8]) {
    fuzzer.run(input)
}

private let fuzzer: ContractFuzzer = {
    do {
        return try ContractFuzzer()
    } catch {
        fatalError("FuzzContract cannot start: \(error)")
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
enum FuzzContractReplay {
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
        print("FuzzContract needs a debug build; fuzz it with scripts/fuzz FuzzContract")
        exit(2)
        #endif
    }
}
#endif
