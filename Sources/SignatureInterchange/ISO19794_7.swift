import Foundation

/// A handwritten signature's time series in ISO/IEC 19794-7:2014 (second edition), the full format: what signature
/// examiners' and pad vendors' tools exchange.
///
/// One record holds one signature representation. The layout written (all integers big-endian; docs/RECORDS.md has
/// it as a field table with each field's public source):
///
/// ```
/// General header        "SDI\0" | version "020\0" | record length u32 | representations u16 (1) | certification u8 (0)
/// Representation header length u32 | capture time: year u16, month, day, hour, minute, second u8, ms u16 (UTC)
///                       | device technology u8 | vendor id u16 | type id u16 | quality blocks u8 (0)
///                       | channel inclusion u16 | one description per included channel | sample count u24
/// Channel description   preamble u8 | scaling u16 (0x80) | min (0x40) | max (0x20) | mean (0x10) | std dev (0x08)
///                       0x04: the channel is constant and has no value in the samples; 0x02: linear component removed
/// Body                  per sample, per included channel that is not constant, in inclusion order:
///                       S one byte; every other channel u16, X Y VX VY AX AY TX TY as value + 32768
/// Extended data         length u16 | blocks: type u16, length u16, bytes (`ExtendedData`)
/// ```
/// Channel inclusion bits, most significant first: X Y Z VX VY AX AY T DT F S TX TY A E R. Written: X, Y, T and S
/// always, F when the capture had pressure, TX/TY when it had tilt. X and Y run from 0 at the left and the bottom
/// (the format's Y grows upward, a screen's downward); T is time since the first sample in the unit its scaling
/// gives per second; F is pressure from 0 to the description's maximum; S is the tip switch (1 pen down, 0 pen up).
/// A scaling value is `2^(e-16) · (1 + m/2048)` with e the top 5 bits, m the low 11.
///
/// The reader also reads the layout this project wrote before it followed the published field table
/// (`Layout.legacy`: a 4-byte sample count, a 2-byte S, X and Y unsigned from the top, USB ids as vendor and type), so
/// the files in records written then keep reading; `inPublishedLayout()` turns such a record into the published one.
public struct ISO19794_7Record: Sendable, Hashable {
    public static let formatIdentifier: [UInt8] = Array("SDI\0".utf8)
    public static let version: [UInt8] = Array("020\0".utf8)
    /// The file extension (and suffix of the record's `signature-<role>.iso19794-7`).
    public static let fileExtension = "iso19794-7"
    /// The sample count is three bytes.
    public static let maximumSampleCount = 0xFF_FFFF

    /// The channels of the 2014 edition, in the order of the inclusion field (most significant bit first).
    public enum Channel: Int, Sendable, Hashable, CaseIterable, Comparable {
        case x, y, z, vx, vy, ax, ay, t, dt, f, s, tx, ty, azimuth, elevation, rotation

        /// The channel's bit in the inclusion field.
        var bit: UInt16 { 1 << UInt16(15 - rawValue) }
        /// Positions, velocities, accelerations and tilts may be negative: they are stored with an offset of 32768.
        public var isSigned: Bool { [.x, .y, .vx, .vy, .ax, .ay, .tx, .ty].contains(self) }
        /// The bytes of one value in the body: the tip switch is one byte, every other channel two.
        var storedWidth: Int { self == .s ? 1 : 2 }
        /// The values a channel holds: 16 bits, signed or not; the tip switch 8 bits.
        public var valueRange: ClosedRange<Int> { self == .s ? 0...255 : isSigned ? -32_768...32_767 : 0...65_535 }
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    public struct ChannelDescription: Sendable, Hashable {
        /// Units per physical unit (per millimetre for X/Y, per second for T and DT); nil when unknown.
        public var scaling: Double?
        public var minimum: Int?
        public var maximum: Int?
        /// The channel's mean, in its values' units.
        public var mean: Int?
        /// The channel's standard deviation, unsigned, in its values' units.
        public var standardDeviation: Int?
        /// The channel has no value in the samples: a writer's fixed sampling interval (DT), say. Its value for every
        /// sample is taken from `mean`, else `minimum` (which field carries it is not confirmed; docs/RECORDS.md).
        public var isConstant: Bool
        /// The writer removed the channel's linear component (read and written back, not undone).
        public var linearComponentRemoved: Bool

        public init(
            scaling: Double? = nil, minimum: Int? = nil, maximum: Int? = nil, mean: Int? = nil,
            standardDeviation: Int? = nil, isConstant: Bool = false, linearComponentRemoved: Bool = false
        ) {
            self.scaling = scaling
            self.minimum = minimum
            self.maximum = maximum
            self.mean = mean
            self.standardDeviation = standardDeviation
            self.isConstant = isConstant
            self.linearComponentRemoved = linearComponentRemoved
        }

        /// A constant channel's value.
        var constantValue: Int? { isConstant ? mean ?? minimum : nil }
    }

