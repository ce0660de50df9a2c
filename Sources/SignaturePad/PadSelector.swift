/// How a caller names the pad it wants: by node path or by (part of) its name.
public enum PadSelector: Sendable, Hashable, CustomStringConvertible {
    /// An exact device node, e.g. `/dev/input/event7`.
    case node(String)
    /// A device name; an exact (case-insensitive) match wins over a substring match.
    case name(String)

    /// Parses a command-line argument: anything starting with `/` is a node, the rest a name.
    public init(argument: String) {
        self = argument.hasPrefix("/") ? .node(argument) : .name(argument)
    }

    public var description: String {
        switch self {
        case .node(let n): return n
        case .name(let n): return "\"\(n)\""
        }
    }
}
