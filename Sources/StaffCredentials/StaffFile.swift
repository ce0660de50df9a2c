import Crypto
import CryptoExtras
import EnteredText
import FileBytes
import Foundation
import JSON
import UTCTime

/// An error of the staff credentials: the message states the fault and the remedy, never a PIN.
public struct StaffCredentialError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        case invalidID, invalidName, invalidPIN, duplicateID, unknownID, unreadable, malformed, writeFailed
        /// The id and PIN do not match a credential (the id may be unknown: the two are not told apart).
        case wrongPIN
        /// Too many wrong PINs for the id; `StaffLockout` says until when.
        case locked
    }
    public let code: Code
    public let message: String
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
    public var description: String { message }
}

/// One staff member's credential: the PIN only as a salted PBKDF2-SHA256 hash (swift-crypto's `_CryptoExtras`).
public struct StaffCredential: Sendable, Hashable, Codable {
    public static let algorithm = "PBKDF2-SHA256"
    /// OWASP's 2023 figure for PBKDF2-HMAC-SHA256; about a quarter second per check on a kiosk's CPU, which with
    /// the lock-out after five wrong PINs makes guessing at the kiosk hopeless and guessing a stolen file slow.
    public static let defaultIterations = 600_000

    public var id: String
    public var name: String
    public var algorithm: String
    public var iterations: Int
    /// Base64 of 16 random bytes, and of the 32-byte derived key.
    public var salt: String
    public var hash: String
    /// When the credential was added (RFC 3339, UTC).
    public var added: String

    /// Hashes `pin` with a fresh salt; the id is kept in lowercase (`normalizedID`). - Throws: `.invalidID`,
    /// `.invalidName`, `.invalidPIN`.
    public init(id: String, name: String, pin: String, added: Date = Date(), iterations: Int = defaultIterations) throws {
        try Self.checkID(id)
        let id = Self.normalizedID(id)
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        // Printed in the PDF and the Provenance of every record this person countersigns: visible text on one line,
        // so a title or a credential after a comma ("Jane Roe, RN") is kept, a control or bidi character is not.
        guard !name.isEmpty, (try? EnteredText.checkVisible(name, maximumCharacters: 200)) != nil else {
            throw StaffCredentialError(.invalidName, "the staff member's name is 1 to 200 characters on one line, without control characters")
        }
        try Self.checkPIN(pin)
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        self.id = id
        self.name = name
        self.algorithm = Self.algorithm
        self.iterations = iterations
        self.salt = salt.base64EncodedString()
        self.hash = try Self.derive(pin, salt: salt, iterations: iterations).base64EncodedString()
        self.added = UTCTime(nearestMillisecondTo: added).rfc3339Seconds
    }

    /// Whether `pin` is this credential's, compared in constant time; false for a credential this build cannot read.
    public func matches(_ pin: String) -> Bool {
        guard algorithm == Self.algorithm, (210_000...10_000_000).contains(iterations), let salt = Data(base64Encoded: salt),
            let expected = Data(base64Encoded: hash),
            let candidate = try? Self.derive(pin, salt: salt, iterations: iterations), candidate.count == expected.count
        else { return false }
        return zip(candidate, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A staff id: 1 to 64 letters, digits and `. _ -` (it is printed in records and the audit log).
    public static func checkID(_ id: String) throws {
        guard (1...64).contains(id.utf8.count),
            id.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) })
        else {
            throw StaffCredentialError(.invalidID, "a staff id is 1 to 64 letters, digits, \".\", \"_\" or \"-\"")
        }
    }

    /// Staff ids are lowercase, and typed in any case: a kiosk's on-screen keyboard starts a word with a capital.
    public static func normalizedID(_ id: String) -> String { id.lowercased() }

    /// A staff PIN: 6 to 12 ASCII digits (a participant's passcode is 4 to 8; staff PINs guard every record).
    public static func checkPIN(_ pin: String) throws {
        guard (6...12).contains(pin.count), pin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw StaffCredentialError(.invalidPIN, "a staff PIN is 6 to 12 digits")
        }
    }

    static func derive(_ pin: String, salt: Data, iterations: Int) throws -> Data {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Data(pin.utf8), salt: salt, using: .sha256, outputByteCount: 32, rounds: iterations)
        return key.withUnsafeBytes { Data($0) }
    }

    /// A credential no PIN matches, to spend the same time on an unknown id as on a known one.
    static let decoy: StaffCredential? = try? StaffCredential(id: "decoy", name: "decoy", pin: "000000")
}

/// The staff credential file (config `staffFile`): `{"format": 1, "staff": [StaffCredential…]}`, written `0600`
/// atomically (DurableWrite), read whole on every unlock so `consentctl staff add` needs no agent restart.
public struct StaffFile: Sendable, Hashable, Codable {
    public static let currentFormat = 1
    /// More than any site's staff; bounds what an unlock reads.
    public static let maximumBytes = 4 << 20

    public var format: Int
    public var staff: [StaffCredential]

    public init(staff: [StaffCredential] = []) {
        self.format = Self.currentFormat
        self.staff = staff
    }

    /// Reads the file; a missing file is an empty list (no staff yet).
    public static func load(_ path: String) throws -> StaffFile {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: maximumBytes)
        } catch {
            if error.errno == ENOENT { return StaffFile() }
            throw StaffCredentialError(.unreadable, "\(path): cannot read the staff file (\(error))")
        }
        guard let file = try? JSONValueDecoder().decode(StaffFile.self, from: bytes), file.format == currentFormat else {
            throw StaffCredentialError(.malformed, "\(path): not a staff file of format \(currentFormat)")
        }
        return file
    }

    /// Writes the file atomically and durably, `0600`.
    public func save(_ path: String) throws {
        do {
            // JSONEncoder's bytes with .prettyPrinted, .sortedKeys and .withoutEscapingSlashes, which wrote it before.
            let data = Data(try JSONValueEncoder().encodedBytes(self, pretty: true) + [UInt8(ascii: "\n")])
            try DurableWrite.replace(path, contents: data, mode: 0o600)
        } catch {
            throw StaffCredentialError(.writeFailed, "\(path): cannot write the staff file (\(error))")
        }
    }

    public mutating func add(_ credential: StaffCredential) throws {
        guard !staff.contains(where: { $0.id == credential.id }) else {
            throw StaffCredentialError(.duplicateID, "staff id \(credential.id) exists; remove it first to set a new PIN")
        }
        staff.append(credential)
    }

    public mutating func remove(_ id: String) throws {
        let id = StaffCredential.normalizedID(id)
        guard let index = staff.firstIndex(where: { $0.id == id }) else {
            throw StaffCredentialError(.unknownID, "no staff member has the id \(id)")
        }
        staff.remove(at: index)
    }

    /// The credential `id` names when `pin` is its PIN; an unknown id costs the same time as a wrong PIN.
    public func check(id: String, pin: String) -> StaffCredential? {
        let id = StaffCredential.normalizedID(id)
        guard let credential = staff.first(where: { $0.id == id }) else {
            _ = StaffCredential.decoy?.matches(pin)
            return nil
        }
        return credential.matches(pin) ? credential : nil
    }
}
