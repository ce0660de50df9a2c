/// The event topics of `events.subscribe`.
public enum Topic: String, Sendable, Hashable, CaseIterable {
    case flow
    case ink
    case pad
}
