import ConsentCore
import Foundation

extension JSONValue {
    /// An integer member, also when JSON decoding made it a whole-valued number.
    var wholeNumber: Int? {
        switch self {
        case .integer(let i): return Int(exactly: i)
        case .number(let d) where d.isFinite && d == d.rounded() && abs(d) < 1e15: return Int(d)
        default: return nil
        }
    }
}

extension ISO19794_7Record {
    /// The 19794-7 record of a signature in the project's stroke format (`signature.json`), point for point.
    ///
    /// Positions become device units when the capturing pad's axes are in `strokes.device` (so the pad's own
    /// values come back), else units of 1/65535 of the signing area; the resolution is the pad's, else derived
    /// from `widthMM`/`heightMM`. Pressure becomes the pad's levels (else 1/65535 steps). Time keeps milliseconds
    /// unless the signature is longer than 65.535 s, then 10 ms, 100 ms or 1 s steps. Tilt (`strokes.tilt`) becomes
    /// TX/TY, held to 16 bits. Strokes that pass `SignatureStrokes.validate()` always fit, so a record never fails here.
    ///
    /// - Parameter signedAt: the capture time in the header (the signature's signing instant).
    /// - Throws: `ISO19794_7Error` only for strokes outside the stroke format's ranges.
    public init(strokes signature: SignatureStrokes, signedAt: Date) throws {
        let device = signature.device
        let isPad = device?["source"]?.stringValue == "pad"
        func axis(_ name: String) -> (span: Int, resolution: Int)? {
            guard isPad, let axis = device?[name], let min = axis["minimum"]?.wholeNumber, let max = axis["maximum"]?.wholeNumber,
                max > min, max - min <= Int(UInt16.max)
            else { return nil }
            return (max - min, axis["resolution"]?.wholeNumber ?? 0)
        }
        let xAxis = axis("x"), yAxis = axis("y")
        let xSpan = xAxis?.span ?? Int(UInt16.max), ySpan = yAxis?.span ?? Int(UInt16.max)
        func scaling(_ axis: (span: Int, resolution: Int)?, span: Int, mm: Double?) -> Double? {
            if let axis, axis.resolution > 0 { return Double(axis.resolution) }
            if let mm, mm > 0 { return Double(span) / mm }
            return nil
        }
        let duration = signature.strokes.joined().map(\.t).max() ?? 0
        // The finest of 1000, 100, 10, 1 units per second whose 16 bits hold the whole signature; beyond 18 hours the
        // smallest scaling the format has, with later samples held at the channel's end (signature.json keeps all).
        let unitsPerSecond = [1000.0, 100, 10, 1].first { duration * $0 / 1000 <= 65_535 } ?? 0x1p-16
        let hasPressure = signature.strokes.joined().contains { $0.p != nil }
        var pressureMax = Int(UInt16.max)
        if isPad, let levels = device?["pressureLevels"]?.wholeNumber, levels > 1, levels - 1 <= Int(UInt16.max) {
            pressureMax = levels - 1
        }
        var channels: [Channel: ChannelDescription] = [
            .x: .init(scaling: scaling(xAxis, span: xSpan, mm: signature.widthMM), minimum: 0, maximum: xSpan),
            .y: .init(scaling: scaling(yAxis, span: ySpan, mm: signature.heightMM), minimum: 0, maximum: ySpan),
            .t: .init(scaling: unitsPerSecond, minimum: 0),
            .s: .init(minimum: 0, maximum: 1),
        ]
        if hasPressure { channels[.f] = .init(minimum: 0, maximum: pressureMax) }
        // Tilt in the pad's units, when the pad reported it (the agent keeps it beside the strokes).
        let tilt = (try? signature.validate()) != nil ? signature.tilt : nil
        if tilt != nil {
            channels[.tx] = .init()
            channels[.ty] = .init()
        }

        // The pad's hover samples (in proximity, tip up) are the format's pen-up samples (S = 0), placed among the
        // pen-down ones in time order; with tilt channels a hover sample needs its own tilt (`hoverTilt`).
        let hover = tilt == nil || signature.hoverTilt != nil ? signature.hover ?? [] : []
        func sample(_ point: StrokePoint, penDown: Bool, tilt pair: [Int]?) -> [Channel: Int] {
            var sample: [Channel: Int] = [
                .x: Int((point.x * Double(xSpan)).rounded()), .y: Int((point.y * Double(ySpan)).rounded()),
                .t: Int(min(65_535, (point.t * unitsPerSecond / 1000).rounded())), .s: penDown ? 1 : 0,
            ]
            if hasPressure { sample[.f] = Int(((point.p ?? 0) * Double(pressureMax)).rounded()) }
            if tilt != nil, let pair {
                sample[.tx] = min(max(pair[0], -32_768), 32_767)
                sample[.ty] = min(max(pair[1], -32_768), 32_767)
            }
            return sample
        }
        var samples: [[Channel: Int]] = []
        var starts: [Int] = []
        var nextHover = 0
        func hoverSamples(before t: Double?) {
            while nextHover < hover.count, t.map({ hover[nextHover].t < $0 }) ?? true {
                samples.append(sample(hover[nextHover], penDown: false, tilt: signature.hoverTilt?[nextHover]))
                nextHover += 1
            }
        }
        for (s, stroke) in signature.strokes.enumerated() where !stroke.isEmpty {
            hoverSamples(before: stroke[0].t)
            starts.append(samples.count)
            for (i, point) in stroke.enumerated() {
                samples.append(sample(point, penDown: true, tilt: tilt?[s][i]))
            }
        }
        hoverSamples(before: nil)
        let kind = device?["kind"]?.stringValue
        let technology: Technology = !isPad ? .unspecified : kind == "pen" ? .electronicTablet : .touchScreen
        self.init(
            captureTime: signedAt, technology: technology,
            vendorID: isPad ? UInt16(device?["vendorId"]?.stringValue ?? "", radix: 16) ?? 0 : 0,
            typeID: isPad ? UInt16(device?["productId"]?.stringValue ?? "", radix: 16) ?? 0 : 0,
            channels: channels, samples: samples,
            extendedData: .init(strokeStarts: starts, samplingRateHz: Self.samplingRate(signature)))
    }

