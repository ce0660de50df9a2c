import Crypto
import FileBytes
import Foundation
import Testing

@testable import ConsentSigning

@Suite struct KioskIdentityTests {
    @Test func keyIsCreatedOnFirstUse0600AndReusedAfter() throws {
        let state = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let first = try KioskIdentity.loadOrCreate(id: "k1", stateDirectory: state)
        let keyFile = URL(fileURLWithPath: StateLayout(root: state.path).kioskKey)
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let second = try KioskIdentity.loadOrCreate(id: "k1", stateDirectory: state)
        #expect(first.publicKey.rawRepresentation == second.publicKey.rawRepresentation)
        let publicText = try String(contentsOf: state.appendingPathComponent(KioskIdentity.publicKeyPathInStateDirectory), encoding: .utf8)
        #expect(KeyPEM.publicKey(fromText: publicText)?.rawRepresentation == first.publicKey.rawRepresentation)
    }

    @Test func pemRoundTripsAndBase64PublicKeysAreAccepted() throws {
        let key = Curve25519.Signing.PrivateKey()
        #expect(KeyPEM.privateKey(fromPEM: KeyPEM.privateKeyPEM(key))?.rawRepresentation == key.rawRepresentation)
        #expect(KeyPEM.publicKey(fromText: key.publicKey.rawRepresentation.base64EncodedString() + "\n")?.rawRepresentation == key.publicKey.rawRepresentation)
        #expect(KeyPEM.publicKey(fromText: "nonsense") == nil)
    }

    @Test func missingKeyFileIsATypedError() {
        #expect(throws: ConsentSigningError(.keyFileNotFound, "")) {
            try KioskIdentity.load(id: "k", keyFile: URL(fileURLWithPath: "/nonexistent/kiosk.key"))
        }
    }

    @Test func garbageOrUnreadableKeyIsATypedError() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.key")
        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: garbage)
        #expect(throws: ConsentSigningError(.invalidKey, "")) { try KioskIdentity.load(id: "k", keyFile: garbage) }
        #expect(throws: ConsentSigningError(.keyFileUnreadable, "")) { try KioskIdentity.load(id: "k", keyFile: directory) }
    }

    @Test func unwritableStateDirectoryIsATypedError() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A file where the keys directory should be.
        try Data().write(to: directory.appendingPathComponent("keys"))
        #expect(throws: ConsentSigningError(.keyFileUnreadable, "")) { try KioskIdentity.loadOrCreate(id: "k", stateDirectory: directory) }
    }
}
