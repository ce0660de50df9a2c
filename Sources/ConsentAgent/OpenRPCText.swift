enum OpenRPCText {
    static let json = #"{"openrpc":"1.3.2","info":{"title":"consentd","version":"0.0.0"},"methods":[]}"#
}
