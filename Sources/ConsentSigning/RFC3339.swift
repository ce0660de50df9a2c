import Foundation

/// Parses RFC 3339 date-times (with or without fractional seconds, any offset).
enum RFC3339 {
    static func date(from text: String) -> Date? {
        // Formatters are not Sendable; making them per call keeps this free of shared mutable state.
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
