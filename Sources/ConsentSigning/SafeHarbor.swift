import ConsentCore

/// The HIPAA Safe Harbor reductions C3-PRO's `DeIdentifier` applies, with its birth-year bug fixed
/// (docs/COMPLIANCE.md).
///
/// Pure functions over FHIR JSON, so each rule is table-tested on its own. Only what Safe Harbor allows survives:
/// the year of birth (ages over 90 folded into one year), the state, and for the US the first three ZIP digits
/// unless that area has 20,000 people or fewer.
public enum SafeHarbor {
    /// The 3-digit ZIP prefixes that HHS lists as covering 20,000 people or fewer (2000 Census); reported as `000`.
    public static let restrictedZIP3Prefixes: Set<String> = [
        "036", "059", "063", "102", "203", "556", "692", "790", "821", "823", "830", "831", "878", "879", "884",
        "890", "893",
    ]

    /// The oldest age reported as such; anyone older gets the birth year of someone this old.
    public static let maximumReportedAge = 90

    /// The birth year to report: `max(birthYear, currentYear − 90)`.
    ///
    /// C3 computed `currentYear` for everyone younger than 90 (a bug since 2015); this is the rule its README and
    /// `ProfileManager` intend.
    public static func reportedBirthYear(birthYear: Int, currentYear: Int) -> Int {
        max(birthYear, currentYear - maximumReportedAge)
    }

    /// Reduces a FHIR `Address` to what may leave the clinic: `country`; `state`; for the US, the ZIP3 (or `000`).
    ///
    /// C3 treats a country as the US when it starts with "us" (ISO code `US`, `USA`); the spelled-out names are
    /// accepted too, since a kiosk's configured address may use them. A postal code whose first three characters are
    /// not digits is dropped rather than guessed at.
    ///
    /// - Returns: the reduced Address, or nil when nothing is left.
    /// - Throws: `.invalidLocation` when the value is not an Address object or a used member is not a string.
    public static func reducedAddress(_ address: JSONValue) throws -> JSONValue? {
        guard let members = address.objectValue else {
            throw ConsentSigningError(
                .invalidLocation, "the location must be a FHIR Address object, found \(address.typeName)")
        }
        func string(_ key: String) throws -> String? {
            guard let value = members[key], !value.isNull else { return nil }
            guard let s = value.stringValue else {
                throw ConsentSigningError(.invalidLocation, "Address.\(key) must be a string, found \(value.typeName)")
            }
            let trimmed = s.trimmingSpaces
            return trimmed.isEmpty ? nil : trimmed
        }
        let country = try string("country")
        let state = try string("state")
        let postalCode = try string("postalCode")

        var reduced: [String: JSONValue] = [:]
        if let country { reduced["country"] = .string(country) }
        if let state { reduced["state"] = .string(state) }
        if let country, isUnitedStates(country), let postalCode, let zip3 = zip3(of: postalCode) {
            reduced["postalCode"] = .string(zip3)
        }
        return reduced.isEmpty ? nil : .object(reduced)
    }

    /// The reportable ZIP3 of a US postal code: its first three digits, or `000` for a restricted prefix.
    public static func zip3(of postalCode: String) -> String? {
        let prefix = String(postalCode.prefix(3))
        guard prefix.count == 3, prefix.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return restrictedZIP3Prefixes.contains(prefix) ? "000" : prefix
    }

    static func isUnitedStates(_ country: String) -> Bool {
        let lowered = country.lowercased()
        return lowered.hasPrefix("us") || ["united states", "united states of america", "u.s.", "u.s.a."].contains(lowered)
    }
}

extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
