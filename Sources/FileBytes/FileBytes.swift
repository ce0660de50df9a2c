#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole small file with plain POSIX calls: the one home for reading the agent's own state files
/// (journal entries, audit log files, the kiosk key, the config file). Its writing twin is ``DurableWrite``; both
/// retry EINTR in one place, ``FileBytes/retryingEINTR(_:)``.
///
/// Foundation's `Data(contentsOf:)` leaks a 4 KiB buffer for every empty file it reads (LeakSanitizer shows it,
/// docs/RELIABILITY.md), and a journal entry is empty by design; this reader allocates only what it returns.
public enum FileBytes {
    /// A read that failed, with the call and the errno (ENOENT, EACCES, EISDIR, EFBIG …) for the log.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var call: String
        public var errno: Int32

        public init(call: String, errno: Int32) {
            self.call = call
            self.errno = errno
        }

        public var description: String { "\(call) failed (errno \(errno))" }
    }

    /// The bytes of the file at `path`, at most `limit` of them.
    ///
    /// - Throws: `Failure` when it cannot be opened or read, or (`EFBIG`) holds more than `limit` bytes.
    public static func read(_ path: String, limit: Int = 64 << 20) throws(Failure) -> [UInt8] {
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw Failure(call: "open", errno: errno) }
        defer { _ = close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { buffer in retrying { readChunk(fd, buffer) } }
            guard n >= 0 else { throw Failure(call: "read", errno: errno) }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else { throw Failure(call: "read", errno: EFBIG) }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    /// Calls `call` again while it fails with EINTR (a signal arrived during the syscall), the way swift-nio's
    /// `System.swift` wraps every syscall: the one place this module's callers retry an interrupted call.
    @inline(__always)
    public static func retryingEINTR<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }

    @inline(__always)
    static func retrying<T: BinaryInteger>(_ call: () -> T) -> T { retryingEINTR(call) }
}

/// `read(2)` at file scope, where the name is the C function's and not `FileBytes.read`.
private func readChunk(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(fd, buffer.baseAddress, buffer.count)
}
