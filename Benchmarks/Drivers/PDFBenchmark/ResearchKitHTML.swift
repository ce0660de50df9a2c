import ConsentCore
import Foundation

/// The HTML ResearchKit would hand its web view for the same signed consent (`htmlForMobile:NO`),
/// so weasyprint renders exactly the content ConsentPDF renders: print CSS, `<h3>` title, `<h4>` + `<p>` per
/// section, the page-break heading, the signature page text and the three-column signature grid with the
/// signature as an inline PNG. Page set-up as ResearchKit's (18 pt margins, "Page n of N" footer).
enum ResearchKitHTML {
    static func document(study: Study, printedName: String, signaturePNG: Data, date: String, paper: String) -> String {
        var body = ""
        if let review = study.reviewHTML {
            body += review
        } else {
            body += "<h3>\(escape(study.document.title))</h3>\n"
            for section in study.document.documentSections {
                body += "<h4>\(escape(section.title ?? ""))</h4>\n<p>\(section.htmlContent ?? "")</p>\n"
            }
        }
        body += """
            <h4 class="pagebreak">\(escape(study.document.signaturePageTitle))</h4>
            <p>\(escape(study.document.signaturePageContent))</p>
            <div class="grid">
              <div class="col"><div class="sigbox"><span>\(escape(printedName))</span></div><hr>
                <div>\(escape(BuiltInTexts.english.printedNameCaption(role: "Participant")))</div></div>
              <div class="col"><div class="sigbox"><img src="data:image/png;base64,\(signaturePNG.base64EncodedString())"></div><hr>
                <div>\(escape(BuiltInTexts.english.signatureCaption(role: "Participant")))</div></div>
              <div class="col"><div class="sigbox"><span>\(escape(date))</span></div><hr>
                <div>\(escape(BuiltInTexts.english.dateCaption))</div></div>
            </div>
            """
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(escape(study.document.title))</title>
            <style>
              @page { size: \(paper); margin: 43pt 18pt 43pt 18pt;
                      @bottom-center { content: "Page " counter(page) " of " counter(pages); font: 12pt Helvetica; } }
              .pagebreak { page-break-before: always; }
              h1, h2 { text-align: center; }
              h2, h3 { margin-top: 3em; }
              body, p, h1, h2, h3 { font-family: Helvetica, "DejaVu Sans"; }
              .grid { overflow: hidden; }
              .col { float: left; width: 33.3%; padding-right: 20px; box-sizing: border-box; }
              .sigbox { height: 100px; position: relative; }
              .sigbox span, .sigbox img { position: absolute; bottom: 0; left: 0; width: 100%; }
            </style></head>
            <body><div class="header"></div>
            \(body)
            </body></html>
            """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
