import Crypto
import FileBytes
import Foundation

/// Checks a record directory against its signed manifest: `consentctl verify`.
///
/// Reports every mismatch rather than stopping at the first, so an auditor sees the whole damage: a file changed,
/// missing or added; a manifest that does not parse; a signature that does not verify, or a key other than the
/// pinned one.
public enum RecordVerifier {
    /// One thing that does not match.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// The file concerned (a record file, `manifest.json` or `manifest.sig`).
        public var file: String
        public var problem: String
        public var description: String { "\(file): \(problem)" }
    }

    public struct Report: Sendable {
        public var manifest: RecordManifest?
        public var findings: [Finding]
        /// Whether the manifest key was checked against a pinned key (else only self-consistency is proven).
        public var keyWasPinned: Bool
        /// Plaintext files present only as envelopes, whose contents were not checked because no private key was
        /// given (their envelopes' hashes were).
        public var sealedUnchecked: [String] = []
        /// Each signature the manifest binds (`manifest.signatures`); empty for records made before bindings.
        public var signatures: [SignatureCheck] = []
        public var isIntact: Bool { manifest != nil && findings.isEmpty && signatures.allSatisfy(\.isIntact) }
    }

    /// What became of one signature since signing: was it given on this document, with this biometric data?
    public struct SignatureCheck: Sendable, Hashable, CustomStringConvertible {
        public var role: String
        /// The PDF or the document version no longer matches the one the signature was bound to.
        public var documentChanged: Bool
        /// The signature's 19794-7 data (plaintext or sealed) is changed or missing.
        public var signatureDataChanged: Bool
        public var isIntact: Bool { !documentChanged && !signatureDataChanged }

        public var status: String {
            switch (documentChanged, signatureDataChanged) {
            case (false, false): return "intact"
            case (true, false): return "document changed"
            case (false, true): return "signature data changed"
            case (true, true): return "document changed, signature data changed"
            }
        }
        public var description: String { "\(role): \(status)" }
    }

    /// The files of a record as the verifier reads them: from a record directory, or from memory (the
    /// FuzzVerifiers target, which hands it any bytes as a tampered record).
    public struct Files: Sendable {
        /// The bytes of the file named `name` (a plain name, checked before), nil when missing or unreadable.
        public var contents: @Sendable (_ name: String) -> Data?
        /// The names of every file present.
        public var names: @Sendable () -> [String]

        public init(contents: @escaping @Sendable (String) -> Data?, names: @escaping @Sendable () -> [String]) {
            self.contents = contents
            self.names = names
        }

        /// The files of a record directory, each read whole with plain POSIX calls (FileBytes: Foundation's
        /// whole-file read leaks on an empty file), up to 1 GiB each.
        public static func directory(_ url: URL) -> Files {
            Files(
                contents: { name in (try? FileBytes.read(url.appendingPathComponent(name).path, limit: 1 << 30)).map { Data($0) } },
                names: { (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] })
        }

        /// Files held in memory, by name.
        public static func inMemory(_ files: [String: Data]) -> Files {
            Files(contents: { files[$0] }, names: { Array(files.keys) })
        }
    }

    /// Verifies `directory`.
    ///
    /// An encrypted record (`manifest.encryption`) holds each file either as its envelope or, once decrypted, in
    /// plaintext: each form present is checked against its hash, and at least one must be. With `privateKey` the
    /// envelopes are also opened and their contents checked against the plaintext hashes.
    ///
    /// - Parameters:
    ///   - pinnedKey: the kiosk's public key as the auditor knows it; nil trusts the manifest's key.
    ///   - privateKey: the record recipient's RSA key, to check what encrypted files contain.
    /// - Throws: `ConsentSigningError.manifestInvalid` only when `directory` is not a directory at all;
    ///   everything else is a finding in the report.
    public static func verify(
        directory: URL, pinnedKey: Curve25519.Signing.PublicKey? = nil, privateKey: RecordRecipientKey? = nil
    ) throws -> Report {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw ConsentSigningError(.manifestInvalid, "no record directory here; name a record directory", file: directory.path)
        }
        return verify(.directory(directory), pinnedKey: pinnedKey, privateKey: privateKey)
    }

    /// Verifies a record's `files`, as `verify(directory:)` does a directory's; every problem is a finding.
    public static func verify(
        _ files: Files, pinnedKey: Curve25519.Signing.PublicKey? = nil, privateKey: RecordRecipientKey? = nil
    ) -> Report {
        var findings: [Finding] = []
        let manifestName = RecordManifest.fileName, signatureName = RecordManifest.signatureFileName

        guard let manifestBytes = files.contents(manifestName) else {
            return Report(manifest: nil, findings: [Finding(file: manifestName, problem: "missing or unreadable")], keyWasPinned: pinnedKey != nil)
        }
        let manifest: RecordManifest
        do {
            manifest = try RecordManifest.decoded(manifestBytes)
        } catch {
            return Report(manifest: nil, findings: [Finding(file: manifestName, problem: "not a record manifest")], keyWasPinned: pinnedKey != nil)
        }
        if manifest.format != RecordManifest.currentFormat {
            findings.append(Finding(file: manifestName, problem: "unknown format \"\(manifest.format)\""))
        }

        // The signature.
        let manifestKey = Data(base64Encoded: manifest.publicKey.key).flatMap {
            try? Curve25519.Signing.PublicKey(rawRepresentation: $0)
        }
        if manifest.publicKey.algorithm != "Ed25519" || manifestKey == nil {
            findings.append(Finding(file: manifestName, problem: "the public key is not an Ed25519 key"))
        }
        if let pinnedKey, let manifestKey, pinnedKey.rawRepresentation != manifestKey.rawRepresentation {
            findings.append(Finding(file: manifestName, problem: "signed with another key than the pinned one"))
        }
        if let key = pinnedKey ?? manifestKey {
            let signatureText = files.contents(signatureName).flatMap { String(data: $0, encoding: .utf8) }
            if let signatureText, let signature = Data(base64Encoded: signatureText.trimmingSpaces) {
                if !key.isValidSignature(signature, for: manifestBytes) {
                    findings.append(Finding(file: signatureName, problem: "the signature does not match manifest.json"))
                }
            } else {
                findings.append(Finding(file: signatureName, problem: "missing, unreadable or not base64"))
            }
        }

        // The files: each plaintext file, or its envelope when the record is encrypted.
        var listed: Set<String> = [manifestName, signatureName]
        var envelopes: [String: RecordManifest.EncryptedFile] = [:]
        for sealed in manifest.encryption?.files ?? [] {
            guard isPlainName(sealed.name), isPlainName(sealed.plaintext) else {
                findings.append(Finding(file: manifestName, problem: "lists a path outside the record: \(sealed.name)"))
                continue
            }
            listed.insert(sealed.name)
            envelopes[sealed.plaintext] = sealed
        }
        var unchecked: [String] = []
        for entry in manifest.files {
            guard isPlainName(entry.name) else {
                findings.append(Finding(file: manifestName, problem: "lists a path outside the record: \(entry.name)"))
                continue
            }
            listed.insert(entry.name)
            let plaintext = files.contents(entry.name)
            var sealedBytes: Data?
            if let sealed = envelopes[entry.name] {
                sealedBytes = files.contents(sealed.name)
                if let sealedBytes, !matches(sealedBytes, sha256: sealed.sha256, size: sealed.size, name: sealed.name) {
                    findings.append(Finding(file: sealed.name, problem: "SHA-256 does not match the manifest (the file was changed)"))
                }
            }
            if let plaintext {
                if !matches(plaintext, sha256: entry.sha256, size: entry.size, name: entry.name) {
                    findings.append(Finding(file: entry.name, problem: "SHA-256 does not match the manifest (the file was changed)"))
                }
            } else if let sealedBytes, let sealed = envelopes[entry.name] {
                guard let privateKey else {
                    unchecked.append(entry.name)
                    continue
                }
                do {
                    let opened = try RecordEncryption.open(sealedBytes, with: privateKey)
                    if !matches(opened, sha256: entry.sha256, size: entry.size, name: entry.name) {
                        findings.append(Finding(file: sealed.name, problem: "decrypts to other contents than the manifest's \(entry.name)"))
                    }
                } catch let error as ConsentSigningError {
                    findings.append(Finding(file: sealed.name, problem: "does not decrypt: \(error.message)"))
                } catch {
                    // `open` wraps every failure in ConsentSigningError today; should another error type appear, it is
                    // a finding too, never the verifier's failure: the auditor must see the rest of the report.
                    findings.append(Finding(file: sealed.name, problem: "does not decrypt"))
                }
            } else {
                let name = envelopes[entry.name]?.name
                findings.append(Finding(file: entry.name, problem: name.map { "missing or unreadable (and so is \($0))" } ?? "missing or unreadable"))
            }
        }
        let present = files.names()
        for name in present.sorted() where !listed.contains(name) {
            findings.append(Finding(file: name, problem: "not listed in the manifest (added after signing)"))
        }
        var report = Report(manifest: manifest, findings: findings, keyWasPinned: pinnedKey != nil)
        report.sealedUnchecked = unchecked
        report.signatures = (manifest.signatures ?? []).map { checkBinding($0, manifest: manifest, files: files, findings: findings) }
        return report
    }

    /// Checks one signature's binding against the manifest and the files on disk.
    ///
    /// The document changed when the binding's version or PDF hash differs from the manifest's, or the PDF on
    /// disk (or its envelope) does not match. The signature data changed when its 19794-7 file (in plaintext,
    /// or sealed to the escrow key, or in a record-encryption envelope) is missing or does not match.
    static func checkBinding(_ binding: SignatureBinding, manifest: RecordManifest, files: Files, findings: [Finding]) -> SignatureCheck {
        let changedFiles = Set(findings.map(\.file))
        let pdfName = RecordFileName.pdf
        var documentChanged = binding.documentVersion != manifest.studyVersion
        if let pdfHash = binding.pdfSHA256 {
            let entry = manifest.files.first { $0.name == pdfName }
            let envelope = manifest.encryption?.files.first { $0.plaintext == pdfName }?.name
            if entry?.sha256.lowercased() != pdfHash.lowercased() || changedFiles.contains(pdfName)
                || envelope.map(changedFiles.contains) == true
            {
                documentChanged = true
            }
            if let bytes = files.contents(pdfName),
                RecordManifest.entry(name: pdfName, contents: bytes).sha256 != pdfHash.lowercased()
            {
                documentChanged = true
            }
        }
        var dataChanged = false
        let name = binding.biometricFile
        guard isPlainName(name) else {
            return SignatureCheck(role: binding.role, documentChanged: documentChanged, signatureDataChanged: true)
        }
        if let bytes = files.contents(name) {
            dataChanged = RecordManifest.entry(name: name, contents: bytes).sha256 != binding.biometricSHA256.lowercased()
        } else if let escrowed = manifest.biometricEscrow?.files.first(where: { $0.plaintext == name }) {
            // Only the escrow key opens it: the envelope must be the signed one and pin the bound plaintext.
            let envelopeForm = [escrowed.name, escrowed.name + RecordEncryption.fileSuffix]
            dataChanged = escrowed.plaintextSHA256?.lowercased() != binding.biometricSHA256.lowercased()
                || !manifest.files.contains { $0.name == escrowed.name } || envelopeForm.contains { changedFiles.contains($0) }
        } else if let sealed = manifest.encryption?.files.first(where: { $0.plaintext == name }) {
            let entry = manifest.files.first { $0.name == name }
            dataChanged = entry?.sha256.lowercased() != binding.biometricSHA256.lowercased() || changedFiles.contains(sealed.name)
        } else {
            dataChanged = true
        }
        return SignatureCheck(role: binding.role, documentChanged: documentChanged, signatureDataChanged: dataChanged)
    }

    private static func matches(_ contents: Data, sha256: String, size: Int, name: String) -> Bool {
        let actual = RecordManifest.entry(name: name, contents: contents)
        return actual.sha256 == sha256.lowercased() && actual.size == size
    }

    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }
}
