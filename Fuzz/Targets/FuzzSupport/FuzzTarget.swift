// A fuzz target's entry point, the same for every target. Its Entry.swift names the harness (`FuzzTarget.runOne`)
// and declares only what an executable must declare itself: under `scripts/fuzz` (-DFUZZING) libFuzzer's C symbol
// `LLVMFuzzerTestOneInput` (and, in a scoped build, `<Target>_main`: `FuzzEntry.runDriver` says why), which call
// `fuzzOne` and `runDriver`; in every other build an empty `@main extension`, whose `main` is the replay here.
import Foundation

/// A fuzz target: one input through its harness, and the replay `main` of every build but the fuzzer's.
public protocol FuzzTarget {
    /// One input through the harness; a broken invariant ends the process.
    static func runOne(_ input: [UInt8])
    /// `--write-seeds DIR`: writes the target's seed corpus (Fuzz/make-corpus) and returns true; false for a target
    /// with no seed writer, whose replay then reads `--write-seeds` as a file name (and exits 2).
    static func writeSeeds(to folder: String) throws -> Bool
    /// The replay `main`'s work.
    static func replay(_ arguments: [String]) throws
}

extension FuzzTarget {
    public static func writeSeeds(to folder: String) throws -> Bool { false }

    /// Each file named in `arguments` through `runOne` (`FuzzEntry.replay`), or `--write-seeds DIR`.
    public static func replay(_ arguments: [String]) throws {
        if arguments.first == "--write-seeds", arguments.count == 2, try writeSeeds(to: arguments[1]) { return }
        FuzzEntry.replay(arguments, through: runOne)
    }

    /// The replay `main` (`@main extension Target {}`).
    public static func main() throws {
        try replay(Array(CommandLine.arguments.dropFirst()))
    }

    /// libFuzzer's callback (`LLVMFuzzerTestOneInput`'s body).
    public static func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        runOne(FuzzEntry.bytes(data, size))
        return 0
    }
}

/// The target of a harness that needs `@testable import`, in a build without `-enable-testing` (a release build):
/// it has no harness, and its replay `main` says so and exits 2.
public enum NeedsDebugBuild: FuzzTarget {
    public static func runOne(_ input: [UInt8]) {}

    public static func replay(_ arguments: [String]) {
        FuzzEntry.needsDebugBuild(URL(fileURLWithPath: CommandLine.arguments.first ?? "").lastPathComponent)
    }
}
