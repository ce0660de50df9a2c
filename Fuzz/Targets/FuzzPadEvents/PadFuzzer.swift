import FuzzSupport
import SignaturePad

/// Runs one input as the bytes a broken or hostile pad sends, through the chain the Linux capture runs
/// (`CaptureEngine`, for a device or the benchmarks' FIFO pen): `RawEventDecoder` (24-byte `struct input_event`
/// records, fed in uneven chunks) → `StrokeCapture` (`FrameAssembler` with `PressureHysteresis` or `ContactTracker` → `StrokeBuilder`) →
/// the finished `Signature`, its summary values and `SignatureRequirements`.
///
/// Input layout:
///
/// ```
///  byte 0   the pad: 0 pen display (pressure, tilt), 1 signature pad (pressure), 2 single-touch screen,
///           3 multitouch screen (10 slots), 4 touch screen without resolution, 5 a pad described by the input
///           (modulo 6)
///  byte 1   options: bits 0-4 seed the chunk sizes (1…61 bytes); bit 5 unplugs and replugs the pad half way
///           (`interrupt(.deviceRemoved)` + `reconnect`); bit 6 clears the ink a third of the way; bit 7 uses
///           other pressure thresholds
///  [pad 5 only, 42 bytes] kind (mod 3: pen, touch, multitouch), slot count (Int8), then little-endian Int32s:
///           x min, max, resolution; y min, max, resolution; pressure min, max; tilt x min, max
///  rest     raw input_event records (a trailing partial record stays pending)
/// ```
///
/// Checks beyond crashes: decoding in chunks gives exactly the events of decoding in one piece; every ink batch
/// names an existing stroke and carries its newest point; every point (ink and hover) lies in the signing area
/// (normalised x, y and pressure finite in 0…1, device units inside the axis range: `InkPoint`'s promise); time
/// never decreases within a stroke nor over the signature's points and hover samples (the agent builds
/// `startTime...endTime` from them and the stroke format refuses hover time running backwards); stroke flags and
/// interruptions agree; `SignatureRequirements` only ever throws its own errors, even for absurd requirements.
struct PadFuzzer: Sendable {
    /// The fixture devices of Tests/SignaturePadLinuxTests/Fixtures (as Tests/SignaturePadTests/FixturePads.swift
    /// describes them), so the seeds made from their recordings replay on the pad they were recorded for.
    static let fixturePads: [PadDescription] = [
        PadDescription(
            node: "/dev/input/event10", name: "Wacom One Pen Display Pen", vendorID: 0x056a, productID: 0x03a6,
            kind: .pen, isTablet: true, x: AxisInfo(minimum: 0, maximum: 21600, resolution: 100),
            y: AxisInfo(minimum: 0, maximum: 13500, resolution: 100), pressure: AxisInfo(minimum: 0, maximum: 4095),
            tiltX: AxisInfo(minimum: -64, maximum: 63, resolution: 57),
            tiltY: AxisInfo(minimum: -64, maximum: 63, resolution: 57)),
        PadDescription(
            node: "/dev/input/event11", name: "Consent Kiosk Test Signature Pad", vendorID: 0x056a, productID: 0x00a8,
            kind: .pen, isTagged: true, isTablet: true, x: AxisInfo(minimum: 0, maximum: 9599, resolution: 40),
            y: AxisInfo(minimum: 0, maximum: 5999, resolution: 40), pressure: AxisInfo(minimum: 0, maximum: 1023)),
        PadDescription(
            node: "/dev/input/event5", name: "Test Single Touch Screen", kind: .touch, isTouchscreen: true,
            x: AxisInfo(minimum: 0, maximum: 4095, resolution: 16), y: AxisInfo(minimum: 0, maximum: 4095, resolution: 16)),
        PadDescription(
            node: "/dev/input/event6", name: "Test Multitouch Screen", kind: .multitouch, isTouchscreen: true,
            x: AxisInfo(minimum: 0, maximum: 1919, resolution: 10), y: AxisInfo(minimum: 0, maximum: 1079, resolution: 10),
            slotCount: 10),
        PadDescription(
            node: "/dev/input/event7", name: "Generic Touch No Resolution", kind: .touch, isTouchscreen: true,
            x: AxisInfo(minimum: 0, maximum: 1023), y: AxisInfo(minimum: 0, maximum: 767)),
    ]

