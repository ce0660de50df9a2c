import AuditTrail
import ConsentCore
import ConsentSigning
import Crypto
import CryptoExtras
import Foundation
import FuzzSupport
import SampleStudy
import Synchronization

/// One input as a tampered record or a tampered audit log, through the verifiers `consentctl verify` and
/// `consentctl audit verify` run: whatever the bytes, each must report, never crash, and never call a changed
/// record intact.
///
/// Byte 0 picks the mode and what else is changed; the rest is the data:
/// - bits 0-1 = 0, 1, 2: one of three records signed at start-up over the sample study (plaintext; encrypted
///   for a recipient key; with its biometric data sealed to an escrow key), the rest of the input as its
///   `manifest.json` (empty: the signed one). Bit 2 pins the kiosk's key, bit 3 gives the recipient's private key,
///   bit 4 removes `manifest.sig`, bit 5 adds a file, bit 6 removes `consent.pdf`, bit 7 changes a byte of the
///   first file by name (`bundle.json`, or its envelope). Invariant: the report says intact exactly when no file
///   differs from the signed record's.
/// - bits 0-1 = 3: an audit log, the rest its files split at each 0xFF byte (`audit.log.1` … then `audit.log`;
///   a file of the single byte 0xFE is missing). Bit 2 asks for an anchor (the SHA-256 of the first file).
///
/// The records are deterministic (a fixed key, numbered UUIDs, a fixed time) except the encrypted ones, whose
/// envelopes differ per process: `--write-seeds` writes each manifest as this process signed it.
final class VerifierFuzzer: Sendable {
    /// Each base record's files by name.
    let records: [[String: Data]]
    let kioskKey: Curve25519.Signing.PublicKey
    // The recipient's RSA key: immutable after start-up, read by every input.
    nonisolated(unsafe) let recipient: RecordRecipientKey

