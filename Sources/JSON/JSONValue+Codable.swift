extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        // The decoder cannot be asked a value's type, only told one, and each wrong guess costs a thrown
        // DecodingError with its coding path. So the guesses go in the order a FHIR document needs them (strings,
        // then objects, then arrays, which are nearly all of it): reading the sample study's JSON was nearly a
        // quarter of the agent's start-up instructions when booleans and numbers were tried first. A boolean is
        // never decoded as a number nor a number as a boolean, and Int64 goes before Double, so every value keeps
        // the case it had. A value none of the guesses fits fails with the object's error: for an object with a bad
        // member, that names the member.
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
            return
        }
        if let s = try? container.decode(String.self) {
            self = .string(s)
            return
        }
        let objectError: any Error
        do {
            self = .object(try container.decode([String: JSONValue].self))
            return
        } catch {
            objectError = error
        }
        if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? container.decode(Double.self) {
            self = .number(d)
        } else {
            throw objectError
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .integer(let i): try container.encode(i)
        case .number(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}
