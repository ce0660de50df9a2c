import ConsentCore
import ConsentPDF
import ConsentSigning
import Foundation

/// Makes the record of a finished consent: the signature PNG and the consent PDF (ConsentPDF), then the signed
/// FHIR resources and manifest (ConsentSigning).
///
/// `consentd`'s `flow.complete` and `consentctl sign` both go through this one type, so a record signed offline is
/// made exactly as the agent makes it. Writing is the caller's (`RecordWriter`), since the agent and the CLI name
/// the directory differently.
public struct ConsentRecordComposer: Sendable {
    public struct Settings: Sendable {
        public var mode: SigningMode
        /// The kiosk's site address: the location de-identification reduces when the UI gives none.
        public var siteAddress: JSONValue?
        public var pdf: PDFOptions
        /// Stores the record's files encrypted for a recipient key (the `recordEncryption` config); nil: plaintext.
        public var encryption: RecordEncryption?
        /// Seals the biometric data (strokes and 19794-7 files) to an examiner's escrow key (the
        /// `biometricEscrow` config, `consentctl sign --biometric-escrow`); nil keeps them in the record.
        public var biometricEscrow: RecordEncryption?

        public init(
            mode: SigningMode = .r4, siteAddress: JSONValue? = nil, pdf: PDFOptions = PDFOptions(),
            encryption: RecordEncryption? = nil, biometricEscrow: RecordEncryption? = nil
        ) {
            self.biometricEscrow = biometricEscrow
            self.mode = mode
            self.siteAddress = siteAddress
            self.pdf = pdf
            self.encryption = encryption
        }
    }

    /// The width of the signature PNG in pixels; its height follows the signing area's aspect ratio.
    public static let signatureImageWidth = 900

    public let signer: ConsentSigner
    public let settings: Settings

    public init(signer: ConsentSigner, settings: Settings = Settings()) {
        self.signer = signer
        self.settings = settings
    }

    /// Renders and signs.
    ///
    /// - Returns: the signed record (every file's bytes) and the PDF renderer's warnings (which name markup
    ///   problems of the study, never participant data).
    /// - Throws: `ConsentPDFError` or `ConsentSigningError`; nothing is written either way.
    public func compose(
        outcome: ConsentOutcome, study: Study, patient: JSONValue? = nil, deidentify: Bool = false,
        location: JSONValue? = nil, signedAt: Date, additionalSigners: [AdditionalSignature] = [],
        auditHead: String? = nil, amendedConsent: JSONValue? = nil
    ) throws -> ComposedRecord {
        let blocks = Self.blocks(
            outcome: outcome, additionalSigners: additionalSigners, texts: PDFBuiltInTexts(language: study.language))
        let printed: Study
        switch outcome.link?.kind {
        case .withdrawal: printed = Self.withdrawalDocument(study, outcome.link)
        case .change: printed = Self.changeDocument(study, outcome.link)
        case .reconsent, nil: printed = study
        }
        // The signature images and the PDF need only the outcome and the study, not each other: the images are
        // drawn and compressed on a second core while the PDF is laid out (each takes a few milliseconds).
        // The images' error comes first when both fail, as when they were made in turn.
        let ((png, witnessPNG, staffPNG), pdf) = try SideBySide.both(
            {
                (
                    try Self.png(outcome.signature), try outcome.witness.map { try Self.png($0.signature) },
                    try outcome.personObtainingConsent.map { try Self.png($0.signature) }
                )
            },
            {
                try ConsentPDFRenderer(options: settings.pdf).render(
                    study: printed, signers: blocks, signedAt: signedAt, comprehension: outcome.comprehension,
                    optionalAnswers: outcome.optionalAnswers)
            })
        let record = try signer.sign(
            outcome: outcome, study: study, patient: patient, deidentify: deidentify,
            location: location ?? settings.siteAddress, signedAt: signedAt, mode: settings.mode, pdf: pdf.data,
            signaturePNG: png, additionalSigners: additionalSigners, witnessSignaturePNG: witnessPNG,
            staffSignaturePNG: staffPNG, auditHead: auditHead, amendedConsent: amendedConsent,
            encryption: settings.encryption, biometricEscrow: settings.biometricEscrow)
        return ComposedRecord(record: record, pdfWarnings: pdf.warnings, pdf: pdf.data)
    }

    static func png(_ strokes: SignatureStrokes) throws -> Data {
        let size = imageSize(for: strokes)
        return try SignaturePNG.render(strokes: strokes, width: size.width, height: size.height)
    }

