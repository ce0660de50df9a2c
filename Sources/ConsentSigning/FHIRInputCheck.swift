import ConsentCore
import EnteredText
import Foundation
import UTCTime

/// Checks the FHIR a kiosk UI hands to `flow.complete` (`patient`, `location`) before anything is composed, so
/// that bad input is refused as bad input, naming the offending member, and never reaches the record or is
/// mistaken for a storage fault.
///
/// The checks follow the R4 JSON shapes of what a record keeps: a Patient's `resourceType`, `id`, `name`
/// (HumanName), `gender`, `birthDate` and the other repeating members a record carries along, and an Address's
/// members. Messages name the member and the expected form, never the value (it is PHI or client-chosen text).
///
/// The text they hold is held to `EnteredText`'s rule: a HumanName's parts are names (letters, marks, digits,
/// spaces, apostrophes, hyphens, periods; at most 200 characters each), and no string anywhere in the Patient or
/// the Address, nor a member's name, may hold a control, bidi or other invisible formatting character.
public enum FHIRInputCheck {
    /// A refused member: `field` is a path such as `patient.name[0].given[1]` (member names of FHIR only).
    public struct Fault: Error, Sendable, Hashable, CustomStringConvertible {
        public var field: String
        public var message: String
        /// The member has the right shape, but its text breaks `EnteredText`'s rule (`InvalidField` on the wire,
        /// where a wrong shape is `InvalidParams`).
        public var isText: Bool

        public init(field: String, _ message: String, isText: Bool = false) {
            self.field = field
            self.message = message
            self.isText = isText
        }

        public var description: String { "\(field): \(message)" }
    }

    /// The repeating Patient members whose items are FHIR data types or backbone elements (JSON objects).
    static let patientObjectArrays = [
        "identifier", "name", "telecom", "address", "photo", "contact", "communication", "generalPractitioner", "link",
        "extension", "modifierExtension", "contained",
    ]
    /// HumanName's string members and its string arrays.
    static let nameStrings = ["use", "text", "family"]
    static let nameStringArrays = ["given", "prefix", "suffix"]
    /// Address's members (all of them: an Address has no others but `extension` and `period`).
    static let addressStrings = ["id", "use", "type", "text", "city", "district", "state", "postalCode", "country"]
    static let addressMembers = Set(addressStrings + ["line", "period", "extension"])
    /// FHIR's AdministrativeGender codes.
    static let genders: Set<String> = ["male", "female", "other", "unknown"]

    /// Checks a Patient.
    ///
    /// - Parameter today: the completion's instant; a birth date after its calendar day (in the earliest time zone,
    ///   UTC+14, so no kiosk's "today" is refused) is refused.
    public static func patient(_ value: JSONValue, today: Date, field: String = "patient") throws {
        guard let members = value.objectValue else { throw Fault(field: field, "must be a FHIR Patient object") }
        guard let type = members["resourceType"] else {
            throw Fault(field: "\(field).resourceType", "is required and must be \"Patient\"")
        }
        guard type.stringValue == "Patient" else { throw Fault(field: "\(field).resourceType", "must be \"Patient\"") }
        if let id = members["id"] {
            guard let s = id.stringValue, ParticipantPatient.isFHIRID(s) else {
                throw Fault(field: "\(field).id", "must be a string of 1 to 64 letters, digits, '-' or '.'")
            }
        }
        if let gender = members["gender"] {
            guard let s = gender.stringValue, genders.contains(s) else {
                throw Fault(field: "\(field).gender", "must be one of female, male, other, unknown")
            }
        }
        if let active = members["active"], active.boolValue == nil {
            throw Fault(field: "\(field).active", "must be a boolean")
        }
        if let birthDate = members["birthDate"] {
            guard let s = birthDate.stringValue, let date = FHIRDate(s) else {
                throw Fault(field: "\(field).birthDate", "must be a FHIR date on the calendar (YYYY, YYYY-MM or YYYY-MM-DD)")
            }
            guard !isAfter(date, latestToday(today)) else {
                throw Fault(field: "\(field).birthDate", "must not be in the future")
            }
        }
        for key in patientObjectArrays {
            guard let member = members[key] else { continue }
            let path = "\(field).\(key)"
            guard let items = member.arrayValue else { throw Fault(field: path, "must be an array of objects") }
            for (i, item) in items.enumerated() {
                guard let object = item.objectValue else { throw Fault(field: "\(path)[\(i)]", "must be an object") }
                if key == "name" { try humanName(object, field: "\(path)[\(i)]") }
                if key == "address" { try address(item, field: "\(path)[\(i)]") }
            }
        }
        for (key, member) in members {
            // A member's name is the client's text: only a FHIR member's name goes into the path.
            try visibleText(member, field: patientMembers.contains(key) ? "\(field).\(key)" : field)
            try visibleText(.string(key), field: field)
        }
    }

