/// Reads a method's `params` with the checks of the protocol: unknown members are refused before anything else
/// happens, and every fault names the offending field (`-32602` with `data.field`).
public struct ParamsReader: Sendable {
    public let params: [String: RPCValue]

    /// - Throws: `RPCErrorObject` (`-32602`) naming the first unknown member, in sorted order.
    public init(_ params: [String: RPCValue], allowed: Set<String>) throws(RPCErrorObject) {
        if let unknown = params.keys.filter({ !allowed.contains($0) }).sorted().first {
            throw .unknownParameter(unknown)
        }
        self.params = params
    }

    public func string(_ key: String) throws(RPCErrorObject) -> String {
        guard let value = try optionalString(key) else { throw .invalidParams(field: key, "\"\(key)\" is required") }
        return value
    }

    public func optionalString(_ key: String) throws(RPCErrorObject) -> String? {
        switch params[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other?: throw .invalidParams(field: key, "\"\(key)\" must be a string, not \(other.typeName)")
        }
    }

    public func bool(_ key: String) throws(RPCErrorObject) -> Bool {
        guard let value = try optionalBool(key) else { throw .invalidParams(field: key, "\"\(key)\" is required") }
        return value
    }

    public func optionalBool(_ key: String) throws(RPCErrorObject) -> Bool? {
        switch params[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case let other?: throw .invalidParams(field: key, "\"\(key)\" must be a boolean, not \(other.typeName)")
        }
    }

    public func integer(_ key: String) throws(RPCErrorObject) -> Int64 {
        switch params[key] {
        case nil, .null?: throw .invalidParams(field: key, "\"\(key)\" is required")
        case .integer(let i)?: return i
        case let other?: throw .invalidParams(field: key, "\"\(key)\" must be an integer, not \(other.typeName)")
        }
    }

    /// An array of booleans where null means "not answered".
    public func optionalBoolArray(_ key: String) throws(RPCErrorObject) -> [Bool?] {
        guard case .array(let items)? = params[key] else {
            throw .invalidParams(field: key, "\"\(key)\" must be an array of booleans")
        }
        var result: [Bool?] = []
        for (i, item) in items.enumerated() {
            switch item {
            case .bool(let b): result.append(b)
            case .null: result.append(nil)
            default: throw .invalidParams(field: "\(key)[\(i)]", "\"\(key)[\(i)]\" must be a boolean or null")
            }
        }
        return result
    }

    public func stringArray(_ key: String) throws(RPCErrorObject) -> [String] {
        guard case .array(let items)? = params[key] else {
            throw .invalidParams(field: key, "\"\(key)\" must be an array of strings")
        }
        var result: [String] = []
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item else {
                throw .invalidParams(field: "\(key)[\(i)]", "\"\(key)[\(i)]\" must be a string")
            }
            result.append(s)
        }
        return result
    }

    /// A member of any JSON type, nil when absent or null.
    public func optionalValue(_ key: String) -> RPCValue? {
        switch params[key] {
        case nil, .null?: return nil
        case let value?: return value
        }
    }
}
