import AuditTrail
import Foundation

/// The values consentd's settings take, each with its rule, checked once where the value enters: the config file's
/// `AgentConfigFile.parse` builds them from JSON, `AgentOptions.merge` from the command line's flags. A value of one of
/// these types has passed its rule, so nothing downstream checks it again, and a key and its flag (`maxLineBytes` and
/// `--max-line-bytes`) are refused with the same words, the type's `SettingRefusal.rule`.

/// Why a setting's value was refused, phrased to follow the key or flag's name: the config file puts it after
/// `"key"` (`consentd.json: "maxLineBytes" must be positive`), the merge after the flag (`--max-line-bytes must be
/// positive.`).
public struct SettingRefusal: Error, Sendable, Hashable {
    public let rule: String

    public init(rule: String) { self.rule = rule }
}

/// A setting given in seconds (a timeout, a grace period, a backoff, a recheck interval), from a config key or a
/// flag, as the `Duration` the agent waits.
///
/// Every such setting goes through here, so each has the same range and the same refusal: at least a millisecond
/// (the unit the agent converts to; a smaller positive value would become a wait of zero) and at most 366 days. The
/// upper bound is not a policy on how long a kiosk may wait: it keeps the conversion to whole milliseconds exact
/// and in range. Without it, `"inactivityTimeoutSeconds": 1e300` stopped consentd at start-up in a Double-to-Int64
/// trap instead of an error naming the key (found by the FuzzConfig target, docs/RELIABILITY.md).
public struct SettingSeconds: Sendable, Hashable {
    public typealias Refusal = SettingRefusal

    /// A millisecond.
    public static let minimum = 0.001
    /// 366 days, in seconds.
    public static let maximum = 31_622_400.0

    /// The value as given, for what keeps seconds as a number (`StaffSettings.lockoutSeconds`).
    public let seconds: Double
    public let duration: Duration

    /// - Throws: `SettingRefusal` for a value that is not finite, not positive, below a millisecond or above 366 days.
    public init(_ seconds: Double) throws(SettingRefusal) {
        guard seconds.isFinite, seconds > 0 else { throw Refusal(rule: "must be a positive number of seconds") }
        guard seconds >= Self.minimum else { throw Refusal(rule: "must be at least 0.001 seconds (a millisecond)") }
        guard seconds <= Self.maximum else { throw Refusal(rule: "must be at most 31622400 seconds (366 days)") }
        self.seconds = seconds
        // In range, so the product is below 2^35 and converts exactly.
        duration = .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

/// A seconds setting where 0 turns the thing off (`inactivityWarningSeconds`: 0 is no warning); any other value
/// has `SettingSeconds`'s range.
public struct SettingSecondsOrOff: Sendable, Hashable {
    public typealias Refusal = SettingRefusal

    /// nil: off.
    public let seconds: SettingSeconds?

    public static let off = SettingSecondsOrOff(nil)

    private init(_ seconds: SettingSeconds?) { self.seconds = seconds }

    /// - Throws: `SettingRefusal` for a negative or non-finite value, or a positive one out of `SettingSeconds`' range.
    public init(_ seconds: Double) throws(SettingRefusal) {
        if seconds == 0 {
            self.seconds = nil
            return
        }
        guard seconds.isFinite, seconds > 0 else { throw Refusal(rule: "must be 0 (off) or a positive number of seconds") }
        self.seconds = try SettingSeconds(seconds)
    }
}

/// A count that must be at least 1: a size in bytes or messages, a number of connections, flows, requests or
/// points (`maxLineBytes`, `maxInFlight`, `outboundQueueMessages`, `minimumSignaturePoints`, `maxConnections`,
/// `maxFlows`). Zero would stop the agent from doing the thing at all, so it is refused rather than read as "none".
public struct SettingCount: Sendable, Hashable {
    public typealias Refusal = SettingRefusal

    public let value: Int

    /// - Throws: `SettingRefusal` for 0 or less.
    public init(_ value: Int) throws(SettingRefusal) {
        guard value > 0 else { throw Refusal(rule: "must be positive") }
        self.value = value
    }
}

/// The least ink a pad signature needs, in widths of the signing area (`minimumInkLength`): 0 accepts any mark.
public struct SettingInkLength: Sendable, Hashable {
    public typealias Refusal = SettingRefusal

    public let value: Double

    /// - Throws: `SettingRefusal` for a negative or non-finite value.
    public init(_ value: Double) throws(SettingRefusal) {
        guard value.isFinite, value >= 0 else { throw Refusal(rule: "must be a number of 0 or more") }
        self.value = value
    }
}

/// A CUPS destination the participant's copy is printed on (`printer`, `--printer`).
///
/// lpadmin(8) takes up to 127 printable characters other than space, tab, `/`, `\\`, `?`, `'`, `"` and `#`; an
/// instance after a `/` is not one we print on. Checked here so a name CUPS cannot have is refused at start-up,
/// not when the first copy fails to print.
public struct PrinterName: Sendable, Hashable {
    public typealias Refusal = SettingRefusal

    public let name: String

    /// - Throws: `SettingRefusal` for an empty name or one CUPS cannot have.
    public init(_ name: String) throws(SettingRefusal) {
        guard !name.isEmpty else { throw Refusal(rule: "must not be empty") }
        guard Self.isDestinationName(name) else {
            throw Refusal(rule: "must be a CUPS destination name (no spaces, \"/\" or \"#\"; at most 127 characters)")
        }
        self.name = name
    }

    /// Whether `name` can be a CUPS destination.
    public static func isDestinationName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 127
            && name.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7f && !"/\\?'\"#".unicodeScalars.contains($0) }
    }
}

