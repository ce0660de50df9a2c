/// Where things go on a page, as ResearchKit prints its consent (docs/C3PRO.md): 18 pt margins, an empty 25 pt
/// header band, a 25 pt footer band.
struct PageGeometry: Sendable, Hashable {
    var width: Double
    var height: Double
    var margin = 18.0
    var headerBand = 25.0
    var footerBand = 25.0

    var contentLeft: Double { margin }
    var contentRight: Double { width - margin }
    var contentWidth: Double { width - 2 * margin }
    var contentTop: Double { margin + headerBand }
    var contentBottom: Double { height - margin - footerBand }
    var contentHeight: Double { contentBottom - contentTop }
    /// The baselines of a page mark's two lines (`FlowLayout.addPageMarks`), inside the header band.
    var markBaseline: Double { margin + 10 }
    var markDetailBaseline: Double { margin + 20 }
    /// The baseline of the footer line.
    var footerBaseline: Double { height - margin - 6 }
}
