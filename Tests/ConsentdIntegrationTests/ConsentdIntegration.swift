import Foundation
import Testing

/// Every integration test starts its own consentd; they run one at a time so two cores shared with other
/// builds are not swamped and timing assertions stay meaningful.
@Suite(.serialized)
struct ConsentdIntegration {}

/// Drives one flow of the bundled sample study through its steps (answers [yes, yes, no, yes] are eligible).
struct FlowDriver {
    static var eligibleAnswers: [Any] { [true, true, false, true] }

    /// A UI-drawn signature in the stroke format: a 12-point zigzag and a 2-point dash without pressure.
    static var signature: JSONObject {
        var zigzag: [[Any]] = []
        for i in 0..<12 {
            let x = 0.1 + Double(i) * 0.05
            let y = i % 2 == 0 ? 0.6 : 0.4
            zigzag.append([x, y, Double(i) * 8, 0.5])
        }
        let dash: [[Any]] = [[0.2, 0.8, 200.0, NSNull()], [0.3, 0.8, 210.0, NSNull()]]
        return ["strokes": [zigzag, dash], "widthMM": 120, "heightMM": 40]
    }

    let client: SocatClient
    let flow: String

    init(_ client: SocatClient, language: String? = nil) {
        self.client = client
        let reply = client.call("flow.start", language.map { ["language": $0] } ?? [:])
        flow = reply.string("result.flow") ?? "?"
        #expect(reply.string("result.step") == "eligibility")
    }

    @discardableResult
    func call(_ method: String, _ params: JSONObject = [:], sourceLocation: SourceLocation = #_sourceLocation) -> JSONObject {
        client.call(method, params.merging(["flow": flow]) { a, _ in a }, sourceLocation: sourceLocation)
    }

    /// Eligibility → the key information → visual scenes → sharing.
    func toSharing() {
        #expect(call("eligibility.answer", ["answers": Self.eligibleAnswers]).string("result.view.eligibility.status") == "eligible")
        var reply = call("flow.next", ["step": "eligibility"])
        #expect(reply.string("result.step") == "keyInformation")
        reply = call("flow.next", ["step": "keyInformation"])
        while reply.string("result.step") == "visual" {
            reply = call("flow.next", ["step": "visual"])
        }
        #expect(reply.string("result.step") == "sharing")
    }

    /// The sample study's correct comprehension choices, by question (Sources/SampleStudy/sample/contract.json).
    static var comprehensionChoices: [Int] { [1, 1, 0] }

    /// Agrees to the review document, then answers the sample study's comprehension questions correctly.
    ///
    /// - Returns: every reply, the agreement's first (step comprehension) and the last answer's last (the page
    ///   after the document).
    @discardableResult
    func agreeAndAnswer(sourceLocation: SourceLocation = #_sourceLocation) -> [JSONObject] {
        var replies = [call("review.agree", sourceLocation: sourceLocation)]
        #expect(replies[0].string("result.step") == "comprehension", sourceLocation: sourceLocation)
        for (question, choice) in Self.comprehensionChoices.enumerated() {
            replies.append(call("comprehension.answer", ["question": question, "choice": choice], sourceLocation: sourceLocation))
        }
        #expect(replies.last?.string("result.step") == "reviewStep", sourceLocation: sourceLocation)
        return replies
    }

    /// `agreeAndAnswer`'s last reply: the page after the document.
    @discardableResult
    func agree(sourceLocation: SourceLocation = #_sourceLocation) -> JSONObject {
        agreeAndAnswer(sourceLocation: sourceLocation).last ?? [:]
    }

    /// … → the signature page of the review step.
    func toSignaturePage() {
        toSharing()
        #expect(call("sharing.choose", ["shareWidely": true]).string("result.step") == "optional")
        #expect(call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]]).string("result.view.review.page") == "document")
        #expect(agree().string("result.view.review.page") == "name")
        let named = call("participant.setName", ["given": "Ada", "family": "Lovelace"])
        #expect(named.string("result.view.review.page") == "signature")
        #expect(named[path: "result.view.review.hasName"] as? Bool == true)
    }
}
