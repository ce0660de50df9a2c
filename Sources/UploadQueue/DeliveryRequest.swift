import ConsentSigning
import CryptoExtras
import FileBytes
import Foundation
import JSON

/// Builds the HTTP request that delivers one entry, reading its payload from the record directory at send time.
///
/// - `bundle`: POST `bundle.json` (a transaction Bundle) to the FHIR base URL: a transaction goes to the base.
/// - `envelope`: POST the C3-PRO envelope of `bundle.json` to `<encrypted base>/Bundle`, with the same headers
///   (docs/UPLOAD.md), sealed with a fresh AES key (and IV) for every attempt.
///
/// Headers are C3's `DataQueue` ones (docs/UPLOAD.md); a POST carries `Prefer: return=minimal`.
struct DeliveryRequest: Sendable {
    var destination: UploadConfiguration.Destination
    /// The receiver key's SPKI DER, loaded once when the service starts; nil for `.fhir`.
    var publicKeyDER: Data?
    var timeout: Duration
    /// Where the sealed Bundles of records encrypted at rest wait (entries with `sealedPayload`).
    var payloads: UploadPayloadStore? = nil

    static let headers: [HTTPRequest.Header] = [
        .init("Accept", "application/fhir+json"),
        .init("Content-Type", "application/fhir+json; charset=utf-8"),
        .init("Prefer", "return=minimal"),
    ]

    /// - Throws: `.recordMissing` when `bundle.json` cannot be read, `.payloadInvalid` when it is not a
    ///   transaction Bundle, `.invalidConfiguration` when the entry's target does not match the destination,
    ///   `.encryptionFailed`.
    func make(for entry: QueueEntry) throws -> HTTPRequest {
        let path = URL(fileURLWithPath: entry.recordDirectory).appendingPathComponent(RecordFileName.bundle).path
        let bundle: Data
        if entry.sealedPayload == true, let payloads {
            // The record holds only envelopes for its recipient: send the sealed copy, opened in memory only.
            bundle = try payloads.open(recordID: entry.recordID)
        } else if let plain = try? Data(FileBytes.read(path)) {
            bundle = plain
        } else if FileManager.default.fileExists(atPath: path + ".enc") {
            throw UploadQueueError(
                .recordMissing, "the record is encrypted at rest and has no upload payload; only its recipient can upload it (park the entry)",
                file: path)
        } else {
            throw UploadQueueError(
                .recordMissing, "the record's bundle.json is gone or unreadable; restore the record, or park the entry",
                file: path)
        }
        guard let object = try? JSONValue.parseDocument(bundle), object["resourceType"] == "Bundle",
            object["type"] == "transaction"
        else {
            throw UploadQueueError(.payloadInvalid, "the record's bundle.json is not a FHIR transaction Bundle; park the entry", file: path)
        }
        switch (destination, entry.target) {
        case (.fhir(let baseURL), .bundle):
            return HTTPRequest(method: "POST", url: baseURL, headers: Self.headers, body: bundle, timeout: timeout)
        case (.encrypted(let encrypted), .envelope):
            let body = try seal(bundle, for: encrypted)
            return HTTPRequest(
                method: "POST", url: encrypted.baseURL.appendingPathComponent("Bundle"), headers: Self.headers, body: body,
                timeout: timeout)
        case (.fhir, .envelope), (.encrypted, .bundle):
            throw UploadQueueError(
                .invalidConfiguration,
                "the entry was queued for \(entry.target == .envelope ? "the encrypted" : "the plain FHIR") endpoint, which is not configured; restore that configuration")
        }
    }

    private func seal(_ bundle: Data, for encrypted: UploadConfiguration.EncryptedDestination) throws -> Data {
        do {
            guard let publicKeyDER else {
                throw UploadQueueError(.invalidPublicKey, "no public key was loaded for the encrypted endpoint")
            }
            let key = try _RSA.Encryption.PublicKey(derRepresentation: publicKeyDER)
            let envelope = try EncryptedEnvelope.seal(
                bundle, for: key, keyID: encrypted.keyID, ivPolicy: encrypted.zeroIV ? .zero : .random)
            // JSONEncoder's bytes with .sortedKeys alone (base64's "/" escaped), as the endpoint always received.
            return Data(try JSONValueEncoder().encodedBytes(envelope, escapingSlashes: true))
        } catch let error as UploadQueueError {
            throw error
        } catch {
            throw UploadQueueError(.encryptionFailed, "the record could not be sealed for the encrypted endpoint; check the public key", cause: error)
        }
    }
}
