import Foundation
import Testing

@testable import ConsentAgent

@Suite struct RecordIDTests {
    @Test func recordIDsAreCheckedBeforeTouchingFiles() {
        #expect(RecordID.isValid(UUID().uuidString.lowercased()))
        #expect(!RecordID.isValid(UUID().uuidString))  // upper case is not what the signer mints
        #expect(!RecordID.isValid("../../etc/passwd"))
        #expect(!RecordID.isValid("../../../../../../../../../../../etc"))
        #expect(!RecordID.isValid("0123456789abcdef0123456789abcdef0123"))
    }
}