    /// One block per signer: the participant's, or the representative's (with the relationship and whom they
    /// sign for) in their place; then the session's witness and any other signers'.
    static func blocks(
        outcome: ConsentOutcome, additionalSigners: [AdditionalSignature], texts: PDFBuiltInTexts = .english
    ) -> [SignerBlock] {
        var blocks: [SignerBlock]
        if let representative = outcome.representative {
            blocks = [
                .representative(
                    printedName: representative.friendlyName, strokes: outcome.signature,
                    relationship: representative.relationship.display, participant: outcome.friendlyName, in: texts)
            ]
        } else {
            blocks = [.participant(printedName: outcome.friendlyName, strokes: outcome.signature, in: texts)]
        }
        if let witness = outcome.witness {
            blocks.append(.witness(printedName: witness.friendlyName, strokes: witness.signature, in: texts))
        }
        blocks += additionalSigners.compactMap { block(for: $0, in: texts) }
        if let staff = outcome.personObtainingConsent {
            blocks.append(.personObtainingConsent(staff, in: StaffTexts(language: texts.language)))
        }
        return blocks
    }

    /// The study as a withdrawal prints it: one section saying what is withdrawn (and the reason, when given),
    /// then the usual signature page with the withdrawal's meaning. The study's own sections are not repeated.
    static func withdrawalDocument(_ study: Study, _ link: RecordLink?) -> Study {
        guard let link else { return study }
        let texts = study.texts
        var html = "<p>" + escape(texts.withdrawalDocumentText(
            studyTitle: link.studyTitle ?? study.id, signedOn: link.signedOn ?? "", record: link.recordID)) + "</p>"
        if let reason = link.reason {
            html += "<h3>" + escape(texts.withdrawalReasonHeading) + "</h3><p>" + escape(reason) + "</p>"
        }
        var printed = study
        var document = study.document
        document.title = texts.withdrawalDocumentTitle
        document.signaturePageTitle = texts.withdrawalDocumentTitle
        document.signaturePageContent = texts.withdrawalSignaturePageContent
        document.sections = [ConsentSection(termIndex: 0, type: .onlyInDocument, title: nil, htmlContent: html)]
        // Key information helps decide whether to take part; a withdrawal has decided.
        document.keyInformation = nil
        printed.document = document
        printed.reviewHTML = nil
        return printed
    }

    /// The study as a change of answers prints it: one section naming the record it amends, then the optional
    /// elements with every answer as it now stands (the renderer's list, as in a consent), then the signature page
    /// with the change's meaning. The study's own sections are not repeated: the participant signed them already.
    static func changeDocument(_ study: Study, _ link: RecordLink?) -> Study {
        guard let link else { return study }
        let texts = study.texts
        let html = "<p>" + escape(texts.changeDocumentText(
            studyTitle: link.studyTitle ?? study.id, signedOn: link.signedOn ?? "", record: link.recordID)) + "</p>"
        var printed = study
        var document = study.document
        document.title = texts.changeDocumentTitle
        document.signaturePageTitle = texts.changeDocumentTitle
        document.signaturePageContent = texts.changeSignaturePageContent
        document.sections = [ConsentSection(termIndex: 0, type: .onlyInDocument, title: nil, htmlContent: html)]
        document.keyInformation = nil
        printed.document = document
        printed.reviewHTML = nil
        return printed
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The PNG keeps the signing area's aspect ratio when the device reported its size; else a 3:1 signature line.
    static func imageSize(for strokes: SignatureStrokes) -> (width: Int, height: Int) {
        let width = signatureImageWidth
        guard let w = strokes.widthMM, let h = strokes.heightMM, w > 0, h > 0 else { return (width, width / 3) }
        // Clamped as a Double first: any ratio (1e17, infinity, NaN from stored strokes) must never reach Int().
        let ratio = Double(width) * h / w
        guard ratio.isFinite else { return (width, ratio.isNaN ? width / 3 : width) }
        let height = min(max(ratio.rounded(), Double(width / 6)), Double(width))
        return (width, Int(height))
    }

    /// The PDF block of a witness or representative; the other roles sign the record but have no PDF block yet.
    static func block(for other: AdditionalSignature, in texts: PDFBuiltInTexts = .english) -> SignerBlock? {
        let name = [other.givenName, other.familyName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        switch other.role {
        case .witness: return .witness(printedName: name, strokes: other.strokes, in: texts)
        case .legallyAuthorizedRepresentative:
            return .representative(printedName: name, strokes: other.strokes, in: texts)
        default: return nil
        }
    }
}

/// A record ready to write, with what the PDF renderer warned about.
public struct ComposedRecord: Sendable {
    public var record: SignedRecord
    public var pdfWarnings: [String]
    /// The consent PDF as signed, in plaintext also when the record stores it encrypted: the participant's printed
    /// copy is made from it (the kiosk cannot read an encrypted record back). PHI: kept in memory only.
    public var pdf: Data = Data()
}
