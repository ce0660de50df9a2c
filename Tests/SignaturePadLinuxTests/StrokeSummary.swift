import SignaturePad

/// A compact, readable form of strokes for exact assertions:
/// `"x,y p=<raw pressure> t=<µs> [S E I C R]"` per point (device units; flags: start, end, interrupted,
/// clamped, resynced), one array per stroke, `!<reason>` appended to an interrupted stroke.
func summary(_ signature: Signature) -> [[String]] {
    let pressureMax = signature.device.pressure.map { Double($0.maximum - $0.minimum) }
    return signature.strokes.map { stroke in
        var lines = stroke.points.map { p -> String in
            var s = "\(p.deviceX),\(p.deviceY)"
            if let pressure = p.pressure, let pressureMax { s += " p=\(Int((pressure * pressureMax).rounded()))" }
            s += " t=\(p.time)"
            var f = ""
            if p.flags.contains(.strokeStart) { f += "S" }
            if p.flags.contains(.strokeEnd) { f += "E" }
            if p.flags.contains(.interrupted) { f += "I" }
            if p.flags.contains(.clamped) { f += "C" }
            if p.flags.contains(.resynced) { f += "R" }
            return f.isEmpty ? s : s + " " + f
        }
        if let reason = stroke.interruption { lines.append("!\(reason.rawValue)") }
        return lines
    }
}
