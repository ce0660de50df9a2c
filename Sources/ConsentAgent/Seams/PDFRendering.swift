import ConsentCore
import Foundation

/// Renders the signed consent as a PDF: the seam where ConsentPDF plugs in.
///
/// Only `JSONRecordMaker` uses it (adding `consent.pdf` when given one); ConsentSigning's record writer calls
/// ConsentPDF itself, so once that writer is wired in this seam is no longer needed by `consentd`.
public protocol PDFRendering: Sendable {
    func renderConsentPDF(for outcome: ConsentOutcome, study: Study, completedAt: Date) async throws -> Data
}
