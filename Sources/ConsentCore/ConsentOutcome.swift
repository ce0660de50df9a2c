/// What a finished consent flow collected: everything the signing module needs, and nothing else.
public struct ConsentOutcome: Sendable, Hashable {
    public var studyID: String
    public var studyVersion: String
    public var eligibilityAnswers: [Bool?]
    /// true = share widely, false = the study team only, nil = not asked. Semantic, fixing C3's inversion.
    public var shareWidely: Bool?
    public var givenName: String
    public var familyName: String
    public var signature: SignatureStrokes
    public var passcodeHash: PasscodeHash?
    /// The earlier record this one withdraws or replaces; nil for a first consent.
    public var link: RecordLink?

    public init(
        studyID: String, studyVersion: String, eligibilityAnswers: [Bool?], shareWidely: Bool?, givenName: String,
        familyName: String, signature: SignatureStrokes, passcodeHash: PasscodeHash? = nil, link: RecordLink? = nil
    ) {
        self.studyID = studyID
        self.studyVersion = studyVersion
        self.eligibilityAnswers = eligibilityAnswers
        self.shareWidely = shareWidely
        self.givenName = givenName
        self.familyName = familyName
        self.signature = signature
        self.passcodeHash = passcodeHash
        self.link = link
    }

    /// "<given> <family>", as C3's `participantFriendlyName`.
    public var friendlyName: String {
        [givenName, familyName].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
