import ConsentCore
import Foundation
import Glibc

/// Read-aloud: the time from a `speech.get` request for a review-document section to its reply (the section's
/// first chunk of audio, complete: what a UI plays first), for every section of the sample study in every kiosk
/// language (`KioskLanguagePack.all`, so a language added there is measured too), none cached. The floor, in the
/// same run: the same requests again, answered from the agent's cache (the protocol, the base64 WAV and the socket,
/// without synthesis). Sections are asked back to back, so a request may wait behind
/// the agent synthesising the previous section's next chunk ahead (its prefetch): the worst case a UI meets.
func runSpeech(rounds: Int) {
    var synthesised: [Double] = []
    var cached: [Double] = []
    var audioMs: [Double] = []
    var replyBytes: [Double] = []
    let languages = KioskLanguagePack.all.map(\.tag)
    // A fresh agent each round, so every section is synthesised again (the cache lives in the agent's memory).
    for round in 0..<rounds {
        let (agent, socket, _) = startAgent("speech-\(round)")
        defer { agent.stop() }
        guard let client = AgentClient(path: socket) else { fail("cannot connect to the agent") }
        client.negotiate()
        for language in languages {
            let flow = reviewDocumentFlow(client, language: language)
            let first = client.call("speech.get", "{\"flow\":\"\(flow)\",\"part\":\"document\"}")
            guard let sections = integerValue("sections", in: first) else { fail("speech.get: \(first.prefix(300))") }
            // Section 0 was just synthesised by the probe above; the others were not.
            for section in 1..<sections {
                let params = "{\"flow\":\"\(flow)\",\"part\":\"document\",\"section\":\(section)}"
                let start = nowNanoseconds()
                let reply = client.call("speech.get", params)
                synthesised.append(Double(nowNanoseconds() - start) / 1e6)
                guard let duration = integerValue("durationMs", in: reply) else { fail("speech.get: \(reply.prefix(300))") }
                audioMs.append(Double(duration))
                replyBytes.append(Double(reply.utf8.count))
            }
            for section in 1..<sections {
                let params = "{\"flow\":\"\(flow)\",\"part\":\"document\",\"section\":\(section)}"
                let start = nowNanoseconds()
                _ = client.call("speech.get", params)
                cached.append(Double(nowNanoseconds() - start) / 1e6)
            }
            client.call("flow.cancel", "{\"flow\":\"\(flow)\"}")
        }
    }
    let ours = synthesised.sorted(), floor = cached.sorted()
    let p99 = percentile(ours, 0.99), floor99 = percentile(floor, 0.99)
    note("speech.get document section, synthesised (ms): median \(f(median(ours))) p99 \(f(p99)) max \(f(ours.last ?? 0)) of \(ours.count)")
    note("the same from the cache (ms): median \(f(median(floor))) p99 \(f(floor99)) of \(floor.count)")
    note("first chunk's audio: median \(f(median(audioMs), 0)) ms; reply line median \(f(median(replyBytes) / 1024, 0)) KiB")
    row(
        "Read-aloud: speech.get → first audio of a review section, uncached (p99 of \(ours.count), \(languages.joined(separator: "/")))",
        "\(f(p99, 1)) ms (median \(f(median(ours), 1)) ms; \(f(median(audioMs) / 1000, 1)) s of speech)",
        "\(f(floor99, 1)) ms p99 (same requests from the cache: protocol + base64 WAV only)",
        "+\(f(p99 - floor99, 1)) ms synthesis", "≤ 100 ms p99", p99 <= 100)
}

/// A flow in `language` walked to the review document.
private func reviewDocumentFlow(_ client: AgentClient, language: String) -> String {
    let (flow, call) = flowAtSharing(client, start: "{\"language\":\"\(language)\"}")
    _ = call("sharing.choose", #""shareWidely":true"#)
    let reply = call("optional.answer", sampleOptionalAnswers)
    guard stringValue("page", in: reply) == "document" else { fail("not at the review document: \(reply.prefix(300))") }
    return flow
}

/// The integer value of the first `"key":N` in a JSON line.
private func integerValue(_ key: String, in line: String) -> Int? {
    guard let range = line.range(of: "\"\(key)\":") else { return nil }
    return Int(line[range.upperBound...].prefix(while: { $0.isNumber }))
}
