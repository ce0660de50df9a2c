/// Why a flow exists besides a first consent: to withdraw a signed record, or to consent again to a changed study.
public enum FlowPurpose: Sendable, Hashable {
    case consent
    case withdrawal(WithdrawalTarget)
    case reconsent(ReconsentBasis)
    /// A change of the optional elements' answers of a record, without withdrawing it (`ChangeBasis`).
    case change(ChangeBasis)
}

/// The signed record a withdrawal flow withdraws, and the little of it the participant is shown.
public struct WithdrawalTarget: Sendable, Hashable {
    public var recordID: String
    /// The study's title as the participant knows it.
    public var studyTitle: String
    /// The day the consent was signed (`YYYY-MM-DD`, UTC): enough to recognise it, no other PHI.
    public var signedOn: String
    /// The same day as the flow's language writes it in a sentence ("27. November 2026";
    /// `ParticipantDateStyle`): what the withdrawal text and the withdrawal document say.
    public var signedOnText: String

    /// - Parameter signedOnText: the day in words; nil repeats `signedOn` (a record whose signing instant is unknown).
    public init(recordID: String, studyTitle: String, signedOn: String, signedOnText: String? = nil) {
        self.recordID = recordID
        self.studyTitle = studyTitle
        self.signedOn = signedOn
        self.signedOnText = signedOnText ?? signedOn
    }
}

/// The earlier record a re-consent replaces, and what changed since it was signed.
public struct ReconsentBasis: Sendable, Hashable {
    public var previousRecordID: String
    /// The section changes; nil when the previous record predates section fingerprints (the change is known,
    /// its detail is not).
    public var changes: ConsentDocumentDiff?
    /// The day the previous record was signed, as the flow's language writes it in a sentence
    /// (`ParticipantDateStyle`); nil when it is not known, and the text then names no day.
    public var previousSignedOnText: String?

    public init(previousRecordID: String, changes: ConsentDocumentDiff?, previousSignedOnText: String? = nil) {
        self.previousRecordID = previousRecordID
        self.changes = changes
        self.previousSignedOnText = previousSignedOnText
    }
}

/// The signed record a change amends: the answers it gave to the study's optional elements, which the flow shows
/// as they are, and the little of it the participant needs to recognise it (as for a withdrawal).
public struct ChangeBasis: Sendable, Hashable {
    public var recordID: String
    /// The study's title as the participant knows it.
    public var studyTitle: String
    /// The day the record was signed (`YYYY-MM-DD`, UTC), and the same day in words (`WithdrawalTarget`).
    public var signedOn: String
    public var signedOnText: String
    /// The record's answers, by element id (true: Yes): what the flow starts from.
    public var answers: [String: Bool]
    /// The record's PIN hash, carried into the new record: the participant's records stay protected by the PIN
    /// they set, and a later withdrawal or change of the new record asks for it.
    public var passcode: PasscodeHash?

    /// - Parameter signedOnText: the day in words; nil repeats `signedOn`.
    public init(
        recordID: String, studyTitle: String, signedOn: String, signedOnText: String? = nil, answers: [String: Bool],
        passcode: PasscodeHash? = nil
    ) {
        self.recordID = recordID
        self.studyTitle = studyTitle
        self.signedOn = signedOn
        self.signedOnText = signedOnText ?? signedOn
        self.answers = answers
        self.passcode = passcode
    }
}

/// How a new record refers to an earlier one: the signing module turns it into the Contract/Consent status, a
/// Provenance entity and a manifest field.
public struct RecordLink: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The new record withdraws the earlier one (Contract revoked, Consent inactive).
        case withdrawal
        /// The new record is a consent to a newer version of the study, replacing the earlier one.
        case reconsent
        /// The new record changes the earlier one's answers to optional elements, for the same study version; the
        /// participant stays in the study (the earlier Consent becomes inactive, the new one is active).
        case change
    }

    public var kind: Kind
    public var recordID: String
    /// The participant's reason for withdrawing, if they gave one (PHI-grade free text: records only, never logs).
    public var reason: String?
    /// How the earlier record is named in the new document: its study's title and the day it was signed, as the
    /// document's language writes a day in a sentence (`WithdrawalTarget.signedOnText`).
    public var studyTitle: String?
    public var signedOn: String?
    /// The record the participant entered the study with: the first of the chain of re-consents that led to
    /// `recordID` (`recordID` itself when it replaced nothing). It names the FHIR `ResearchSubject`, so a
    /// withdrawal after re-consents names the same subject as the first consent. Nil: not looked up (`recordID`).
    public var enrollmentRecordID: String? = nil

    public init(kind: Kind, recordID: String, reason: String? = nil, studyTitle: String? = nil, signedOn: String? = nil) {
        self.kind = kind
        self.recordID = recordID
        self.reason = reason
        self.studyTitle = studyTitle
        self.signedOn = signedOn
    }
}
