import Foundation
import NIOConcurrencyHelpers
import StaffCredentials
import Testing

@testable import ConsentAgent

/// A staff PIN try (`StaffTry`, Sources/ConsentAgent/Methods/Staff.swift) counts against the id before its slow
/// hash runs, so tries made at the same moment from several pages get no more hashes than the lock-out allows.
@Suite struct StaffTryTests {
    /// jroe / 482913, mmax / 135790 (`consentctl staff add`).
    static let staffFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/staff.json").path

    @Test func eightWrongPinsAtOnceGetFiveHashesBetweenThem() {
        let lockout = NIOLockedValueBox(StaffLockout(path: nil))
        let results = NIOLockedValueBox<[StaffTry.Result]>([])
        let group = DispatchGroup()
        // Eight threads, all past the lock-out check long before the first PBKDF2 of 600,000 rounds is done:
        // counted after the hash, every one of them would be hashed and answered WrongStaffPin.
        for attempt in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                if let outcome = try? StaffTry.run(id: "mmax", pin: "11111\(attempt)", file: Self.staffFile, lockout: lockout) {
                    results.withLockedValue { $0.append(outcome.result) }
                }
                group.leave()
            }
        }
        group.wait()
        let all = results.withLockedValue { $0 }
        #expect(all.count == 8)
        #expect(all.filter { if case .wrong(true, false) = $0 { true } else { false } }.count == 4)
        #expect(all.filter { if case .wrong(true, true) = $0 { true } else { false } }.count == 1)
        #expect(all.filter { if case .locked = $0 { true } else { false } }.count == 3)
        #expect(lockout.withLockedValue { $0.failures("mmax") } == 5)
    }

    @Test func theRightPinIsForgiven() throws {
        let lockout = NIOLockedValueBox(StaffLockout(path: nil))
        _ = try StaffTry.run(id: "mmax", pin: "111111", file: Self.staffFile, lockout: lockout)
        #expect(lockout.withLockedValue { $0.failures("mmax") } == 1)
        let right = try StaffTry.run(id: "mmax", pin: "135790", file: Self.staffFile, lockout: lockout)
        guard case .right(let credential) = right.result else {
            Issue.record("the right PIN was refused: \(right.result)")
            return
        }
        #expect(credential.id == "mmax")
        #expect(lockout.withLockedValue { $0.failures("mmax") } == 0)
        // An unknown id is never counted (the file stays bounded by the staff list).
        _ = try StaffTry.run(id: "nobody", pin: "111111", file: Self.staffFile, lockout: lockout)
        #expect(lockout.withLockedValue { $0.failures("nobody") } == 0)
    }
}