    /// The Patient members whose names a refusal's path may carry.
    static let patientMembers = Set(patientObjectArrays + ["resourceType", "id", "meta", "implicitRules", "language", "text",
        "active", "gender", "birthDate", "deceasedBoolean", "deceasedDateTime", "maritalStatus", "multipleBirthBoolean",
        "multipleBirthInteger", "managingOrganization"])

    /// Every string in `value` (and every member's name) holds no control character (`EnteredText.checkNoControls`).
    static func visibleText(_ value: JSONValue, field: String) throws {
        switch value {
        case .string(let text):
            do throws(EnteredText.Refusal) { try EnteredText.checkNoControls(text) } catch {
                throw Fault(field: field, "\(error)", isText: true)
            }
        case .array(let items):
            for item in items { try visibleText(item, field: field) }
        case .object(let members):
            for (key, member) in members {
                try visibleText(.string(key), field: field)
                try visibleText(member, field: field)
            }
        default:
            return
        }
    }

    /// Checks an Address (the `location` of `flow.complete`, or a Patient's address).
    public static func address(_ value: JSONValue, field: String = "location") throws {
        guard let members = value.objectValue else { throw Fault(field: field, "must be a FHIR Address object") }
        // The member's name is the client's text: say there is one, not which.
        if members.keys.contains(where: { !addressMembers.contains($0) }) {
            throw Fault(field: field, "has a member a FHIR Address does not define")
        }
        for key in addressStrings {
            if let member = members[key], member.stringValue == nil {
                throw Fault(field: "\(field).\(key)", "must be a string")
            }
        }
        if let line = members["line"] {
            guard let items = line.arrayValue else { throw Fault(field: "\(field).line", "must be an array of strings") }
            for (i, item) in items.enumerated() where item.stringValue == nil {
                throw Fault(field: "\(field).line[\(i)]", "must be a string")
            }
        }
        if let period = members["period"], period.objectValue == nil {
            throw Fault(field: "\(field).period", "must be an object")
        }
        if let extensions = members["extension"], !(extensions.arrayValue?.allSatisfy { $0.objectValue != nil } ?? false) {
            throw Fault(field: "\(field).extension", "must be an array of objects")
        }
        for (key, member) in members { try visibleText(member, field: "\(field).\(key)") }
    }

    private static func humanName(_ members: [String: JSONValue], field: String) throws {
        for key in nameStrings {
            guard let member = members[key] else { continue }
            guard let text = member.stringValue else { throw Fault(field: "\(field).\(key)", "must be a string") }
            // `use` is a code; `family` is a name; `text` is the whole name as a record system spells it
            // ("LOVELACE, ADA"), any visible text.
            switch key {
            case "family": try namePart(text, field: "\(field).\(key)")
            case "text": try nameText(text, field: "\(field).\(key)")
            default: break
            }
        }
        for key in nameStringArrays {
            guard let member = members[key] else { continue }
            guard let items = member.arrayValue else { throw Fault(field: "\(field).\(key)", "must be an array of strings") }
            for (i, item) in items.enumerated() {
                guard let text = item.stringValue else { throw Fault(field: "\(field).\(key)[\(i)]", "must be a string") }
                // Given names are names; a prefix or suffix is a title ("M.D., Ph.D."), any visible text.
                if key == "given" {
                    try namePart(text, field: "\(field).\(key)[\(i)]")
                } else {
                    try nameText(text, field: "\(field).\(key)[\(i)]")
                }
            }
        }
    }

    /// A part of a name, held to `EnteredText`'s rule for names (the agent's own limit of 200 characters).
    private static func namePart(_ text: String, field: String) throws {
        do throws(EnteredText.Refusal) {
            try EnteredText.checkName(text, maximumCharacters: ConsentSession.maximumNameLength)
        } catch {
            throw Fault(field: field, "\(error)", isText: true)
        }
    }

    /// A name's other text (`text`, a prefix, a suffix), held to `EnteredText`'s rule for visible text.
    private static func nameText(_ text: String, field: String) throws {
        do throws(EnteredText.Refusal) {
            try EnteredText.checkVisible(text, maximumCharacters: ConsentSession.maximumNameLength)
        } catch {
            throw Fault(field: field, "\(error)", isText: true)
        }
    }

    /// The calendar day it is somewhere on Earth at `instant` at the latest (UTC+14).
    private static func latestToday(_ instant: Date) -> (year: Int, month: Int, day: Int) {
        let time = UTCTime(wallClockOf: instant, utcOffset: 14 * 3600)
        return (time.year, time.month, time.day)
    }

    /// Whether the date (in its own precision) begins after `today`.
    private static func isAfter(_ date: FHIRDate, _ today: (year: Int, month: Int, day: Int)) -> Bool {
        if date.year != today.year { return date.year > today.year }
        guard let month = date.month else { return false }
        if month != today.month { return month > today.month }
        guard let day = date.day else { return false }
        return day > today.day
    }
}
