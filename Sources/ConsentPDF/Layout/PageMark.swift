/// What a reading copy prints at the head of every page (`ConsentPDFRenderer.renderReadingCopy`): its mark in
/// bold ("NOT SIGNED: FOR READING ONLY") and, under it, the study version and the approval it runs under.
struct PageMark: Sendable, Hashable {
    var title: String
    var detail: String
}
