import ConsentPDF

/// Where and when the participant's copy of a consent is printed (`printer`, `printCopy`; docs/CONFIGURATION.md).
///
/// 21 CFR 50.27(a) and 45 CFR 46.117(a) ask that the person signing be given a copy of the consent form; at a
/// kiosk the record stays on the kiosk, so the copy is printed.
public struct PrintSettings: Sendable, Hashable {
    /// In the order the config file's refusal lists them (`SettingChoice`).
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// The end screen offers `printCopy`; the participant asks (`copy.print`).
        case offer
        /// The copy is printed as soon as the record is written, without being asked.
        case always
        /// No copy is printed (the printer is only configured).
        case never
    }

    /// The CUPS destination name.
    public var destination: String
    public var mode: Mode
    /// A copy whose job CUPS has not finished this long after it took it ends as `failed` (the job is cancelled)
    /// and the participant is asked to see staff (`printTimeoutSeconds`).
    public var timeout: Duration
    /// The paper the form to take home is laid out on (`paper`; nil: the locale's), as records' PDFs are.
    public var paper: PDFOptions.Paper?

    /// Two minutes: a kiosk printer prints a consent's few pages in well under one.
    public static let defaultTimeout: Duration = .seconds(120)

    public init(destination: String, mode: Mode, timeout: Duration = defaultTimeout, paper: PDFOptions.Paper? = nil) {
        self.destination = destination
        self.mode = mode
        self.timeout = timeout
        self.paper = paper
    }
}
