import UTCTime

/// A FHIR `date` (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`), parsed only as far as de-identification needs.
///
/// Patient.birthDate comes from a kiosk UI or a hospital system, so it is checked strictly: the R4 regular
/// expression for `date`, plus a real calendar day. A value that fails is refused, never guessed at.
public struct FHIRDate: Sendable, Hashable {
    public var year: Int
    public var month: Int?
    public var day: Int?

    /// Parses a FHIR date.
    ///
    /// - Returns: nil when the text is not a FHIR `date` in any of its three precisions.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        let lengths = [4, 2, 2]
        var numbers: [Int] = []
        for (index, part) in parts.enumerated() {
            guard part.count == lengths[index], part.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(part) else {
                return nil
            }
            numbers.append(n)
        }
        // FHIR's regex excludes year 0000; months and days must exist on the calendar.
        guard numbers[0] >= 1 else { return nil }
        year = numbers[0]
        if numbers.count > 1 {
            guard (1...12).contains(numbers[1]) else { return nil }
            month = numbers[1]
        }
        if numbers.count > 2, let month {
            guard CivilDate(year: year, month: month, day: numbers[2]) != nil else { return nil }
            day = numbers[2]
        }
    }
}