/// A setting that is one word of a fixed set (`logLevel`, `fhirMode`, `paper`, `printCopy`, `staffCountersignature`),
/// read as the enum the agent uses, so nothing downstream matches the word again or needs a fallback for one it
/// does not know. The enum's cases, in declaration order, are the words the refusal offers.
public enum SettingChoice {
    /// - Throws: `SettingRefusal` naming the word given and the words allowed.
    public static func parse<Choice>(_ word: String, as _: Choice.Type = Choice.self) throws(SettingRefusal) -> Choice
    where Choice: CaseIterable & RawRepresentable, Choice.RawValue == String {
        guard let choice = Choice(rawValue: word) else {
            let allowed = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            throw SettingRefusal(rule: "is \"\(word)\"; use \(allowed)")
        }
        return choice
    }
}

/// Whether the person obtaining consent countersigns every consent (`staffCountersignature`).
public enum StaffCountersignature: String, Sendable, Hashable, CaseIterable {
    case off
    /// Every consent needs a staff PIN and countersignature; needs `staffFile`.
    case required
}

/// An identifier that names the kiosk or its site in records and the audit log (`kioskId`, `site`): the audit log's
/// identifier shape (`AuditIdentifier`), so a configured name can never carry other text into it.
public struct SettingIdentifier: Sendable, Hashable {
    public typealias Refusal = SettingRefusal

    public let value: String

    /// - Throws: `SettingRefusal` for a value that is not an `AuditIdentifier`.
    public init(_ value: String) throws(SettingRefusal) {
        guard AuditIdentifier.isValid(value) else {
            throw Refusal(rule: "must be 1 to \(AuditIdentifier.maxLength) letters, digits and . _ : - only")
        }
        self.value = value
    }
}

/// The time zone of the signing time in the PDF and of an approval's days (`timeZone`), resolved once, so what uses
/// it never falls back to the system's zone for a name it cannot resolve.
public struct SettingTimeZone: Sendable, Hashable {
    public typealias Refusal = SettingRefusal

    /// The name as configured (`Europe/Zurich`), as the configuration hash records it.
    public let identifier: String
    public let zone: TimeZone

    /// - Throws: `SettingRefusal` for an empty name or one that is not a time zone.
    public init(_ identifier: String) throws(SettingRefusal) {
        guard !identifier.isEmpty else { throw Refusal(rule: "must not be empty") }
        guard let zone = TimeZone(identifier: identifier) else {
            throw Refusal(rule: "is \"\(identifier)\", not a time zone; use an IANA name such as \"Europe/Zurich\"")
        }
        self.identifier = identifier
        self.zone = zone
    }
}

/// The locale of the consent PDF (`locale`). Foundation makes a `Locale` of any text, so the shape is checked here:
/// a 2–3 letter language, then optional script, region and variant subtags (`en`, `en_US`, `de-CH`, `sr_Latn_RS`);
/// a POSIX `.UTF-8` or `@euro` suffix, as in `LANG`, is fine.
public struct SettingLocale: Sendable, Hashable {
    public typealias Refusal = SettingRefusal

    public let identifier: String

    /// - Throws: `SettingRefusal` for an empty identifier or one that is not shaped like a locale.
    public init(_ identifier: String) throws(SettingRefusal) {
        guard !identifier.isEmpty else { throw Refusal(rule: "must not be empty") }
        guard Self.isLocaleIdentifier(identifier) else {
            throw Refusal(rule: "is \"\(identifier)\"; use a language and region such as \"en_US\" or \"de_CH\"")
        }
        self.identifier = identifier
    }

    static func isLocaleIdentifier(_ identifier: String) -> Bool {
        let base = identifier.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = base.split(separator: "_", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
