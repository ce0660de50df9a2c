import Foundation
import StaffCredentials
import Testing

@Suite struct StaffCredentialsTests {
    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "staff-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func pinIsKeptOnlyAsASaltedSlowHash() throws {
        let a = try StaffCredential(id: "jroe", name: "Jane Roe", pin: "482913")
        let b = try StaffCredential(id: "jroe", name: "Jane Roe", pin: "482913")
        #expect(a.algorithm == "PBKDF2-SHA256")
        #expect(a.iterations >= 600_000)
        #expect(Data(base64Encoded: a.salt)?.count == 16)
        #expect(Data(base64Encoded: a.hash)?.count == 32)
        // A fresh salt each time: the same PIN never hashes the same.
        #expect(a.salt != b.salt && a.hash != b.hash)
        #expect(a.matches("482913"))
        #expect(!a.matches("482914"))
        #expect(!a.matches(""))
    }

    @Test func idNameAndPinAreChecked() {
        #expect(throws: StaffCredentialError.self) { try StaffCredential(id: "", name: "A B", pin: "123456") }
        #expect(throws: StaffCredentialError.self) { try StaffCredential(id: "a b", name: "A B", pin: "123456") }
        #expect(throws: StaffCredentialError.self) { try StaffCredential(id: "ok", name: "  ", pin: "123456") }
        #expect(throws: StaffCredentialError.self) { try StaffCredential(id: "ok", name: "A B", pin: "12345") }
        #expect(throws: StaffCredentialError.self) { try StaffCredential(id: "ok", name: "A B", pin: "12345a") }
        #expect(throws: StaffCredentialError.self) { try StaffCredential(id: "ok", name: "A B", pin: "1234567890123") }
    }

    @Test func fileIsWrittenAtomically0600AndReadBack() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/staff.json"
        var file = try StaffFile.load(path)
        #expect(file.staff.isEmpty)
        try file.add(StaffCredential(id: "jroe", name: "Jane Roe", pin: "482913", iterations: 210_000))
        try file.add(StaffCredential(id: "mmax", name: "Max Muster", pin: "111222", iterations: 210_000))
        #expect(throws: StaffCredentialError.self) {
            try file.add(StaffCredential(id: "jroe", name: "Other", pin: "999999", iterations: 210_000))
        }
        try file.save(path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("482913") && !text.contains("111222"))
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["staff.json"])

        var read = try StaffFile.load(path)
        #expect(read.staff.map(\.id) == ["jroe", "mmax"])
        #expect(read.check(id: "jroe", pin: "482913")?.name == "Jane Roe")
        // Ids are lowercase and typed in any case (the on-screen keyboard capitalises a first letter).
        #expect(read.check(id: "Jroe", pin: "482913")?.id == "jroe")
        #expect(read.check(id: "jroe", pin: "111222") == nil)
        #expect(read.check(id: "nobody", pin: "482913") == nil)
        try read.remove("jroe")
        #expect(throws: StaffCredentialError.self) { try read.remove("jroe") }
        try read.save(path)
        #expect(try StaffFile.load(path).staff.map(\.id) == ["mmax"])
    }

    @Test func malformedFileIsATypedError() throws {
        let path = try temporaryDirectory() + "/staff.json"
        try Data("{\"staff\": 3}".utf8).write(to: URL(fileURLWithPath: path))
        #expect { try StaffFile.load(path) } throws: { ($0 as? StaffCredentialError)?.code == .malformed }
    }

    @Test func aNameWithAControlCharacterIsRefused() throws {
        for name in ["Jane\u{0}Roe", "Jane\u{202E}eoR", "Jane\nRoe", "Jane\u{1B}[31mRoe", "Jane\u{85}Roe"] {
            #expect(throws: StaffCredentialError.self, "\(name.unicodeScalars.map(\.value))") {
                try StaffCredential(id: "ok", name: name, pin: "123456", iterations: 210_000)
            }
        }
        // A display name may carry a title or a credential.
        #expect(try StaffCredential(id: "ok", name: "Dr. Jane Roe, RN", pin: "123456", iterations: 210_000).name == "Dr. Jane Roe, RN")
    }

    /// Five wrong PINs in a row for one id lock that id on that flow (another staff member can still unlock it);
    /// ten on a flow, whatever ids they name, lock the flow; other flows go on.
    @Test func wrongPinsLockTheIdOnTheFlowThenTheFlow() throws {
        var lockout = StaffLockout(duration: 60)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for attempt in 1...4 {
            #expect(lockout.admit(flow: "f-a", id: "jroe", now: start) == .counted(lockedIfWrong: nil))
            #expect(lockout.failures(flow: "f-a", id: "jroe", now: start).id == attempt)
        }
        #expect(lockout.admit(flow: "f-a", id: "jroe", now: start) == .counted(lockedIfWrong: start.addingTimeInterval(60)))
        #expect(lockout.admit(flow: "f-a", id: "jroe", now: start) == .locked(until: start.addingTimeInterval(60)))
        // Refused by a lock: nothing of the flow's or the kiosk's count is spent.
        #expect(lockout.failures(flow: "f-a", now: start).flow == 5)
        #expect(lockout.failures(flow: "f-a", now: start).kiosk == 5)
        // The same person on another flow, another person on this one.
        #expect(lockout.admit(flow: "f-b", id: "jroe", now: start) == .counted(lockedIfWrong: nil))
        for _ in 1...4 { #expect(lockout.admit(flow: "f-a", id: "mmax", now: start) == .counted(lockedIfWrong: nil)) }
        // The tenth wrong PIN on the flow locks it, for every id.
        #expect(lockout.admit(flow: "f-a", id: "made-up", now: start) == .counted(lockedIfWrong: start.addingTimeInterval(60)))
        #expect(lockout.admit(flow: "f-a", id: "other", now: start) == .locked(until: start.addingTimeInterval(60)))
        // The locks end after the configured time, and the counts start again.
        let later = start.addingTimeInterval(61)
        #expect(lockout.admit(flow: "f-a", id: "jroe", now: later) == .counted(lockedIfWrong: nil))
        #expect(lockout.failures(flow: "f-a", id: "jroe", now: later).id == 1)
        #expect(lockout.failures(flow: "f-a", now: later).flow == 1)
        lockout.right(flow: "f-a", id: "jroe", now: later)
        #expect(lockout.failures(flow: "f-a", id: "jroe", now: later).id == 0)
        #expect(lockout.failures(flow: "f-a", now: later).flow == 0)
        lockout.keepFlows { $0 != "f-b" }
        #expect(lockout.failures(flow: "f-b", id: "jroe", now: start).id == 0)
        #expect(lockout.failures(flow: "f-b", now: start).flow == 0)
    }

    /// The kiosk's budget: 20 wrong PINs from all flows at once, then one more every duration / 20; a right PIN
    /// takes back only its own try.
    @Test func theKioskBudgetRefillsSteadily() throws {
        var lockout = StaffLockout(duration: 900)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var answers: [StaffLockout.Admission] = []
        for flow in 0..<8 {
            for _ in 0..<3 { answers.append(lockout.admit(flow: "f-\(flow)", id: "jroe", now: start)) }
        }
        let step = 900.0 / Double(StaffLockout.kioskAttempts)
        #expect(answers.filter { $0 == .counted(lockedIfWrong: nil) }.count == 19)
        #expect(answers[19] == .counted(lockedIfWrong: start.addingTimeInterval(step)))
        #expect(answers.dropFirst(20).allSatisfy { $0 == .locked(until: start.addingTimeInterval(step)) })
        // A fresh flow is refused too: the budget is the kiosk's.
        #expect(lockout.admit(flow: "f-new", id: "x", now: start) == .locked(until: start.addingTimeInterval(step)))
        // One step later, one try; not two.
        let later = start.addingTimeInterval(step)
        #expect(lockout.admit(flow: "f-new", id: "x", now: later) == .counted(lockedIfWrong: later.addingTimeInterval(step)))
        #expect(lockout.admit(flow: "f-other", id: "x", now: later) == .locked(until: later.addingTimeInterval(step)))
        // The right PIN gives its own try back.
        lockout.right(flow: "f-new", id: "x", now: later)
        #expect(lockout.admit(flow: "f-other", id: "x", now: later) == .counted(lockedIfWrong: later.addingTimeInterval(step)))
        // After a whole quiet duration the budget is full again.
        #expect(lockout.failures(flow: "f-x", now: start.addingTimeInterval(step + 900)).kiosk == 0)
    }

    /// The kiosk's count survives a restart (a power cut does not hand a guesser a fresh budget); a clock set back
    /// cannot hold the budget back; an old file of per-id counts is read as no count.
    @Test func theKioskCountSurvivesARestart() throws {
        let path = try temporaryDirectory() + "/staff-lockout.json"
        let file = StaffLockoutFile(path: path)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var lockout = StaffLockout(duration: 300, kept: file.read(), now: start)
        for flow in 1..<StaffLockout.kioskAttempts { _ = lockout.admit(flow: "f-\(flow)", id: "x", now: start) }
        let older = lockout.snapshot
        _ = lockout.admit(flow: "f-last", id: "x", now: start)
        try file.save(lockout.snapshot)
        // An older snapshot saved late never replaces the newer one.
        try file.save(older)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        var restarted = StaffLockout(duration: 300, kept: file.read(), now: start)
        if case .locked = restarted.admit(flow: "f-after-restart", id: "x", now: start) {} else {
            Issue.record("a restart handed out a fresh budget")
        }
        // Read back with the clock set back a day: locked no longer than one step from then.
        let earlier = start.addingTimeInterval(-86_400)
        var back = StaffLockout(duration: 300, kept: file.read(), now: earlier)
        #expect(back.admit(flow: "f-x", id: "x", now: earlier) == .locked(until: earlier.addingTimeInterval(300.0 / Double(StaffLockout.kioskAttempts))))
        // The per-id file of before: staff ids, no kiosk member.
        try Data(#"{"jroe":{"failures":5,"lockedUntil":1800000300}}"#.utf8).write(to: URL(fileURLWithPath: path))
        var upgraded = StaffLockout(duration: 300, kept: StaffLockoutFile(path: path).read(), now: start)
        #expect(upgraded.admit(flow: "f-a", id: "x", now: start) == .counted(lockedIfWrong: nil))
    }
}
