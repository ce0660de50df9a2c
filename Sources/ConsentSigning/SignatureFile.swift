import ConsentCore

/// `signature.json`: the participant's strokes at full fidelity, in the protocol's stroke format, with the device
/// that captured them; other signers' strokes follow under `additionalSigners`.
///
/// The top level *is* a stroke-format signature object, so any reader of the protocol's format reads it; the
/// extra member is ignored by such readers.
struct SignatureFile: Encodable {
    struct Additional: Encodable {
        var role: SignerRole
        var signature: SignatureStrokes
    }

    /// The consent signature: the participant's, or the representative's when `signedBy` says so.
    var participant: SignatureStrokes
    /// Who drew the top-level strokes when not the participant.
    var signedBy: SignerRole? = nil
    var additionalSigners: [Additional]

    private enum CodingKeys: String, CodingKey {
        case strokes, widthMM, heightMM, device, tilt, hover, hoverTilt, signedBy, additionalSigners
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(participant.strokes, forKey: .strokes)
        try container.encodeIfPresent(participant.widthMM, forKey: .widthMM)
        try container.encodeIfPresent(participant.heightMM, forKey: .heightMM)
        try container.encodeIfPresent(participant.device, forKey: .device)
        try container.encodeIfPresent(participant.tilt, forKey: .tilt)
        try container.encodeIfPresent(participant.hover, forKey: .hover)
        try container.encodeIfPresent(participant.hoverTilt, forKey: .hoverTilt)
        try container.encodeIfPresent(signedBy, forKey: .signedBy)
        if !additionalSigners.isEmpty { try container.encode(additionalSigners, forKey: .additionalSigners) }
    }
}
