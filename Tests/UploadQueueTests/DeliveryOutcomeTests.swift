import Foundation
import Testing

@testable import UploadQueue

@Suite struct DeliveryOutcomeTests {
    enum Kind: Equatable { case acknowledged, retry, permanent }

    static func kind(_ outcome: DeliveryOutcome) -> Kind {
        switch outcome {
        case .acknowledged: .acknowledged
        case .retry: .retry
        case .permanent: .permanent
        }
    }

    static let ack = String(decoding: TestRecord.transactionResponseBody, as: UTF8.self)

    @Test(arguments: [
        (200, ack, Kind.acknowledged),
        (200, #"{"resourceType":"Bundle","type":"transaction-response"}"#, .acknowledged),
        (200, "<html>captive portal</html>", .retry),
        (200, #"{"resourceType":"Bundle","type":"searchset"}"#, .retry),
        (200, #"{"resourceType":"Bundle","type":"transaction-response","entry":[{"response":{"status":"400"}}]}"#, .retry),
        (201, "", .retry),
        (408, "", .retry), (429, "", .retry), (500, "", .retry), (502, "", .retry), (503, "", .retry), (504, "", .retry),
        (400, "", .permanent), (401, "", .permanent), (403, "", .permanent), (404, "", .permanent),
        (409, "", .permanent), (422, "", .permanent), (301, "", .permanent), (307, "", .permanent),
        (100, "", .permanent),
    ])
    func bundleStatuses(status: Int, body: String, expected: Kind) {
        let response = HTTPResponse(status: status, body: Data(body.utf8))
        #expect(Self.kind(DeliveryOutcome.classify(response, target: .bundle)) == expected)
    }

    /// The encrypted endpoint answers in its own way: any 2xx acknowledges.
    @Test(arguments: [200, 201, 204])
    func envelopeAnyTwoHundredAcknowledges(status: Int) {
        #expect(DeliveryOutcome.classify(HTTPResponse(status: status), target: .envelope) == .acknowledged)
    }

    @Test func transportErrorsRetryLocalErrorsAreFinal() {
        #expect(Self.kind(.classify(UploadQueueError(.timedOut, ""))) == .retry)
        #expect(Self.kind(.classify(UploadQueueError(.connectionFailed, ""))) == .retry)
        #expect(Self.kind(.classify(URLError(.networkConnectionLost))) == .retry)
        #expect(Self.kind(.classify(UploadQueueError(.recordMissing, ""))) == .permanent)
        #expect(Self.kind(.classify(UploadQueueError(.payloadInvalid, ""))) == .permanent)
        #expect(Self.kind(.classify(UploadQueueError(.encryptionFailed, ""))) == .permanent)
    }

    @Test func retryAfterSecondsIsRead() {
        let response = HTTPResponse(status: 429, headers: ["Retry-After": " 120 "])
        guard case .retry(_, let status, let retryAfter) = DeliveryOutcome.classify(response, target: .bundle) else {
            Issue.record("429 is retried")
            return
        }
        #expect(status == 429)
        #expect(retryAfter == .seconds(120))
        #expect(DeliveryOutcome.retryAfter("Wed, 21 Oct 2026 07:28:00 GMT") == nil)
    }

    /// The message keeps the OperationOutcome's issue codes and never its diagnostics, which may quote PHI.
    @Test func rejectionMessageHasIssueCodesButNoDiagnostics() {
        let body = #"{"resourceType":"OperationOutcome","issue":[{"severity":"error","code":"invalid","diagnostics":"Patient.name Ada Lovelace is invalid"},{"code":"Ada Lovelace"}]}"#
        guard case .permanent(let error, let status) = DeliveryOutcome.classify(
            HTTPResponse(status: 422, body: Data(body.utf8)), target: .bundle)
        else {
            Issue.record("422 is permanent")
            return
        }
        #expect(status == 422)
        #expect(error.code == .rejected)
        #expect(error.message.contains("HTTP 422"))
        #expect(error.message.contains("issue codes: invalid)"))
        #expect(!error.message.contains("Ada"))
        #expect(!error.message.contains("Lovelace"))
    }
}
