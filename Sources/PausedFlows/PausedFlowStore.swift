import Crypto
import FileBytes
import Foundation

/// The paused flows of a kiosk (`flow.pause`): each one's state sealed under the kiosk's pause key, found by its
/// resume code, gone once resumed or past its day.
///
/// ```
/// <state>/keys/paused-flows.key     32 random bytes (0600): made on first use; never leaves the kiosk
/// <state>/paused/<id>.paused        one paused flow (0600, written atomically)
/// ```
/// `<id>` is HMAC-SHA256 of the code under the key (its first 32 hex digits): the folder names no code, and
/// without the key a code cannot be matched to its file. A file is `CKPAUSE1`, the expiry (seconds since 1970,
/// 8 bytes big-endian, readable so `pruneExpired` needs no key) and the state sealed with AES-256-GCM, the first 16
/// bytes authenticated with it: a changed expiry does not open. Nothing in the file is readable without the key.
///
/// Kiosks sharing a state directory share the key, so a code works on each of them.
public struct PausedFlowStore: Sendable {
    public static let fileSuffix = ".paused"
    static let magic = Array("CKPAUSE1".utf8)
    /// The header the sealed state follows: the magic and the expiry.
    static let headerLength = magic.count + 8
    /// A paused flow's state is a few kilobytes; anything much larger in the folder is not ours.
    static let maximumFileBytes = 1 << 20

    public let directory: String
    public let keyFile: String
    let keyDirectory: String

    /// An error of the store, naming the call that failed (never a code or a state).
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// One paused flow as `open` found it.
    public struct Opened: Sendable, Hashable {
        public var id: String
        public var state: Data
        public var expires: Date
    }

    public init(stateDirectory: String) {
        let layout = StateLayout(root: stateDirectory)
        directory = layout.pausedFlows
        keyFile = layout.pausedFlowKey
        keyDirectory = layout.keys
    }

    /// The file id of `code`: the name its file has, and what the audit log names it by.
    public func id(of code: ResumeCode) throws -> String {
        Self.id(of: code, key: try loadOrCreateKey())
    }

    /// Seals `state` under the kiosk's key and writes it durably for `code` until `expires`.
    ///
    /// - Returns: the file id (`id(of:)`).
    /// - Throws: `Failure` when the key cannot be made or read, or the file cannot be written.
    @discardableResult
    public func seal(_ state: Data, code: ResumeCode, expires: Date) throws -> String {
        let key = try loadOrCreateKey()
        let header = Self.header(expires: expires)
        let box: AES.GCM.SealedBox
        do {
            box = try AES.GCM.seal(state, using: key, authenticating: header)
        } catch {
            throw Failure("the paused flow could not be sealed")
        }
        guard let sealed = box.combined else { throw Failure("the paused flow could not be sealed") }
        let id = Self.id(of: code, key: key)
        try Self.makePrivateDirectory(directory)
        do {
            try DurableWrite.replace(path(of: id), contents: header + Array(sealed))
        } catch {
            throw Failure("cannot write the paused flow: \(error)")
        }
        return id
    }

    /// The paused flow of `code`, opened in memory; nil when there is none, or it expired before `now` (its file is
    /// then deleted). A file that does not open under the key (damaged, or another kiosk's) is nil too.
    ///
    /// - Throws: `Failure` when the key cannot be read.
    public func open(_ code: ResumeCode, now: Date) throws -> Opened? {
        let key = try loadOrCreateKey()
        let id = Self.id(of: code, key: key)
        guard let bytes = try? FileBytes.read(path(of: id), limit: Self.maximumFileBytes),
            let expires = Self.expiry(of: bytes)
        else { return nil }
        guard expires > now else {
            try? remove(id)
            return nil
        }
        let header = Array(bytes.prefix(Self.headerLength))
        guard let box = try? AES.GCM.SealedBox(combined: Data(bytes.dropFirst(Self.headerLength))),
            let state = try? AES.GCM.open(box, using: key, authenticating: header)
        else { return nil }
        return Opened(id: id, state: state, expires: expires)
    }

    /// Deletes a paused flow (resumed, or expired) durably; nothing when it is gone already.
    public func remove(_ id: String) throws {
        guard Self.isValidID(id) else { return }
        do {
            try DurableWrite.remove(path(of: id))
        } catch {
            throw Failure("cannot delete the paused flow: \(error)")
        }
    }

    /// Deletes every paused flow whose day is past at `now` (and files in the folder that are not paused flows);
    /// needs no key, so `consentctl prune` runs it too.
    ///
    /// - Returns: the ids deleted, for the audit log.
    public func pruneExpired(now: Date) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var deleted: [String] = []
        for name in names.sorted() where name.hasSuffix(Self.fileSuffix) {
            let id = String(name.dropLast(Self.fileSuffix.count))
            guard Self.isValidID(id) else { continue }
            let bytes = try? FileBytes.read(path(of: id), limit: Self.maximumFileBytes)
            if let expires = bytes.flatMap(Self.expiry(of:)), expires > now { continue }
            if (try? remove(id)) != nil { deleted.append(id) }
        }
        return deleted
    }

    /// How many paused flows wait (expired ones not yet pruned included).
    public func count() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(Self.fileSuffix) }.count
    }

    // MARK: The file

    func path(of id: String) -> String { "\(directory)/\(id)\(Self.fileSuffix)" }

    static func id(of code: ResumeCode, key: SymmetricKey) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(code.value.utf8), using: key)
        return mac.prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    static func isValidID(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    static func header(expires: Date) -> [UInt8] {
        let seconds = UInt64(max(0, expires.timeIntervalSince1970.rounded(.down)))
        return magic + (0..<8).reversed().map { UInt8(truncatingIfNeeded: seconds >> (UInt64($0) * 8)) }
    }

    /// The expiry a file's header names; nil when it is not a paused flow's file.
    static func expiry(of bytes: [UInt8]) -> Date? {
        guard bytes.count > headerLength, Array(bytes.prefix(magic.count)) == magic else { return nil }
        let seconds = bytes[magic.count..<headerLength].reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        guard seconds < UInt64(Int64.max) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// A folder only the agent's user reads (0700), made when missing.
    static func makePrivateDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw Failure("cannot create \(path); check the state directory's permissions")
        }
        guard chmod(path, 0o700) == 0 else { throw Failure("cannot make \(path) private (0700)") }
    }

    /// The pause key; made (32 random bytes, 0600) when missing, exclusively, so two agents sharing the state
    /// directory never make two.
    func loadOrCreateKey() throws -> SymmetricKey {
        if let bytes = try? FileBytes.read(keyFile, limit: 64) {
            guard bytes.count == 32 else { throw Failure("the pause key file is damaged (\(keyFile)); move it aside") }
            return SymmetricKey(data: bytes)
        }
        let key = SymmetricKey(size: .bits256)
        try Self.makePrivateDirectory(keyDirectory)
        do {
            try DurableWrite.createNew(keyFile, contents: key.withUnsafeBytes { Array($0) })
            try DurableWrite.syncDirectory(keyDirectory)
            return key
        } catch let failure where failure.errno == EEXIST {
            // Another agent made it first: its key is the one to use.
            guard let bytes = try? FileBytes.read(keyFile, limit: 64), bytes.count == 32 else {
                throw Failure("cannot read the pause key (\(keyFile))")
            }
            return SymmetricKey(data: bytes)
        } catch {
            throw Failure("cannot make the pause key (\(keyFile)): \(error)")
        }
    }
}
