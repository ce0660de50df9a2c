import ConsentCore
import SignaturePad

extension SignatureStrokes {
    /// The project's stroke format for a signature captured on a pad.
    ///
    /// x and y are the pad module's normalised values (0…1 from the top-left, clamped to the axis range); t is
    /// milliseconds since the first point of the signature (kernel timestamps, so the record keeps the real
    /// rhythm of the hand); p is nil when the pad has no pressure axis. Interrupted strokes are kept as they are:
    /// nothing is filled in, and `device` says which strokes were cut and where events were lost.
    init(_ signature: Signature) {
        let origin = signature.startTime ?? 0
        let hover = Self.hover(of: signature)
        self.init(
            strokes: signature.strokes.map { stroke in stroke.points.map { StrokePoint($0, origin: origin) } },
            widthMM: signature.device.widthMM, heightMM: signature.device.heightMM,
            device: Self.deviceDescription(signature, origin: origin),
            tilt: signature.device.hasTilt
                ? signature.strokes.map { $0.points.map { [Int($0.tiltX ?? 0), Int($0.tiltY ?? 0)] } } : nil,
            hover: hover.isEmpty ? nil : hover.map { StrokePoint($0, origin: origin) },
            hoverTilt: hover.isEmpty || !signature.device.hasTilt ? nil : hover.map { [Int($0.tiltX ?? 0), Int($0.tiltY ?? 0)] })
    }

    /// The hover samples that belong to the signature: between its first and its last point (the pen hovering
    /// after the last stroke, until the kiosk ends the capture, says nothing of the hand that signed).
    private static func hover(of signature: Signature) -> [InkPoint] {
        guard let start = signature.startTime, let end = signature.endTime else { return [] }
        return signature.hover.filter { (start...end).contains($0.time) }
    }

    /// A small description of the capturing pad for the record: identity, kind, axes, pressure levels, and the
    /// capture's interruptions. The node only as the pad id of the session; never the syspath.
    static func deviceDescription(_ signature: Signature, origin: Int64) -> JSONValue {
        let pad = signature.device
        func axis(_ info: AxisInfo?) -> JSONValue {
            guard let info else { return .null }
            return [
                "minimum": .integer(Int64(info.minimum)), "maximum": .integer(Int64(info.maximum)),
                "resolution": .integer(Int64(info.resolution)),
            ]
        }
        // A gap may precede the first point: signed.
        func milliseconds(_ time: Int64) -> JSONValue { .number(StrokePoint.signedMilliseconds(time, since: origin)) }
        let interrupted: [JSONValue] = signature.strokes.enumerated().compactMap { index, stroke in
            stroke.interruption.map { ["stroke": .integer(Int64(index)), "reason": .string($0.rawValue)] }
        }
        let gaps: [JSONValue] = signature.gaps.map { gap in
            ["reason": .string(gap.reason.rawValue), "fromMs": gap.from.map(milliseconds) ?? .null, "atMs": milliseconds(gap.at)]
        }
        let usbID = pad.usbID.split(separator: ":").map(String.init)
        return [
            // Stated by the agent alone (a UI's strokes say "ui", UIDrawnStrokes): the pad that captured them.
            "source": "pad",
            // The id pads.list and signature.begin used (its event node), to match the audit trail's pad events.
            "padId": .string(pad.node),
            "description": .string(pad.kind == .touch || pad.kind == .multitouch ? "touch screen" : "pen pad"),
            "name": .string(pad.name),
            "vendorId": .string(usbID.first ?? ""),
            "productId": .string(usbID.last ?? ""),
            "kind": .string(pad.kind.rawValue),
            "x": axis(pad.x),
            "y": axis(pad.y),
            "pressureLevels": pad.pressureLevels.map { .integer(Int64($0)) } ?? .null,
            "hasTilt": .bool(pad.hasTilt),
            "interruptedStrokes": .array(interrupted),
            "gaps": .array(gaps),
        ]
    }
}
