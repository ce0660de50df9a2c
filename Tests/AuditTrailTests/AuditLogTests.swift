import FileBytes
import Foundation
import Testing

@testable import AuditTrail

@Suite struct AuditLogTests {
    @Test func fullConsentProducesTheExpectedLinesInOrder() throws {
        let directory = try AuditFixture.temporaryDirectory()
        let log = try AuditFixture.open(directory)
        let config = AuditDigest(sha256Of: Data("config".utf8))
        try log.append(.agentStarted(configuration: config, studies: 1))
        let flow = AuditFixture.flow(1), record = AuditFixture.flow(2)
        for event in AuditFixture.consentEvents(flow: flow, record: record) { try log.append(event) }
        try log.close()

        let lines = try AuditFixture.parsed(AuditFixture.current(directory))
        #expect(lines.map(\.event) == [
            "log.opened", "agent.started", "flow.started", "flow.eligibility", "flow.step", "flow.step", "flow.step",
            "flow.step", "flow.sharing", "flow.step", "flow.step", "flow.step", "flow.signature", "flow.step",
            "record.written", "flow.completed",
        ])
        #expect(lines.map(\.outcome) == [
            "opened", "ok", "started", "eligible", "reached", "reached", "reached", "reached", "share_widely", "reached",
            "reached", "reached", "captured", "reached", "written", "completed",
        ])
        #expect(lines.compactMap(\.step) == [
            "visual", "visual", "visual", "sharing", "review.document", "review.name", "review.signature", "done",
        ])
        #expect(lines.map(\.seq) == Array(1...16))
        #expect(lines.allSatisfy { $0.kiosk == "kiosk-test-1" })
        #expect(lines.dropFirst(2).allSatisfy { $0.flow == flow.value && $0.study == "heartbeat-sleep" && $0.studyVersion == AuditFixture.study.version.hex })
        #expect(lines[0].time == "2026-09-14T10:15:31.000Z" && lines[1].time == "2026-09-14T10:15:32.000Z")
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0.monoNS < $1.monoNS })
        #expect(lines[0].boot == "boot-1")
        #expect(lines.last?.record == record.value)
        #expect(lines[12].signer == "participant" && lines[12].strokes == 2 && lines[12].points == 3)
    }

    @Test func eachLineChainsToTheOneBeforeAndTheHeadIsTheLastLine() throws {
        let directory = try AuditFixture.temporaryDirectory()
        let log = try AuditFixture.open(directory)
        var receipts: [AuditLog.Receipt] = []
        for event in AuditFixture.consentEvents(flow: AuditFixture.flow(1), record: AuditFixture.flow(2)) {
            receipts.append(try log.append(event))
        }
        let raw = try AuditFixture.lines(AuditFixture.current(directory))
        let lines = try raw.map { try #require(AuditLine.parse($0)) }
        #expect(lines[0].prev == AuditDigest.genesis.hex)
        for (previous, line) in zip(raw, lines.dropFirst()) {
            #expect(line.prev == AuditDigest(sha256Of: previous).hex)
        }
        let last = try #require(raw.last)
        #expect(log.head == AuditDigest(sha256Of: last))
        #expect(receipts.last?.hash == log.head && receipts.last?.seq == log.lastSequence)
        #expect(log.lastSequence == UInt64(raw.count))
    }

    @Test func linesAreCompactJSONWithSortedKeysAndNoOptionalNulls() throws {
        let directory = try AuditFixture.temporaryDirectory()
        let log = try AuditFixture.open(directory)
        try log.append(.stepReached(flow: AuditFixture.flow(7), study: AuditFixture.study, step: .sharing, index: nil))
        let text = try #require(try AuditFixture.lines(AuditFixture.current(directory)).last.map { String(decoding: $0, as: UTF8.self) })
        #expect(!text.contains(" ") && !text.contains("null") && !text.contains("index"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["event", "flow", "kiosk", "mono_ns", "outcome", "prev", "seq", "step", "study", "study_version", "time"])
        let keys = object.keys.sorted()
        let positions = keys.compactMap { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions == positions.sorted())
    }

    /// Flows run concurrently in the agent; their lines interleave but the chain stays one.
    @Test func concurrentAppendsKeepOneChain() async throws {
        let directory = try AuditFixture.temporaryDirectory()
        let log = try AuditFixture.open(directory, maxFileBytes: 4096)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<8 {
                group.addTask {
                    for event in AuditFixture.consentEvents(flow: AuditFixture.flow(n), record: AuditFixture.flow(100 + n)) {
                        try log.append(event)
                    }
                }
            }
            try await group.waitForAll()
        }
        try log.close()
        let report = try AuditVerifier.verify(directory: directory)
        #expect(report.isIntact && report.lastSequence == 1 + 8 * 14 + UInt64(report.files.count - 1))
    }

    @Test func reopeningContinuesTheChain() throws {
        let directory = try AuditFixture.temporaryDirectory()
        var log = try AuditFixture.open(directory)
        try log.append(.agentStarted(configuration: AuditDigest(sha256Of: Data("c".utf8)), studies: 1))
        let head = log.head
        try log.close()
        log = try AuditFixture.open(directory)
        try log.append(.agentStopped)
        let lines = try AuditFixture.parsed(AuditFixture.current(directory))
        #expect(lines.map(\.event) == ["log.opened", "agent.started", "log.opened", "agent.stopped"])
        #expect(lines[2].prev == head.hex && lines[2].seq == 3)
        #expect(log.recoveredBytes == 0)
        #expect(try AuditVerifier.verify(directory: directory).isIntact)
    }

    @Test func theLastConfigurationIsFoundAcrossRotations() throws {
        let directory = try AuditFixture.temporaryDirectory()
        #expect(try AuditLog.lastConfiguration(in: directory) == nil)
        #expect(try AuditLog.lastConfiguration(in: directory.appendingPathComponent("not-yet")) == nil)
        let log = try AuditFixture.open(directory, maxFileBytes: 2048)
        let first = AuditDigest(sha256Of: Data("a".utf8)), second = AuditDigest(sha256Of: Data("b".utf8))
        try log.append(.agentStarted(configuration: first, studies: 1))
        #expect(try AuditLog.lastConfiguration(in: directory) == first)
        try log.append(.configurationChanged(previous: first, current: second))
        for event in AuditFixture.consentEvents(flow: AuditFixture.flow(1), record: AuditFixture.flow(2)) { try log.append(event) }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("audit.log.1").path))
        #expect(try AuditLog.lastConfiguration(in: directory) == second)
    }

    /// The newest start is found behind the flow lines written since, whether the file ends in a newline, a torn
    /// line or a line that names the key without being a configuration event; a line is decoded only when it
    /// holds the key, so what matters is that the filter never hides the line the decoder would have chosen.
    @Test func theLastConfigurationIsTheNewestStartBehindItsFlows() throws {
        let directory = try AuditFixture.temporaryDirectory()
        let log = try AuditFixture.open(directory)
        let first = AuditDigest(sha256Of: Data("a".utf8)), second = AuditDigest(sha256Of: Data("b".utf8))
        try log.append(.agentStarted(configuration: first, studies: 1))
        try log.append(.agentStarted(configuration: second, studies: 2))
        for index in 0..<50 {
            for event in AuditFixture.consentEvents(flow: AuditFixture.flow(index), record: AuditFixture.flow(1000 + index)) {
                try log.append(event)
            }
        }
        try log.close()
        let logged = try Array(Data(contentsOf: directory.appendingPathComponent("audit.log")))
        #expect(logged.count > 40_000)
        #expect(AuditLog.newestConfiguration(in: logged) == second.hex)

        let impostor = Array(#"{"configuration":"\#(first.hex)","event":"flow.started"}"#.utf8)
        let torn = Array(#"{"configuration":"\#(first.hex)","event":"agent.star"#.utf8)
        let newline = [UInt8(ascii: "\n")]
        #expect(AuditLog.newestConfiguration(in: logged + impostor + newline) == second.hex)
        #expect(AuditLog.newestConfiguration(in: logged + torn) == second.hex)
        #expect(AuditLog.newestConfiguration(in: logged + newline + newline) == second.hex)
        #expect(AuditLog.newestConfiguration(in: []) == nil)
        #expect(AuditLog.newestConfiguration(in: newline) == nil)
        let lines = logged.split(separator: UInt8(ascii: "\n"))
        let flowsOnly = lines.filter { !$0.contains(Array(#""configuration":"#.utf8)) }
        #expect(AuditLog.newestConfiguration(in: Array(flowsOnly.joined(separator: newline))) == nil)

        // Read from the end a chunk at a time, every way a chunk can cut the lines finds the same line.
        let firstStart = Array(try #require(lines.first { $0.contains(Array(#""configuration":"#.utf8)) }))
        let flows = Array(flowsOnly.joined(separator: newline))
        let files: [(bytes: [UInt8], newest: AuditDigest?)] = [
            (logged, second), (logged + impostor + newline, second), (logged + torn, second),
            (firstStart, first), (firstStart + newline + flows, first), (flows + newline + firstStart, first),
            (flows, nil), ([], nil), (firstStart + newline + impostor, first),
        ]
        for (index, file) in files.enumerated() {
            let url = directory.appendingPathComponent("chunks-\(index)")
            try Data(file.bytes).write(to: url)
            #expect(AuditLog.newestConfiguration(in: file.bytes) == file.newest?.hex, "file \(index)")
            // Smaller than a line (lines are 200-300 bytes), about one, and larger than the file; bytes one by one
            // for the small files.
            for chunkSize in (file.bytes.count < 1000 ? [1, 2] : []) + [61, 333, 4096, 1 << 20] {
                let found = try AuditLog.newestConfiguration(inFileAt: url.path, chunkSize: chunkSize)
                #expect(found == file.newest?.hex, "file \(index), chunk \(chunkSize)")
            }
        }
        #expect(throws: FileBytes.Failure.self) { try AuditLog.newestConfiguration(inFileAt: directory.appendingPathComponent("none").path) }
    }

    @Test func filesArePrivateAndOneWriterHoldsTheLock() throws {
        let state = try AuditFixture.temporaryDirectory()
        let directory = AuditLog.directory(stateDirectory: state)
        #expect(directory.lastPathComponent == "audit")
        let log = try AuditFixture.open(directory)
        func mode(_ url: URL) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
        }
        #expect(try mode(directory) == 0o700)
        #expect(try mode(AuditFixture.current(directory)) == 0o600)
        #expect(throws: AuditTrailError(.locked, "")) { try AuditFixture.open(directory, waitForLock: false) }
        try log.close()
        try log.close()  // twice is fine
        #expect(throws: AuditTrailError(.closed, "")) { try log.append(.agentStopped) }
        _ = try AuditFixture.open(directory)  // the lock went with close
    }

    @Test func theLogsOwnEventsCannotBeAppended() throws {
        let log = try AuditFixture.open(try AuditFixture.temporaryDirectory())
        for event: AuditEvent in [
            .logOpened(boot: nil), .logRotated(previousFile: try AuditIdentifier("audit.log.1")),
            .logRecovered(truncatedBytes: 1, truncatedSHA256: .genesis),
        ] {
            #expect(throws: AuditTrailError(.reservedEvent, "")) { try log.append(event) }
        }
        #expect(log.lastSequence == 1)
    }

    @Test func flowEndsAreDurabilityPointsAndStepsAreNot() {
        let flow = AuditFixture.flow(1), s = AuditFixture.study
        #expect(AuditEvent.completed(flow: flow, study: s, record: flow).isDurabilityPoint)
        #expect(AuditEvent.declined(flow: flow, study: s, at: .reviewDocument).isDurabilityPoint)
        #expect(AuditEvent.expired(flow: flow, study: s, at: .visual).isDurabilityPoint)
        #expect(AuditEvent.cancelled(flow: flow, study: s, at: .sharing).isDurabilityPoint)
        #expect(AuditEvent.eligibilityResult(flow: flow, study: s, eligible: false, answered: 4, questions: 4).isDurabilityPoint)
        #expect(!AuditEvent.eligibilityResult(flow: flow, study: s, eligible: true, answered: 4, questions: 4).isDurabilityPoint)
        #expect(!AuditEvent.stepReached(flow: flow, study: s, step: .visual, index: 0).isDurabilityPoint)
    }

    @Test func everyEventKindHasAUniqueDottedWireName() {
        let names = AuditEvent.Kind.allCases.map(\.rawValue)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.contains(".") && $0 == $0.lowercased() })
    }
}