    /// The capture device technology identifier: 0 unknown and 1 electromagnetic are the codes the public sources
    /// agree on; any other code a file holds is kept as read.
    public struct Technology: RawRepresentable, Sendable, Hashable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let unknown = Technology(rawValue: 0)
        /// An electromagnetic digitizer: the pen pads and pen displays whose pen evdev reports in proximity.
        public static let electromagnetic = Technology(rawValue: 1)
    }

    /// Which layout the bytes were read from.
    public enum Layout: Sendable, Hashable {
        /// The published field table (docs/RECORDS.md); what `encoded()` writes.
        case published
        /// What consent-kiosk wrote before it followed the published field table: records written then hash these
        /// bytes, so they are read as they are and never rewritten in place.
        case legacy
    }

    /// The bytes' layout (`.published` for a record made in memory).
    public var layout: Layout
    /// The capture time (UTC, milliseconds); nil when the file says unknown (all nine bytes 0xFF).
    public var captureTime: Date?
    public var technology: Technology
    /// A registered CBEFF organisation identifier of the capture device's maker, 0 when none (a USB vendor id
    /// is not one: the project keeps it in the extended data).
    public var vendorID: UInt16
    /// The maker's device type identifier; 0 with vendor 0.
    public var typeID: UInt16
    /// The included channels and their descriptions.
    public var channels: [Channel: ChannelDescription]
    /// One value per included channel (signed channels as signed values), in `channels`' order; a constant channel
    /// has its value in every sample when the description gives it.
    public var samples: [[Channel: Int]]
    public var extendedData: ExtendedData

    public init(
        captureTime: Date?, technology: Technology = .unknown, vendorID: UInt16 = 0, typeID: UInt16 = 0,
        channels: [Channel: ChannelDescription], samples: [[Channel: Int]], extendedData: ExtendedData = .init(),
        layout: Layout = .published
    ) {
        self.captureTime = captureTime
        self.technology = technology
        self.vendorID = vendorID
        self.typeID = typeID
        self.channels = channels
        self.samples = samples
        self.extendedData = extendedData
        self.layout = layout
    }

    /// The channels in inclusion order.
    public var includedChannels: [Channel] { channels.keys.sorted() }

    /// What this project keeps in the representation's extended data, as type-length-value blocks so a reader
    /// skips what it does not know: where each stroke starts (a pen-up sample marks a lift only when the pad
    /// reported hover between the strokes; touch screens report none), the sampling rate the capture ran at, and the
    /// pad's USB ids. Extended data that is not such a chain of blocks (another writer's) is skipped when read.
    public struct ExtendedData: Sendable, Hashable {
        /// Block 0x0001: the index of each stroke's first sample, u32 each.
        public var strokeStarts: [Int]
        /// Block 0x0002: the sampling rate in millihertz, u32 (the median interval between a stroke's samples).
        public var samplingRateHz: Double?
        /// Block 0x0003: the capturing pad's USB vendor and product id, u16 each.
        public var usb: USBIdentifiers?

        public init(strokeStarts: [Int] = [], samplingRateHz: Double? = nil, usb: USBIdentifiers? = nil) {
            self.strokeStarts = strokeStarts
            self.samplingRateHz = samplingRateHz
            self.usb = usb
        }
    }

    /// A USB device's vendor and product id (what `lsusb` prints).
    public struct USBIdentifiers: Sendable, Hashable {
        public var vendor: UInt16
        public var product: UInt16
        public init(vendor: UInt16, product: UInt16) {
            self.vendor = vendor
            self.product = product
        }
    }
}
