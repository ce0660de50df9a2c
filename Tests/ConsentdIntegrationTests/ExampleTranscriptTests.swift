import Foundation
import Testing

extension ConsentdIntegration {
    /// Plays every Protocol/examples/*.jsonl against a fresh consentd (format: Protocol/README.md "Examples").
    @Suite struct ExampleTranscripts {
        static var examples: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: Paths.examples.path)) ?? [])
                .filter { $0.hasSuffix(".jsonl") }.sorted()
        }

        @Test func thereAreExamples() {
            #expect(Self.examples.count >= 3)
        }

        @Test(arguments: examples)
        func exampleStillRuns(_ name: String) throws {
            let text = try String(contentsOf: Paths.examples.appendingPathComponent(name), encoding: .utf8)
            // `# study: <folder>` (relative to the package root) runs the transcript against that study instead of
            // the bundled sample.
            let studyLine = text.split(separator: "\n").first { $0.hasPrefix("# study: ") }
            var arguments = studyLine.map {
                ["--study", Paths.root.appendingPathComponent(String($0.dropFirst("# study: ".count))).path]
            } ?? []
            // `# staffCountersignature: required` runs it with the staff step, against Tests/Fixtures/staff.json.
            if text.split(separator: "\n").contains("# staffCountersignature: required") {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString.prefix(8))")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                arguments += ["--config", try StaffFixture.config(in: directory).path]
            }
            let agent = try ConsentdProcess(
                "example-" + name.replacingOccurrences(of: ".jsonl", with: ""), arguments: arguments)
            let ui = try agent.client()
            var bindings: [String: Any] = [:]
            for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                let location = "\(name):\(number + 1)"
                if line.hasPrefix("-> ") {
                    var request = String(line.dropFirst(3))
                    for (key, value) in bindings {
                        request = request.replacingOccurrences(of: "\"$\(key)\"", with: jsonFragment(value))
                    }
                    ui.send(request)
                } else if line.hasPrefix("<- ") {
                    let expected = try #require(parseAny(String(line.dropFirst(3))), "\(location): pattern is not JSON")
                    guard let actualLine = ui.nextLine(), let actual = parseAny(actualLine) else {
                        Issue.record("\(location): no line from consentd")
                        break
                    }
                    var problems: [String] = []
                    match(expected, actual, path: "", bindings: &bindings, problems: &problems)
                    #expect(problems.isEmpty, "\(location): \(problems.joined(separator: "; "))\n  got: \(actualLine.prefix(400))")
                    if !problems.isEmpty { break }
                }
            }
            agent.finish()
        }
    }
}

private func parseAny(_ text: String) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

private func jsonFragment(_ value: Any) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])) ?? Data("null".utf8)
    return String(decoding: data, as: UTF8.self)
}

/// Pattern match: objects match when every expected member matches (extra actual members are fine, as clients
/// must ignore unknown members); arrays match elementwise with equal length; "*" matches anything; "$name"
/// binds on first use and must be equal afterwards; anything else must be equal.
private func match(_ expected: Any, _ actual: Any, path: String, bindings: inout [String: Any], problems: inout [String]) {
    if let pattern = expected as? String, pattern.hasPrefix("$") || pattern == "*" {
        if pattern == "*" { return }
        let key = String(pattern.dropFirst())
        if let bound = bindings[key] {
            if jsonFragment(bound) != jsonFragment(actual) { problems.append("\(path): \(actual) != $\(key) (\(bound))") }
        } else {
            bindings[key] = actual
        }
        return
    }
    switch (expected, actual) {
    case (let e as [String: Any], let a as [String: Any]):
        for (key, value) in e {
            guard let member = a[key] else {
                problems.append("\(path).\(key) missing")
                continue
            }
            match(value, member, path: "\(path).\(key)", bindings: &bindings, problems: &problems)
        }
    case (let e as [Any], let a as [Any]):
        guard e.count == a.count else {
            problems.append("\(path): \(a.count) items, expected \(e.count)")
            return
        }
        for (i, pair) in zip(e, a).enumerated() {
            match(pair.0, pair.1, path: "\(path)[\(i)]", bindings: &bindings, problems: &problems)
        }
    default:
        if jsonFragment(expected) != jsonFragment(actual) { problems.append("\(path): \(jsonFragment(actual)) != \(jsonFragment(expected))") }
    }
}
