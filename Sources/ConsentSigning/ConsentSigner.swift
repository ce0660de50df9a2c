import ConsentCore
import Crypto
import Foundation
import JSONFoundation

/// Signs a finished consent: the one entry point the agent and `consentctl sign` share.
///
/// Pure apart from randomness: the signing time, the uuids and the kiosk key are injected, and nothing touches
/// the disk (`RecordWriter` does that), so a failed signing can leave nothing behind.
public struct ConsentSigner: Sendable {
    public var kiosk: KioskIdentity
    /// Mints the record's uuids (and a Patient id when missing); tests inject a counter.
    public var makeUUID: @Sendable () -> UUID

    public init(kiosk: KioskIdentity, makeUUID: @escaping @Sendable () -> UUID = { UUID() }) {
        self.kiosk = kiosk
        self.makeUUID = makeUUID
    }

    /// Builds the signed record of a consent.
    ///
    /// - Parameters:
    ///   - outcome: what the finished `ConsentSession` collected.
    ///   - study: the study the session ran; its Contract is the template, its version hash is pinned.
    ///   - patient: the kiosk UI's FHIR Patient, or nil to make one from the printed name. Never modified.
    ///   - deidentify: C3-PRO's `deIdentifyAndSignContract`: keep only id, gender, birth year (ages over 90
    ///     folded) and a Safe Harbor address from `location`; no names and no signature images in the resources.
    ///   - location: the FHIR Address to reduce in de-identified mode: the UI's, else the kiosk's site address.
    ///   - signedAt: the signing instant (written in UTC).
    ///   - mode: `.r4` (default) or C3-PRO's `.stu3` Contract shape.
    ///   - pdf: the consent PDF's bytes (`ConsentPDF`); nil until a renderer exists, and the record omits it.
    ///   - signaturePNG: the participant's signature as PNG (`ConsentPDF`); nil leaves the image out.
    ///   - additionalSigners: witness, interpreter, representative or staff signatures the session collected.
    ///   - auditHead: the audit log's chain head (`AuditLog.head`, SHA-256 hex), signed into the manifest so the
    ///     record and the log vouch for each other; nil leaves it out.
    ///   - amendedConsent: a change's earlier record's Consent (`consent.json`) as it was signed: the Bundle carries
    ///     it again with `status: inactive` (`AmendedConsent`), so the server that has it learns the new record
    ///     replaces it. Nil for every other record, and for a change whose earlier Consent cannot be read.
    ///   - encryption: stores every file but the manifest and its signature as an envelope for the recipient
    ///     (`RecordEncryption`); nil writes them in plaintext.
    /// - Returns: the record, every file's bytes included.
    /// - Throws: `ConsentSigningError`: `.studyMismatch`, `.missingSignature`, `.invalidSigner`,
    ///   `.invalidSignatureImage`, `.invalidPDF`, `.notAPatient`, `.invalidPatient`, `.invalidBirthDate`,
    ///   `.invalidLocation`.
    public func sign(
        outcome: ConsentOutcome, study: Study, patient: JSONValue? = nil, deidentify: Bool = false,
        location: JSONValue? = nil, signedAt: Date, mode: SigningMode = .r4, pdf: Data? = nil,
        signaturePNG: Data? = nil, additionalSigners: [AdditionalSignature] = [], witnessSignaturePNG: Data? = nil,
        staffSignaturePNG: Data? = nil,
        auditHead: String? = nil, amendedConsent: JSONValue? = nil, encryption: RecordEncryption? = nil,
        biometricEscrow: RecordEncryption? = nil
    ) throws -> SignedRecord {
        // The session's witness and person obtaining consent sign like any other additional signer.
        var additionalSigners = additionalSigners
        if let staff = outcome.personObtainingConsent {
            let name = Self.splitName(staff.staff.name)
            additionalSigners.append(
                AdditionalSignature(
                    role: .personObtainingConsent, givenName: name.given, familyName: name.family,
                    strokes: staff.signature, png: staffSignaturePNG, staffID: staff.staff.id))
        }
        if let witness = outcome.witness {
            additionalSigners.insert(
                AdditionalSignature(
                    role: .witness, givenName: witness.givenName, familyName: witness.familyName,
                    strokes: witness.signature, png: witnessSignaturePNG),
                at: 0)
        }
        try Self.check(outcome: outcome, study: study, pdf: pdf, signaturePNG: signaturePNG, others: additionalSigners)
        let ids = RecordIdentifiers(makeUUID: makeUUID)
        let patientResource = try ParticipantPatient.make(
            from: patient, outcome: outcome, deidentify: deidentify, location: location, signedAt: signedAt,
            makeID: { makeUUID().uuidString.lowercased() })
        let patientReference = "Patient/\(patientResource["id"]?.stringValue ?? "")"
        let patientRef: JSONValue = ["reference": .string(patientReference)]

        let representative = outcome.representative.map {
            RepresentativeResource(representative: $0, patientReference: patientReference, includesName: !deidentify)
        }
        let contractSigner = ContractSigner(
            patientReference: patientReference, shareWidely: outcome.shareWidely, signedAt: signedAt,
            signaturePNG: signaturePNG, additionalSigners: additionalSigners, representative: representative,
            namesSigners: !deidentify, includesImages: !deidentify)
        var contract = mode == .r4 ? contractSigner.r4(study.contract) : contractSigner.stu3(study.contract)
        // The record pins the language the participant read, whatever the Contract file declared.
        contract.set("language", .string(study.language))
        let link = outcome.link
        if link?.kind == .withdrawal, mode == .r4 {
            // STU3's C3-PRO shape has no status; its withdrawal is carried by the Consent and the Provenance.
            contract.set("status", "revoked")
        }

        var attachment: JSONValue?
        var documentEntries: [TransactionBundleBuilder.Entry] = []
        if let pdf, deidentify {
            // The PDF prints the name and draws the signature, so a de-identified record never ships it: the
            // Consent pins it by hash and size only, and it stays in the local record directory.
            var pinned = ConsentResourceBuilder.pdfAttachment(
                pdf: pdf, title: "\(study.document.title): \(study.id)", signedAt: signedAt, binaryID: ids.binary)
            pinned.set("url", nil)
            attachment = pinned
        } else if let pdf {
            let title = "\(study.document.title): \(study.id)"
            let pdfAttachment = ConsentResourceBuilder.pdfAttachment(
                pdf: pdf, title: title, signedAt: signedAt, binaryID: ids.binary)
            attachment = pdfAttachment
            documentEntries = [
                .init(resource: DocumentResources.binary(pdf: pdf, ids: ids, patientReference: patientReference), uuid: ids.binary),
                .init(
                    resource: DocumentResources.documentReference(
                        attachment: pdfAttachment, ids: ids, patientReference: patientReference, signedAt: signedAt),
                    uuid: ids.documentReference),
            ]
        }

        let others = additionalSigners.map { other in
            let who = contractSigner.signerReference(other)
            let signature = ContractSigner.signature(
                type: other.role.signatureType, when: FHIRTime.instant(other.signedAt ?? signedAt), who: who,
                onBehalfOf: other.role.signsOnBehalfOfParticipant ? patientRef : nil, png: deidentify ? nil : other.png)
            return (role: other.role, who: who, signature: signature)
        }
        var consent = ConsentResourceBuilder(
            ids: ids, study: study, patientReference: patientReference, shareWidely: outcome.shareWidely,
            optionalAnswers: outcome.optionalAnswers, signedAt: signedAt, pdfAttachment: attachment,
            additionalPerformers: (representative.map { [$0.reference] } ?? [])
                + others.filter { $0.role.signsOnBehalfOfParticipant }.map(\.who),
            representative: representative
        ).make()
        if link?.kind == .withdrawal { consent.set("status", "inactive") }
        if let staff = outcome.personObtainingConsent {
            consent.set("verification", [
                Self.verification(
                    staff, verifiedWith: representative?.reference ?? patientRef, when: signedAt, includesNote: !deidentify)
            ])
        }
        let provenance = ProvenanceBuilder(
            ids: ids, patientReference: patientReference, kioskID: kiosk.id, signedAt: signedAt,
            policyURI: ConsentResourceBuilder.policyURI(study),
            participantSignature: ContractSigner.signature(
                type: FHIRCodes.consentSignature, when: FHIRTime.instant(signedAt),
                who: representative?.reference ?? patientRef, onBehalfOf: representative == nil ? nil : patientRef,
                png: deidentify ? nil : signaturePNG),
            additional: others, hasPDF: pdf != nil, representative: representative, link: link
        ).make()

        let questionnaireResponse = outcome.comprehension.map {
            ComprehensionRecord.questionnaireResponse(
                $0, recordID: ids.record, patientReference: patientReference, signedAt: signedAt, language: study.language)
        }

        // STU3 backends take Patient and Contract only (C3-PRO's PUT Patient, POST Contract); R4 servers get all,
        // with the participant as a ResearchSubject of the study (minted last, so the other ids stay as they were).
        var entries: [TransactionBundleBuilder.Entry]
        if mode == .stu3 {
            entries = [.init(resource: patientResource, uuid: nil), .init(resource: contract, uuid: ids.contract)]
        } else {
            let subject = ResearchSubjectBuilder(
                study: study, patientReference: patientReference, consentUUID: ids.consent, recordID: ids.record,
                link: link, signedAt: signedAt
            ).make()
            entries = [.init(resource: patientResource, uuid: nil)] + documentEntries + [
                .init(resource: contract, uuid: ids.contract), .init(resource: consent, uuid: ids.consent),
                .init(resource: provenance, uuid: ids.provenance),
                .init(resource: subject, uuid: makeUUID().uuidString.lowercased()),
            ]
            if let questionnaireResponse {
                // Minted last, so the other resources keep the ids they had before the check existed.
                entries.append(.init(resource: questionnaireResponse, uuid: makeUUID().uuidString.lowercased()))
            }
            if link?.kind == .change, let link, let amendedConsent {
                entries.append(AmendedConsent.entry(amendedConsent, recordID: link.recordID))
            }
        }
        let bundle = TransactionBundleBuilder.make(id: ids.record, entries: entries)

        let signatureFile = SignatureFile(
            participant: outcome.signature,
            signedBy: outcome.representative == nil ? nil : .legallyAuthorizedRepresentative,
            additionalSigners: additionalSigners.map { .init(role: $0.role, signature: $0.strokes) })
        var files: [SignedRecord.File] = try [
            .init(name: RecordFileName.contract, contents: contract.serialized(pretty: true)),
            .init(name: RecordFileName.consent, contents: consent.serialized(pretty: true)),
            .init(name: RecordFileName.provenance, contents: provenance.serialized(pretty: true)),
            .init(name: RecordFileName.patient, contents: patientResource.serialized(pretty: true)),
            .init(name: RecordFileName.bundle, contents: bundle.serialized(pretty: true)),
        ]
        if let pdf { files.append(.init(name: RecordFileName.pdf, contents: pdf)) }
        if let questionnaireResponse {
            files.append(.init(name: RecordFileName.questionnaireResponse, contents: try questionnaireResponse.serialized(pretty: true)))
        }

        // The biometric data: the strokes at full fidelity and each signature in ISO/IEC 19794-7, each bound in
        // the manifest to the document it was given on; sealed to the escrow key alone when one is configured.
        let consentSigner = BiometricFiles.Signed(
            role: outcome.representative == nil ? "participant" : "representative", strokes: outcome.signature,
            signedAt: signedAt)
        let otherSigners: [BiometricFiles.Signed] = additionalSigners.map {
            BiometricFiles.Signed(role: BiometricFiles.roleName($0.role), strokes: $0.strokes, signedAt: $0.signedAt ?? signedAt)
        }
        let iso = try BiometricFiles.make([consentSigner] + otherSigners)
        let pdfHash = pdf.map { RecordManifest.entry(name: RecordFileName.pdf, contents: $0).sha256 }
        let bindings = iso.map { item in
            SignatureBinding(
                role: item.signed.role, documentVersion: study.version, pdfSHA256: pdfHash,
                signedAt: FHIRTime.instant(item.signed.signedAt), biometricFile: item.file.name,
                biometricSHA256: RecordManifest.entry(name: item.file.name, contents: item.file.contents).sha256)
        }
        var biometric = [SignedRecord.File(name: RecordFileName.signature, contents: try Self.encodeCompact(signatureFile))]
            + iso.map(\.file)
        var escrowEntry: RecordManifest.Encryption?
        if let biometricEscrow {
            let sealed = try biometricEscrow.seal(biometric, suffix: RecordEncryption.escrowSuffix, keepsPlaintextHash: true)
            biometric = sealed.files
            escrowEntry = .init(scheme: RecordEncryption.scheme, keyID: biometricEscrow.keyID, files: sealed.entries)
        }
        files += biometric

        var manifest = RecordManifest(
            format: RecordManifest.currentFormat, recordID: ids.record, studyID: study.id, studyVersion: study.version,
            signedAt: FHIRTime.instant(signedAt), kioskID: kiosk.id, mode: mode, deidentified: deidentify,
            publicKey: .init(algorithm: "Ed25519", key: kiosk.publicKey.rawRepresentation.base64EncodedString()),
            files: files.map { RecordManifest.entry(name: $0.name, contents: $0.contents) }.sorted { $0.name < $1.name },
            auditHead: auditHead,
            sections: link?.kind == .withdrawal ? nil : SectionFingerprint.of(study.document),
            passcode: outcome.passcodeHash,
            withdraws: link?.kind == .withdrawal ? link?.recordID : nil,
            previousRecord: link?.kind == .reconsent ? link?.recordID : nil,
            amends: link?.kind == .change ? link?.recordID : nil,
            language: study.language)
        manifest.signatures = bindings
        manifest.biometricEscrow = escrowEntry
        manifest.comprehension = outcome.comprehension.map(ComprehensionRecord.summary)
        if !outcome.optionalAnswers.isEmpty {
            manifest.optionalElements = outcome.optionalAnswers.map(RecordManifest.OptionalElementAnswer.init)
        }
        manifest.approval = study.approval
        if let encryption {
            let sealed = try encryption.seal(files)
            files = sealed.files
            manifest.encryption = .init(scheme: RecordEncryption.scheme, keyID: encryption.keyID, files: sealed.entries)
        }
        let manifestBytes = try manifest.encoded()
        let signature: Data
        do {
            signature = try kiosk.signingKey.signature(for: manifestBytes)
        } catch {
            throw ConsentSigningError(.invalidKey, "the kiosk key cannot sign; restore or recreate it", cause: error)
        }
        files.append(.init(name: RecordManifest.fileName, contents: manifestBytes))
        files.append(.init(name: RecordManifest.signatureFileName, contents: Data((signature.base64EncodedString() + "\n").utf8)))

        return SignedRecord(
            id: ids.record, mode: mode, contract: contract, consent: consent, provenance: provenance,
            patient: patientResource, bundle: bundle, manifest: manifest, files: files)
    }

