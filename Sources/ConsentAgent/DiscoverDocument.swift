import AgentProtocol

/// The OpenRPC document `rpc.discover` serves, parsed from the copy compiled into the binary.
///
/// The text is `Protocol/consentd.openrpc.json`, copied into `OpenRPCText.swift` by
/// `scripts/generate-protocol`; a test checks the two are identical, so an installed binary serves exactly the
/// published document without needing the source tree.
public enum DiscoverDocument {
    /// The document, parsed on first use (a global is initialised lazily, once, thread-safely): parsing its
    /// 125 KB was 7 % of the instructions of the agent's start-up, for a method most kiosks never call.
    public static let shared: RPCValue = load()

    public static func load() -> RPCValue {
        (try? RPCValue.parse(Array(OpenRPCText.json.utf8))) ?? ["openrpc": "1.3.2", "info": ["title": "consentd", "version": "unavailable"], "methods": []]
    }
}
