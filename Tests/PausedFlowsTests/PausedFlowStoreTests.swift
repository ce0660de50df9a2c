import FileBytes
import Foundation
import Testing

@testable import PausedFlows

@Suite struct ResumeCodeTests {
    @Test func aCodeIsEightCharactersWithoutLookAlikes() {
        for _ in 0..<200 {
            let code = ResumeCode.random()
            #expect(code.value.count == 8)
            #expect(code.value.allSatisfy { ResumeCode.alphabet.contains($0) })
            #expect(!code.value.contains { "0O1IL2Z5S6G8BQ".contains($0) })
            #expect(code.description == "\(code.value.prefix(4))-\(code.value.suffix(4))")
        }
    }

    @Test func typingIgnoresCaseSpacesAndTheHyphen() {
        #expect(ResumeCode(typed: "acde-fh34")?.value == "ACDEFH34")
        #expect(ResumeCode(typed: " AC DE FH 34 ")?.value == "ACDEFH34")
        #expect(ResumeCode(typed: "ACDEFH3") == nil)
        #expect(ResumeCode(typed: "ACDEFH340") == nil)
        // A look-alike is not silently read as another character.
        #expect(ResumeCode(typed: "ACDEFH30") == nil)
        #expect(ResumeCode(typed: String(repeating: "A", count: 10_000)) == nil)
    }
}

@Suite struct PausedFlowStoreTests {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("paused-\(UUID().uuidString)").path

    @Test func aSealedFlowOpensWithItsCodeOnlyAndNothingOfItIsReadableOnDisk() throws {
        let store = PausedFlowStore(stateDirectory: state)
        let code = ResumeCode.random()
        let secret = Data(#"{"study":"heartbeat","answers":[true,false],"marker":"PLAINTEXT-MARKER"}"#.utf8)
        let id = try store.seal(secret, code: code, expires: Date().addingTimeInterval(3600))
        #expect(try store.open(code, now: Date())?.state == secret)
        #expect(try store.open(code, now: Date())?.id == id)
        #expect(try store.open(ResumeCode.random(), now: Date()) == nil)

        let file = "\(store.directory)/\(id).paused"
        let bytes = try FileBytes.read(file)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("PLAINTEXT-MARKER"))
        #expect(!String(decoding: bytes, as: UTF8.self).contains(code.value))
        // The folder names no code.
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: store.directory)).contains { $0.contains(code.value) })
        for path in [file, store.keyFile] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(path)")
        }
        // Another kiosk's key does not open it.
        try FileManager.default.removeItem(atPath: store.keyFile)
        #expect(try store.open(code, now: Date()) == nil)
    }

    @Test func aChangedExpiryDoesNotOpen() throws {
        let store = PausedFlowStore(stateDirectory: state)
        let code = ResumeCode.random()
        let id = try store.seal(Data("state".utf8), code: code, expires: Date().addingTimeInterval(60))
        let file = "\(store.directory)/\(id).paused"
        var bytes = try FileBytes.read(file)
        // Push the expiry a year on: the header is authenticated with the state.
        bytes[PausedFlowStore.magic.count + 4] &+= 1
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(try store.open(code, now: Date()) == nil)
    }

    @Test func anExpiredFlowIsGoneAndPruningNeedsNoKey() throws {
        let store = PausedFlowStore(stateDirectory: state)
        let old = ResumeCode.random(), fresh = ResumeCode.random(), late = ResumeCode.random()
        let now = Date()
        let oldID = try store.seal(Data("a".utf8), code: old, expires: now.addingTimeInterval(-1))
        let freshID = try store.seal(Data("b".utf8), code: fresh, expires: now.addingTimeInterval(3600))
        try store.seal(Data("c".utf8), code: late, expires: now.addingTimeInterval(-10))
        // Opening an expired one deletes it.
        #expect(try store.open(late, now: now) == nil)
        #expect(store.count() == 2)
        try FileManager.default.removeItem(atPath: store.keyFile)
        #expect(store.pruneExpired(now: now) == [oldID])
        #expect(store.count() == 1)
        #expect(FileManager.default.fileExists(atPath: "\(store.directory)/\(freshID).paused"))
        // Removing twice is fine.
        try store.remove(freshID)
        try store.remove(freshID)
        #expect(store.count() == 0)
    }
}
