/// The protocol's identity, announced in `hello` and checked by `session.negotiate`.
public enum ProtocolInfo {
    /// The protocol name of `hello.protocol`.
    public static let name = "consent-kiosk-agent"
    /// The protocol majors this build speaks; a client offers its own in `session.negotiate`.
    public static let versions: [Int64] = [1]
    /// Capabilities the server offers (`Capability` says what each gates); clients ignore ones they do not know.
    public static let capabilities = Capability.allCases.map(\.rawValue)
    /// The default maximum line length (bytes, without the terminator).
    public static let defaultMaximumLineBytes = 1 << 20
    /// The default number of requests a connection may have in flight before the agent stops reading.
    public static let defaultMaximumInFlight = 16
}
