import AgentProtocol
import Foundation
import UploadQueue

/// `records.get {id}`.
struct RecordsGetParams {
    var id: String

    init(_ params: [String: RPCValue]) throws {
        id = try ParamsReader(params, allowed: ["id"]).string("id")
    }
}

extension RecordContext {
    /// `records.get`: where a record is and which files it has (never its content: that is PHI), and its links.
    /// Listing the records and reading their manifests runs off the actor (`DiskWork`), on a copy of the store;
    /// the copy's link index, read meanwhile, is kept (it is a cache: each question lists the directory again).
    func record(_ params: RecordsGetParams) async throws -> RPCValue {
        let id = params.id
        let store = records
        let (value, read) = try await disk.run { () throws -> ([String: RPCValue], RecordStore) in
            var store = store
            guard let files = store.files(of: id) else { throw AgentError(.unknownRecord, "no record has this id") }
            var value: [String: RPCValue] = [
                "id": .string(id), "directory": .string(store.directory(of: id).path),
                "files": .array(files.map(RPCValue.string)),
            ]
            value.merge(Self.recordLinks(id, in: &store)) { current, _ in current }
            return (value, store)
        }
        records = read
        return .object(value)
    }

    /// `uploads.status`: the upload queue's state for a staff page.
    func uploadsStatus(_: NoParams) async throws -> RPCValue {
        // Read from the queue's files, as consentctl queue does: a few small files, no record read; still disk I/O,
        // so off the actor (`DiskWork`).
        let status: QueueStatus
        let stateDirectory = settings.stateDirectory
        do { status = try await disk.run { try QueueStore(stateDirectory: stateDirectory).status() } } catch {
            logger.error("cannot read the upload queue for uploads.status", metadata: ["error": "\(error)"])
            throw RPCErrorObject(
                code: RPCErrorCode.internalError, type: .internalError, message: "the upload queue cannot be read")
        }
        return UploadQueueSummary.value(status, now: Date())
    }

    /// `records.get`'s links: what withdrew, replaced or amended this record, or what this record withdraws, replaces
    /// or amends.
    static func recordLinks(_ id: String, in records: inout RecordStore) -> [String: RPCValue] {
        var links: [String: RPCValue] = [:]
        if let manifest = records.manifest(id) {
            links["kind"] = .string(manifest.withdraws != nil ? "withdrawal" : manifest.amends != nil ? "change" : "consent")
            if let withdraws = manifest.withdraws { links["withdraws"] = .string(withdraws) }
            if let previous = manifest.previousRecord { links["previousRecord"] = .string(previous) }
            if let amends = manifest.amends { links["amends"] = .string(amends) }
        }
        let linked = records.links(to: id)
        if let by = linked.withdrawal { links["withdrawnBy"] = .string(by) }
        if !linked.replacements.isEmpty { links["replacedBy"] = .array(linked.replacements.map(RPCValue.string)) }
        if let by = linked.amendment { links["amendedBy"] = .string(by) }
        return links
    }
}

/// Withdrawal, re-consent, a change and `flow.complete` ask whether a record is withdrawn or amended: on disk, or
/// by a flow completing.
extension RecordContext where Self: FlowContext {
    /// Whether `id` is withdrawn and whether its answers were changed, by records on disk or by a withdrawal or
    /// change being written (`FlowTable.isWithdrawing`, `isAmending`).
    ///
    /// The records are listed on the disk pool (`DiskWork`). A withdrawal or change this agent kept while they were
    /// read (it moves from the table to disk) makes it read them again, so the answer holds when this returns: the
    /// caller may claim the record without a suspension in between.
    func standing(of id: String) async throws -> (withdrawn: Bool, amended: Bool) {
        while true {
            let kept = (table.withdrawalsKept, table.amendmentsKept)
            let store = records
            let (onDisk, read) = try await disk.run { () -> ((withdrawn: Bool, amended: Bool), RecordStore) in
                var store = store
                let links = store.links(to: id)  // one listing answers both
                return ((links.withdrawal != nil, links.amendment != nil), store)
            }
            records = read
            if (table.withdrawalsKept, table.amendmentsKept) == kept {
                return (onDisk.withdrawn || table.isWithdrawing(id), onDisk.amended || table.isAmending(id))
            }
        }
    }

    /// Whether `id` is withdrawn (`standing(of:)`).
    func isWithdrawn(_ id: String) async throws -> Bool { try await standing(of: id).withdrawn }
}
