import Crypto
import CryptoExtras
import Foundation

/// A participant's PIN, kept only as a salted, stretched hash (PBKDF2-SHA256), never as the digits.
public struct PasscodeHash: Sendable, Hashable, Codable {
    public static let iterations = 210_000
    public var salt: Data
    public var hash: Data
    public var iterations: Int

    /// Hashes a passcode of 4 to 8 digits with a fresh random salt.
    ///
    /// - Throws: `ConsentCoreError.Code.invalidPasscode` for anything but 4 to 8 ASCII digits.
    public init(passcode: String) throws {
        try Self.checkFormat(passcode)
        salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        iterations = Self.iterations
        hash = try Self.derive(passcode, salt: salt, iterations: iterations)
    }

    /// Whether `passcode` is the one hashed, compared in constant time.
    public func matches(_ passcode: String) -> Bool {
        guard let candidate = try? Self.derive(passcode, salt: salt, iterations: iterations),
            candidate.count == hash.count
        else { return false }
        return zip(candidate, hash).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func checkFormat(_ passcode: String) throws {
        guard (4...8).contains(passcode.count), passcode.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ConsentCoreError(.invalidPasscode, "a passcode is 4 to 8 digits")
        }
    }

    private static func derive(_ passcode: String, salt: Data, iterations: Int) throws -> Data {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Data(passcode.utf8), salt: salt, using: .sha256, outputByteCount: 32, rounds: iterations)
        return key.withUnsafeBytes { Data($0) }
    }
}
