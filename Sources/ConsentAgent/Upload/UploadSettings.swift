import AgentProtocol
import Foundation
import UploadQueue

/// The `upload` object of the config file: where completed records go (docs/UPLOAD.md).
///
/// ```json
/// "upload": {"endpoint": "https://fhir.example.org/r4", "timeout_seconds": 30}
/// "upload": {"encrypted_endpoint": "https://c3pro.example.org/encrypted", "public_key_file": "/etc/consentd/server.pem",
///            "key_id": "site-3"}
/// ```
/// Unknown keys and wrong types are refused by name; without `endpoint` or `encrypted_endpoint` records are not
/// uploaded.
enum UploadSettings {
    static let knownKeys: Set<String> = [
        "endpoint", "encrypted_endpoint", "public_key_file", "key_id", "zero_iv", "timeout_seconds",
        "backoff_initial_seconds", "backoff_max_seconds", "backoff_multiplier", "backoff_jitter", "recheck_seconds",
    ]

    static func parse(_ raw: RPCValue, file: String) throws -> UploadConfiguration? {
        func refuse(_ message: String) -> AgentError { AgentError(.invalidConfiguration, "\(file): \(message)") }
        guard case .object(let object) = raw else { throw refuse("\"upload\" must be an object") }
        if let unknown = object.keys.filter({ !knownKeys.contains($0) }).sorted().first {
            throw refuse("unknown key \"upload.\(unknown)\"; known keys: \(knownKeys.sorted().joined(separator: ", "))")
        }
        func string(_ key: String) throws -> String? {
            guard let value = object[key] else { return nil }
            guard case .string(let s) = value, !s.isEmpty else { throw refuse("\"upload.\(key)\" must be a non-empty string") }
            return s
        }
        func url(_ key: String) throws -> URL? {
            guard let text = try string(key) else { return nil }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                url.host != nil
            else { throw refuse("\"upload.\(key)\" must be an http(s) URL") }
            return url
        }
        func seconds(_ key: String) throws -> Duration? {
            let value: Double
            switch object[key] {
            case nil: return nil
            case .integer(let i)?: value = Double(i)
            case .number(let d)?: value = d
            default: throw refuse("\"upload.\(key)\" must be a number of seconds")
            }
            do { return try SettingSeconds(value).duration } catch { throw refuse("\"upload.\(key)\" \(error.rule)") }
        }
        func number(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
            let value: Double
            switch object[key] {
            case nil: return nil
            case .integer(let i)?: value = Double(i)
            case .number(let d)?: value = d
            default: throw refuse("\"upload.\(key)\" must be a number")
            }
            guard range.contains(value) else { throw refuse("\"upload.\(key)\" must be between \(range.lowerBound) and \(range.upperBound)") }
            return value
        }
        let destination: UploadConfiguration.Destination
        switch (try url("endpoint"), try url("encrypted_endpoint")) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw refuse("give \"upload.endpoint\" or \"upload.encrypted_endpoint\", not both")
        case (let plain?, nil):
            destination = .fhir(baseURL: plain)
        case (nil, let encrypted?):
            guard let key = try string("public_key_file") else {
                throw refuse("\"upload.encrypted_endpoint\" needs \"upload.public_key_file\" (the receiver's RSA key)")
            }
            var zeroIV = false
            if let value = object["zero_iv"] {
                guard case .bool(let b) = value else { throw refuse("\"upload.zero_iv\" must be true or false") }
                zeroIV = b
            }
            destination = .encrypted(.init(baseURL: encrypted, publicKeyFile: key, keyID: try string("key_id") ?? "", zeroIV: zeroIV))
        }
        var backoff = Backoff()
        if let v = try seconds("backoff_initial_seconds") { backoff.initial = v }
        if let v = try seconds("backoff_max_seconds") { backoff.maximum = v }
        if let v = try number("backoff_multiplier", in: 1...100) { backoff.multiplier = v }
        if let v = try number("backoff_jitter", in: 0...1) { backoff.jitter = v }
        return UploadConfiguration(
            destination: destination, requestTimeout: try seconds("timeout_seconds") ?? .seconds(30), backoff: backoff,
            haltedRecheckInterval: try seconds("recheck_seconds") ?? .seconds(60))
    }
}
