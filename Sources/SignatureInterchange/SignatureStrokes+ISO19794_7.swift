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
    /// The most steps an X or Y axis has in the published layout: its values are signed 16-bit, from 0.
    public static let maximumAxisSteps = 32_767

    /// The 19794-7 record of a signature in the project's stroke format (`signature.json`), point for point.
    ///
    /// Positions become device units from the axis minimum when the capturing pad's axes are in `strokes.device`
    /// (so the pad's own values come back; an axis of more than 32767 units is held in as many steps, the nearest),
    /// else steps of 1/32767 of the signing area; Y is flipped (`maximum - y`), since the format's Y grows upward
    /// and the stroke format's downward. The resolution is the pad's (per millimetre, scaled with the steps), else
    /// derived from `widthMM`/`heightMM`. Pressure becomes the pad's levels (else 1/65535 steps). Time keeps
    /// milliseconds unless the signature is longer than 65.535 s, then 10 ms, 100 ms or 1 s steps. Tilt
    /// (`strokes.tilt`) becomes TX/TY, held to 16 bits. The device technology is electromagnetic for a pen pad and
    /// unknown otherwise; the vendor and type ids are 0 (the project has no CBEFF organisation identifier to give)
    /// and the pad's USB ids go in the extended data. Strokes that pass `SignatureStrokes.validate()` always fit.
    ///
    /// - Parameter signedAt: the capture time in the header (the signature's signing instant).
    /// - Throws: `ISO19794_7Error` only for strokes outside the stroke format's ranges.
    public init(strokes signature: SignatureStrokes, signedAt: Date) throws {
        let device = signature.device
        let isPad = device?["source"]?.stringValue == "pad"
        func axis(_ name: String) -> (span: Int, resolution: Int)? {
            guard isPad, let axis = device?[name], let min = axis["minimum"]?.wholeNumber,
                let max = axis["maximum"]?.wholeNumber,
                max > min
            else { return nil }
            let (span, overflow) = max.subtractingReportingOverflow(min)
            return overflow ? nil : (span, axis["resolution"]?.wholeNumber ?? 0)
        }
        let xAxis = axis("x")
        let yAxis = axis("y")
        let xSteps = min(xAxis?.span ?? Self.maximumAxisSteps, Self.maximumAxisSteps)
        let ySteps = min(yAxis?.span ?? Self.maximumAxisSteps, Self.maximumAxisSteps)
        // Units per millimetre when known and representable as a scaling value; else the description has none.
        func scaling(_ axis: (span: Int, resolution: Int)?, steps: Int, mm: Double?) -> Double? {
            var value: Double?
            if let axis, axis.resolution > 0 {
                value = Double(axis.resolution) * Double(steps) / Double(axis.span)
            } else if let mm, mm > 0 {
                value = Double(steps) / mm
            }
            return value.flatMap { (0x1p-16..<0x1p16).contains($0) ? $0 : nil }
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
            .x: .init(scaling: scaling(xAxis, steps: xSteps, mm: signature.widthMM), minimum: 0, maximum: xSteps),
            .y: .init(scaling: scaling(yAxis, steps: ySteps, mm: signature.heightMM), minimum: 0, maximum: ySteps),
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
                .x: Int((point.x * Double(xSteps)).rounded()), .y: ySteps - Int((point.y * Double(ySteps)).rounded()),
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
        // evdev does not say how a pen pad senses; the pens it reports in proximity with pressure are the
        // electromagnetic digitizers of pen displays and signature pads. Touch screens and UI-drawn strokes have no
        // confirmed code, so they are unknown.
        let technology: Technology = isPad && device?["kind"]?.stringValue == "pen" ? .electromagnetic : .unknown
        let vendor = UInt16(device?["vendorId"]?.stringValue ?? "", radix: 16)
        let product = UInt16(device?["productId"]?.stringValue ?? "", radix: 16)
        let usb =
            isPad && (vendor != nil || product != nil)
            ? USBIdentifiers(vendor: vendor ?? 0, product: product ?? 0) : nil
        self.init(
            captureTime: signedAt, technology: technology, channels: channels, samples: samples,
            extendedData: .init(strokeStarts: starts, samplingRateHz: Self.samplingRate(signature), usb: usb))
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

    /// The signature in the project's stroke format: positions normalised over each axis's described range (from
    /// the top-left: Y flipped back), milliseconds, pressure 0…1; strokes split where the extended data says they
    /// start, else at pen-up samples, which come back as `hover` (with `hoverTilt` when the record has tilt
    /// channels).
    ///
    /// Another writer's file may lack a minimum or maximum (the samples' own range stands in), or T (the sum of a
    /// DT channel, per sample or constant, stands in).
    public func strokes() -> SignatureStrokes {
        func range(_ channel: Channel, defaultMaximum: Int?) -> (minimum: Double, span: Double) {
            let values = samples.lazy.compactMap { $0[channel] }
            let minimum = channels[channel]?.minimum ?? values.min() ?? 0
            let maximum = channels[channel]?.maximum ?? defaultMaximum ?? values.max() ?? minimum
            return (Double(minimum), Double(max(1, maximum - minimum)))
        }
        let x = range(.x, defaultMaximum: nil)
        let y = range(.y, defaultMaximum: nil)
        let f = range(.f, defaultMaximum: Int(UInt16.max))
        let times = sampleTimes()
        var starts = Set(extendedData.strokeStarts)
        if starts.isEmpty { starts.insert(0) }
        var strokes: [[StrokePoint]] = []
        let hasTilt = channels[.tx] != nil && channels[.ty] != nil
        var tilt: [[[Int]]] = []
        var hover: [StrokePoint] = []
        var hoverTilt: [[Int]] = []
        var penWasUp = false
        for (index, sample) in samples.enumerated() {
            let point = StrokePoint(
                x: (Double(sample[.x] ?? 0) - x.minimum) / x.span,
                y: (y.minimum + y.span - Double(sample[.y] ?? 0)) / y.span,
                t: times[index], p: sample[.f].map { (Double($0) - f.minimum) / f.span })
            if sample[.s] == 0 {
                penWasUp = true
                hover.append(point)
                if hasTilt { hoverTilt.append([sample[.tx] ?? 0, sample[.ty] ?? 0]) }
                continue
            }
            if starts.contains(index) || penWasUp || strokes.isEmpty {
                strokes.append([])
                tilt.append([])
            }
            penWasUp = false
            strokes[strokes.count - 1].append(point)
            if hasTilt { tilt[tilt.count - 1].append([sample[.tx] ?? 0, sample[.ty] ?? 0]) }
        }
        let widthMM = channels[.x]?.scaling.map { x.span / $0 }
        let heightMM = channels[.y]?.scaling.map { y.span / $0 }
        return SignatureStrokes(
            strokes: strokes, widthMM: widthMM, heightMM: heightMM, tilt: hasTilt ? tilt : nil,
            hover: hover.isEmpty ? nil : hover, hoverTilt: hover.isEmpty || !hasTilt ? nil : hoverTilt)
    }

    /// Each sample's time in milliseconds: from T, else summed from DT, else 0.
    private func sampleTimes() -> [Double] {
        if channels[.t] != nil {
            let perSecond = channels[.t]?.scaling ?? 1000
            return samples.map { Double($0[.t] ?? 0) * 1000 / perSecond }
        }
        guard channels[.dt] != nil else { return Array(repeating: 0, count: samples.count) }
        let perSecond = channels[.dt]?.scaling ?? 1000
        var elapsed = 0.0
        return samples.enumerated().map { index, sample in
            if index > 0 { elapsed += Double(sample[.dt] ?? 0) * 1000 / perSecond }
            return elapsed
        }
    }
}
