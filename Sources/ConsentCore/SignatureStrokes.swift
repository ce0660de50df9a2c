/// A drawn signature in the project's stroke format, shared by the protocol, the record and the PDF.
///
/// ```
/// {"strokes": [[[x, y, t, p], ...], ...], "widthMM": 120, "heightMM": 40}
/// ```
/// x and y are normalised 0…1 from the top-left of the signing area, t is milliseconds since the first point of
/// the signature, p is pressure 0…1 or null when the device has none.
public struct SignatureStrokes: Sendable, Hashable, Codable {
    public var strokes: [[StrokePoint]]
    /// The signing area's size in millimetres, when known.
    public var widthMM: Double?
    public var heightMM: Double?
    /// The capturing device (name, vendor/product, kind, resolution) for the record; nil for UI-drawn strokes.
    public var device: JSONValue?
    /// The pen's tilt at each point, `[tiltX, tiltY]` in the pad's units (usually degrees), shaped like `strokes`:
    /// only in records of pads that report tilt (the agent sets it; the protocol's stroke format has no tilt).
    public var tilt: [[[Int]]]?
    /// The pen's hover samples between the signature's first and last point (in proximity, tip up: the pen-up
    /// samples of ISO/IEC 19794-7), `[x, y, t, p]` like a stroke's points, in time order: only in records of pads
    /// that report proximity (the agent sets it; the protocol's stroke format has no hover, and a UI may not send it).
    public var hover: [StrokePoint]?
    /// The pen's tilt at each hover sample, `[tiltX, tiltY]`, shaped like `hover`: when the pad reports tilt.
    public var hoverTilt: [[Int]]?

    /// The most points one signature may carry: minutes of 1 kHz pen input, far beyond any real signature.
    public static let maximumPoints = 500_000

    public init(
        strokes: [[StrokePoint]], widthMM: Double? = nil, heightMM: Double? = nil, device: JSONValue? = nil,
        tilt: [[[Int]]]? = nil, hover: [StrokePoint]? = nil, hoverTilt: [[Int]]? = nil
    ) {
        self.tilt = tilt
        self.hover = hover
        self.hoverTilt = hoverTilt
        self.strokes = strokes
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.device = device
    }

    public var pointCount: Int { strokes.reduce(0) { $0 + $1.count } }

    /// Whether there is any ink at all.
    public var isEmpty: Bool { pointCount == 0 }

    /// The signing area a client may state, per side, in millimetres: from a small pad to a wall screen.
    public static let submittedAreaMM: ClosedRange<Double> = 1...5000
    /// The most one side of a client's signing area may exceed the other: a wide signature line is 10:1.
    public static let maximumSubmittedAspectRatio = 100.0
    /// The latest `t` a client's point may have, in milliseconds: an hour, far beyond any real signature.
    public static let maximumSubmittedTime = 3_600_000.0

    /// Checks strokes a client sent (`signature.submit`): the format's ranges, then bounds on every number a
    /// client chooses, so that nothing computed from them later (the PNG's size, the PDF box) can overflow.
    /// Strokes from a pad are not held to these bounds: a real device reports what it is.
    ///
    /// - Throws: `ConsentCoreError.Code.invalidField` naming the offending member, never its value.
    public func validateSubmitted() throws {
        try validate()
        for (s, stroke) in strokes.enumerated() {
            for (i, point) in stroke.enumerated() where point.t > Self.maximumSubmittedTime {
                throw ConsentCoreError(
                    .invalidField, "strokes[\(s)][\(i)]: t must be at most \(Int(Self.maximumSubmittedTime)) milliseconds")
            }
        }
        let area = Self.submittedAreaMM
        for key in [("widthMM", widthMM), ("heightMM", heightMM)] {
            if let v = key.1, !area.contains(v) {
                throw ConsentCoreError(
                    .invalidField,
                    "\(key.0) must be \(Int(area.lowerBound)) to \(Int(area.upperBound)) millimetres")
            }
        }
        if let w = widthMM, let h = heightMM, max(w / h, h / w) > Self.maximumSubmittedAspectRatio {
            throw ConsentCoreError(
                .invalidField, "widthMM and heightMM may differ by a factor of at most \(Int(Self.maximumSubmittedAspectRatio))")
        }
    }

    /// Checks the ranges of the format.
    ///
    /// - Throws: `ConsentCoreError.Code.invalidField` naming the first offending point.
    public func validate() throws {
        guard pointCount <= Self.maximumPoints else {
            throw ConsentCoreError(.invalidField, "a signature may have at most \(Self.maximumPoints) points, this one has \(pointCount)")
        }
        for (s, stroke) in strokes.enumerated() {
            for (i, point) in stroke.enumerated() {
                let where_ = "strokes[\(s)][\(i)]"
                guard point.x.isFinite, point.y.isFinite, (0...1).contains(point.x), (0...1).contains(point.y) else {
                    throw ConsentCoreError(.invalidField, "\(where_): x and y must be between 0 and 1")
                }
                guard point.t.isFinite, point.t >= 0 else {
                    throw ConsentCoreError(.invalidField, "\(where_): t must be milliseconds since the first point, 0 or more")
                }
                if let p = point.p, !(p.isFinite && (0...1).contains(p)) {
                    throw ConsentCoreError(.invalidField, "\(where_): p must be between 0 and 1, or null")
                }
            }
        }
        if let hover {
            guard hover.count <= Self.maximumPoints else {
                throw ConsentCoreError(.invalidField, "a signature may have at most \(Self.maximumPoints) hover samples, this one has \(hover.count)")
            }
            var last = 0.0
            for (i, point) in hover.enumerated() {
                guard point.x.isFinite, point.y.isFinite, (0...1).contains(point.x), (0...1).contains(point.y),
                    point.t.isFinite, point.t >= last, point.p.map({ $0.isFinite && (0...1).contains($0) }) ?? true
                else {
                    throw ConsentCoreError(
                        .invalidField, "hover[\(i)]: x, y and p must be between 0 and 1, t milliseconds never decreasing")
                }
                last = point.t
            }
        }
        if let hoverTilt, hoverTilt.count != (hover?.count ?? 0) || hoverTilt.contains(where: { $0.count != 2 }) {
            throw ConsentCoreError(.invalidField, "hoverTilt must have one [tiltX, tiltY] per hover sample")
        }
        if let tilt, tilt.count != strokes.count || zip(tilt, strokes).contains(where: { $0.count != $1.count || $0.contains { $0.count != 2 } }) {
            throw ConsentCoreError(.invalidField, "tilt must have one [tiltX, tiltY] per point of strokes")
        }
        for key in [("widthMM", widthMM), ("heightMM", heightMM)] {
            if let v = key.1, !(v.isFinite && v > 0) {
                throw ConsentCoreError(.invalidField, "\(key.0) must be a positive number of millimetres")
            }
        }
    }
}

/// One sampled point of a stroke, encoded as the array `[x, y, t, p]`.
public struct StrokePoint: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    /// Milliseconds since the first point of the signature.
    public var t: Double
    /// Pressure 0…1, nil when unknown.
    public var p: Double?

    public init(x: Double, y: Double, t: Double, p: Double? = nil) {
        self.x = x
        self.y = y
        self.t = t
        self.p = p
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        x = try container.decode(Double.self)
        y = try container.decode(Double.self)
        t = try container.decode(Double.self)
        p = container.isAtEnd ? nil : try container.decodeNil() ? nil : try container.decode(Double.self)
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a point is [x, y, t] or [x, y, t, p], with no more members")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
        try container.encode(t)
        if let p { try container.encode(p) } else { try container.encodeNil() }
    }
}
