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
}
