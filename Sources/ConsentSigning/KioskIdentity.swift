import Crypto
import FileBytes
import Foundation

/// Who signs a record's manifest: the kiosk's id and its Ed25519 key.
///
/// The key is made on first use and kept in a `0600` PEM file (PKCS#8, so `openssl pkey` reads it); the public
/// half is copied into every manifest, and an auditor pins it with `consentctl verify --key`.
public struct KioskIdentity: Sendable {
    /// Its public half, SPKI PEM, written beside it on creation for auditors (`consentctl verify --key`).
    public static let publicKeyPathInStateDirectory = "keys/kiosk-ed25519.pub"

    public let id: String
    public let signingKey: Curve25519.Signing.PrivateKey

    public init(id: String, signingKey: Curve25519.Signing.PrivateKey) {
        self.id = id
        self.signingKey = signingKey
    }

    public var publicKey: Curve25519.Signing.PublicKey { signingKey.publicKey }

    /// Loads the key of a state directory, creating it (and `keys/`, `0700`) on first use.
    ///
    /// - Throws: `.keyFileUnreadable` when the key cannot be read or created, `.invalidKey` when the file is not
    ///   an Ed25519 private key.
    ///
    /// The key lives where `StateLayout.kioskKey` says: `<state>/keys/kiosk-ed25519.key`.
    public static func loadOrCreate(id: String, stateDirectory: URL) throws -> KioskIdentity {
        let keyFile = URL(fileURLWithPath: StateLayout(root: stateDirectory.path).kioskKey)
        if FileManager.default.fileExists(atPath: keyFile.path) {
            return try load(id: id, keyFile: keyFile)
        }
        let key = Curve25519.Signing.PrivateKey()
        let directory = keyFile.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ConsentSigningError(
                .keyFileUnreadable, "cannot create the key directory; check the state directory's permissions",
                file: directory.path, cause: error)
        }
        // Written like a record file (exclusive create, 0600, fsync), so a crash never leaves half a key and two
        // kiosks processes racing on first use cannot overwrite each other's key.
        do {
            try DurableFile.create(at: keyFile, contents: Data(KeyPEM.privateKeyPEM(key).utf8))
            let publicFile = stateDirectory.appendingPathComponent(publicKeyPathInStateDirectory)
            try? FileManager.default.removeItem(at: publicFile)
            try DurableFile.create(at: publicFile, contents: Data(KeyPEM.publicKeyPEM(key.publicKey).utf8))
            try DurableFile.syncDirectory(directory)
        } catch let error as ConsentSigningError where error.code == .recordExists {
            return try load(id: id, keyFile: keyFile)
        } catch let error as ConsentSigningError {
            throw ConsentSigningError(
                .keyFileUnreadable, "cannot create the kiosk key; check the state directory's permissions",
                file: keyFile.path, cause: error)
        }
        return KioskIdentity(id: id, signingKey: key)
    }

    /// Loads an existing key file.
    ///
    /// - Throws: `.keyFileNotFound`, `.keyFileUnreadable`, `.invalidKey`.
    public static func load(id: String, keyFile: URL) throws -> KioskIdentity {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: keyFile.path, isDirectory: &isDirectory) else {
            throw ConsentSigningError(
                .keyFileNotFound, "the kiosk key file does not exist; give an existing key or use --state-dir",
                file: keyFile.path)
        }
        guard !isDirectory.boolValue, let bytes = try? FileBytes.read(keyFile.path, limit: 64 * 1024) else {
            throw ConsentSigningError(
                .keyFileUnreadable, "the kiosk key file cannot be read; check its permissions", file: keyFile.path)
        }
        guard let text = String(validating: bytes, as: UTF8.self), let key = KeyPEM.privateKey(fromPEM: text) else {
            throw ConsentSigningError(
                .invalidKey, "the file is not an Ed25519 private key in PEM (PKCS#8); restore the kiosk's key",
                file: keyFile.path)
        }
        return KioskIdentity(id: id, signingKey: key)
    }
}
