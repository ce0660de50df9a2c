/// Who signs at a page of the review step. The raw values are the protocol's `role` names.
///
/// The participant signs for themself unless the study allows a legally authorized representative and the
/// representative is chosen; a witness signs after either when the study requires one.
public enum SigningRole: String, Sendable, Hashable, Codable, CaseIterable {
    case participant
    case representative
    case witness
    /// The staff member who obtained consent and countersigns on the `staff` step.
    case personObtainingConsent
}

/// A relationship a representative may have to the participant, offered as a choice and recorded as a FHIR
/// `RelatedPerson.relationship` coding.
public struct RepresentativeRelationship: Sendable, Hashable, Codable {
    /// HL7 v3 RoleCode, the system FHIR's RelatedPerson relationship value set draws from.
    public static let roleCodeSystem = "http://terminology.hl7.org/CodeSystem/v3-RoleCode"

    public var code: String
    /// The text the UI shows and the PDF prints.
    public var display: String
    public var system: String

    public init(code: String, display: String, system: String = roleCodeSystem) {
        self.code = code
        self.display = display
        self.system = system
    }

    /// Offered when a study allows a representative without listing relationships.
    public static let defaults: [RepresentativeRelationship] = [
        .init(code: "PRN", display: BuiltInTexts.english.relationshipParent),
        .init(code: "GUARD", display: BuiltInTexts.english.relationshipGuardian),
        .init(code: "SPS", display: BuiltInTexts.english.relationshipSpouse),
        .init(code: "DOMPART", display: BuiltInTexts.english.relationshipDomesticPartner),
        .init(code: "CHILD", display: BuiltInTexts.english.relationshipChild),
        .init(code: "HPOWATT", display: BuiltInTexts.english.relationshipHealthcarePowerOfAttorney),
        .init(code: "POWATT", display: BuiltInTexts.english.relationshipPowerOfAttorney),
    ]
}

/// A legally authorized representative who consented on the participant's behalf; their signature is the
/// outcome's `signature`.
public struct ConsentRepresentative: Sendable, Hashable {
    public var givenName: String
    public var familyName: String
    public var relationship: RepresentativeRelationship

    public init(givenName: String, familyName: String, relationship: RepresentativeRelationship) {
        self.givenName = givenName
        self.familyName = familyName
        self.relationship = relationship
    }

    public var friendlyName: String { [givenName, familyName].filter { !$0.isEmpty }.joined(separator: " ") }
}

/// The witness of the signing, with their own signature.
public struct ConsentWitness: Sendable, Hashable {
    public var givenName: String
    public var familyName: String
    public var signature: SignatureStrokes

    public init(givenName: String, familyName: String, signature: SignatureStrokes) {
        self.givenName = givenName
        self.familyName = familyName
        self.signature = signature
    }

    public var friendlyName: String { [givenName, familyName].filter { !$0.isEmpty }.joined(separator: " ") }
}

/// What one signer gave during a flow: their name (a representative's with the relationship), and their signature
/// once they signed.
public struct SignerEntry: Sendable, Hashable {
    public var givenName: String
    public var familyName: String
    public var relationship: RepresentativeRelationship?
    public var signature: SignatureStrokes?

    public init(
        givenName: String, familyName: String, relationship: RepresentativeRelationship? = nil,
        signature: SignatureStrokes? = nil
    ) {
        self.givenName = givenName
        self.familyName = familyName
        self.relationship = relationship
        self.signature = signature
    }
}
