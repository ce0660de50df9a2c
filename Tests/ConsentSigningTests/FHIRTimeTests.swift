import Foundation
import Testing

@testable import ConsentSigning

@Suite struct FHIRTimeTests {
    @Test(arguments: [
        (1_789_380_930.0, "2026-09-14T10:15:30Z"),
        (1_789_380_930.25, "2026-09-14T10:15:30.25Z"),
        (1_789_380_930.1239, "2026-09-14T10:15:30.123Z"),
        (1_471_427_680.0, "2016-08-17T09:54:40Z"),
        (951_782_400.0, "2000-02-29T00:00:00Z"),
        (-1.0, "1969-12-31T23:59:59Z"),
    ])
    func instantIsUTCWithZ(seconds: Double, expected: String) {
        #expect(FHIRTime.instant(Date(timeIntervalSince1970: seconds)) == expected)
    }

    /// Swift-FHIR's `%g` seconds: whole seconds plain, fractions with up to 6 significant digits.
    @Test(arguments: [
        (1_471_427_680.0, "2016-08-17T09:54:40Z"),
        (1_471_427_645.5, "2016-08-17T09:54:05.5Z"),
        (1_471_427_680.125, "2016-08-17T09:54:40.125Z"),
    ])
    func stu3RenderingMatchesSwiftFHIR(seconds: Double, expected: String) {
        #expect(FHIRTime.stu3(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func yearIsUTC() {
        // 2025-12-31T23:30:00-02:00 is 2026-01-01T01:30Z.
        #expect(FHIRTime.year(of: Date(timeIntervalSince1970: 1_767_231_000)) == 2026)
    }
}
