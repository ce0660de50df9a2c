/// One step of a walk through a parsed HTML tree: the shape `BlockBuilder` consumes.
///
/// The walk is flat (start, text, end) so that neither it nor the builder recurses: deeply nested HTML cannot
/// exhaust the stack. Starts and ends always balance.
enum HTMLEvent: Sendable, Hashable {
    /// An element, its name lower-cased, with its attributes (names lower-cased).
    case start(String, [String: String])
    case text(String)
    case end(String)
}

/// What the HTML reader found: the events, and the first real problem in the markup (libxml2's message and line)
/// when it had to repair anything.
struct HTMLReadResult: Sendable {
    var events: [HTMLEvent]
    /// e.g. "Unexpected end tag : b (line 3)"; nil when the HTML was well-formed.
    var problem: String?
    /// How many problems libxml2 reported (tags unknown to HTML 4, such as `<section>`, are not problems).
    var problemCount: Int
}
