import ConsentCore
import ConsentSigning
import FileBytes
import Foundation

/// Reads the records this agent wrote, for what withdrawal, re-consent and `records.get` need to know of them.
///
/// The records themselves are the only source of truth: a withdrawal is found by the manifest that names the
/// record in `withdraws`, so nothing outside the (immutable) record directories has to be kept consistent with
/// them. Scanning reads one small manifest per record, which a kiosk's few thousand records afford.
struct RecordArchive: Sendable {
    /// `<state>/records`.
    let directory: URL

    init(stateDirectory: URL) {
        directory = URL(fileURLWithPath: StateLayout(root: stateDirectory.path).records)
    }

    func directory(of id: String) -> URL { directory.appendingPathComponent(id) }

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
        guard let data = try? Data(contentsOf: directory(of: id).appendingPathComponent(RecordManifest.fileName)) else {
            return nil
        }
        return try? JSONDecoder().decode(RecordManifest.self, from: data)
    }

    /// The id of the record that withdraws `id`, if one does.
    func withdrawal(of id: String) -> String? {
        firstRecord { $0.withdraws == id }
    }

    /// The ids of the re-consents that replace `id`, sorted.
    func replacements(of id: String) -> [String] {
        recordIDs().filter { manifest($0)?.previousRecord == id }
    }

    private func recordIDs() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter(RecordID.isValid).sorted()
    }

    private func firstRecord(where matches: (RecordManifest) -> Bool) -> String? {
        recordIDs().first { manifest($0).map(matches) ?? false }
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

    /// The record's Patient (PHI: handed to the signer for the new record, never logged).
    func patient(_ id: String) -> JSONValue? {
        guard let data = try? Data(contentsOf: directory(of: id).appendingPathComponent(RecordFileName.patient)) else {
            return nil
        }
        return try? JSONValue.parse(data)
    }
}
