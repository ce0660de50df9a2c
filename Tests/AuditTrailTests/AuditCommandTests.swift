import Foundation
import Testing

@testable import AuditTrail

/// `consentctl audit verify` and `show`, run as the built binary, as an auditor or technician would.
@Suite struct AuditCommandTests {
    /// A state directory whose log holds two consents.
    private func makeState() throws -> URL {
        let state = try AuditFixture.temporaryDirectory()
        let log = try AuditFixture.open(AuditLog.directory(stateDirectory: state))
        for n in 0..<2 {
            for event in AuditFixture.consentEvents(flow: AuditFixture.flow(10 + n), record: AuditFixture.flow(20 + n)) {
                try log.append(event)
            }
        }
        try log.close()
        return state
    }

    @Test func verifyExitsZeroForAnIntactLog() throws {
        let state = try makeState()
        let result = try ProductRunner.run("consentctl", ["audit", "verify", "--state-dir", state.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("OK audit trail intact: 29 line(s) in 1 file(s)"))
        let head = try AuditVerifier.verify(directory: AuditLog.directory(stateDirectory: state)).head
        #expect(result.stdout.contains("head \(try #require(head).hex)"))
    }

    /// A kiosk that has written no record yet has no records/ folder; that is not an error.
    @Test func verifyWithRecordsOfAKioskWithoutRecordsExitsZero() throws {
        let state = try makeState()
        let records = state.appendingPathComponent("records").path
        let result = try ProductRunner.run("consentctl", ["audit", "verify", "--state-dir", state.path, "--records", records])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("OK audit trail intact"))
        #expect(result.stdout.contains("no records yet"))
        // A path that exists but cannot be listed is still an error.
        let file = state.appendingPathComponent("not-a-folder")
        try Data().write(to: file)
        let wrong = try ProductRunner.run("consentctl", ["audit", "verify", "--state-dir", state.path, "--records", file.path])
        #expect(wrong.status == 1)
    }

    @Test func verifyExitsTwoNamingTheFirstBrokenLine() throws {
        let state = try makeState()
        let url = AuditFixture.current(AuditLog.directory(stateDirectory: state))
        var lines = try AuditFixture.lines(url)
        lines.swapAt(4, 5)
        try AuditFixture.write(lines, to: url)
        let result = try ProductRunner.run("consentctl", ["audit", "verify", "--state-dir", state.path])
        #expect(result.status == 2)
        #expect(result.stdout.contains("BROKEN audit.log line 5: reordered"), "\(result.stdout)")
    }

    @Test func verifyExitsOneWithoutALog() throws {
        let state = try AuditFixture.temporaryDirectory()
        let result = try ProductRunner.run("consentctl", ["audit", "verify", "--state-dir", state.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no audit log here"))
    }

    @Test func showPrintsEventsFilteredByRecordFlowAndTime() throws {
        let state = try makeState()
        let all = try ProductRunner.run("consentctl", ["audit", "show", "--state-dir", state.path])
        #expect(all.status == 0)
        #expect(all.stdout.split(separator: "\n").count == 29)
        #expect(all.stdout.contains("flow.step") && all.stdout.contains("step=review.signature") && all.stdout.contains("[kiosk-test-1]"))

        // --record: the record's own lines and every line of the flow that wrote it.
        let record = AuditFixture.flow(21).value
        let byRecord = try ProductRunner.run("consentctl", ["audit", "show", "--state-dir", state.path, "--record", record, "--json"])
        let lines = try byRecord.stdout.split(separator: "\n").map { try #require(AuditLine.parse(Data($0.utf8))) }
        #expect(lines.count == 14)
        #expect(lines.allSatisfy { $0.flow == AuditFixture.flow(11).value })

        let byFlow = try ProductRunner.run("consentctl", ["audit", "show", "--state-dir", state.path, "--flow", AuditFixture.flow(10).value])
        #expect(byFlow.stdout.split(separator: "\n").count == 14)

        // Line n has time start + n seconds.
        let since = try ProductRunner.run("consentctl", ["audit", "show", "--state-dir", state.path, "--since", "2026-09-14T10:15:50Z"])
        #expect(since.stdout.split(separator: "\n").count == 10)
        let bad = try ProductRunner.run("consentctl", ["audit", "show", "--state-dir", state.path, "--since", "yesterday"])
        #expect(bad.status == 64)
    }

    /// kill -9 at an arbitrary moment (mid-flow, mid-fsync, mid-rotation) leaves a chain that verifies, and the
    /// next writer continues it.
    @Test(arguments: [0.15, 0.3, 0.45])
    func killNineLeavesAChainThatVerifies(delay: Double) async throws {
        let state = try AuditFixture.temporaryDirectory()
        let process = Process()
        process.executableURL = ProductRunner.productsFolder.appendingPathComponent("consentctl")
        process.arguments = ["audit", "exercise", "--state-dir", state.path, "--max-bytes", "3000"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let directory = AuditLog.directory(stateDirectory: state)
        // Wait for the first rotations, then some more, and kill.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !FileManager.default.fileExists(atPath: directory.appendingPathComponent("audit.log.2").path) {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .seconds(delay))
        #expect(kill(process.processIdentifier, SIGKILL) == 0)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let result = try ProductRunner.run("consentctl", ["audit", "verify", "--state-dir", state.path])
        #expect(result.status == 0, "\(result.stdout)")
        let before = try AuditVerifier.verify(directory: directory)
        #expect(before.isIntact && before.files.count >= 3)

        let log = try AuditFixture.open(directory, maxFileBytes: 3000)
        try log.append(.agentStopped)
        try log.close()
        let after = try AuditVerifier.verify(directory: directory)
        #expect(after.isIntact && after.lastSequence > before.lastSequence)
    }

    @Test func exerciseRefusesAnExistingLog() throws {
        let state = try makeState()
        let result = try ProductRunner.run("consentctl", ["audit", "exercise", "--state-dir", state.path, "--flows", "1"])
        #expect(result.status == 1 && result.stderr.contains("exists already"))
        #expect(try AuditVerifier.verify(directory: AuditLog.directory(stateDirectory: state)).lineCount == 29)
    }
}
