import ConsentCore

/// One signer's block on the signature page: printed name, drawn signature, date and time, each with its caption,
/// and the meaning of the signature (21 CFR 11.50).
///
/// Leave `printedName` and `strokes` nil for an empty block to be signed on paper (the unsigned preview).
public struct SignerBlock: Sendable, Hashable {
    /// "Participant", "Witness", "Legally Authorized Representative": captions read "<role>'s Signature".
    public var role: String
    public var printedName: String?
    public var strokes: SignatureStrokes?
    /// What the signature means, printed under the block.
    public var meaning: String
    /// Lines printed between the captions and the meaning: a representative's relationship to the participant
    /// and the participant they sign for.
    public var details: [String]

    public init(role: String, printedName: String?, strokes: SignatureStrokes?, meaning: String, details: [String] = []) {
        self.role = role
        self.printedName = printedName
        self.strokes = strokes
        self.meaning = meaning
        self.details = details
    }

    /// The participant's block, with the participant's meaning, in the language of `texts`.
    public static func participant(
        printedName: String? = nil, strokes: SignatureStrokes? = nil, in texts: PDFBuiltInTexts = .english
    ) -> SignerBlock {
        SignerBlock(
            role: texts.core.participantRole, printedName: printedName, strokes: strokes,
            meaning: texts.participantMeaning)
    }

    /// A witness's block, in the language of `texts`.
    public static func witness(
        printedName: String? = nil, strokes: SignatureStrokes? = nil, in texts: PDFBuiltInTexts = .english
    ) -> SignerBlock {
        SignerBlock(
            role: texts.core.witnessRole, printedName: printedName, strokes: strokes, meaning: texts.witnessMeaning)
    }

    /// The person obtaining consent's block: their name, signature and date, how they verified the signer's
    /// identity (and the note they gave), and their staff id.
    public static func personObtainingConsent(_ staff: StaffAttestation, in texts: StaffTexts = .english) -> SignerBlock {
        var method = texts.text(for: staff.method)
        if let note = staff.note { method += " (\(note))" }
        return SignerBlock(
            role: texts.pdfRole, printedName: staff.staff.name, strokes: staff.signature, meaning: texts.pdfMeaning,
            details: ["\(texts.identityCaption) \(method)", "\(texts.staffIdCaption) \(staff.staff.id)"])
    }

    /// A legally authorized representative's block; `relationship` and `participant` (the printed name of whom
    /// they sign for) are printed in it when given.
    public static func representative(
        printedName: String? = nil, strokes: SignatureStrokes? = nil, relationship: String? = nil,
        participant: String? = nil, in texts: PDFBuiltInTexts = .english
    ) -> SignerBlock {
        var details: [String] = []
        if let relationship { details.append("\(texts.relationshipCaption) \(relationship)") }
        if let participant { details.append("\(texts.onBehalfOfCaption) \(participant)") }
        return SignerBlock(
            role: texts.core.representativeRole, printedName: printedName, strokes: strokes,
            meaning: texts.representativeMeaning, details: details)
    }
}
