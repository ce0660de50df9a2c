import ConsentCore
import FileBytes
import Foundation
import SignatureInterchange
import UTCTime

/// The signatures a record directory (or the output of `consentctl escrow open`) holds, by role: what
/// `consentctl signature export` and `signature show` read.
///
/// `signature.json` is the full-fidelity source; a directory with only `signature-<role>.iso19794-7` files is
/// read from those. Records made before the 19794-7 files existed are converted from `signature.json`.
public enum RecordSignatures {
    public struct Entry: Sendable {
        public var role: String
        public var strokes: SignatureStrokes
        /// The record's 19794-7 bytes for this role, when it has them.
        public var iso19794_7: Data?
    }

    /// The record's signing instant (`manifest.signedAt`); the Unix epoch when there is no readable manifest.
    public static func signingTime(directory: URL) -> Date {
        let url = directory.appendingPathComponent(RecordManifest.fileName)
        let manifest = (try? FileBytes.read(url.path)).flatMap { try? RecordManifest.decoded($0) }
        return manifest.flatMap { RFC3339.date(from: $0.signedAt) } ?? Date(timeIntervalSince1970: 0)
    }

    /// The file name of a role's 19794-7 data in a record.
    public static func isoFileName(role: String) -> String { BiometricFiles.fileName(role: role) }

    /// - Throws: `ConsentSigningError.manifestInvalid` when nothing readable is there, or the data is sealed.
    public static func read(directory: URL) throws -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var entries: [Entry] = []
        if let bytes = try? Data(FileBytes.read(directory.appendingPathComponent(RecordFileName.signature).path)) {
            entries = try fromSignatureJSON(bytes)
        }
        let suffix = "." + ISO19794_7Record.fileExtension
        for name in names.sorted() where name.hasPrefix(BiometricFiles.prefix) && name.hasSuffix(suffix) {
            let role = String(name.dropFirst(BiometricFiles.prefix.count).dropLast(suffix.count))
            guard let bytes = try? Data(FileBytes.read(directory.appendingPathComponent(name).path)) else { continue }
            if let index = entries.firstIndex(where: { $0.role == role }) {
                entries[index].iso19794_7 = bytes
            } else {
                let record: ISO19794_7Record
                do {
                    record = try ISO19794_7Record(decoding: bytes)
                } catch let error as ISO19794_7Error {
                    throw ConsentSigningError(.manifestInvalid, "\(name) is not readable 19794-7 data: \(error.message)", file: name)
                }
                entries.append(Entry(role: role, strokes: record.strokes(), iso19794_7: bytes))
            }
        }
        if entries.isEmpty {
            let sealed = names.contains { $0.hasSuffix(RecordEncryption.escrowSuffix) || $0.hasSuffix(RecordEncryption.fileSuffix) }
            throw ConsentSigningError(
                .manifestInvalid,
                sealed
                    ? "the signatures are sealed; open them with consentctl escrow open (or consentctl decrypt) and name that folder"
                    : "no signature.json or signature-<role>.iso19794-7 here; name a record directory",
                file: directory.path)
        }
        return entries
    }

    /// The 19794-7 bytes of `entry`: the record's own, else written now from its strokes (older records).
    public static func iso19794_7(_ entry: Entry, signedAt: Date) throws -> Data {
        if let bytes = entry.iso19794_7 { return bytes }
        do {
            return try ISO19794_7Record(strokes: entry.strokes, signedAt: signedAt).encoded()
        } catch let error as ISO19794_7Error {
            throw ConsentSigningError(.invalidSigner, "the \(entry.role) signature cannot be written as 19794-7: \(error.message)")
        }
    }

    /// `bytes` in the published 19794-7 layout: as they are when they already are; else (a record written before
    /// the project followed the published field table) rewritten from what they say. Only the returned copy is new;
    /// the record's file stays as its manifest hashes it.
    ///
    /// - Returns: the bytes, and whether they were rewritten.
    /// - Throws: `ConsentSigningError.manifestInvalid` when the bytes are not readable 19794-7 data.
    public static func publishedLayout(_ bytes: Data, role: String) throws -> (bytes: Data, rewritten: Bool) {
        do {
            let record = try ISO19794_7Record(decoding: bytes)
            guard record.layout == .legacy else { return (bytes, false) }
            return (try record.inPublishedLayout().encoded(), true)
        } catch let error as ISO19794_7Error {
            throw ConsentSigningError(.manifestInvalid, "the \(role) signature's 19794-7 data is not readable: \(error.message)", file: isoFileName(role: role))
        }
    }

    private struct SignatureJSON: Decodable {
        struct Additional: Decodable {
            var role: SignerRole
            var signature: SignatureStrokes
        }
        var signedBy: SignerRole?
        var additionalSigners: [Additional]?
    }

    static func fromSignatureJSON(_ bytes: Data) throws -> [Entry] {
        let decoder = JSONValueDecoder()
        do {
            let top = try decoder.decode(SignatureStrokes.self, from: bytes)
            let rest = try decoder.decode(SignatureJSON.self, from: bytes)
            var entries = [Entry(role: rest.signedBy == .legallyAuthorizedRepresentative ? "representative" : "participant", strokes: top)]
            var used: [String: Int] = [entries[0].role: 1]
            for other in rest.additionalSigners ?? [] {
                var role = BiometricFiles.roleName(other.role)
                let count = (used[role] ?? 0) + 1
                used[role] = count
                if count > 1 { role += "-\(count)" }
                entries.append(Entry(role: role, strokes: other.signature))
            }
            return entries
        } catch {
            throw ConsentSigningError(.manifestInvalid, "signature.json is not in the stroke format", file: RecordFileName.signature)
        }
    }
}