    /// The agent's requirements and absurd ones: the check must only ever say "empty" or "too short".
    static let requirements = [
        SignatureRequirements(),
        SignatureRequirements(minimumInkLength: 0, minimumPoints: 0),
        SignatureRequirements(minimumInkLength: .nan, minimumPoints: .min),
        SignatureRequirements(minimumInkLength: .infinity, minimumPoints: .max),
    ]

    /// Sane and extreme settings of the hysteresis (the agent uses the default; the others reach its edges).
    static let thresholds: [PressureHysteresis.Thresholds] = [.init(), .init(down: 0, up: 0), .init(down: 1, up: 1)]

    func run(_ input: [UInt8]) {
        var reader = FuzzByteReader(bytes: input)
        guard let selector = reader.byte(), let options = reader.byte() else { return }
        let choice = Int(selector) % (Self.fixturePads.count + 1)
        let pad: PadDescription
        if choice < Self.fixturePads.count {
            pad = Self.fixturePads[choice]
        } else {
            guard let described = Self.describedPad(&reader) else { return }
            pad = described
        }
        let thresholds = options & 0x80 == 0 ? Self.thresholds[0] : Self.thresholds[1 + Int(selector / 8) % 2]

        guard let profile = try? CaptureProfile(pad: pad, thresholds: thresholds) else {
            precondition(!(pad.x?.isUsable ?? false) || !(pad.y?.isUsable ?? false), "a pad with usable axes was refused")
            return
        }
        guard var capture = try? StrokeCapture(device: pad, thresholds: thresholds) else {
            preconditionFailure("StrokeCapture refused a pad CaptureProfile accepted")
        }

        let stream = input[reader.offset...]
        // Sized once: allocations under ASan are a large part of an execution's time.
        var whole: [InputEvent] = []
        whole.reserveCapacity(stream.count / RawEventDecoder.recordSize)
        var oneDecoder = RawEventDecoder()
        stream.withUnsafeBytes { oneDecoder.decode($0, into: &whole) }

        var decoder = RawEventDecoder()
        var events: [InputEvent] = []
        events.reserveCapacity(stream.count / RawEventDecoder.recordSize)
        var chunks = ChunkSizes(seed: options & 0x1f)
        var offset = stream.startIndex
        let replugAt = options & 0x20 != 0 ? stream.startIndex + stream.count / 2 : nil
        let clearAt = options & 0x40 != 0 ? stream.startIndex + stream.count / 3 : nil
        var hasReplugged = false
        var hasCleared = false
        while offset < stream.endIndex {
            let end = min(offset + chunks.next(), stream.endIndex)
            let before = events.count
            stream[offset..<end].withUnsafeBytes { decoder.decode($0, into: &events) }
            offset = end
            for event in events[before...] {
                if let batch = capture.process(event) { Self.check(batch, of: capture, profile: profile) }
            }
            if let clearAt, !hasCleared, offset >= clearAt {
                hasCleared = true
                capture.clear()
                precondition(capture.strokes.isEmpty && capture.pointCount == 0, "clear left ink")
            }
            if let replugAt, !hasReplugged, offset >= replugAt {
                // What CaptureEngine does when udev removes the pad and adds it back.
                hasReplugged = true
                if let batch = capture.interrupt(.deviceRemoved, at: events.last?.timestamp ?? 0) {
                    Self.check(batch, of: capture, profile: profile)
                }
                do {
                    try capture.reconnect(device: pad)
                } catch {
                    preconditionFailure("reconnecting the same pad failed: \(error)")
                }
            }
        }
        precondition(events == whole, "decoding in chunks differs from decoding in one piece")
        precondition(decoder.pendingByteCount == stream.count % RawEventDecoder.recordSize, "a wrong partial record")

        Self.check(capture.signature, isPenDown: capture.isPenDown, profile: profile)
        precondition(capture.pointCount == capture.signature.pointCount, "the capture miscounts its points")
    }

