import Foundation
import JSON

/// What one attempt came to, decided from the response alone (pure, so every status is table-tested).
///
/// | answer                                              | outcome                          |
/// |-----------------------------------------------------|----------------------------------|
/// | 2xx, and for a Bundle a `transaction-response` Bundle whose entries all have a 2xx status | acknowledged |
/// | 2xx with any other body (proxy page, wrong endpoint) | retry (`.unexpectedResponse`)  |
/// | 408, 429, 5xx                                        | retry (`.serverError`), honouring `Retry-After` |
/// | other 4xx, 3xx, 1xx                                  | permanent (`.rejected`): the queue halts |
/// | timeout, connection failure (transport errors)      | retry                            |
/// | the record or key cannot be read or sealed          | permanent: the queue halts       |
enum DeliveryOutcome: Sendable, Hashable {
    case acknowledged
    case retry(UploadQueueError, httpStatus: Int?, retryAfter: Duration?)
    case permanent(UploadQueueError, httpStatus: Int?)

    static func classify(_ response: HTTPResponse, target: UploadTarget) -> DeliveryOutcome {
        let status = response.status
        switch status {
        case 200..<300:
            guard target == .bundle else { return .acknowledged }
            if let problem = transactionResponseProblem(response.body) {
                return .retry(
                    UploadQueueError(.unexpectedResponse, "HTTP \(status) but \(problem); check the endpoint is the FHIR base URL"),
                    httpStatus: status, retryAfter: nil)
            }
            return .acknowledged
        case 408, 429, 500..<600:
            return .retry(
                UploadQueueError(.serverError, "the server answered HTTP \(status)\(issueCodes(response.body)); it is retried"),
                httpStatus: status, retryAfter: retryAfter(response.headers["retry-after"]))
        case 300..<400:
            return .permanent(
                UploadQueueError(.rejected, "the server redirected the upload (HTTP \(status)); configure the final endpoint URL"),
                httpStatus: status)
        default:
            return .permanent(
                UploadQueueError(
                    .rejected,
                    "the server refused the record with HTTP \(status)\(issueCodes(response.body)); fix the server, configuration or record, then run consentctl queue retry (or park the entry)"),
                httpStatus: status)
        }
    }

    static func classify(_ error: any Error) -> DeliveryOutcome {
        guard let error = error as? UploadQueueError else {
            return .retry(
                UploadQueueError(.connectionFailed, "the upload failed before an answer came; it is retried", cause: error),
                httpStatus: nil, retryAfter: nil)
        }
        switch error.code {
        case .timedOut, .connectionFailed, .serverError, .unexpectedResponse:
            return .retry(error, httpStatus: nil, retryAfter: nil)
        default:
            return .permanent(error, httpStatus: nil)
        }
    }

    /// Why a 2xx body does not acknowledge a transaction, or nil when it does.
    static func transactionResponseProblem(_ body: Data) -> String? {
        guard let object = try? JSONValue.parseDocument(body), object["resourceType"] == "Bundle" else {
            return "the body is not a FHIR Bundle"
        }
        guard object["type"] == "transaction-response" else { return "the Bundle is not a transaction-response" }
        // Entries that are not all objects are not looked into, as before.
        let entries = object["entry"]?.arrayValue ?? []
        for entry in entries where entries.allSatisfy({ $0.objectValue != nil }) {
            let status = entry["response"]?["status"]?.stringValue ?? ""
            guard status.hasPrefix("2") else { return "an entry of the transaction-response has no 2xx status" }
        }
        return nil
    }

    /// ` (OperationOutcome issue codes: invalid, required)`: the codes come from a fixed FHIR value set, so they
    /// carry no PHI, unlike `diagnostics`, which may quote the resource and is never kept.
    static func issueCodes(_ body: Data) -> String {
        guard let object = try? JSONValue.parseDocument(body), object["resourceType"] == "OperationOutcome",
            let issues = object["issue"]?.arrayValue, issues.allSatisfy({ $0.objectValue != nil })
        else { return "" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz-")
        let codes = issues.compactMap { $0["code"]?.stringValue }.filter { !$0.isEmpty && $0.count <= 32 && $0.allSatisfy(allowed.contains) }
        return codes.isEmpty ? "" : " (OperationOutcome issue codes: \(codes.joined(separator: ", ")))"
    }

    /// `Retry-After` in seconds (the HTTP-date form is ignored: the kiosk's clock may be off).
    static func retryAfter(_ value: String?) -> Duration? {
        guard let value, let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
        return .seconds(seconds)
    }
}
