/// A fault in 19794-7 bytes or in what should become them, naming the field.
///
/// Equality and hashing use the field only, so a test (or a caller) can ask which field was wrong without matching
/// the message's words.
public struct ISO19794_7Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field of the format at fault.
    public struct Field: Sendable, Hashable, CustomStringConvertible {
        private enum Name: String, Sendable, Hashable {
            case formatIdentifier = "format identifier"
            case version
            case recordLength = "record length"
            case representationCount = "number of representations"
            case representationLength = "representation length"
            case captureTime = "capture date and time"
            case captureDevice = "capture device technology, vendor and type"
            case qualityBlocks = "quality blocks"
            case channelInclusion = "channel inclusion"
            case channelDescription = "channel description"
            case sampleCount = "number of sample points"
            case sampleValue = "sample value"
            case extendedData = "extended data"
        }
        private let name: Name
        private init(_ name: Name) { self.name = name }

        public static let formatIdentifier = Field(.formatIdentifier)
        public static let version = Field(.version)
        public static let recordLength = Field(.recordLength)
        public static let representationCount = Field(.representationCount)
        public static let representationLength = Field(.representationLength)
        public static let captureTime = Field(.captureTime)
        public static let captureDevice = Field(.captureDevice)
        public static let qualityBlocks = Field(.qualityBlocks)
        public static let channelInclusion = Field(.channelInclusion)
        /// A channel's description: its preamble, scaling, minimum, maximum, mean or standard deviation.
        public static let channelDescription = Field(.channelDescription)
        public static let sampleCount = Field(.sampleCount)
        /// A value in the body (reading), or one that does not fit its channel (writing).
        public static let sampleValue = Field(.sampleValue)
        public static let extendedData = Field(.extendedData)

        public var description: String { name.rawValue }
    }

    public var field: Field
    /// One sentence: the field, what is wrong with it, and where.
    public var message: String

    public init(_ field: Field, _ detail: String) {
        self.field = field
        self.message = "\(field): \(detail)"
    }

    public var description: String { message }

    public static func == (a: Self, b: Self) -> Bool { a.field == b.field }
    public func hash(into hasher: inout Hasher) { hasher.combine(field) }
}
