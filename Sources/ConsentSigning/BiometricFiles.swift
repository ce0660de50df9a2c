import ConsentCore
import Crypto
import Foundation
import SignatureInterchange

/// Each signature of a record as ISO/IEC 19794-7:2014 data (`signature-<role>.iso19794-7`), and the manifest's
/// per-signature binding of it to the document it was given on.
///
/// The role in the file name is `participant` for the consent signature, `representative` when a legally
/// authorized representative gave it (or signed besides), `witness`, and the signer role's own name for the others.
enum BiometricFiles {
    static let prefix = "signature-"

    static func fileName(role: String) -> String { "\(prefix)\(role).\(ISO19794_7Record.fileExtension)" }

    /// The role name of a signer in file names and bindings.
    static func roleName(_ role: SignerRole) -> String {
        switch role {
        case .legallyAuthorizedRepresentative: return "representative"
        case .witness: return "witness"
        case .interpreter: return "interpreter"
        case .personObtainingConsent: return "personObtainingConsent"
        }
    }

    struct Signed {
        var role: String
        var strokes: SignatureStrokes
        var signedAt: Date
    }

    /// The 19794-7 file of each signature, named by role (a second signer of a role gets `-2`, `-3`, ...).
    static func make(_ signatures: [Signed]) throws -> [(signed: Signed, file: SignedRecord.File)] {
        var used: [String: Int] = [:]
        return try signatures.map { signed in
            var signed = signed
            let count = (used[signed.role] ?? 0) + 1
            used[signed.role] = count
            if count > 1 { signed.role += "-\(count)" }
            let bytes: Data
            do {
                bytes = try ISO19794_7Record(strokes: signed.strokes, signedAt: signed.signedAt).encoded()
            } catch let error as ISO19794_7Error {
                throw ConsentSigningError(.invalidSigner, "the \(signed.role) signature cannot be written as ISO/IEC 19794-7: \(error.message)")
            }
            return (signed, SignedRecord.File(name: fileName(role: signed.role), contents: bytes))
        }
    }
}

/// One signature's entry in the manifest's `signatures`: who signed, on which document, when, with which strokes.
///
/// `documentVersion` is the study version hash the participant read (`studyVersion`), `pdfSHA256` the consent
/// PDF's hash (nil when the record has no PDF), `biometricSHA256` the hash of the plaintext
/// `signature-<role>.iso19794-7` (also when it is stored only sealed to the escrow key). `consentctl verify`
/// reports each as intact, document changed or signature data changed (`RecordVerifier.SignatureStatus`).
public struct SignatureBinding: Sendable, Hashable, Codable {
    public var role: String
    public var documentVersion: String
    public var pdfSHA256: String?
    public var signedAt: String
    public var biometricFile: String
    public var biometricSHA256: String
}
