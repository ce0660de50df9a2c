/// The minimum a signature must have before the agent accepts it: not empty, not a dot.
public struct SignatureRequirements: Sendable, Hashable, Codable {
    /// Minimum total ink length in units of the signing area's width (see ``Signature/inkLength``).
    public var minimumInkLength: Double
    /// Minimum number of points over all strokes.
    public var minimumPoints: Int

    public init(minimumInkLength: Double = 0.15, minimumPoints: Int = 10) {
        self.minimumInkLength = minimumInkLength
        self.minimumPoints = minimumPoints
    }

    /// - Throws: `SignaturePadError` with code `.emptySignature` or `.signatureTooShort` and a reason that can be
    ///   shown to the participant's assistant.
    public func check(_ signature: Signature) throws {
        let points = signature.pointCount
        if points == 0 {
            throw SignaturePadError(
                .emptySignature, "No ink was captured; ask the participant to sign on the pad and capture again.")
        }
        if points < minimumPoints {
            throw SignaturePadError(
                .signatureTooShort,
                "The signature has only \(points) points (minimum \(minimumPoints)), which looks like a dot; "
                    + "ask the participant to sign again.")
        }
        let length = signature.inkLength
        if length < minimumInkLength {
            throw SignaturePadError(
                .signatureTooShort,
                "The signature's ink is \(percent(length)) of the signing area's width (minimum "
                    + "\(percent(minimumInkLength))); ask the participant to sign again, larger.")
        }
    }

    private func percent(_ v: Double) -> String { "\(Int((v * 100).rounded()))%" }
}

extension Signature {
    /// Checks the signature against `requirements`; see ``SignatureRequirements/check(_:)``.
    public func validate(_ requirements: SignatureRequirements = .init()) throws {
        try requirements.check(self)
    }
}

extension SignatureRequirements {
    /// One point of strokes drawn outside the agent (in the kiosk UI): normalised position and milliseconds.
    public struct DrawnPoint: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public var t: Double
        public init(x: Double, y: Double, t: Double) {
            self.x = x
            self.y = y
            self.t = t
        }
    }

    /// The aspect ratio assumed when a UI names no signing-area size: the 3:1 signature line the PNG also uses.
    public static let defaultHeightPerWidth = 1.0 / 3.0

    /// Holds UI-drawn strokes to the bar pad strokes meet: enough points, enough ink, and time that never runs
    /// backwards (within a stroke and from one stroke to the next), so a UI cannot record what no hand drew.
    ///
    /// Ink is measured in widths of the signing area, like ``Signature/inkLength``: y is scaled by
    /// `heightPerWidth` (the area's height over its width) so a wide area does not inflate vertical strokes.
    /// Range and finiteness of each value are checked where the stroke format is read, not here.
    ///
    /// - Throws: `SignaturePadError` `.emptySignature`, `.signatureTooShort` or `.timeRunsBackwards`.
    public func check(drawn strokes: [[DrawnPoint]], heightPerWidth: Double = defaultHeightPerWidth) throws {
        var previous: Double?
        for (s, stroke) in strokes.enumerated() {
            for (i, point) in stroke.enumerated() {
                if let previous, point.t < previous {
                    throw SignaturePadError(
                        .timeRunsBackwards,
                        "strokes[\(s)][\(i)]: t is earlier than the point before it; time never decreases in a signature")
                }
                previous = point.t
            }
        }
        let points = strokes.reduce(0) { $0 + $1.count }
        if points == 0 {
            throw SignaturePadError(.emptySignature, "No ink was drawn; ask the participant to sign.")
        }
        if points < minimumPoints {
            throw SignaturePadError(
                .signatureTooShort,
                "The signature has only \(points) points (minimum \(minimumPoints)), which looks like a dot; "
                    + "ask the participant to sign again.")
        }
        let scaleY = heightPerWidth.isFinite && heightPerWidth > 0 ? heightPerWidth : Self.defaultHeightPerWidth
        var length = 0.0
        for stroke in strokes {
            for (a, b) in zip(stroke, stroke.dropFirst()) {
                let dx = b.x - a.x, dy = (b.y - a.y) * scaleY
                length += (dx * dx + dy * dy).squareRoot()
            }
        }
        if length < minimumInkLength {
            throw SignaturePadError(
                .signatureTooShort,
                "The signature's ink is \(percent(length)) of the signing area's width (minimum "
                    + "\(percent(minimumInkLength))); ask the participant to sign again, larger.")
        }
    }
}
