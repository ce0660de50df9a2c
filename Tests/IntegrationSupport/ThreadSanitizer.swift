import Foundation

/// Whether this test runner is a ThreadSanitizer build (scripts/sanitize thread), and so the consentd beside it:
/// its shadow memory is resident too (consentweb idles at 65 MiB under it, 30 MiB without), and its allocator ignores
/// malloc's settings, so an absolute bound on a process's resident memory measures ThreadSanitizer there.
public enum ThreadSanitizer {
    public static var isActive: Bool { dlsym(nil, "__tsan_init") != nil }
}
