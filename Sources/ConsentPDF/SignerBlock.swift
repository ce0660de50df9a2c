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

    public init(role: String, printedName: String?, strokes: SignatureStrokes?, meaning: String) {
        self.role = role
        self.printedName = printedName
        self.strokes = strokes
        self.meaning = meaning
    }

    /// The participant's block, with the participant's meaning, in the language of `texts`.
    public static func participant(
        printedName: String? = nil, strokes: SignatureStrokes? = nil, in texts: PDFBuiltInTexts = .english
    ) -> SignerBlock {
        SignerBlock(
            role: texts.core.participantRole, printedName: printedName, strokes: strokes,
            meaning: texts.participantMeaning)
    }

    /// A witness's block.
    public static func witness(printedName: String? = nil, strokes: SignatureStrokes? = nil) -> SignerBlock {
        SignerBlock(
            role: PDFTexts.witnessRole, printedName: printedName, strokes: strokes, meaning: PDFTexts.witnessMeaning)
    }

    /// A legally authorized representative's block.
    public static func representative(printedName: String? = nil, strokes: SignatureStrokes? = nil) -> SignerBlock {
        SignerBlock(
            role: PDFTexts.representativeRole, printedName: printedName, strokes: strokes,
            meaning: PDFTexts.representativeMeaning)
    }
}
