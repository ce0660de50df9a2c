import ConsentCore
import Crypto
import Foundation
import Testing

@testable import ConsentSigning

/// `approval.json`: the canonical form its signature covers, what makes it not hold, and the packages that carry it.
@Suite struct StudyApprovalTests {
    static let irb = (try? Curve25519.Signing.PrivateKey(rawRepresentation: Data(repeating: 9, count: 32))) ?? .init()
    static var keyring: ApprovalKeyring { ApprovalKeyring(keys: [irb.publicKey]) }

    static func sealed(site: String? = "clinic-3", languages: [String]? = nil) throws -> (Study, StudyApproval) {
        let study = try Fixture.study()
        let approval = try StudyApproval.seal(
            study, languages: languages, site: site, approved: "2026-01-01", expires: "2026-12-31", reference: "IRB #1",
            key: irb)
        return (study, approval)
    }

    @Test func canonicalFormIsCompactSortedAndLeavesTheSignatureOut() throws {
        let (_, approval) = try Self.sealed()
        let canonical = String(decoding: try approval.canonicalBytes(), as: UTF8.self)
        #expect(!canonical.contains("signature") && !canonical.contains(" : ") && !canonical.contains("\n"))
        #expect(canonical.hasPrefix(#"{"approved":"2026-01-01","expires":"2026-12-31","format":"consent-kiosk-approval/1","keyFingerprint":"SHA256:"#))
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
        #expect(ApprovalDate.dayNumber("1970-01-01") == 0)
        #expect(ApprovalDate.dayNumber("2024-02-29") != nil)
        #expect(ApprovalDate.dayNumber("2023-02-29") == nil)
        #expect(ApprovalDate.dayNumber("2100-02-29") == nil)
        #expect(ApprovalDate.dayNumber("2000-02-29") != nil)
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
        let (study, approval) = try Self.sealed(site: "clinic-3")
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
}
