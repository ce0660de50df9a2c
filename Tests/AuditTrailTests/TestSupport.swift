import Foundation
import Synchronization
import Testing

@testable import AuditTrail

/// Shared fixtures: a clock that ticks a second per call, temporary state directories, a study, line editing.
enum AuditFixture {
    /// 2026-09-14T10:15:30Z.
    static let start = Date(timeIntervalSince1970: 1_789_380_930)
    static let kiosk = try! AuditIdentifier("kiosk-test-1")  // a literal: not an input path
    static let study = AuditStudy(id: try! AuditIdentifier("heartbeat-sleep"), version: AuditDigest(sha256Of: Data("study".utf8)))

    /// Wall time advances one second per line, monotonic time one millisecond.
    static func clock() -> AuditClock {
        let ticks = Atomic<UInt64>(0)
        return AuditClock(
            now: { start.addingTimeInterval(Double(ticks.add(1, ordering: .relaxed).newValue)) },
            monotonicNanoseconds: { 5_000_000_000 + ticks.load(ordering: .relaxed) * 1_000_000 })
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("audit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Opens the log, waiting up to a second while its lock is held unless `waitForLock` is false.
    ///
    /// A test that closes a log and opens it again can find the lock still held: when another test of this process
    /// spawns a program (AuditCommandTests runs consentctl), the child holds a copy of every descriptor, the lock
    /// file's included, until its exec closes them, and flock's lock lives until the last copy is closed.
    static func open(
        _ directory: URL, maxFileBytes: Int = AuditLog.defaultMaxFileBytes, waitForLock: Bool = true
    ) throws -> AuditLog {
        let deadline = ContinuousClock.now + .seconds(1)
        while true {
            do {
                return try AuditLog(
                    directory: directory, kiosk: kiosk, maxFileBytes: maxFileBytes, clock: clock(),
                    bootID: try AuditIdentifier("boot-1"))
            } catch let error as AuditTrailError where error.code == .locked && waitForLock && ContinuousClock.now < deadline {
                usleep(5_000)
            }
        }
    }

    static func flow(_ n: Int) -> AuditIdentifier {
        AuditIdentifier(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n)) ?? UUID())
    }

    /// The events of one complete consent on the sample study's shape (3 scenes, sharing, review, signature).
    static func consentEvents(flow: AuditIdentifier, record: AuditIdentifier) -> [AuditEvent] {
        let s = study
        return [
            .flowStarted(flow: flow, study: s),
            .eligibilityResult(flow: flow, study: s, eligible: true, answered: 4, questions: 4),
            .stepReached(flow: flow, study: s, step: .visual, index: 0),
            .stepReached(flow: flow, study: s, step: .visual, index: 1),
            .stepReached(flow: flow, study: s, step: .visual, index: 2),
            .stepReached(flow: flow, study: s, step: .sharing, index: nil),
            .sharingChosen(flow: flow, study: s, shareWidely: true),
            .stepReached(flow: flow, study: s, step: .reviewDocument, index: nil),
            .stepReached(flow: flow, study: s, step: .reviewName, index: nil),
            .stepReached(flow: flow, study: s, step: .reviewSignature, index: nil),
            .signatureCaptured(flow: flow, study: s, signer: .participant, strokes: 2, points: 3),
            .stepReached(flow: flow, study: s, step: .done, index: nil),
            .recordWritten(flow: flow, study: s, record: record, manifest: AuditDigest(sha256Of: Data("manifest".utf8))),
            .completed(flow: flow, study: s, record: record),
        ]
    }

    static func current(_ directory: URL) -> URL { directory.appendingPathComponent("audit.log") }

    /// The file's lines without their "\n".
    static func lines(_ url: URL) throws -> [Data] {
        var lines = try Data(contentsOf: url).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Data($0) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    static func write(_ lines: [Data], to url: URL) throws {
        try lines.reduce(Data()) { $0 + $1 + Data("\n".utf8) }.write(to: url)
    }

    static func parsed(_ url: URL) throws -> [AuditLine] {
        try lines(url).map { try #require(AuditLine.parse($0)) }
    }
}
