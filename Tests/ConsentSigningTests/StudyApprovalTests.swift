import ConsentCore
import Crypto
import Foundation
import Testing

@testable import ConsentSigning

/// `approval.json`: the canonical form its signature covers, what makes it not hold, and the packages that carry it.
@Suite struct StudyApprovalTests {
    static let irb = (try? Curve25519.Signing.PrivateKey(rawRepresentation: Data(repeating: 9, count: 32))) ?? .init()
    static var keyring: ApprovalKeyring { ApprovalKeyring(keys: [irb.publicKey]) }

    static func sealed(site: String? = "clinic-3", languages: [String]? = nil, name: String? = nil) throws -> (Study, StudyApproval) {
        let study = try Fixture.study()
        let approval = try StudyApproval.seal(
            study, languages: languages, site: site, approved: "2026-01-01", expires: "2026-12-31", reference: "IRB #1",
            name: name, key: irb)
        return (study, approval)
    }

    /// A copy of the sample study sealed as `name` (for `languages`), in a temporary folder with an empty `versions`
    /// folder beside it.
    static func sealedCopy(name: String, languages: [String]? = nil) throws -> (directory: URL, source: URL, versions: URL, study: Study, approval: StudyApproval) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkg-\(UUID().uuidString)")
        let source = directory.appendingPathComponent("source"), versions = directory.appendingPathComponent("versions")
        try FileManager.default.createDirectory(at: versions, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixture.study().folder, to: source)
        let (study, approval) = try sealed(site: nil, languages: languages, name: name)
        try approval.encoded().write(to: source.appendingPathComponent(StudyApproval.fileName))
        return (directory, source, versions, study, approval)
    }

    /// `package` with its JSON changed by `change` (its files by path as base64, and its name).
    static func tampered(_ package: Data, _ change: (inout [String: JSONValue], inout String) -> Void) throws -> Data {
        let json = try JSONValue.parse(package)
        var files = json["files"]?.objectValue ?? [:]
        var name = json["name"]?.stringValue ?? ""
        change(&files, &name)
        return try JSONValue.object(["format": "consent-kiosk-package/1", "name": .string(name), "files": .object(files)]).serialized()
    }

    /// Every file under `folder`, relative to it, sorted.
    static func files(under folder: URL) -> [String] {
        let root = folder.standardizedFileURL.path
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            found.append(String(url.standardizedFileURL.path.dropFirst(root.count + 1)))
        }
        return found.sorted()
    }

    @Test func canonicalFormIsCompactSortedAndLeavesTheSignatureOut() throws {
        let (_, approval) = try Self.sealed()
        let canonical = String(decoding: try approval.canonicalBytes(), as: UTF8.self)
        #expect(!canonical.contains("signature") && !canonical.contains(" : ") && !canonical.contains("\n"))
        #expect(canonical.hasPrefix(#"{"approved":"2026-01-01","expires":"2026-12-31","files":["Consent_sharing.html","HTMLContent/datagathering.html","#))
        #expect(canonical.contains(#"],"format":"consent-kiosk-approval/1","keyFingerprint":"SHA256:"#))
        #expect(canonical.contains(#","name":"sample","publicKey":"#), "the folder name defaults to the study folder's")
        // The file reads back as the same approval, and its signature verifies over those bytes.
        let reread = try StudyApproval.parse(try approval.encoded())
        #expect(reread == approval)
        #expect(Self.irb.publicKey.isValidSignature(reread.signature, for: try reread.canonicalBytes()))
        let digest = SHA256.hash(data: KeyPEM.publicKeyDER(Self.irb.publicKey)).map { String(format: "%02x", $0) }.joined()
        #expect(approval.keyFingerprint == "SHA256:" + digest)
    }

    @Test func anyChangedMemberBreaksTheSignature() throws {
        let (study, approval) = try Self.sealed()
        let changes: [(inout StudyApproval) -> Void] = [
            { $0.expires = "2027-12-31" }, { $0.site = nil }, { $0.reference = "IRB #2" }, { $0.versions["de"] = nil },
            { $0.name = "2026-07" }, { $0.name = nil }, { $0.files?.append("pad.bin") }, { $0.files = nil },
        ]
        for change in changes {
            var changed = approval
            change(&changed)
            #expect(throws: StudyApprovalError(.badSignature, "")) {
                try changed.check(study, site: "clinic-3", today: "2026-06-01", trusting: Self.keyring.keys)
            }
        }
    }

    @Test func eachReasonAnApprovalDoesNotHold() throws {
        let (study, approval) = try Self.sealed(languages: ["en", "fr"])
        func reason(_ study: Study, site: String? = "clinic-3", today: String = "2026-06-01", keys: [Curve25519.Signing.PublicKey]? = nil)
            -> StudyApprovalError.Reason?
        {
            do {
                try approval.check(study, site: site, today: today, trusting: keys ?? Self.keyring.keys)
                return nil
            } catch let error as StudyApprovalError { return error.reason } catch { return .malformed }
        }
        #expect(reason(study) == nil)
        #expect(reason(study, today: "2026-01-01") == nil)
        #expect(reason(study, today: "2026-12-31") == nil, "the last day is covered")
        #expect(reason(study, today: "2027-01-01") == .expired)
        #expect(reason(study, today: "2025-12-31") == .notYetValid)
        #expect(reason(study, site: "clinic-4") == .wrongSite)
        #expect(reason(study, site: nil) == .wrongSite)
        #expect(reason(try #require(study.inLanguage("de"))) == .languageNotCovered)
        #expect(reason(try #require(study.inLanguage("fr"))) == nil)
        #expect(reason(study, keys: [Curve25519.Signing.PrivateKey().publicKey]) == .untrustedKey)
        var changed = study
        changed.version = String(repeating: "0", count: 64)
        #expect(reason(changed) == .versionMismatch)
        // Without a site the approval holds at every site, and at a kiosk with none.
        let (_, anywhere) = try Self.sealed(site: nil)
        #expect((try? anywhere.check(study, site: "clinic-9", today: "2026-06-01", trusting: Self.keyring.keys)) != nil)
        #expect((try? anywhere.check(study, site: nil, today: "2026-06-01", trusting: Self.keyring.keys)) != nil)
    }

    @Test func sealRefusesBadDatesAndUnknownLanguages() throws {
        let study = try Fixture.study()
        for (approved, expires) in [("2026-02-30", "2027-01-01"), ("2026-1-01", "2027-01-01"), ("2027-01-01", "2026-01-01")] {
            #expect(throws: StudyApprovalError.self) {
                try StudyApproval.seal(study, site: nil, approved: approved, expires: expires, reference: nil, key: Self.irb)
            }
        }
        #expect(throws: StudyApprovalError(.languageNotCovered, "")) {
            try StudyApproval.seal(study, languages: ["it"], site: nil, approved: "2026-01-01", expires: "2026-12-31", reference: nil, key: Self.irb)
        }
    }

    @Test func daysCountAcrossMonthsAndLeapYears() {
        // Which days exist and how they count: UTCTimeTests' CivilDateTests; here, what an approval makes of them.
        let approval = try? Self.sealed().1
        #expect(approval?.daysLeft(today: "2026-12-21") == 10)
        #expect(approval?.daysLeft(today: "2026-02-28") == 306)
    }

    /// A package names only safe relative paths, and a kiosk writes it only when its approval holds.
    @Test func packagesAreCheckedBeforeAnythingIsWritten() throws {
        for path in ["../contract.json", "/etc/passwd", "de/../../x", ".hidden", "a//b", "de/.x"] {
            let data = try JSONValue.object([
                "format": "consent-kiosk-package/1", "name": "v2", "files": .object([path: .string("AA==")]),
            ]).serialized()
            #expect(throws: StudyApprovalError.self, "\(path)") { try StudyPackage.unpack(data) }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source")
        try FileManager.default.copyItem(at: try Fixture.study().folder, to: source)
        let (study, approval) = try Self.sealed(site: "clinic-3", name: "2026-06")
        #expect(study.id == approval.study)
        try approval.encoded().write(to: source.appendingPathComponent("approval.json"))
        let package = try StudyPackage.pack(folder: source, name: "2026-06")
        let versions = directory.appendingPathComponent("versions")
        try FileManager.default.createDirectory(at: versions, withIntermediateDirectories: true)
        #expect(throws: StudyApprovalError(.untrustedKey, "")) {
            try StudyPackage.accept(package, into: versions, keyring: ApprovalKeyring(keys: []), site: "clinic-3", today: "2026-06-01")
        }
        #expect(throws: StudyApprovalError(.wrongSite, "")) {
            try StudyPackage.accept(package, into: versions, keyring: Self.keyring, site: "clinic-4", today: "2026-06-01")
        }
        #expect(throws: StudyApprovalError(.expired, "")) {
            try StudyPackage.accept(package, into: versions, keyring: Self.keyring, site: "clinic-3", today: "2027-01-01")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).isEmpty, "nothing left behind")
        let accepted = try StudyPackage.accept(package, into: versions, keyring: Self.keyring, site: "clinic-3", today: "2026-06-01")
        #expect(accepted.folder.lastPathComponent == "2026-06")
        #expect(try Study.load(from: accepted.folder).version == study.version)
        #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path) == ["2026-06"])
    }

    /// What a package may be is what its approval binds: its folder name, and its files (the approved languages' and
    /// the default language's), nothing else; all decided before a byte is written.
    @Test func aPackageHoldsOnlyWhatItsApprovalLists() throws {
        let (directory, source, versions, study, approval) = try Self.sealedCopy(name: "2026-06", languages: ["en", "de"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let listed = try #require(approval.files)
        #expect(listed == Set(study.files + (study.inLanguage("de")?.files ?? [])).sorted())
        #expect(listed.contains("de/contract.json") && !listed.contains("fr/contract.json"))
        // Pack takes the listed files only: the unapproved fr/ and a stray file stay behind.
        try Data("notes".utf8).write(to: source.appendingPathComponent("notes.txt"))
        let package = try StudyPackage.pack(folder: source)
        let unpacked = try StudyPackage.unpack(package)
        #expect(unpacked.name == "2026-06")
        #expect(unpacked.files.keys.sorted() == (listed + [StudyApproval.fileName]).sorted())
        #expect(throws: StudyApprovalError(.malformed, "")) { try StudyPackage.pack(folder: source, name: "2026-07") }

        let attacks: [(String, Data)] = [
            ("a 1 MiB pad file", try Self.tampered(package) { files, _ in files["pad.bin"] = .string(Data(count: 1 << 20).base64EncodedString()) }),
            ("a script", try Self.tampered(package) { files, _ in files["run.sh"] = .string(Data("#!/bin/sh\nrm -rf /\n".utf8).base64EncodedString()) }),
            ("an unapproved translation", try Self.tampered(package) { files, _ in
                files["es/contract.json"] = files["de/contract.json"]
                files["es/overview.html"] = .string(Data("<p>Otro estudio</p>".utf8).base64EncodedString())
            }),
            ("the old approval replayed under another name", try Self.tampered(package) { _, name in name = "2026-07" }),
            ("a listed file left out", try Self.tampered(package) { files, _ in files["de/overview.html"] = nil }),
        ]
        for (attack, data) in attacks {
            let error = try #require(throws: StudyApprovalError.self, "\(attack)") {
                try StudyPackage.accept(data, into: versions, keyring: Self.keyring, site: nil, today: "2026-06-01")
            }
            #expect(error.reason == .malformed, "\(attack): \(error)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).isEmpty, "\(attack): nothing written")
        }
        let accepted = try StudyPackage.accept(package, into: versions, keyring: Self.keyring, site: nil, today: "2026-06-01")
        #expect(Self.files(under: accepted.folder) == (listed + [StudyApproval.fileName]).sorted())
        #expect(accepted.study.languages.map(\.tag) == ["en", "de"])
    }

    /// An approval sealed before names and files were bound still holds for the folder it sits in, but cannot be
    /// packed or pulled: the refusal says to seal again.
    @Test func anApprovalWithoutNameAndFilesServesButDoesNotTravel() throws {
        let (directory, source, versions, study, sealed) = try Self.sealedCopy(name: "2026-06")
        var approval = sealed
        defer { try? FileManager.default.removeItem(at: directory) }
        approval.name = nil
        approval.files = nil
        approval.signature = try Self.irb.signature(for: try approval.canonicalBytes())
        let reread = try StudyApproval.parse(try approval.encoded())
        #expect(reread.name == nil && reread.files == nil)
        try reread.check(study, site: nil, today: "2026-06-01", trusting: Self.keyring.keys)
        try approval.encoded().write(to: source.appendingPathComponent(StudyApproval.fileName))
        let packing = try #require(throws: StudyApprovalError.self) { try StudyPackage.pack(folder: source) }
        #expect(packing.message.contains("seal the version again"), "\(packing)")
        // A package made as packages were before: every file of the folder.
        var files: [String: JSONValue] = [:]
        for path in Self.files(under: source) {
            files[path] = .string(try Data(contentsOf: source.appendingPathComponent(path)).base64EncodedString())
        }
        let old = try JSONValue.object(["format": "consent-kiosk-package/1", "name": "2026-06", "files": .object(files)]).serialized()
        let pulling = try #require(throws: StudyApprovalError.self) {
            try StudyPackage.accept(old, into: versions, keyring: Self.keyring, site: nil, today: "2026-06-01")
        }
        #expect(pulling.message.contains("seal the version again"), "\(pulling)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).isEmpty)
    }

    /// The total a package holds is capped, decoded, before anything is written.
    @Test func aPackageOverTheCapIsRefusedBeforeWriting() throws {
        let chunk = Data(count: 40 << 10).base64EncodedString()
        let data = try JSONValue.object([
            "format": "consent-kiosk-package/1", "name": "v2",
            "files": .object(["a.bin": .string(chunk), "b.bin": .string(chunk), "approval.json": "AA=="]),
        ]).serialized()
        #expect((try? StudyPackage.unpack(data, limit: 100 << 10)) != nil)
        let error = try #require(throws: StudyApprovalError.self) { try StudyPackage.unpack(data, limit: 64 << 10) }
        #expect(error.message.contains("more than a package may"), "\(error)")
        #expect(StudyPackage.maximumBytes == StudyFileReader.defaultMaximumStudyBytes + StudyApprovalFile.maximumBytes)
    }
}