    init() throws {
        guard let folder = SampleStudy.folder else { throw CocoaError(.fileNoSuchFile) }
        let study = try Study.load(from: folder)
        let signingKey = try Curve25519.Signing.PrivateKey(rawRepresentation: Data(repeating: 7, count: 32))
        kioskKey = signingKey.publicKey
        let numbers = Mutex<UInt16>(0)
        let signer = ConsentSigner(kiosk: KioskIdentity(id: "kiosk-fuzz", signingKey: signingKey)) {
            let n = numbers.withLock { value in
                value &+= 1
                return value
            }
            return UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, UInt8(n >> 8), UInt8(n & 0xFF)))
        }
        let strokes = SignatureStrokes(
            strokes: [
                (0..<12).map { StrokePoint(x: Double($0) / 12, y: 0.5, t: Double($0) * 10, p: 0.5) },
                [StrokePoint(x: 0.6, y: 0.4, t: 300, p: 0.4), StrokePoint(x: 0.9, y: 0.5, t: 360, p: 0.4)],
            ], widthMM: 120, heightMM: 40)
        let outcome = ConsentOutcome(
            studyID: study.id, studyVersion: study.version,
            eligibilityAnswers: study.document.eligibility.map { $0.mustBeMet }, shareWidely: true,
            givenName: "Ada", familyName: "Lovelace", signature: strokes)
        let rsa = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        recipient = RecordRecipientKey(rsa)
        let sealing = try RecordEncryption(recipientPublicKeyDER: rsa.publicKey.derRepresentation, keyID: "fuzz")
        func sign(encryption: RecordEncryption? = nil, escrow: RecordEncryption? = nil) throws -> [String: Data] {
            let record = try signer.sign(
                outcome: outcome, study: study, signedAt: Date(timeIntervalSince1970: 1_790_000_000),
                pdf: Data("%PDF-1.7 fuzz".utf8), signaturePNG: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
                auditHead: String(repeating: "ab", count: 32), encryption: encryption, biometricEscrow: escrow)
            return Dictionary(record.files.map { ($0.name, $0.contents) }, uniquingKeysWith: { first, _ in first })
        }
        records = [try sign(), try sign(encryption: sealing), try sign(escrow: sealing)]
    }

    func run(_ input: [UInt8]) {
        guard let flags = input.first else { return }
        if flags & 3 == 3 {
            verifyAudit(input.dropFirst(), anchored: flags & 4 != 0)
        } else {
            verifyRecord(records[Int(flags & 3)], manifest: Data(input.dropFirst()), flags: flags)
        }
    }

    private func verifyRecord(_ base: [String: Data], manifest: Data, flags: UInt8) {
        var files = base
        if !manifest.isEmpty { files[RecordManifest.fileName] = manifest }
        if flags & 0x10 != 0 { files[RecordManifest.signatureFileName] = nil }
        if flags & 0x20 != 0 { files["added.json"] = Data("{}".utf8) }
        if flags & 0x40 != 0 { files[RecordFileName.pdf] = nil }
        if flags & 0x80 != 0,
            let name = files.keys.sorted().first(where: { ![RecordManifest.fileName, RecordManifest.signatureFileName].contains($0) }),
            var contents = files[name], !contents.isEmpty
        {
            contents[contents.startIndex] ^= 0x20
            files[name] = contents
        }
        let report = RecordVerifier.verify(
            .inMemory(files), pinnedKey: flags & 4 != 0 ? kioskKey : nil, privateKey: flags & 8 != 0 ? recipient : nil)
        // Whether anything differs from what was signed: a flag may change nothing (an encrypted record holds no
        // plaintext `consent.pdf` to remove).
        let unchanged = files == base
        precondition(!report.isIntact || unchanged, "a changed record was reported intact")
        precondition(!unchanged || report.isIntact, "the signed record was reported changed: \(report.findings)")
    }

    private func verifyAudit(_ data: ArraySlice<UInt8>, anchored: Bool) {
        // Split as an array's bytes: `Data`'s generic `split` checks exclusivity per byte, a quarter of the run.
        let pieces = data.split(separator: 0xFF, omittingEmptySubsequences: false)
        let files = pieces.enumerated().map { index, piece in
            AuditLogFiles.File(
                name: index == pieces.count - 1 ? "audit.log" : "audit.log.\(index + 1)",
                contents: piece.elementsEqual([0xFE]) ? nil : Data(piece))
        }
        let anchors: Set<AuditDigest> = anchored ? [AuditDigest(sha256Of: Data(pieces.first ?? []))] : []
        let report = AuditVerifier.verify(
            AuditLogFiles(directory: URL(fileURLWithPath: "/fuzz/audit"), files: files), anchors: anchors)
        precondition(report.lineCount <= data.count, "more lines than bytes")
        precondition(report.tornTailBytes <= data.count, "a torn tail longer than the log")
    }

    /// Writes the seed corpus (Fuzz/make-corpus): each record's signed manifest behind each flag byte, and audit
    /// logs written by `AuditLog` itself (rotated, torn, with a missing file).
    func writeSeeds(to directory: URL) throws {
        var seeds: [Data] = []
        for record in 0..<3 {
            let manifest = records[record][RecordManifest.fileName] ?? Data()
            for flags: UInt8 in [0, 0x04, 0x08, 0x0C, 0x10, 0x20, 0x40, 0x80] {
                seeds.append(Data([UInt8(record) | flags]) + manifest)
            }
            seeds.append(Data([UInt8(record)]))
        }
        let log = try auditLogFiles()
        let joined = Data(log.map { [UInt8]($0 ?? Data([0xFE])) }.joined(separator: [0xFF]))
        seeds += [Data([3]) + joined, Data([7]) + joined, Data([3]) + joined + Data("{\"seq\":".utf8)]
        if log.count > 1 {
            var missing = log
            missing[0] = nil
            seeds.append(Data([3]) + Data(missing.map { [UInt8]($0 ?? Data([0xFE])) }.joined(separator: [0xFF])))
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (index, seed) in seeds.enumerated() {
            try seed.write(to: directory.appendingPathComponent("seed-\(index)"))
        }
    }

    /// A short audit log as the agent writes it, rotated once, as the files' bytes in chain order.
    private func auditLogFiles() throws -> [Data?] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-audit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let kiosk = try AuditIdentifier("kiosk-fuzz")
        let flow = try AuditIdentifier("f-1")
        let study = AuditStudy(id: try AuditIdentifier("sample"), version: AuditDigest(sha256Of: Data("v1".utf8)))
        let log = try AuditLog(directory: directory, kiosk: kiosk, maxFileBytes: 900, bootID: nil)
        for event: AuditEvent in [
            .agentStarted(configuration: AuditDigest(sha256Of: Data("config".utf8)), studies: 1),
            .flowStarted(flow: flow, study: study),
            .eligibilityResult(flow: flow, study: study, eligible: true, answered: 4, questions: 4),
            .stepReached(flow: flow, study: study, step: .reviewDocument, index: nil),
            .signatureCaptured(flow: flow, study: study, signer: .participant, strokes: 2, points: 14),
            .recordWritten(flow: flow, study: study, record: try AuditIdentifier("r-1"), manifest: .genesis),
            .completed(flow: flow, study: study, record: try AuditIdentifier("r-1")),
            .agentStopped,
        ] {
            _ = try log.append(event)
        }
        try log.close()
        return try AuditLogFiles.read(directory: directory).files.map { file in
            file.lines.map { lines in Data(lines.map { $0 + Data([0x0A]) }.joined()) + file.torn }
        }
    }
}
