import ConsentCore
import Crypto
import Foundation
import SampleStudy

@testable import ConsentSigning

/// Shared fixtures: the sample study, a finished outcome, a fixed key, fixed uuids and a fixed instant.
enum Fixture {
    /// 2026-09-14T10:15:30Z.
    static let signedAt = Date(timeIntervalSince1970: 1_789_380_930)
    /// The sample study's eligible answers.
    static let eligibleAnswers: [Bool?] = [true, true, false, true]

    static func study() throws -> Study {
        guard let folder = SampleStudy.folder else { throw FixtureError("the sample study resource is missing") }
        return try Study.load(from: folder)
    }

    static let strokes = SignatureStrokes(
        strokes: [
            [StrokePoint(x: 0.1, y: 0.2, t: 0, p: 0.5), StrokePoint(x: 0.3, y: 0.4, t: 16, p: nil)],
            [StrokePoint(x: 0.5, y: 0.5, t: 120.5, p: 1)],
        ], widthMM: 120, heightMM: 40, device: ["name": "Test Pad", "kind": "pen"])

    static func outcome(_ study: Study, shareWidely: Bool? = true) -> ConsentOutcome {
        ConsentOutcome(
            studyID: study.id, studyVersion: study.version, eligibilityAnswers: eligibleAnswers,
            shareWidely: shareWidely, givenName: "Ada", familyName: "Lovelace", signature: strokes)
    }

    /// A fixed Ed25519 key, so manifests are reproducible.
    static let kiosk: KioskIdentity = {
        let key = (try? Curve25519.Signing.PrivateKey(rawRepresentation: Data(repeating: 7, count: 32)))
            ?? Curve25519.Signing.PrivateKey()
        return KioskIdentity(id: "kiosk-test-1", signingKey: key)
    }()

    /// Counts up from 1: 00000000-0000-4000-8000-000000000001, …
    static func uuidCounter() -> @Sendable () -> UUID {
        let counter = Counter()
        return {
            let n = counter.next()
            return UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n)) ?? UUID()
        }
    }

    static func signer() -> ConsentSigner { ConsentSigner(kiosk: kiosk, makeUUID: uuidCounter()) }

    /// A 1×1 transparent PNG.
    static let png = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
        ?? Data()

    /// A PDF-like blob: enough for hashing and the magic check.
    static let pdf = Data("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n".utf8)

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("signing-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    /// The directory holding this test file (the package's Tests/ConsentSigningTests).
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

final class Counter: @unchecked Sendable {
    // @unchecked: the lock guards `value`.
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

extension Fixture {
    /// A file of Fixtures/ as JSON.
    static func fixture(_ name: String) throws -> JSONValue {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil) else {
            throw FixtureError("fixture \(name) is missing")
        }
        return try JSONValue.parse(Data(contentsOf: url))
    }
}
