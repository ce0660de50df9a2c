import ConsentCore
import Foundation

/// A signature beside the participant's: a witness, an interpreter, a legally authorized representative or the
/// person obtaining consent, collected by the session when the study asks for one.
public struct AdditionalSignature: Sendable, Hashable {
    public var role: SignerRole
    public var givenName: String
    public var familyName: String
    public var strokes: SignatureStrokes
    /// When this person signed; nil means at the participant's signing instant.
    public var signedAt: Date?
    /// The signature rendered as PNG, when a renderer is available.
    public var png: Data?
    /// The person obtaining consent's staff id (their credential), named as the Practitioner's identifier.
    public var staffID: String?

    public init(
        role: SignerRole, givenName: String, familyName: String, strokes: SignatureStrokes, signedAt: Date? = nil,
        png: Data? = nil, staffID: String? = nil
    ) {
        self.staffID = staffID
        self.role = role
        self.givenName = givenName
        self.familyName = familyName
        self.strokes = strokes
        self.signedAt = signedAt
        self.png = png
    }

    var displayName: String { [givenName, familyName].filter { !$0.isEmpty }.joined(separator: " ") }
}
