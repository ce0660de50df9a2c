/// An error of the PDF module: a document cairo could not produce, a signature that cannot be drawn, or a file
/// that could not be written.
///
/// Shaped like `ConsentCoreError` (and swift-service-lifecycle's `ServiceGroupError`): an opaque `Code` that can
/// grow without breaking callers, a one-sentence message that states the fault and the remedy, and the file it
/// concerns. Equality uses the code only. Messages never contain PHI: no names, no signature data.
///
/// Problems with the *content* of a study (malformed HTML, a missing image, markup pango rejects) are not errors:
/// the PDF is still produced and `RenderedPDF.warnings` names them.
public struct ConsentPDFError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case renderingFailed, invalidSignature, invalidSize, writeFailed
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// cairo reported an error while producing the document or image (out of memory, a font problem).
        public static let renderingFailed = Code(.renderingFailed)
        /// The signature strokes are out of range (see `SignatureStrokes.validate()`).
        public static let invalidSignature = Code(.invalidSignature)
        /// An image size that is not positive or too large.
        public static let invalidSize = Code(.invalidSize)
        /// The PDF could not be written to its destination; nothing was left behind.
        public static let writeFailed = Code(.writeFailed)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String
    /// The file the error concerns, when there is one.
    public let file: String?

    public init(_ code: Code, _ message: String, file: String? = nil) {
        self.code = code
        self.message = message
        self.file = file
    }

    public var description: String {
        if let file { return "\(file): \(message)" }
        return message
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
