// What every fuzz target's entry point shares (docs/RELIABILITY.md, "Fuzzing"); FuzzTarget.swift is the entry
// itself. `scripts/fuzz` builds a target with `-sanitize=fuzzer,address -DFUZZING`: libFuzzer then owns `main` and
// calls the target's own `LLVMFuzzerTestOneInput` (a C symbol each executable must define itself). Every other build
// gets the target's `@main`, which replays files through the same harness with `FuzzEntry.replay`, so the target
// always compiles and links, its committed corpus replays in `make test`, and a crash file reruns without the
// fuzzer: `swift run FuzzHTML crash-<sha>`.
import FileBytes
import Foundation

public enum FuzzEntry {
    /// `main`'s `argv`, as a target's `<Target>_main` receives it.
    public typealias Arguments = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    /// libFuzzer's input as bytes (libFuzzer may pass a null pointer for the empty input).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    /// A target's harness, made once per process; a harness that cannot start (its study fixture is missing) ends
    /// the process with why, since there is nothing to fuzz.
    ///
    /// In an ASan build (the fuzzer's, or scripts/sanitize's replay of the corpora), LeakSanitizer ignores what making
    /// it allocates. A harness lives for the whole run, so nothing it makes can leak per input (the targets that keep
    /// nothing else check leaks after each input); but LeakSanitizer cannot see a reference Swift keeps in an enum's
    /// spare bits, `Data`'s storage among them, so the study files a harness holds were reported as leaked at exit
    /// (a 10-line program holding three `Data` in a global shows it).
    ///
    /// The pause covers the calling thread only (`__lsan_disable` counts per thread): what `make` has another thread
    /// allocate, and keeps, is not covered. `Study.load` reads translations on Dispatch's worker threads, so the
    /// harnesses that keep a study take it through `FuzzStudy`, which copies its bytes on this thread.
    public static func harness<Harness>(_ target: String, _ make: () throws -> Harness) -> Harness {
        LeakChecking.pause()
        defer { LeakChecking.resume() }
        do {
            return try make()
        } catch {
            fatalError("\(target) cannot start: \(error)")
        }
    }

    /// The replay `main`: each file named in `paths` through `runOne`, then "PATH: ok"; exits 2 on a file it cannot
    /// read. A crash or a broken invariant ends the process as it would under libFuzzer.
    public static func replay(_ paths: some Sequence<String>, through runOne: ([UInt8]) -> Void) {
        for path in paths {
            guard let bytes = try? FileBytes.read(path) else {
                print("cannot read \(path)")
                exit(2)
            }
            runOne(bytes)
            print("\(path): ok")
        }
    }

    /// The replay `main` of a target whose harness uses `@testable import`, in a build without `-enable-testing`.
    public static func needsDebugBuild(_ target: String) -> Never {
        print("\(target) needs a debug build; fuzz it with scripts/fuzz \(target)")
        exit(2)
    }

    #if FUZZING
    /// libFuzzer's `main` for a target built scoped (scripts/fuzz): there SwiftPM, not told of the fuzzer (only the
    /// link is), links the executable's `main` to `<Target>_main`, which the target defines with `@_cdecl` and
    /// hands to this, so libFuzzer parses the arguments and runs as its own `main` would.
    public static func runDriver(
        _ argc: CInt, _ argv: Arguments, _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt {
        var argc = argc
        var argv = argv
        return llvmFuzzerRunDriver(&argc, &argv, testOneInput)
    }
    #endif
}

/// LeakSanitizer's pause (sanitizer/lsan_interface.h), found at run time: present in an ASan build, absent (and
/// the calls no-ops) in any other.
private enum LeakChecking {
    typealias Toggle = @convention(c) () -> Void

    static func pause() { call("__lsan_disable") }
    static func resume() { call("__lsan_enable") }

    private static func call(_ name: String) {
        guard let symbol = dlsym(nil, name) else { return }
        unsafeBitCast(symbol, to: Toggle.self)()
    }
}

#if FUZZING

/// libFuzzer's entry for a program with its own `main` (its FuzzerInterface.h).
@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
