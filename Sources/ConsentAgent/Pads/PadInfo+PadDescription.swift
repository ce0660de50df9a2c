import SignaturePad

extension PadInfo {
    /// The wire view of a pad found by SignaturePadLinux.
    ///
    /// The id is the event node: `signature.begin` passes it back, and `PadSelector(argument:)` reads anything
    /// starting with `/` as a node. A pad plugged back in may get another node, hence another id; the
    /// `pad.removed` / `pad.added` pair tells the UI.
    init(_ pad: PadDescription) {
        self.init(
            id: pad.node, name: pad.name, widthMM: pad.widthMM, heightMM: pad.heightMM, hasPressure: pad.hasPressure)
    }
}
