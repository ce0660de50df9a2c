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

    @Test func fiveWrongPinsLockTheIdForTheConfiguredTime() throws {
        var lockout = StaffLockout(path: nil, duration: 60)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for attempt in 1...4 {
            #expect(try !lockout.recordFailure("jroe", now: start))
            #expect(lockout.failures("jroe") == attempt)
        }
        #expect(lockout.lockedUntil("jroe", now: start) == nil)
        #expect(try lockout.recordFailure("jroe", now: start))
        #expect(lockout.lockedUntil("jroe", now: start) == start.addingTimeInterval(60))
        #expect(lockout.lockedUntil("other", now: start) == nil)
        // The lock ends after the configured time, and the count starts again.
        #expect(lockout.lockedUntil("jroe", now: start.addingTimeInterval(61)) == nil)
        #expect(try !lockout.recordFailure("jroe", now: start.addingTimeInterval(61)))
        #expect(lockout.failures("jroe") == 1)
        try lockout.recordSuccess("jroe")
        #expect(lockout.failures("jroe") == 0)
    }

    @Test func lockSurvivesARestartButNeverOutlastsItsDuration() throws {
        let path = try temporaryDirectory() + "/staff-lockout.json"
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var lockout = StaffLockout(path: path, duration: 300, now: start)
        for _ in 1...3 { try lockout.recordFailure("jroe", now: start) }
        // A restart keeps the count: two more wrong PINs lock.
        var restarted = StaffLockout(path: path, duration: 300, now: start)
        #expect(restarted.failures("jroe") == 3)
        try restarted.recordFailure("jroe", now: start)
        #expect(try restarted.recordFailure("jroe", now: start))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(StaffLockout(path: path, duration: 300, now: start).lockedUntil("jroe", now: start) == start.addingTimeInterval(300))
        // Read back with the clock set back a day, or a shorter duration configured: never locked longer than it.
        let earlier = start.addingTimeInterval(-86_400)
        #expect(StaffLockout(path: path, duration: 300, now: earlier).lockedUntil("jroe", now: earlier) == earlier.addingTimeInterval(300))
        #expect(StaffLockout(path: path, duration: 10, now: start).lockedUntil("jroe", now: start) == start.addingTimeInterval(10))
    }
}
