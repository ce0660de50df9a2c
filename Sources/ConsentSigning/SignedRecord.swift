import ConsentCore
import Foundation

/// A signed consent record, complete in memory: the resources, and the exact bytes of every file of the record
/// directory (`RecordWriter` puts them on disk unchanged).
public struct SignedRecord: Sendable {
    /// One file of the record directory.
    public struct File: Sendable, Hashable {
        public var name: String
        public var contents: Data
    }

    /// The record's uuid; also the default directory name.
    public var id: String
    public var mode: SigningMode
    public var contract: JSONValue
    public var consent: JSONValue
    public var provenance: JSONValue
    public var patient: JSONValue
    public var bundle: JSONValue
    public var manifest: RecordManifest
    /// Every file, the manifest and its signature last.
    public var files: [File]

    /// The contents of the file named `name`.
    public func file(_ name: String) -> Data? {
        files.first { $0.name == name }?.contents
    }
}