    private static func check(
        outcome: ConsentOutcome, study: Study, pdf: Data?, signaturePNG: Data?, others: [AdditionalSignature]
    ) throws {
        guard outcome.studyID == study.id, outcome.studyVersion == study.version else {
            throw ConsentSigningError(
                .studyMismatch,
                "the consent was collected for study version \(String(outcome.studyVersion.prefix(12))), not \(study.shortVersion); sign with the study the session ran")
        }
        guard !outcome.signature.isEmpty else {
            throw ConsentSigningError(.missingSignature, "the consent has no signature strokes; collect a signature first")
        }
        do {
            try outcome.signature.validate()
        } catch let error as ConsentCoreError {
            throw ConsentSigningError(.missingSignature, "the signature is not valid: \(error.message)", cause: error)
        }
        if let signaturePNG, !signaturePNG.starts(with: pngMagic) {
            throw ConsentSigningError(.invalidSignatureImage, "the signature image is not a PNG; pass the renderer's PNG bytes")
        }
        if let pdf, !pdf.starts(with: Data("%PDF-".utf8)) {
            throw ConsentSigningError(.invalidPDF, "the consent document is not a PDF; pass the renderer's PDF bytes")
        }
        for (index, other) in others.enumerated() {
            let label = "additional signer \(index + 1) (\(other.role.rawValue))"
            // A staff member's credential gives one name, which may be a single word.
            let hasName = other.role == .personObtainingConsent
                ? !(other.givenName + other.familyName).trimmingSpaces.isEmpty
                : !other.givenName.trimmingSpaces.isEmpty && !other.familyName.trimmingSpaces.isEmpty
            guard hasName else {
                throw ConsentSigningError(.invalidSigner, "\(label) needs both a given and a family name")
            }
            guard !other.strokes.isEmpty, (try? other.strokes.validate()) != nil else {
                throw ConsentSigningError(.invalidSigner, "\(label) needs a valid, non-empty signature")
            }
            if let png = other.png, !png.starts(with: pngMagic) {
                throw ConsentSigningError(.invalidSignatureImage, "\(label)'s signature image is not a PNG")
            }
        }
    }

