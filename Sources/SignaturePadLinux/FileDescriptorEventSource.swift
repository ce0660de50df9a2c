import FileBytes
import Glibc
import SignaturePad

/// Reads raw 24-byte `struct input_event` records from any descriptor: a pipe, a FIFO, a file, an evdev node.
///
/// The benchmarks and fuzzers feed the capture this way. The descriptor is borrowed (not closed); it should be
/// non-blocking or a pipe, because each read waits with `poll` first and reads only what is available.
public struct FileDescriptorEventSource: InputEventSource {
    public let fileDescriptor: Int32
    private var decoder = RawEventDecoder()
    private var buffer = [UInt8](repeating: 0, count: 24 * 256)

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    public mutating func read(into events: inout [InputEvent], timeout: Duration) throws -> InputEventReadStatus {
        switch try FileDescriptorWait.readable(fileDescriptor, timeout: timeout) {
        case .timedOut: return .timedOut
        case .readable, .hangup: break
        }
        guard let appended = try readAvailable(into: &events) else { return .endOfStream }
        return appended > 0 ? .events : .timedOut
    }

    /// Appends the events readable now, without waiting: one `read`, decoded in place.
    ///
    /// - Returns: the number of events appended (0 when nothing was ready), nil at the end of the stream.
    public mutating func readAvailable(into events: inout [InputEvent]) throws -> Int? {
        let fd = fileDescriptor
        let n = buffer.withUnsafeMutableBytes { raw in
            FileBytes.retryingEINTR { Glibc.read(fd, raw.baseAddress, raw.count) }
        }
        if n < 0 {
            let err = errno
            if err == EAGAIN { return 0 }
            throw Syscall.error(errno: err, node: "fd \(fd)")
        }
        if n == 0 { return nil }
        let before = events.count
        buffer.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[0..<Int(n)]), into: &events) }
        return events.count - before
    }
}
