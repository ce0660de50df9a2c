import Logging
import SignaturePad
import SignaturePadLinux

extension LinuxPadProvider {
    /// How consentd uses the pads: which one to prefer, what counts as a signature.
    public struct Configuration: Sendable {
        /// The pad to use when `signature.begin` names none: a node (`/dev/input/event7`) or (part of) a name.
        /// nil: a pad tagged by our udev rule, then a tablet, then a touch screen.
        public var preferredPad: String?
        /// List devices udev has not finished processing. Only for umockdev, which never marks devices
        /// initialised; on a real kiosk such a device may still have the wrong permissions.
        public var includesUninitializedDevices: Bool
        /// Fewer points than this is `SignatureTooShort` (the agent's `minimumSignaturePoints`).
        public var minimumPoints: Int
        /// Less ink than this, in widths of the signing area, is `SignatureTooShort` (a dot, a tick).
        public var minimumInkLength: Double
        /// How long to wait before trying again when udev could not start (a kiosk that booted before udev).
        public var retryInterval: Duration

        public init(
            preferredPad: String? = nil, includesUninitializedDevices: Bool = false,
            minimumPoints: Int = SignatureRequirements().minimumPoints,
            minimumInkLength: Double = SignatureRequirements().minimumInkLength, retryInterval: Duration = .seconds(5)
        ) {
            self.preferredPad = preferredPad
            self.includesUninitializedDevices = includesUninitializedDevices
            self.minimumPoints = minimumPoints
            self.minimumInkLength = minimumInkLength
            self.retryInterval = retryInterval
        }

        var requirements: SignatureRequirements {
            SignatureRequirements(minimumInkLength: minimumInkLength, minimumPoints: minimumPoints)
        }

        var session: PadCaptureSession.Configuration {
            PadCaptureSession.Configuration(
                preferredPad: preferredPad.map(PadSelector.init(argument:)), requirements: requirements,
                discovery: .init(requireInitialized: !includesUninitializedDevices))
        }
    }
}

extension LinuxPadProvider {
    /// The pad provider of `consentd --pad-event-fifo PATH` (hidden; `make bench`): one pad read from a FIFO by
    /// the same session engine, loop and ink path as a real pad's (`PadCaptureSession(eventFIFO:)`).
    ///
    /// - Throws: `SignaturePadError` `.noPad` when the FIFO cannot be opened.
    public convenience init(eventFIFO path: String, configuration: Configuration, logger: Logger) throws {
        let session = try PadCaptureSession(eventFIFO: path, configuration: configuration.session)
        self.init(configuration: configuration, logger: logger) { session }
    }
}
