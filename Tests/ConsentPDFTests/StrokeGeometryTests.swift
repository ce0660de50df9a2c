import Testing

@testable import ConsentPDF

@Suite struct StrokeGeometryTests {
    typealias P = StrokeGeometry.Point

    @Test func curvePassesThroughEveryPoint() {
        let points = [P(x: 0, y: 0), P(x: 0.5, y: 1), P(x: 1, y: 0), P(x: 0.2, y: 0.3)]
        let segments = StrokeGeometry.segments(points)
        #expect(segments.count == 3)
        for (segment, point) in zip(segments, points.dropFirst()) {
            #expect(segment.end == (point.x, point.y))
        }
        // Catmull-Rom tangents: the first control point of the middle segment follows (c - a) / 6.
        #expect(abs(segments[1].control1.x - (0.5 + (1 - 0) / 6)) < 1e-12)
        #expect(abs(segments[1].control1.y - (1 + (0 - 0) / 6)) < 1e-12)
    }

    @Test func aSinglePointHasNoSegments() {
        #expect(StrokeGeometry.segments([P(x: 0.5, y: 0.5)]).isEmpty)
    }

    @Test func pressureIsAveragedAndWidens() {
        let segments = StrokeGeometry.segments([P(x: 0, y: 0, pressure: 0.2), P(x: 1, y: 1, pressure: 0.6)])
        #expect(abs((segments[0].pressure ?? 0) - 0.4) < 1e-12)
        #expect(StrokeGeometry.lineWidth(base: 1, pressure: nil) == 1)
        #expect(StrokeGeometry.lineWidth(base: 1, pressure: 0) < StrokeGeometry.lineWidth(base: 1, pressure: 1))
    }

    @Test func fitKeepsTheSigningAreaShape() {
        let box = Rect(x: 0, y: 0, width: 300, height: 60)
        let fitted = StrokeGeometry.fit(aspectRatio: 3, into: box)
        #expect(fitted == Rect(x: 60, y: 0, width: 180, height: 60))
        #expect(StrokeGeometry.fit(aspectRatio: nil, into: box) == box)
        let wide = StrokeGeometry.fit(aspectRatio: 10, into: box)
        #expect(wide.width == 300 && wide.height == 30 && wide.y == 15)
    }

    /// Pressure widths grouped into runs drawn as one path each: every segment in a run, in order, within the
    /// tolerance of the run's width, and a new run exactly where the width moved further.
    @Test func widthRunsCoverEverySegmentWithinTheTolerance() {
        // The benchmark's signature: pressure rising 0.3 → 0.7 over 100 points.
        let ramp = (0..<100).map { P(x: Double($0) / 99, y: 0.5, pressure: 0.3 + 0.4 * Double($0) / 99) }
        let segments = StrokeGeometry.segments(ramp)
        let runs = StrokeGeometry.widthRuns(segments, base: 7.5)
        #expect(runs.first?.segments.lowerBound == 0 && runs.last?.segments.upperBound == segments.count)
        for (run, next) in zip(runs, runs.dropFirst()) {
            #expect(run.segments.upperBound == next.segments.lowerBound)
            #expect(!run.segments.isEmpty)
            // The next run starts only because its first width left this run's tolerance.
            #expect(abs(next.width - run.width) > StrokeGeometry.widthTolerance * run.width)
        }
        for run in runs {
            #expect(run.width == StrokeGeometry.lineWidth(base: 7.5, pressure: segments[run.segments.lowerBound].pressure))
            for index in run.segments {
                let width = StrokeGeometry.lineWidth(base: 7.5, pressure: segments[index].pressure)
                #expect(abs(width - run.width) <= StrokeGeometry.widthTolerance * run.width)
            }
        }
        // A width rising 0.32 % per segment moves 2 % in about six: far fewer paths than segments.
        #expect(runs.count > 5 && runs.count < segments.count / 4, "\(runs.count) runs")
    }

    @Test func widthRunsWithoutPressureOrWithAJump() {
        let plain = StrokeGeometry.segments([P(x: 0, y: 0), P(x: 0.5, y: 1), P(x: 1, y: 0)])
        #expect(StrokeGeometry.widthRuns(plain, base: 2) == [StrokeGeometry.WidthRun(segments: 0..<2, width: 2)])
        #expect(StrokeGeometry.widthRuns([], base: 2).isEmpty)
        // Steady pressure is one run; a sudden press starts a new one at that segment.
        let press = [0.5, 0.5, 0.5, 0.5, 0.9, 0.9].enumerated().map { P(x: Double($0.offset) / 5, y: 0, pressure: $0.element) }
        let runs = StrokeGeometry.widthRuns(StrokeGeometry.segments(press), base: 10)
        #expect(runs.map(\.segments) == [0..<3, 3..<4, 4..<5])
        #expect(runs.map(\.width) == [10 * (0.6 + 0.8 * 0.5), 10 * (0.6 + 0.8 * 0.7), 10 * (0.6 + 0.8 * 0.9)])
    }
}
