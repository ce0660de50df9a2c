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

    /// The same for C functions that return `-errno` instead of setting `errno` (libevdev, the project's shims):
    /// called again while they return `-EINTR`.
    @inline(__always)
    public static func retryingEINTR(returningNegatedErrno call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result != -EINTR { return result }
        }
    }

    @inline(__always)
    static func retrying<T: BinaryInteger>(_ call: () -> T) -> T { retryingEINTR(call) }
}

/// `read(2)` at file scope, where the name is the C function's and not `FileBytes.read`.
private func readChunk(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(fd, buffer.baseAddress, buffer.count)
}

extension FileBytes {
    /// Hands the file's bytes to `body` from its end backwards, `chunkSize` bytes at a time (the last chunk of the
    /// file first), until `body` returns false or the file's start has been handed over: for a reader that wants a
    /// large file's newest lines without reading all of it. One buffer serves every chunk; `body` must not keep it.
    ///
    /// - Parameter body: a chunk and the file offset of its first byte; returns whether to go on.
    /// - Throws: `Failure` when the file cannot be opened, its size read or a chunk read (`EIO` when the file
    ///   shrank while it was being read).
    public static func readBackward(
        _ path: String, chunkSize: Int = 1 << 20, _ body: (_ chunk: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool
    ) throws(Failure) {
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw Failure(call: "open", errno: errno) }
        defer { _ = close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Failure(call: "fstat", errno: errno) }
        var end = Int(status.st_size)
        guard end > 0 else { return }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(max(chunkSize, 1), end))
        defer { buffer.deallocate() }
        guard let base = buffer.baseAddress else { return }
        while end > 0 {
            let start = max(end - buffer.count, 0)
            let count = end - start
            var filled = 0
            while filled < count {
                let n = retrying { pread(fd, base + filled, count - filled, off_t(start + filled)) }
                guard n >= 0 else { throw Failure(call: "pread", errno: errno) }
                guard n > 0 else { throw Failure(call: "pread", errno: EIO) }
                filled += n
            }
            guard body(UnsafeBufferPointer(start: base, count: count), start) else { return }
            end = start
        }
    }
}
