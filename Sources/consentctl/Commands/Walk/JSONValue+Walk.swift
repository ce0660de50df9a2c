import JSON

// The walk reads view models of steps it may not know: these read a member as the type the walk expects, and give
// nil for anything else, as a cast would.
extension JSONValue {
    /// A whole number that fits `Int` (also when written with a fraction, `2.0`).
    var intValue: Int? {
        switch self {
        case .integer(let i): return Int(exactly: i)
        case .number(let d): return Int(exactly: d)
        default: return nil
        }
    }

    /// An array of strings only.
    var stringsValue: [String]? {
        guard let items = arrayValue else { return nil }
        var strings: [String] = []
        for item in items {
            guard let string = item.stringValue else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// An array of objects only.
    var objectsValue: [JSONValue]? {
        guard let items = arrayValue, items.allSatisfy({ $0.objectValue != nil }) else { return nil }
        return items
    }

    /// The value when it is an object.
    var asObject: JSONValue? { objectValue != nil ? self : nil }
}
