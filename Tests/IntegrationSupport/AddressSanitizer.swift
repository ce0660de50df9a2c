import Foundation

/// Whether this test runner is an AddressSanitizer build (scripts/sanitize address), and so the consentd and
/// consentweb beside it: ASan's quarantine keeps freed memory out of reuse (256 MB by default) and its shadow memory
/// grows with the heap, so a bound on a process's resident memory measures ASan there, not our code.
public enum AddressSanitizer {
    public static var isActive: Bool { dlsym(nil, "__asan_init") != nil }
}
