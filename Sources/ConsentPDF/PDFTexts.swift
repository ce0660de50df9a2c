/// The PDF's texts that are no language's: its creator metadata, and the mark of an image that could not be loaded
/// (the words a PDF adds in a language are `PDFBuiltInTexts`, in each language's file).
public enum PDFTexts {
    public static let creator = "consent-kiosk ConsentPDF"

    /// Shown where an image could not be loaded, with its alt text when it has one.
    public static func missingImage(alt: String?) -> String {
        guard let alt, !alt.isEmpty else { return "[image]" }
        return "[image: \(alt)]"
    }
}
