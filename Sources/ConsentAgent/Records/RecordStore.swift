import ConsentCore
import ConsentSigning
import FileBytes
import Foundation

/// The records this agent wrote, as the agent core sees them: what withdrawal, re-consent and `records.get` need to
/// know of them (which of them a flow is withdrawing right now is `FlowTable`'s to say). (Writing a record is the record makers' part:
/// `SignedRecordMaker`.)
///
/// The records themselves are the only source of truth: a withdrawal is found by the manifest that names the
/// record in `withdraws`, so nothing outside the (immutable) record directories has to be kept consistent with
/// them. What each manifest declares is read once (`RecordLinkIndex`); the directory is listed for every question.
struct RecordStore: Sendable {
    /// `<state>/records`.
    let directory: URL
    /// Who withdraws or replaces whom, as the manifests on disk declare it.
    private var links = RecordLinkIndex()

    init(stateDirectory: URL) {
        directory = URL(fileURLWithPath: StateLayout(root: stateDirectory.path).records)
    }

    func directory(of id: String) -> URL { directory.appendingPathComponent(id) }

    /// The names of the record's files, sorted; nil when there is no such record (or `id` is not a record id).
    func files(of id: String) -> [String]? {
        guard RecordID.isValid(id), let names = try? FileManager.default.contentsOfDirectory(atPath: directory(of: id).path) else {
            return nil
        }
        return names.sorted()
    }

    /// Whether a record on disk withdraws `id` (a withdrawal being written is `FlowTable.isWithdrawing`'s to say;
    /// `AgentCore.isWithdrawn` asks both).
    mutating func isWithdrawn(_ id: String) -> Bool {
        withdrawal(of: id) != nil
    }

    /// Whether `id` names an existing record directory (checked for shape first, so no id escapes `directory`).
    func exists(_ id: String) -> Bool {
        var isDirectory: ObjCBool = false
        return RecordID.isValid(id) && FileManager.default.fileExists(atPath: directory(of: id).path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// The record's manifest, after checking every file and the signature against it.
    ///
    /// - Throws: `unknownRecord` when there is no such record; `recordInvalid` when it does not verify.
    func verifiedManifest(_ id: String) throws -> RecordManifest {
        guard exists(id) else { throw AgentError(.unknownRecord, "no record has this id") }
        let report: RecordVerifier.Report
        do {
            report = try RecordVerifier.verify(directory: directory(of: id))
        } catch {
            throw AgentError(.unknownRecord, "no record has this id")
        }
        guard report.isIntact, let manifest = report.manifest else {
            throw AgentError(
                .recordInvalid, "the record does not match its signed manifest; check it with consentctl verify")
        }
        return manifest
    }

    /// The manifest as it is on disk, unverified (for `records.get`'s links); nil when unreadable.
    func manifest(_ id: String) -> RecordManifest? {
        guard let bytes = try? FileBytes.read(directory(of: id).appendingPathComponent(RecordManifest.fileName).path) else {
            return nil
        }
        return try? RecordManifest.decoded(bytes)
    }

    /// The id of the record that withdraws `id`, if one does.
    mutating func withdrawal(of id: String) -> String? {
        updateLinks()
        return links.withdrawal(of: id)
    }

    /// The record that withdraws `id` and the ids of the re-consents that replace it, sorted: `records.get`'s
    /// links to `id`, from one listing.
    mutating func links(to id: String) -> (withdrawal: String?, replacements: [String], amendment: String?) {
        updateLinks()
        return (links.withdrawal(of: id), links.replacements(of: id), links.amendment(of: id))
    }

    /// The id of the change that amends `id`, if one does.
    mutating func amendment(of id: String) -> String? {
        updateLinks()
        return links.amendment(of: id)
    }

    private mutating func updateLinks() {
        let ids = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter(RecordID.isValid)
        links.update(ids: ids, declaredLinks: declaredLinks)
    }

    /// What the record's manifest declares. Most records are consents that declare neither link, so a manifest
    /// whose bytes name neither key is not decoded: `RecordManifest.encoded()` writes the keys as they are.
    private func declaredLinks(_ id: String) -> RecordLinkIndex.Declared {
        let path = directory(of: id).appendingPathComponent(RecordManifest.fileName).path
        guard let bytes = try? FileBytes.read(path) else { return .init() }
        guard Self.holds(bytes, Self.withdrawsKey) || Self.holds(bytes, Self.previousRecordKey)
            || Self.holds(bytes, Self.amendsKey),
            let manifest = try? RecordManifest.decoded(bytes)
        else { return .init() }
        return .init(withdraws: manifest.withdraws, previousRecord: manifest.previousRecord, amends: manifest.amends)
    }

    private static let withdrawsKey = Array(#""withdraws""#.utf8)
    private static let previousRecordKey = Array(#""previousRecord""#.utf8)
    private static let amendsKey = Array(#""amends""#.utf8)

    /// Whether `key` occurs in `bytes`, by a plain loop over the buffer: `firstRange(of:)` on an array resolves to
    /// Foundation's unspecialised `DataProtocol` search, which took ~0.3 ms a manifest (perf).
    private static func holds(_ bytes: [UInt8], _ key: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { haystack in
            key.withUnsafeBufferPointer { needle in
                guard let first = needle.first, haystack.count >= needle.count else { return false }
                for index in 0...(haystack.count - needle.count) where haystack[index] == first {
                    if UnsafeBufferPointer(rebasing: haystack[index..<(index + needle.count)]).elementsEqual(needle) {
                        return true
                    }
                }
                return false
            }
        }
    }

    /// The first record of the chain of re-consents that ends at `id` (`id` itself when it replaced nothing), from
    /// the plaintext manifests' `previousRecord`; a broken or looping chain stops where it breaks.
    func enrollmentRecord(of id: String) -> String {
        var current = id
        var seen: Set<String> = [id]
        while let previous = manifest(current)?.previousRecord, RecordID.isValid(previous), seen.insert(previous).inserted {
            current = previous
        }
        return current
    }

    /// The record's Consent as it was signed (a change sends it again, inactive); nil when it is not there in
    /// plaintext (a record encrypted at rest holds only its envelope, which the kiosk cannot open).
    func consent(_ id: String) -> JSONValue? {
        guard let data = try? Data(FileBytes.read(directory(of: id).appendingPathComponent(RecordFileName.consent).path)) else {
            return nil
        }
        return try? JSONValue.parse(data)
    }

    /// The record's Patient (PHI: handed to the signer for the new record, never logged).
    func patient(_ id: String) -> JSONValue? {
        guard let data = try? Data(FileBytes.read(directory(of: id).appendingPathComponent(RecordFileName.patient).path)) else {
            return nil
        }
        return try? JSONValue.parse(data)
    }
}