    /// The rate the capture sampled at: 1000 over the median interval between consecutive points of a stroke.
    public static func samplingRate(_ signature: SignatureStrokes) -> Double? {
        var intervals: [Double] = []
        for stroke in signature.strokes {
            for (a, b) in zip(stroke, stroke.dropFirst()) where b.t > a.t { intervals.append(b.t - a.t) }
        }
        guard !intervals.isEmpty else { return nil }
        intervals.sort()
        let median = intervals[intervals.count / 2]
        return median > 0 ? 1000 / median : nil
    }

    /// The signature in the project's stroke format: normalised positions (value over the channel's maximum),
    /// milliseconds, pressure 0…1; strokes split where the extended data says they start, else at pen-up samples,
    /// which come back as `hover` (with `hoverTilt` when the record has tilt channels).
    public func strokes() -> SignatureStrokes {
        let xMax = Double(max(1, channels[.x]?.maximum ?? Int(UInt16.max)))
        let yMax = Double(max(1, channels[.y]?.maximum ?? Int(UInt16.max)))
        let fMax = Double(max(1, channels[.f]?.maximum ?? Int(UInt16.max)))
        let tPerSecond = channels[.t]?.scaling ?? 1000
        var starts = Set(extendedData.strokeStarts)
        if starts.isEmpty { starts.insert(0) }
        var strokes: [[StrokePoint]] = []
        let hasTilt = channels[.tx] != nil && channels[.ty] != nil
        var tilt: [[[Int]]] = []
        var hover: [StrokePoint] = []
        var hoverTilt: [[Int]] = []
        var penWasUp = false
        for (index, sample) in samples.enumerated() {
            if sample[.s] == 0 {
                penWasUp = true
                hover.append(
                    StrokePoint(
                        x: Double(sample[.x] ?? 0) / xMax, y: Double(sample[.y] ?? 0) / yMax,
                        t: Double(sample[.t] ?? 0) * 1000 / tPerSecond, p: sample[.f].map { Double($0) / fMax }))
                if hasTilt { hoverTilt.append([sample[.tx] ?? 0, sample[.ty] ?? 0]) }
                continue
            }
            if starts.contains(index) || penWasUp || strokes.isEmpty {
                strokes.append([])
                tilt.append([])
            }
            penWasUp = false
            let point = StrokePoint(
                x: Double(sample[.x] ?? 0) / xMax, y: Double(sample[.y] ?? 0) / yMax,
                t: Double(sample[.t] ?? 0) * 1000 / tPerSecond, p: sample[.f].map { Double($0) / fMax })
            strokes[strokes.count - 1].append(point)
            if hasTilt { tilt[tilt.count - 1].append([sample[.tx] ?? 0, sample[.ty] ?? 0]) }
        }
        let widthMM = channels[.x]?.scaling.map { xMax / $0 }
        let heightMM = channels[.y]?.scaling.map { yMax / $0 }
        return SignatureStrokes(
            strokes: strokes, widthMM: widthMM, heightMM: heightMM, tilt: hasTilt ? tilt : nil,
            hover: hover.isEmpty ? nil : hover, hoverTilt: hover.isEmpty || !hasTilt ? nil : hoverTilt)
    }
}