    // MARK: Checks

    private static func check(_ batch: FrameInk, of capture: StrokeCapture, profile: CaptureProfile) {
        let strokes = capture.strokes
        precondition(strokes.indices.contains(batch.strokeIndex), "an ink batch names a stroke that does not exist")
        precondition(batch.points.count <= 1, "one frame made more than one point")
        let stroke = strokes[batch.strokeIndex]
        if let point = batch.points.first {
            check(point, profile: profile)
            precondition(stroke.points.last == point, "an ink batch's point is not the stroke's newest")
            precondition(capture.isPenDown, "ink while the pen is up")
        }
        if batch.endsStroke {
            precondition(!capture.isPenDown, "a stroke ended with the pen still down")
            precondition(stroke.points.last?.flags.contains(.strokeEnd) ?? false, "an ended stroke without its end flag")
            precondition(stroke.interruption == batch.interruption, "the batch and the stroke disagree on why it ended")
        }
    }

    private static func check(_ point: InkPoint, profile: CaptureProfile) {
        precondition(
            point.x.isFinite && point.y.isFinite && (0...1).contains(point.x) && (0...1).contains(point.y),
            "a point outside the normalised signing area")
        precondition(
            (profile.x.minimum...profile.x.maximum).contains(point.deviceX)
                && (profile.y.minimum...profile.y.maximum).contains(point.deviceY),
            "a point's device units outside the axis range")
        if let pressure = point.pressure {
            precondition(profile.pressure != nil, "pressure from a pad without a pressure axis")
            precondition(pressure.isFinite && (0...1).contains(pressure), "a pressure outside 0…1")
        }
        precondition(point.tiltX == nil || profile.tiltX != nil, "tilt from a pad without a tilt axis")
        precondition(point.tiltY == nil || profile.tiltY != nil, "tilt from a pad without a tilt axis")
    }

