import Foundation

/// Where and how completed records are uploaded; the agent's configuration file maps onto this.
///
/// Key names the agent is expected to use are listed in docs/UPLOAD.md. A queue is either plain (each record's
/// transaction Bundle is POSTed to the FHIR base URL) or encrypted (each Bundle is sealed into a C3-PRO envelope and
/// POSTed to `<encrypted base>/Bundle`), as C3-PRO's `DataQueue` and `EncryptedDataQueue` (docs/UPLOAD.md).
public struct UploadConfiguration: Sendable, Hashable {
    /// What a record is sent as, and where.
    public enum Destination: Sendable, Hashable {
        /// POST the transaction Bundle to the FHIR R4 base URL.
        case fhir(baseURL: URL)
        /// POST the C3-PRO envelope of the Bundle to `<baseURL>/Bundle`.
        case encrypted(EncryptedDestination)
    }

    public struct EncryptedDestination: Sendable, Hashable {
        /// The encrypted endpoint's base URL (C3's `encBaseURL`); `Bundle` is appended.
        public var baseURL: URL
        /// The receiver's RSA public key: a PEM public key, or its X.509 certificate as PEM or DER (C3's `.crt`).
        public var publicKeyFile: String
        /// The `key_id` the receiver looks its private key up by; C3 sends "" without a delegate.
        public var keyID: String
        /// Use C3's all-zero IV (no `iv` member) for consumers that cannot read `iv`; safe only because every
        /// envelope has a fresh AES key.
        public var zeroIV: Bool

        public init(baseURL: URL, publicKeyFile: String, keyID: String = "", zeroIV: Bool = false) {
            self.baseURL = baseURL
            self.publicKeyFile = publicKeyFile
            self.keyID = keyID
            self.zeroIV = zeroIV
        }
    }

    public var destination: Destination
    /// How long one request may take before it counts as a timeout (and is retried).
    public var requestTimeout: Duration
    public var backoff: Backoff
    /// How often a halted queue re-reads its head entry from disk, so `consentctl queue retry` is noticed
    /// without a restart.
    public var haltedRecheckInterval: Duration

    public init(
        destination: Destination, requestTimeout: Duration = .seconds(30), backoff: Backoff = Backoff(),
        haltedRecheckInterval: Duration = .seconds(60)
    ) {
        self.destination = destination
        self.requestTimeout = requestTimeout
        self.backoff = backoff
        self.haltedRecheckInterval = haltedRecheckInterval
    }

    /// The kind of payload new entries are queued for.
    public var target: UploadTarget {
        switch destination {
        case .fhir: .bundle
        case .encrypted: .envelope
        }
    }

    /// Checks what can be checked without I/O.
    ///
    /// - Throws: `.invalidConfiguration` naming the setting to fix.
    public func validate() throws {
        let url: URL
        switch destination {
        case .fhir(let baseURL): url = baseURL
        case .encrypted(let encrypted): url = encrypted.baseURL
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw UploadQueueError(.invalidConfiguration, "the upload endpoint must be an absolute http(s) URL")
        }
        guard requestTimeout > .zero, haltedRecheckInterval > .zero else {
            throw UploadQueueError(.invalidConfiguration, "the request timeout and recheck interval must be positive")
        }
        try backoff.validate()
    }
}

/// What an entry delivers: the record's transaction Bundle as is, or its C3-PRO envelope.
public enum UploadTarget: String, Sendable, Hashable, Codable {
    case bundle
    case envelope
}
