import ConsentCore
import Foundation
import Testing

@testable import ConsentSigning

@Suite struct SafeHarborTests {
    /// Signing in 2026: ages up to 90 keep their birth year; older ages all report 1936 (the fixed C3 bug).
    @Test(arguments: [
        (1937, 1937),  // 89
        (1936, 1936),  // 90
        (1935, 1936),  // 91
        (1900, 1936),  // 126
        (1990, 1990),  // 36: C3 reported 2026 here
        (2026, 2026),  // born this year
    ])
    func birthYearIsCappedAtNinety(birthYear: Int, reported: Int) {
        #expect(SafeHarbor.reportedBirthYear(birthYear: birthYear, currentYear: 2026) == reported)
    }

    @Test(arguments: SafeHarbor.restrictedZIP3Prefixes.sorted())
    func restrictedPrefixBecomesZeros(prefix: String) throws {
        let reduced = try SafeHarbor.reducedAddress(["country": "US", "state": "NY", "postalCode": .string(prefix + "45")])
        #expect(reduced == ["country": "US", "state": "NY", "postalCode": "000"])
    }

    @Test func thereAreSeventeenRestrictedPrefixes() {
        #expect(SafeHarbor.restrictedZIP3Prefixes.count == 17)
    }

    @Test(arguments: [
        // (address, expected): US keeps state and ZIP3; everything else is dropped.
        (
            ["country": "US", "state": "MA", "city": "Boston", "line": ["300 Longwood Ave"], "postalCode": "02115-5724"]
                as JSONValue,
            JSONValue?.some(["country": "US", "state": "MA", "postalCode": "021"])
        ),
        (["country": "USA", "state": "CA", "postalCode": "94305"], ["country": "USA", "state": "CA", "postalCode": "943"]),
        (["country": "United States", "postalCode": "10001"], ["country": "United States", "postalCode": "100"]),
        (["country": "us", "postalCode": "12"], ["country": "us"]),  // too short: no postal code
        (["country": "US", "postalCode": "K1A 0B1"], ["country": "US"]),  // not digits: dropped, not guessed
        (["country": "CH", "state": "BE", "city": "Bern", "postalCode": "3011"], ["country": "CH", "state": "BE"]),
        (["country": "DE", "postalCode": "10115"], ["country": "DE"]),
        (["state": "ON", "postalCode": "90210"], ["state": "ON"]),  // no country: not treated as the US
        (["postalCode": "90210", "city": "Beverly Hills"], nil),
        (["country": "US", "state": "  ", "postalCode": nil], ["country": "US"]),
        ([:], nil),
    ] as [(JSONValue, JSONValue?)])
    func addressReduction(address: JSONValue, expected: JSONValue?) throws {
        #expect(try SafeHarbor.reducedAddress(address) == expected)
    }

    @Test func locationMustBeAnAddressObject() {
        #expect(throws: ConsentSigningError(.invalidLocation, "")) { try SafeHarbor.reducedAddress("Boston") }
        #expect(throws: ConsentSigningError(.invalidLocation, "")) { try SafeHarbor.reducedAddress(["country": 1]) }
    }
}