    /// R4 `Consent.verification`: the signer's identity was verified, with whom (the Patient, or the representative
    /// who signed), when, and how (the method as a coded extension; its note, free text, only when the record may
    /// hold text a person typed).
    static func verification(
        _ staff: StaffAttestation, verifiedWith: JSONValue, when: Date, includesNote: Bool
    ) -> JSONValue {
        var method: JSONValue = [
            "coding": [
                [
                    "system": .string(FHIRCodes.identityVerificationSystem), "code": .string(staff.method.rawValue),
                    "display": .string(StaffTexts.english.text(for: staff.method)),
                ]
            ]
        ]
        if includesNote, let note = staff.note { method.set("text", .string(note)) }
        return [
            "extension": [["url": .string(FHIRCodes.identityVerificationExtensionURL), "valueCodeableConcept": method]],
            "verified": true,
            "verifiedWith": verifiedWith,
            "verificationDate": .string(FHIRTime.instant(when)),
        ]
    }

    /// A staff member's one-line name as given and family name: the last word is the family name.
    static func splitName(_ name: String) -> (given: String, family: String) {
        let words = name.split(whereSeparator: \.isWhitespace)
        guard words.count > 1, let last = words.last else { return ("", name) }
        return (words.dropLast().joined(separator: " "), String(last))
    }

    static let pngMagic = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    /// JSONEncoder's bytes with .sortedKeys and .withoutEscapingSlashes, which wrote every signature.json before.
    static func encodeCompact<T: Encodable>(_ value: T) throws -> Data {
        Data(try compactEncoder.encodedBytes(value) + [UInt8(ascii: "\n")])
    }

    private static let compactEncoder = JSONValueEncoder.foundation()
}
