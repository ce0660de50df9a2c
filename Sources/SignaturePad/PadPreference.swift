/// Chooses the pad a signature is captured on.
///
/// Without a selector the order is: a pad tagged by our udev rule, then a tablet (pen display, pen tablet), then a
/// touch screen; ties go to the lowest node path so the choice is stable across restarts. Unusable pads (no axes,
/// permission denied) are never chosen automatically.
public enum PadPreference {
    /// A rank where lower is preferred.
    public static func rank(_ pad: PadDescription) -> Int {
        if pad.isTagged { return 0 }
        if pad.isTablet || pad.kind == .pen { return 1 }
        if pad.isTouchscreen { return 2 }
        return 3
    }

    /// Pads sorted by preference (best first).
    public static func sorted(_ pads: [PadDescription]) -> [PadDescription] {
        pads.sorted { a, b in
            let ra = rank(a)
            let rb = rank(b)
            if ra != rb { return ra < rb }
            return nodeOrder(a.node, b.node)
        }
    }

    /// The pad to use, or nil when none qualifies.
    ///
    /// With a selector, the selected pad is returned even when it is unusable, so that the caller can report the
    /// precise reason (permission denied, no axes) instead of a generic "no pad".
    public static func choose(from pads: [PadDescription], selector: PadSelector? = nil) -> PadDescription? {
        switch selector {
        case .none:
            return sorted(pads.filter(\.isUsable)).first
        case .node(let node):
            return pads.first { $0.node == node }
        case .name(let name):
            let wanted = name.lowercased()
            let ordered = sorted(pads)
            return ordered.first { $0.name.lowercased() == wanted }
                ?? ordered.first { $0.name.lowercased().contains(wanted) }
        }
    }

    /// `event10` sorts after `event9`.
    private static func nodeOrder(_ a: String, _ b: String) -> Bool {
        let na = trailingNumber(a)
        let nb = trailingNumber(b)
        if let na, let nb, a.dropLast(String(na).count) == b.dropLast(String(nb).count) { return na < nb }
        return a < b
    }

    private static func trailingNumber(_ s: String) -> Int? {
        let digits = s.reversed().prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(String(digits.reversed()))
    }
}
