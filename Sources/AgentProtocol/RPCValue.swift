@_exported import JSON

/// A JSON value as it travels on the wire: what requests carry in `params` and what replies and events carry.
///
/// The wire's name for the JSON module's `JSONValue`, the one tree every layer holds JSON in: the agent hands a
/// domain document (a Patient, a view model's FHIR parts) to the wire and back without converting it. Integers and
/// non-integers are distinct cases because JSON-RPC ids and many params must be integers, and a `1.5` where an
/// integer is expected is a `-32602`.
public typealias RPCValue = JSONValue