    private static func check(_ signature: Signature, isPenDown: Bool, profile: CaptureProfile) {
        var count = 0
        var previous: Int64?
        for (s, stroke) in signature.strokes.enumerated() {
            guard let first = stroke.points.first, let last = stroke.points.last else {
                preconditionFailure("stroke \(s) is empty")
            }
            precondition(first.flags.contains(.strokeStart), "stroke \(s) lacks its start flag")
            var strokePrevious: Int64?
            for (i, point) in stroke.points.enumerated() {
                check(point, profile: profile)
                if let strokePrevious {
                    precondition(point.time >= strokePrevious, "time runs backwards within stroke \(s)")
                }
                if let previous { precondition(point.time >= previous, "time runs backwards from one stroke to the next") }
                strokePrevious = point.time
                previous = point.time
                precondition(i == 0 || !point.flags.contains(.strokeStart), "a start flag inside stroke \(s)")
                precondition(
                    i == stroke.points.count - 1 || !point.flags.contains(.strokeEnd), "an end flag inside stroke \(s)")
            }
            let isOpen = isPenDown && s == signature.strokes.count - 1
            precondition(last.flags.contains(.strokeEnd) != isOpen, "stroke \(s) is open or ended wrongly")
            precondition(
                stroke.isInterrupted == last.flags.contains(.interrupted), "stroke \(s)'s interruption and flag disagree")
            count += stroke.points.count
        }
        precondition(count == signature.pointCount, "pointCount is not the number of points")
        precondition(
            signature.gaps.count >= signature.strokes.reduce(0) { $0 + ($1.isInterrupted ? 1 : 0) }, "an interrupted stroke without a gap")

        precondition(signature.hover.count <= StrokeBuilder.maximumHoverPoints, "more hover samples than the bound")
        var hoverPrevious: Int64?
        for point in signature.hover {
            check(point, profile: profile)
            if let hoverPrevious { precondition(point.time >= hoverPrevious, "hover time runs backwards") }
            hoverPrevious = point.time
        }

        // What the agent and consentctl read from a finished capture.
        if let start = signature.startTime, let end = signature.endTime {
            // SignatureStrokes(signature) in the agent filters the hover samples with `start...end`.
            precondition(start <= end, "the signature ends before it starts")
        }
        precondition(signature.duration >= .zero, "a negative duration")
        if let box = signature.boundingBox {
            precondition(
                box.minX >= 0 && box.minY >= 0 && box.maxX <= 1 && box.maxY <= 1 && box.width >= 0 && box.height >= 0,
                "the bounding box leaves the signing area")
        }
        let length = signature.inkLength
        precondition(length.isFinite && length >= 0, "an ink length that is not a finite length")
        _ = signature.isInterrupted

        for requirement in Self.requirements {
            do {
                try signature.validate(requirement)
            } catch let error as SignaturePadError {
                precondition(
                    error.code == .emptySignature || error.code == .signatureTooShort,
                    "the signature check threw \(error.code)")
            } catch {
                preconditionFailure("the signature check threw a foreign error: \(error)")
            }
        }

        // The same ink held to the bar of UI-drawn strokes: pad time must never look like it runs backwards.
        let origin = Double(signature.startTime ?? 0)
        let drawn = signature.strokes.map { stroke in
            stroke.points.map { SignatureRequirements.DrawnPoint(x: $0.x, y: $0.y, t: (Double($0.time) - origin) / 1000) }
        }
        let heightPerWidth = (profile.y.lengthMM ?? 0) / (profile.x.lengthMM ?? 1)
        do {
            try SignatureRequirements().check(drawn: drawn, heightPerWidth: heightPerWidth)
        } catch let error as SignaturePadError {
            precondition(error.code != .timeRunsBackwards, "pad ink fails the drawn strokes' time check")
        } catch {
            preconditionFailure("the drawn-strokes check threw a foreign error: \(error)")
        }
    }

    // MARK: Input

    /// A pad whose description comes from the input: any kind, slot count and axis ranges, hostile ones included
    /// (minimum above maximum, zero or negative resolution, the extremes of Int32).
    private static func describedPad(_ reader: inout FuzzByteReader) -> PadDescription? {
        guard let kindByte = reader.byte(), let slotByte = reader.byte(),
            let xMin = reader.int32(), let xMax = reader.int32(), let xRes = reader.int32(),
            let yMin = reader.int32(), let yMax = reader.int32(), let yRes = reader.int32(),
            let pMin = reader.int32(), let pMax = reader.int32(), let tMin = reader.int32(), let tMax = reader.int32()
        else { return nil }
        let kinds: [PadDescription.Kind] = [.pen, .touch, .multitouch]
        return PadDescription(
            node: "/dev/input/event99", name: "Fuzzed Pad", kind: kinds[Int(kindByte) % kinds.count],
            x: AxisInfo(minimum: xMin, maximum: xMax, resolution: xRes),
            y: AxisInfo(minimum: yMin, maximum: yMax, resolution: yRes), pressure: AxisInfo(minimum: pMin, maximum: pMax),
            tiltX: AxisInfo(minimum: tMin, maximum: tMax), tiltY: AxisInfo(minimum: tMin, maximum: tMax),
            slotCount: Int(Int8(bitPattern: slotByte)))
    }
}

/// Uneven chunk sizes, 1…61 bytes, from a 5-bit seed (xorshift32): the same input always splits the same way, so
/// a crash replays, and the 32 seeds split records at many different offsets (the decoder's partial-record path).
struct ChunkSizes {
    private var state: UInt32

    init(seed: UInt8) { state = 0x9E37_79B9 ^ UInt32(seed) &* 0x0101_0101 }

    mutating func next() -> Int {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return 1 + Int(state % 61)
    }
}
