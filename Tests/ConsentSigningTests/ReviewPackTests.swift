import ConsentCore
import Crypto
import Foundation
import Testing

@testable import ConsentSigning

/// The IRB review pack as an approval binds it: `pack.json` checked file by file, its digest and `screensDigest`
/// sealed and signed, a kiosk whose screens changed refusing the version (`reviewMismatch`), and the record's
/// binding carrying both digests.
@Suite struct ReviewPackTests {
    static let irb = StudyApprovalTests.irb

    /// A pack of `study` (its languages, or `languages`) written into a new folder: one file per language and
    /// pack.json, as `consentctl study review` lists them.
    static func pack(of study: Study, languages: [String]? = nil) throws -> (folder: URL, read: ReviewPack.Read) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("review-\(UUID().uuidString.prefix(8))")
        let tags = languages ?? study.languages.map(\.tag)
        var files: [ReviewPack.File] = []
        var versions: [String: String] = [:]
        for tag in tags {
            let language = try #require(study.inLanguage(tag))
            versions[language.language] = language.version
            let contents = Data(ReviewScreens.of(language).map(ReviewScreens.spokenText).joined(separator: "\n\n").utf8)
            let name = "\(language.language)/screens.txt"
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(language.language), withIntermediateDirectories: true)
            try contents.write(to: folder.appendingPathComponent(name))
            files.append(ReviewPack.File(name: name, contents: contents))
        }
        let pack = ReviewPack(
            study: study.id, versions: versions, screensDigest: try #require(ScreensDigest.of(study, languages: tags)),
            files: files)
        try pack.encoded().write(to: folder.appendingPathComponent(ReviewPack.fileName))
        return (folder, try ReviewPack.read(folder: folder))
    }

    @Test func packJSONReadsBackAndEveryFileIsChecked() throws {
        let study = try Fixture.study()
        let (folder, read) = try Self.pack(of: study)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: folder.appendingPathComponent(ReviewPack.fileName))
        #expect(read.sha256 == SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())
        #expect(try ReviewPack.parse(bytes) == read.pack)
        #expect(try read.pack.encoded() == bytes, "the same pack, the same bytes")
        #expect(read.pack.files.map(\.name) == read.pack.files.map(\.name).sorted())
        // A changed or missing file, or a path that leaves the folder: refused.
        try Data("changed".utf8).write(to: folder.appendingPathComponent("de/screens.txt"))
        #expect(throws: StudyApprovalError(.malformed, "")) { try ReviewPack.read(folder: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("de/screens.txt"))
        #expect(throws: StudyApprovalError(.malformed, "")) { try ReviewPack.read(folder: folder) }
        var escaping = read.pack
        escaping.files.append(ReviewPack.File(name: "../approval.json", contents: Data()))
        #expect(throws: StudyApprovalError(.malformed, "")) { try ReviewPack.parse(try escaping.encoded()) }
    }

    @Test func sealBindsThePackAndItsScreensUnderTheSignature() throws {
        let study = try Fixture.study()
        let (folder, read) = try Self.pack(of: study)
        defer { try? FileManager.default.removeItem(at: folder) }
        let approval = try StudyApproval.seal(
            study, site: nil, approved: "2026-01-01", expires: "2026-12-31", reference: nil, reviewPack: read, key: Self.irb)
        #expect(approval.reviewPack == read.sha256)
        #expect(approval.screensDigest == read.pack.screensDigest)
        let reread = try StudyApproval.parse(try approval.encoded())
        #expect(reread == approval)
        let canonical = String(decoding: try approval.canonicalBytes(), as: UTF8.self)
        #expect(canonical.contains("\"reviewPack\":\"\(read.sha256)\"") && canonical.contains("\"screensDigest\":"))
        try approval.check(study, site: nil, today: "2026-06-01", trusting: [Self.irb.publicKey])
        for change in [{ (a: inout StudyApproval) in a.screensDigest = String(repeating: "0", count: 64) }, { $0.reviewPack = nil }] {
            var changed = approval
            change(&changed)
            #expect(throws: StudyApprovalError(.badSignature, "")) {
                try changed.check(study, site: nil, today: "2026-06-01", trusting: [Self.irb.publicKey])
            }
        }
        // The record's binding carries both digests (the manifest's "approval").
        let binding = approval.binding(fileBytes: try approval.encoded())
        #expect(binding.reviewPack == read.sha256 && binding.screensDigest == read.pack.screensDigest)
        let encoded = String(decoding: try JSONEncoder().encode(binding), as: UTF8.self)
        #expect(encoded.contains("\"reviewPack\"") && encoded.contains("\"screensDigest\""))
        // Sealed without a pack, neither member is written.
        let plain = try StudyApproval.seal(study, site: nil, approved: "2026-01-01", expires: "2026-12-31", reference: nil, key: Self.irb)
        let plainText = String(decoding: try plain.encoded(), as: UTF8.self)
        #expect(!plainText.contains("reviewPack") && !plainText.contains("screensDigest"))
    }

    @Test func sealRefusesAPackOfOtherLanguagesOrOtherScreens() throws {
        let study = try Fixture.study()
        let (folder, read) = try Self.pack(of: study, languages: ["en"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: StudyApprovalError(.versionMismatch, "")) {
            try StudyApproval.seal(study, site: nil, approved: "2026-01-01", expires: "2026-12-31", reference: nil, reviewPack: read, key: Self.irb)
        }
        _ = try StudyApproval.seal(
            study, languages: ["en"], site: nil, approved: "2026-01-01", expires: "2026-12-31", reference: nil, reviewPack: read,
            key: Self.irb)
        var other = read
        other.pack.screensDigest = String(repeating: "a", count: 64)
        #expect(throws: StudyApprovalError(.reviewMismatch, "")) {
            try StudyApproval.seal(
                study, languages: ["en"], site: nil, approved: "2026-01-01", expires: "2026-12-31", reference: nil,
                reviewPack: other, key: Self.irb)
        }
    }

    /// A kiosk update that changes a built-in text a sealed study shows: at load, the version is refused with
    /// `reviewMismatch`, also by `admit`; with the texts it was reviewed with, it is served.
    @Test func aChangedBuiltInTextRefusesTheSealedStudyAtLoad() throws {
        let study = try Fixture.study()
        let (packFolder, read) = try Self.pack(of: study)
        defer { try? FileManager.default.removeItem(at: packFolder) }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("sealed-\(UUID().uuidString.prefix(8))")
        try FileManager.default.copyItem(at: study.folder, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let approval = try StudyApproval.seal(
            study, site: nil, approved: "2026-01-01", expires: "2099-12-31", reference: nil, reviewPack: read, key: Self.irb)
        try approval.encoded().write(to: copy.appendingPathComponent(StudyApproval.fileName))
        let keyring = ApprovalKeyring(keys: [Self.irb.publicKey])

        let unchanged = try StudyCatalog.load([copy.path], approvalKeys: keyring)
        let served = try #require(unchanged.versions.first)
        let binding = try served.approval.admit(served.study, site: nil, today: "2026-06-01", keyring: keyring)
        #expect(binding.screensDigest == read.pack.screensDigest && binding.reviewPack == read.sha256)

        let updated = try StudyCatalog.load([copy.path], approvalKeys: keyring, packs: { tag in
            var texts = BuiltInTexts(language: tag)
            texts.agree = "I agree, and so on"
            return KioskLanguagePack.pack(for: tag).replacing(builtIn: texts)
        })
        let refused = try #require(updated.versions.first)
        #expect(throws: StudyApprovalError(.reviewMismatch, "")) {
            try refused.approval.admit(refused.study, site: nil, today: "2026-06-01", keyring: keyring)
        }
        #expect(refused.approval.approval == approval, "the approval's facts stay readable for staff")
        // An approval sealed without a pack is not checked against the screens.
        let plain = try StudyApproval.seal(study, site: nil, approved: "2026-01-01", expires: "2099-12-31", reference: nil, key: Self.irb)
        try plain.encoded().write(to: copy.appendingPathComponent(StudyApproval.fileName))
        let plainCatalog = try StudyCatalog.load([copy.path], approvalKeys: keyring, packs: { _ in
            KioskLanguagePack.english.replacing(voice: "xx")
        })
        let plainVersion = try #require(plainCatalog.versions.first)
        _ = try plainVersion.approval.admit(plainVersion.study, site: nil, today: "2026-06-01", keyring: keyring)
    }
}
