import ConsentCore
import Foundation

/// A study folder in a temporary directory, written from test data.
struct TemporaryStudy {
    let folder: URL

    init(contract: JSONValue, files: [String: String] = [:], options: JSONValue? = ["askForSharing": false]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("consent-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try write(Study.contractFileName, data: contract.serialized(pretty: true))
        for (path, text) in files { try write(path, data: Data(text.utf8)) }
        if let options { try write(Study.optionsFileName, data: options.serialized()) }
    }

    func write(_ path: String, data: Data) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func load() throws -> Study { try Study.load(from: folder) }
}

enum Fixtures {
    static var specSample: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/spec-sample")
    }
}

/// Building blocks for Contracts in tests.
enum ContractJSON {
    static let system = ConsentSectionType.codingSystem

    static func term(_ code: String?, system: String? = ContractJSON.system, text: String? = nil, ext: [JSONValue]? = nil) -> JSONValue {
        var coding: [String: JSONValue] = [:]
        if let code { coding["code"] = .string(code) }
        if let system { coding["system"] = .string(system) }
        var term: [String: JSONValue] = ["type": ["coding": [.object(coding)]]]
        if let text { term["text"] = .string(text) }
        if let ext { term["extension"] = [sectionExtension(ext)] }
        return .object(term)
    }

    static func sectionExtension(_ entries: [JSONValue]) -> JSONValue {
        ["url": .string(ContractConverter.sectionExtensionURL), "extension": .array(entries)]
    }

    static func entry(_ url: String, _ value: String?) -> JSONValue {
        var e: [String: JSONValue] = ["url": .string(url)]
        if let value { e["valueString"] = .string(value) }
        return .object(e)
    }

    static func html(_ h: String) -> JSONValue { entry("htmlContent", h) }

    static func contract(terms: [JSONValue], contained: [JSONValue] = [], authority: String? = nil, subject: String? = nil) -> JSONValue {
        var c: [String: JSONValue] = ["resourceType": "Contract", "id": "test", "term": .array(terms)]
        if !contained.isEmpty { c["contained"] = .array(contained) }
        if let authority { c["authority"] = [["reference": .string(authority)]] }
        if let subject { c["subject"] = [["reference": .string(subject)]] }
        return .object(c)
    }

    static func group(id: String = "eligibility", _ characteristics: [JSONValue]) -> JSONValue {
        ["resourceType": "Group", "id": .string(id), "type": "person", "actual": false, "characteristic": .array(characteristics)]
    }

    static func characteristic(_ text: String?, value: JSONValue? = true, exclude: JSONValue? = false) -> JSONValue {
        var c: [String: JSONValue] = [:]
        if let text { c["code"] = ["text": .string(text)] }
        if let value { c["valueBoolean"] = value }
        if let exclude { c["exclude"] = exclude }
        return .object(c)
    }

    static func convert(_ contract: JSONValue) throws -> ConsentDocument {
        try ContractConverter.document(from: contract, contractFile: "contract.json", files: nil)
    }
}
