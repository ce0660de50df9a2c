import Foundation
import NIOHTTP1

/// Decides whether a request may be served, from its headers alone (no I/O), so every refusal is testable.
/// - `Host` must name this bridge (a DNS-rebinding page reaches the port under its own name, and gets 403);
/// - a WebSocket endpoint also needs `Origin` to be this bridge's (cross-site WebSocket hijacking) and its role's
///   token (`PageRole`: the kiosk's for `/rpc`, the staff token for `/staff/rpc`), as the query parameter `token` or
///   the role's cookie, set when its page was loaded with it. One credential never opens the other's endpoint.
public struct RequestGate: Sendable {
    public static let cookieName = "consentweb_token"
    public static let staffCookieName = "consentweb_staff_token"

    public enum Refusal: Hashable, Sendable, CustomStringConvertible {
        case wrongHost
        case wrongOrigin
        case noToken
        case wrongToken

        public var description: String {
            switch self {
            case .wrongHost: return "wrong Host"
            case .wrongOrigin: return "wrong Origin"
            case .noToken: return "no token"
            case .wrongToken: return "wrong token"
            }
        }
    }

    let token: BridgeToken
    let staffToken: BridgeToken
    /// The `Host` values this bridge answers to: `127.0.0.1:PORT` or `[::1]:PORT`, and `localhost:PORT`.
    let hosts: Set<String>

    public init(token: BridgeToken, staffToken: BridgeToken, boundHost: String, port: Int) {
        self.token = token
        self.staffToken = staffToken
        let literal = boundHost.contains(":") ? "[\(boundHost)]" : boundHost
        hosts = ["\(literal):\(port)", "localhost:\(port)"]
    }

    public func checkHost(_ head: HTTPRequestHead) -> Refusal? {
        let values = head.headers["host"]
        guard values.count == 1, let host = values.first, hosts.contains(host.lowercased()) else { return .wrongHost }
        return nil
    }

    /// The checks for opening `role`'s WebSocket endpoint, in the order a client would fix them.
    public func checkWebSocket(_ head: HTTPRequestHead, role: PageRole) -> Refusal? {
        if let refusal = checkHost(head) { return refusal }
        let origins = head.headers["origin"]
        guard origins.count == 1, let origin = origins.first, origin.lowercased().hasPrefix("http://"),
            hosts.contains(String(origin.lowercased().dropFirst("http://".count)))
        else { return .wrongOrigin }
        guard let presented = Self.queryToken(head.uri) ?? Self.cookieToken(head.headers, name: Self.cookieName(role))
        else { return .noToken }
        return credential(role).matches(presented) ? nil : .wrongToken
    }

    /// Whether a request for `role`'s page carries that role's token in its query (then the response sets the
    /// role's cookie).
    public func pageTokenState(_ head: HTTPRequestHead, role: PageRole) -> PageToken {
        guard let presented = Self.queryToken(head.uri) else { return .absent }
        return credential(role).matches(presented) ? .valid : .wrong
    }

    public enum PageToken: Sendable { case absent, valid, wrong }

    /// The role's cookie: `Path=/` for the participant's page; `Path=/staff` for the staff page, so it is sent to
    /// `/staff` and `/staff/rpc` only.
    public func setCookieValue(_ role: PageRole) -> String {
        switch role {
        case .participant: return "\(Self.cookieName)=\(token.value); Path=/; HttpOnly; SameSite=Strict"
        case .staff: return "\(Self.staffCookieName)=\(staffToken.value); Path=/staff; HttpOnly; SameSite=Strict"
        }
    }

    private func credential(_ role: PageRole) -> BridgeToken {
        switch role {
        case .participant: return token
        case .staff: return staffToken
        }
    }

    static func cookieName(_ role: PageRole) -> String {
        switch role {
        case .participant: return cookieName
        case .staff: return staffCookieName
        }
    }

    static func queryToken(_ uri: String) -> String? {
        guard let question = uri.firstIndex(of: "?") else { return nil }
        for pair in uri[uri.index(after: question)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == "token" { return String(parts[1]) }
        }
        return nil
    }

    static func cookieToken(_ headers: HTTPHeaders, name: String) -> String? {
        for header in headers["cookie"] {
            for cookie in header.split(separator: ";") {
                let parts = cookie.trimmingCharacters(in: .whitespaces).split(
                    separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2, parts[0] == name { return String(parts[1]) }
            }
        }
        return nil
    }
}
