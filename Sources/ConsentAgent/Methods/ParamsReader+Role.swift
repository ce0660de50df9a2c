import AgentProtocol
import ConsentCore

extension ParamsReader {
    /// A signer role member (`participant`, `representative`, `witness`) limited to `allowed`; `fallback` when the
    /// member is absent, which makes it optional.
    func role(
        _ key: String, allowed: [SigningRole] = SigningRole.allCases, whenAbsent fallback: SigningRole? = nil
    ) throws -> SigningRole {
        let name = try fallback.map { try optionalString(key) ?? $0.rawValue } ?? string(key)
        guard let role = SigningRole(rawValue: name), allowed.contains(role) else {
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            throw RPCErrorObject.invalidParams(field: key, "\(key) must be one of \(names)")
        }
        return role
    }
}

/// The params of a method that takes none (`pads.list`, `uploads.status`): any member is refused.
struct NoParams {
    init(_ params: [String: RPCValue]) throws {
        _ = try ParamsReader(params, allowed: [])
    }
}
