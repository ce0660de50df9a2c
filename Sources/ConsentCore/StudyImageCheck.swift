import Foundation

/// Finds `<img src>` in a study's HTML that name a file the study folder does not have.
///
/// The PDF renderer reads such images from the study folder (and shows the alt text when one is missing), so a
/// missing image only shows up in a printed consent; this check says so before the study goes live. Data URIs
/// and remote URLs are not files of the study and are left to the renderer's own warnings.
enum StudyImageCheck {
    // Good enough for the `src` of coordinator-written pages; the PDF's libxml2 reader is the real parser.
    private static let imgSource = try? NSRegularExpression(
        pattern: #"<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))"#, options: [.caseInsensitive])

    static func missingImages(
        document: ConsentDocument, sharingHTML: String?, sharingFile: String?, reviewHTML: String?, reviewFile: String?,
        contractFile: String, folder: URL
    ) -> [StudyDiagnostic] {
        var pages: [(html: String, file: String, location: String)] = []
        for section in document.sections {
            guard let html = section.htmlContent else { continue }
            let file = section.htmlContentFile.map { "\($0).html" } ?? contractFile
            pages.append((html, file, "term[\(section.termIndex)]"))
        }
        if let sharingHTML { pages.append((sharingHTML, sharingFile ?? "", "options.shareMoreInfoDocument")) }
        if let reviewHTML { pages.append((reviewHTML, reviewFile ?? "", "options.reviewConsentDocument")) }

        var diagnostics: [StudyDiagnostic] = []
        for page in pages {
            for source in sources(in: page.html) {
                guard let problem = problem(with: source, in: folder) else { continue }
                diagnostics.append(
                    .error(
                        .fileMissing, file: source, location: "\(page.location), \(page.file)",
                        "image \"\(source)\" named in \(page.file) \(problem); the PDF shows its description instead"))
            }
        }
        return diagnostics
    }

    static func sources(in html: String) -> [String] {
        guard let imgSource else { return [] }
        let range = NSRange(html.startIndex..., in: html)
        return imgSource.matches(in: html, range: range).compactMap { match in
            for group in 1...3 {
                if let r = Range(match.range(at: group), in: html) { return String(html[r]) }
            }
            return nil
        }
    }

    /// Why a `src` is not a file of the study, or nil when it is fine or not a local file at all.
    private static func problem(with source: String, in folder: URL) -> String? {
        let trimmed = source.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        guard !trimmed.isEmpty, !lower.hasPrefix("data:"), !lower.contains("://"), !lower.hasPrefix("//") else {
            return nil
        }
        let path = trimmed.removingPercentEncoding ?? trimmed
        let root = folder.standardizedFileURL
        let url = root.appendingPathComponent(path).standardizedFileURL
        guard url.path.hasPrefix(root.path + "/") else { return "is outside the study folder" }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return "does not exist in the study folder"
        }
        return nil
    }
}
