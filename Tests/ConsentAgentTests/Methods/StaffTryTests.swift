import AgentProtocol
import ConsentRecords
import ConsentSigning
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import StaffCredentials
import Testing

@testable import ConsentAgent

/// Staff PIN tries (`unlockStaff`, `StaffTry`, Sources/ConsentAgent/Methods/Staff.swift): counted before their slow
/// hash, the same for made-up ids as for real ones, and hashed on a pool of their own (`HashWork`), so a flood of
/// guesses never stands in line before another flow's record.
@Suite struct StaffTryTests {
    /// jroe / 482913, mmax / 135790 (`consentctl staff add`).
    static let staffFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/staff.json").path

    @Test func aMadeUpIdCostsAHashAndIsWrongLikeAWrongPin() throws {
        let right = try StaffTry.run(id: "mmax", pin: "135790", file: Self.staffFile)
        guard case .right(let credential) = right.result else {
            Issue.record("the right PIN was refused: \(right.result)")
            return
        }
        #expect(credential.id == "mmax")
        guard case .wrong(known: true) = try StaffTry.run(id: "mmax", pin: "111111", file: Self.staffFile).result,
            case .wrong(known: false) = try StaffTry.run(id: "nobody", pin: "135790", file: Self.staffFile).result
        else {
            Issue.record("a wrong PIN or a made-up id was not wrong")
            return
        }
    }

    /// A try saves the kiosk's count it was admitted with before it hashes, so a crash during the hash keeps it.
    @Test func theCountIsSavedBeforeTheHash() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("staff-try-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = StaffLockoutFile(path: directory.appendingPathComponent(StaffLockout.fileName).path)
        var lockout = StaffLockout()
        _ = lockout.admit(flow: "f-a", id: "nobody")
        _ = try StaffTry.run(id: "nobody", pin: "111111", file: Self.staffFile, keeping: lockout.snapshot, in: file)
        #expect(StaffLockout(kept: file.read()).failures(flow: "f-a").kiosk == 1)
    }

    /// Guessers' hashes wait on the hashing pool, never on the disk pool: with the hashing pool held up, every
    /// guess waits while another flow's `flow.complete` composes, signs and writes its record on the disk pool
    /// and answers. (Hashed on the disk pool, as before `HashWork`, each guess's PBKDF2 stood in line before the
    /// record, and every guess was answered first.)
    @Test func guessesNeverStandInLineBeforeARecord() async throws {
        let state = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let disk = NIOThreadPool(numberOfThreads: 1)
        let hashes = NIOThreadPool(numberOfThreads: 1)
        disk.start()
        hashes.start()
        let kiosk = try KioskIdentity.loadOrCreate(id: "test-kiosk", stateDirectory: state)
        let core = AgentCore(
            studies: [try TestSupport.sampleStudy()], settings: .init(stateDirectory: state), hub: EventHub(),
            recordMaker: SignedRecordMaker(
                composer: ConsentRecordComposer(signer: ConsentSigner(kiosk: kiosk)), stateDirectory: state,
                logger: Logger(label: "test"), pool: disk),
            logger: Logger(label: "test"), staff: StaffSettings(file: Self.staffFile), diskPool: disk, hashPool: hashes)

        let signer = try await CoreCaller(core, id: 1).toStaffStep()
        #expect(try await signer.call("staff.unlock", ["staffId": "jroe", "pin": "482913"])["result"]?["view"]?["staff"]?["page"] == "attest")
        _ = try await signer.call("staff.attestIdentity", ["method": "photoId"])
        let countersigned = try await signer.call("signature.submit", ["strokes": CoreCaller.strokes, "role": "personObtainingConsent"])
        #expect(countersigned["result"]?["step"] == "done")

        // The hashing pool's one thread is held until the record is written.
        let gate = DispatchSemaphore(value: 0)
        let holding = NIOLockedValueBox(false)
        let hold = Task { try await hashes.runIfActive { holding.withLockedValue { $0 = true }; gate.wait() } }
        while !holding.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }

        let answered = NIOLockedValueBox<[String]>([])
        var guessers: [Task<Void, any Error>] = []
        for page in 0..<5 {
            let guesser = try await CoreCaller(core, id: UInt64(10 + page)).toStaffStep()
            guessers.append(Task {
                let reply = try await guesser.call("staff.unlock", ["staffId": .string("made-up-\(page)"), "pin": "111111"])
                answered.withLockedValue { $0.append(reply["error"]?["data"]?["type"]?.stringValue ?? "none") }
            })
        }
        // Every guess was counted and waits for its hash.
        while await core.staffLockout?.failures(flow: "").kiosk != 5 { try await Task.sleep(for: .milliseconds(5)) }

        let completed = try await signer.call("flow.complete")
        #expect(completed["result"]?["step"] == "completed", "\(completed)")
        #expect(answered.withLockedValue { $0 }.isEmpty, "a guess was hashed before the record: \(answered.withLockedValue { $0 })")

        gate.signal()
        try await hold.value
        for guesser in guessers { try await guesser.value }
        #expect(answered.withLockedValue { $0 } == Array(repeating: "WrongStaffPin", count: 5))
        try await disk.shutdownGracefully()
        try await hashes.shutdownGracefully()
    }
}

/// Requests straight to the core through a recording handle (no socket), one at a time, as one connection sends
/// them; the handle negotiated every capability.
struct CoreCaller: Sendable {
    /// A UI-drawn signature: a 12-point zigzag.
    static var strokes: RPCValue {
        let points: [RPCValue] = (0..<12).map { (i: Int) -> RPCValue in
            let x: RPCValue = .number(0.1 + Double(i) * 0.05)
            let y: RPCValue = .number(i % 2 == 0 ? 0.6 : 0.4)
            return .array([x, y, .integer(Int64(i * 8)), .number(0.5)])
        }
        return ["strokes": .array([.array(points)]), "widthMM": 120, "heightMM": 40]
    }

    let core: AgentCore
    let handle: ConnectionHandle
    let replies: NIOLockedValueBox<[RPCValue]>
    let flow: NIOLockedValueBox<RPCValue?>

    init(_ core: AgentCore, id: UInt64) {
        let replies = NIOLockedValueBox<[RPCValue]>([])
        self.core = core
        self.replies = replies
        self.flow = NIOLockedValueBox(nil)
        self.handle = ConnectionHandle(id: id, recorder: { delivery in
            guard case .reply(_, let outcome) = delivery else { return }
            let value: RPCValue
            switch outcome {
            case .result(let result): value = ["result": result]
            case .error(let error): value = ["error": ["message": .string(error.message), "data": ["type": .string(error.type.rawValue)]]]
            case .subscribed, .synced: value = ["result": [:]]
            }
            replies.withLockedValue { $0.append(value) }
        })
        handle.negotiated(client: "staff-try-test", capabilities: Set(Capability.allCases))
    }

    /// Sends `method` (with the caller's flow, once it has one) and returns its reply.
    func call(_ method: String, _ params: [String: RPCValue] = [:]) async throws -> RPCValue {
        let name = try #require(Method(rawValue: method))
        var params = params
        if let flow = flow.withLockedValue({ $0 }), params["flow"] == nil { params["flow"] = flow }
        await core.handle(RPCRequest(id: .integer(1), method: method, params: params), method: name, from: handle)
        return try #require(replies.withLockedValue { $0.popLast() })
    }

    /// A flow of the sample study walked to its staff step (staffCountersignature required).
    func toStaffStep() async throws -> CoreCaller {
        let started = try await call("flow.start")
        flow.withLockedValue { $0 = started["result"]?["flow"] }
        _ = try await call("eligibility.answer", ["answers": [true, true, false, true]])
        var step = try await call("flow.next", ["step": "eligibility"])
        // The sample study begins with its key information.
        step = try await call("flow.next", ["step": "keyInformation"])
        while step["result"]?["step"] == "visual" { step = try await call("flow.next", ["step": "visual"]) }
        _ = try await call("sharing.choose", ["shareWidely": false])
        _ = try await call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
        _ = try await call("review.agree")
        for answer in TestSupport.sampleComprehensionAnswers { _ = try await call("comprehension.answer", answer) }
        _ = try await call("participant.setName", ["given": "Grace", "family": "Hopper"])
        let signed = try await call("signature.submit", ["strokes": Self.strokes])
        #expect(signed["result"]?["step"] == "staff", "\(signed)")
        return self
    }
}
