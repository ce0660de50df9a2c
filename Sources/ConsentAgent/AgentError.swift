/// An error of the agent's own domain (flows it does not know, pads, records), shaped like `ConsentCoreError`:
/// an opaque `Code` that can grow, one sentence without PHI, equality by code.
public struct AgentError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case unknownStudy, unknownFlow, flowBusy, flowDrivenElsewhere, noPad, padBusy, noCapture, signatureTooShort
            case noRecordMaker, recordFailed, unknownRecord, shuttingDown, socketInUse, invalidConfiguration
            case recordInvalid, notAConsent, alreadyWithdrawn, passcodeRequired, wrongPasscode, passcodeLocked
            case passcodeNotSet
            case wrongStaffPin, staffLocked
            case studyUnchanged
            case alreadyAmended, noOptionalElements, studyChanged
            case unknownResumeCode
            case unknownLanguage
            case overloaded
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// No study has the requested id.
        public static let unknownStudy = Code(.unknownStudy)
        /// The study has no consent in the requested language.
        public static let unknownLanguage = Code(.unknownLanguage)
        /// No flow has the requested id (never started, or forgotten after it ended).
        public static let unknownFlow = Code(.unknownFlow)
        /// The flow is being completed; it accepts nothing else until the record is written.
        public static let flowBusy = Code(.flowBusy)
        /// Another open connection drives the flow (it started it, or took it over after its driver closed).
        public static let flowDrivenElsewhere = Code(.flowDrivenElsewhere)
        /// No signature pad is connected (or the named one is not).
        public static let noPad = Code(.noPad)
        /// The pad is capturing for another flow.
        public static let padBusy = Code(.padBusy)
        /// `signature.submit` without strokes, while no pad capture runs for the flow.
        public static let noCapture = Code(.noCapture)
        /// The signature has fewer points than the agent accepts.
        public static let signatureTooShort = Code(.signatureTooShort)
        /// The agent was started without a record maker, so it cannot complete consents.
        public static let noRecordMaker = Code(.noRecordMaker)
        /// Writing the record failed; nothing was kept.
        public static let recordFailed = Code(.recordFailed)
        /// No record has the requested id.
        public static let unknownRecord = Code(.unknownRecord)
        /// The record does not verify against its signed manifest.
        public static let recordInvalid = Code(.recordInvalid)
        /// The record is a withdrawal: it cannot be withdrawn or consented to again.
        public static let notAConsent = Code(.notAConsent)
        /// The record was withdrawn already.
        public static let alreadyWithdrawn = Code(.alreadyWithdrawn)
        /// The record was created with a passcode and none was given.
        public static let passcodeRequired = Code(.passcodeRequired)
        /// A passcode was given for a record created without one (perhaps another record than the participant's).
        public static let passcodeNotSet = Code(.passcodeNotSet)
        /// The passcode does not match the record's.
        public static let wrongPasscode = Code(.wrongPasscode)
        /// Too many wrong passcodes for the record; it is locked for a while.
        public static let passcodeLocked = Code(.passcodeLocked)
        /// `staff.unlock`: the staff id or PIN is not correct.
        public static let wrongStaffPin = Code(.wrongStaffPin)
        /// `staff.unlock`: the staff id is locked after too many wrong PINs.
        public static let staffLocked = Code(.staffLocked)
        /// `flow.start {resume}`: no paused flow has the code, or its day has passed.
        public static let unknownResumeCode = Code(.unknownResumeCode)
        /// A re-consent for a record signed for the study's current version.
        public static let studyUnchanged = Code(.studyUnchanged)
        /// A change of answers (`flow.start {change}`) for a record another change amended already: the later
        /// record holds the answers as they stand.
        public static let alreadyAmended = Code(.alreadyAmended)
        /// A change of answers for a record whose study has no optional elements: there is nothing to change.
        public static let noOptionalElements = Code(.noOptionalElements)
        /// A change of answers for a record signed for another version of the study than the one served: the
        /// elements it answered may no longer be those asked; a re-consent (`previous`) is the way.
        public static let studyChanged = Code(.studyChanged)
        /// The agent holds as many running flows as it may (`maxFlows`); one must end before another starts.
        public static let overloaded = Code(.overloaded)
        /// The agent is shutting down and starts nothing new.
        public static let shuttingDown = Code(.shuttingDown)
        /// Another process listens on the socket path.
        public static let socketInUse = Code(.socketInUse)
        /// The configuration is invalid (unknown key, wrong type, bad path).
        public static let invalidConfiguration = Code(.invalidConfiguration)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
