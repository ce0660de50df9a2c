/// What a finished consent flow collected: everything the signing module needs, and nothing else.
public struct ConsentOutcome: Sendable, Hashable {
    public var studyID: String
    public var studyVersion: String
    public var eligibilityAnswers: [Bool?]
    /// true = share widely, false = the study team only, nil = not asked. Semantic, fixing C3's inversion.
    public var shareWidely: Bool?
    /// The participant's printed name, also when a representative signed for them.
    public var givenName: String
    public var familyName: String
    /// The consent signature: the participant's, or the representative's when `representative` is set.
    public var signature: SignatureStrokes
    public var passcodeHash: PasscodeHash?
    /// Set when a legally authorized representative consented on the participant's behalf.
    public var representative: ConsentRepresentative?
    /// Set when the study requires a witness.
    public var witness: ConsentWitness?
    /// The earlier record this one withdraws or replaces; nil for a first consent.
    public var link: RecordLink?
    /// The comprehension check's answers and attempts; nil when the study has no questions (or for a withdrawal).
    public var comprehension: ComprehensionOutcome?
    /// The person obtaining consent's identity attestation and countersignature (`staffCountersignature`).
    public var personObtainingConsent: StaffAttestation?
    /// Every optional element with its answer, in the study's order; empty when the study has none (or for a
    /// withdrawal).
    public var optionalAnswers: [OptionalElementAnswer]

    public init(
        studyID: String, studyVersion: String, eligibilityAnswers: [Bool?], shareWidely: Bool?, givenName: String,
        familyName: String, signature: SignatureStrokes, passcodeHash: PasscodeHash? = nil,
        representative: ConsentRepresentative? = nil, witness: ConsentWitness? = nil, link: RecordLink? = nil,
        comprehension: ComprehensionOutcome? = nil,
        personObtainingConsent: StaffAttestation? = nil, optionalAnswers: [OptionalElementAnswer] = []
    ) {
        self.optionalAnswers = optionalAnswers
        self.comprehension = comprehension
        self.personObtainingConsent = personObtainingConsent
        self.studyID = studyID
        self.studyVersion = studyVersion
        self.eligibilityAnswers = eligibilityAnswers
        self.shareWidely = shareWidely
        self.givenName = givenName
        self.familyName = familyName
        self.signature = signature
        self.passcodeHash = passcodeHash
        self.representative = representative
        self.witness = witness
        self.link = link
    }

    /// "<given> <family>", as C3's `participantFriendlyName`.
    public var friendlyName: String {
        [givenName, familyName].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
