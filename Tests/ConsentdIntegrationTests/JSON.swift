import Foundation

/// Small helpers over Foundation's JSON, so tests read like the protocol.
typealias JSONObject = [String: Any]

func parseJSON(_ line: String) -> JSONObject? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])) as? JSONObject
}

func jsonLine(_ object: Any) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

extension Dictionary where Key == String, Value == Any {
    subscript(path path: String) -> Any? {
        var current: Any? = self
        for part in path.split(separator: ".") {
            if let index = Int(part), let array = current as? [Any] {
                current = array.indices.contains(index) ? array[index] : nil
            } else {
                current = (current as? JSONObject)?[String(part)]
            }
        }
        return current
    }

    func string(_ path: String) -> String? { self[path: path] as? String }
    func int(_ path: String) -> Int? { (self[path: path] as? NSNumber)?.intValue }
    func object(_ path: String) -> JSONObject? { self[path: path] as? JSONObject }
    func array(_ path: String) -> [Any]? { self[path: path] as? [Any] }
    /// `error.data.type` of an error reply.
    var errorType: String? { string("error.data.type") }
}
