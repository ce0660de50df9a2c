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
