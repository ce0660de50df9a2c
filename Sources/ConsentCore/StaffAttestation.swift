/// How the person obtaining consent verified that the person signing is the participant or their representative.
/// The raw values are the protocol's `method` names of `staff.attestIdentity` and the codes the record carries.
public enum IdentityVerification: String, Sendable, Hashable, Codable, CaseIterable {
    /// A government or clinic photo ID was checked.
    case photoId
    /// The staff member knows the signer personally (a long-standing patient, say).
    case knownToStaff
    /// A representative's authority and identity documents were checked.
    case representativeDocuments
    /// Something else, described in the attestation's note.
    case other
}

/// A staff member as the credential file names them, once their PIN was checked (`staff.unlock`).
public struct StaffMember: Sendable, Hashable {
    /// The staff id (`consentctl staff add ID`): letters, digits and `. _ -`, at most 64.
    public var id: String
    /// The printed name, as one string (`--name`).
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// The pages of the `staff` step, in order: unlock, say how identity was verified, sign.
public enum StaffPage: String, Sendable, Hashable, Codable {
    case unlock
    case attest
    case signature
}

/// What the person obtaining consent gave in a flow: who they are (checked by the agent), how they verified the
/// signer's identity, and their signature.
public struct StaffAttestation: Sendable, Hashable {
    public var staff: StaffMember
    public var method: IdentityVerification
    /// A short description; required for `.other`, optional otherwise.
    public var note: String?
    public var signature: SignatureStrokes

    public init(staff: StaffMember, method: IdentityVerification, note: String?, signature: SignatureStrokes) {
        self.staff = staff
        self.method = method
        self.note = note
        self.signature = signature
    }

    /// The longest note kept: a few words ("birth certificate and court order"), not a report.
    public static let maximumNoteLength = 200
}

/// The `staff` step's progress inside a `ConsentSession`; wiped when the step is left backwards or the flow ends.
public struct StaffProgress: Sendable, Hashable {
    public var member: StaffMember?
    public var method: IdentityVerification?
    public var note: String?
    public var signature: SignatureStrokes?

    public init() {}

    public var page: StaffPage {
        if member == nil { return .unlock }
        if method == nil { return .attest }
        return .signature
    }
}
