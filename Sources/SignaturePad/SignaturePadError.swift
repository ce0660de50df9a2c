/// The one error type of the signature pad modules.
///
/// Shaped like swift-service-lifecycle's `ServiceRunnerError`: an opaque ``Code`` that can grow without breaking
/// callers, a one-sentence message that states the fault and the remedy, an optional cause and the source location.
/// Equality and hashing use the code only. Messages never carry PHI: pads are named by node or product only.
public struct SignaturePadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as an extensible set of named values.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case noPad
            case permissionDenied
            case deviceGone
            case notAnInputDevice
            case noAxes
            case signatureTooShort
            case emptySignature
            case timeRunsBackwards
            case malformedRecording
            case captureNotActive
            case captureAlreadyActive
            case udevUnavailable
            case ioFailure
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        public var description: String { base.rawValue }

        /// No usable pad is connected, or none matches the requested name or node.
        public static let noPad = Code(.noPad)
        /// The node exists but this process may not open it (udev rule or group missing).
        public static let permissionDenied = Code(.permissionDenied)
        /// The device disappeared (unplugged, revoked, or gone between enumeration and open).
        public static let deviceGone = Code(.deviceGone)
        /// The node is not an evdev input device.
        public static let notAnInputDevice = Code(.notAnInputDevice)
        /// The device reports no usable X/Y axes, so it cannot capture ink.
        public static let noAxes = Code(.noAxes)
        /// The signature is shorter than the configured minimum (a dot, a tick).
        public static let signatureTooShort = Code(.signatureTooShort)
        /// Strokes drawn in the UI carry a time earlier than the point before them.
        public static let timeRunsBackwards = Code(.timeRunsBackwards)
        /// No ink was captured at all.
        public static let emptySignature = Code(.emptySignature)
        /// An evemu recording or raw event stream could not be parsed.
        public static let malformedRecording = Code(.malformedRecording)
        /// `finish`/`clear` was called while no capture runs.
        public static let captureNotActive = Code(.captureNotActive)
        /// `start` was called while a capture already runs.
        public static let captureAlreadyActive = Code(.captureAlreadyActive)
        /// libudev could not be initialised (no /sys, no netlink).
        public static let udevUnavailable = Code(.udevUnavailable)
        /// Any other system call failure.
        public static let ioFailure = Code(.ioFailure)
    }

    public var code: Code
    /// One sentence: the fault and what to do about it.
    public var message: String
    /// The underlying error, if any (for example an errno).
    public var cause: (any Error & Sendable)?
    public var file: String
    public var line: Int

    public init(
        _ code: Code, _ message: String, cause: (any Error & Sendable)? = nil, file: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.cause = cause
        self.file = file
        self.line = line
    }

    public var description: String {
        if let cause { return "\(message) (\(code); cause: \(cause))" }
        return "\(message) (\(code))"
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
