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

extension AgentCore {
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

}
