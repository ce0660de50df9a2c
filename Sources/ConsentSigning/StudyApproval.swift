import ConsentCore
import Crypto
import FileBytes
import Foundation
import HexText
import UTCTime

/// `approval.json`: an IRB's detached approval of one version of a study, for a site (or any) and some of its
/// languages, between two dates, signed with Ed25519 (docs/OPERATIONS.md, "Approved study packages").
///
/// ```json
/// {
///   "format": "consent-kiosk-approval/1",
///   "study": "<study id>",
///   "versions": {"de": "<version hash of de/>", "en": "<version hash>"},
///   "site": "clinic-3",                        absent: any site
///   "approved": "2026-01-15", "expires": "2027-01-14",
///   "reference": "IRB #2026-0042",             absent when none was given
///   "name": "2026-06-amendment-2",             the version's folder name on the kiosks
///   "files": ["Consent_sharing.html", "contract.json", "de/contract.json", …],
///   "reviewPack": "<SHA-256 hex of the review pack's pack.json>",   when sealed with --review-pack
///   "screensDigest": "<SHA-256 hex of the approved languages' screens (ScreensDigest)>",   likewise
///   "publicKey": "<base64 of the 32 raw Ed25519 bytes>",
///   "keyFingerprint": "SHA256:<hex of SHA-256 over the key's SubjectPublicKeyInfo DER>",
///   "signature": "<base64 Ed25519 signature over the canonical form>"
/// }
/// ```
/// The canonical form is every member but `signature`, as compact JSON with keys in UTF-8 byte order, no
/// whitespace, only `"`, `\` and control characters escaped (`JSONValue.serialized()`). The file sits in the study
/// folder; the study's version hashes never cover it, so sealing does not change the version it approves.
/// `approved` and `expires` are the first and the last day the approval covers, in the kiosk's time zone.
/// `name` and `files` bind what a package of this version may be (`StudyPackage`): the folder it is written as,
/// and every file it may hold besides `approval.json` (the files the approved languages' versions cover, and the
/// default language's, which every translation loads on top of). Approvals sealed before they existed lack both:
/// a kiosk still serves their folders, but `consentctl study pull` and `pack` refuse them (re-seal).
/// `reviewPack` and `screensDigest` bind the IRB review pack the approval was given on (`ReviewPack`): the kiosk
/// recomputes the screens of the approved languages at load and refuses the version (`reviewMismatch`) when its
/// built-in texts, labels or voice have changed since (`StudyApprovalFile.checkingScreens`).
public struct StudyApproval: Sendable, Hashable {
    public static let fileName = "approval.json"
    public static let format = "consent-kiosk-approval/1"

    public var study: String
    /// The version hash of each language the approval covers, by language tag.
    public var versions: [String: String]
    public var site: String?
    public var approved: String
    public var expires: String
    public var reference: String?
    /// The version's folder name on the kiosks; nil in an approval sealed before names were bound.
    public var name: String?
    /// Every file a package of this version may hold besides `approval.json`, sorted; nil in an approval sealed
    /// before files were listed.
    public var files: [String]?
    /// SHA-256 (hex) of the review pack's `pack.json` the IRB reviewed; nil when sealed without one.
    public var reviewPack: String? = nil
    /// The approved languages' `ScreensDigest` as the review pack gives it; nil when sealed without a pack.
    public var screensDigest: String? = nil
    /// The approving key's 32 raw bytes.
    public var publicKey: Data
    public var keyFingerprint: String
    public var signature: Data

    /// The languages covered, in tag order.
    public var languages: [String] { versions.keys.sorted() }

    /// `SHA256:<hex>` over the key's SubjectPublicKeyInfo DER, as `openssl pkey -pubin -outform DER | sha256sum` gives.
    public static func fingerprint(of key: Curve25519.Signing.PublicKey) -> String {
        "SHA256:" + HexText.lowercase(SHA256.hash(data: KeyPEM.publicKeyDER(key)))
    }

    /// Seals `study` (its default language and translations, or only `languages`) with `key`, as the version folder
    /// `name` (default: the study folder's name).
    ///
    /// - Throws: `StudyApprovalError` for a date that is not `YYYY-MM-DD`, an expiry before the approval, a language
    ///   the study does not have, a name that cannot name a folder, or more files than a package may hold.
    public static func seal(
        _ study: Study, languages: [String]? = nil, site: String?, approved: String, expires: String, reference: String?,
        name: String? = nil, reviewPack: ReviewPack.Read? = nil, key: Curve25519.Signing.PrivateKey
    ) throws -> StudyApproval {
        let name = name ?? study.folder.lastPathComponent
        guard StudyPackage.isSafeName(name) else {
            throw StudyApprovalError(
                .malformed, "--name \"\(name)\" cannot name a version folder (letters, digits and . _ - only, 128 at most)")
        }
        guard CivilDate(approved) != nil else {
            throw StudyApprovalError(.malformed, "--approved \"\(approved)\" is not a date; write YYYY-MM-DD")
        }
        guard CivilDate(expires) != nil else {
            throw StudyApprovalError(.malformed, "--expires \"\(expires)\" is not a date; write YYYY-MM-DD")
        }
        guard approved <= expires else {
            throw StudyApprovalError(.malformed, "the approval would expire (\(expires)) before it starts (\(approved))")
        }
        if let site, site.isEmpty { throw StudyApprovalError(.malformed, "--site must not be empty") }
        var versions: [String: String] = [:]
        var files = Set(study.files)
        for tag in languages ?? study.languages.map(\.tag) {
            guard let translated = study.inLanguage(tag) else {
                throw StudyApprovalError(
                    .languageNotCovered,
                    "the study has no consent in \"\(tag)\"; it has \(study.languages.map(\.tag).joined(separator: ", "))")
            }
            versions[translated.language] = translated.version
            files.formUnion(translated.files)
        }
        guard files.count <= StudyPackage.maximumFiles else {
            throw StudyApprovalError(.malformed, "the study has \(files.count) files, more than a package may hold (\(StudyPackage.maximumFiles))")
        }
        var approval = StudyApproval(
            study: study.id, versions: versions, site: site, approved: approved, expires: expires,
            reference: reference.flatMap { $0.isEmpty ? nil : $0 }, name: name, files: files.sorted(),
            publicKey: key.publicKey.rawRepresentation, keyFingerprint: fingerprint(of: key.publicKey), signature: Data())
        if let reviewPack {
            try reviewPack.pack.check(study, versions: versions)
            approval.reviewPack = reviewPack.sha256
            approval.screensDigest = reviewPack.pack.screensDigest
        }
        do {
            approval.signature = try key.signature(for: try approval.canonicalBytes())
        } catch {
            throw StudyApprovalError(.malformed, "the key cannot sign the approval")
        }
        return approval
    }

    /// The members the signature covers, as JSON.
    private var signedMembers: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "format": .string(Self.format), "study": .string(study),
            "versions": .object(versions.mapValues(JSONValue.string)),
            "approved": .string(approved), "expires": .string(expires),
            "publicKey": .string(publicKey.base64EncodedString()), "keyFingerprint": .string(keyFingerprint),
        ]
        if let site { members["site"] = .string(site) }
        if let reference { members["reference"] = .string(reference) }
        if let name { members["name"] = .string(name) }
        if let files { members["files"] = .array(files.map(JSONValue.string)) }
        if let reviewPack { members["reviewPack"] = .string(reviewPack) }
        if let screensDigest { members["screensDigest"] = .string(screensDigest) }
        return members
    }

    /// The bytes the signature is over.
    public func canonicalBytes() throws -> Data {
        try JSONValue.object(signedMembers).serialized()
    }

    /// The file's bytes: pretty, sorted keys, a final newline.
    public func encoded() throws -> Data {
        var members = signedMembers
        members["signature"] = .string(signature.base64EncodedString())
        return try JSONValue.object(members).serialized(pretty: true) + Data("\n".utf8)
    }

    /// Reads `approval.json`'s bytes.
    ///
    /// - Throws: `StudyApprovalError(.malformed)` naming what is wrong.
    public static func parse(_ data: Data) throws -> StudyApproval {
        guard let json = try? JSONValue.parse(data), let members = json.objectValue else {
            throw StudyApprovalError(.malformed, "approval.json is not a JSON object")
        }
        let known: Set<String> = [
            "format", "study", "versions", "site", "approved", "expires", "reference", "name", "files", "publicKey",
            "keyFingerprint", "signature", "reviewPack", "screensDigest",
        ]
        if let unknown = members.keys.filter({ !known.contains($0) }).sorted().first {
            throw StudyApprovalError(.malformed, "approval.json has an unknown member \"\(unknown)\"")
        }
        func string(_ key: String) throws -> String {
            guard let value = members[key]?.stringValue, !value.isEmpty else {
                throw StudyApprovalError(.malformed, "approval.json needs \"\(key)\" as a non-empty string")
            }
            return value
        }
        func optional(_ key: String) throws -> String? {
            guard let raw = members[key] else { return nil }
            guard let value = raw.stringValue, !value.isEmpty else {
                throw StudyApprovalError(.malformed, "approval.json's \"\(key)\" must be a non-empty string")
            }
            return value
        }
        guard try string("format") == format else {
            throw StudyApprovalError(.malformed, "approval.json is not in the format \(format)")
        }
        guard let versionMembers = members["versions"]?.objectValue, !versionMembers.isEmpty else {
            throw StudyApprovalError(.malformed, "approval.json needs \"versions\": the version hash of each language")
        }
        var versions: [String: String] = [:]
        for (tag, value) in versionMembers {
            guard let hash = value.stringValue, hash.count == 64 else {
                throw StudyApprovalError(.malformed, "approval.json's version of \"\(tag)\" is not a SHA-256 hex digest")
            }
            versions[tag] = hash
        }
        let approved = try string("approved"), expires = try string("expires")
        for (key, date) in [("approved", approved), ("expires", expires)] where CivilDate(date) == nil {
            throw StudyApprovalError(.malformed, "approval.json's \"\(key)\" is \"\(date)\", not a YYYY-MM-DD date")
        }
        guard let publicKey = Data(base64Encoded: try string("publicKey")), publicKey.count == 32 else {
            throw StudyApprovalError(.malformed, "approval.json's \"publicKey\" is not the base64 of a 32-byte Ed25519 key")
        }
        guard let signature = Data(base64Encoded: try string("signature")), signature.count == 64 else {
            throw StudyApprovalError(.malformed, "approval.json's \"signature\" is not the base64 of an Ed25519 signature")
        }
        let name = try optional("name")
        if let name, !StudyPackage.isSafeName(name) {
            throw StudyApprovalError(.malformed, "approval.json's \"name\" \"\(name)\" cannot name a version folder")
        }
        var files: [String]?
        if let raw = members["files"] {
            guard let list = raw.arrayValue, list.count <= StudyPackage.maximumFiles else {
                throw StudyApprovalError(.malformed, "approval.json's \"files\" must be a list of at most \(StudyPackage.maximumFiles) paths")
            }
            // Whether a package may hold each path is the package's check (`StudyPackage`); a folder sealed where
            // it stays may have any file names.
            let paths = list.compactMap(\.stringValue)
            guard paths.count == list.count, !paths.contains(where: \.isEmpty), Set(paths).count == paths.count,
                !paths.contains(StudyApproval.fileName)
            else {
                throw StudyApprovalError(.malformed, "approval.json's \"files\" must name each file of the study once")
            }
            files = paths
        }
        var approval = StudyApproval(
            study: try string("study"), versions: versions, site: try optional("site"), approved: approved,
            expires: expires, reference: try optional("reference"), name: name, files: files, publicKey: publicKey,
            keyFingerprint: try string("keyFingerprint"), signature: signature)
        for key in ["reviewPack", "screensDigest"] {
            guard let digest = try optional(key) else { continue }
            guard digest.count == 64, digest.allSatisfy(\.isHexDigit) else {
                throw StudyApprovalError(.malformed, "approval.json's \"\(key)\" is not a SHA-256 hex digest")
            }
            if key == "reviewPack" { approval.reviewPack = digest } else { approval.screensDigest = digest }
        }
        return approval
    }

    /// Whether the signature verifies with the key the approval names, and that key has the fingerprint it gives.
    /// Says nothing of trust: `verify(trusting:)` does.
    public func verifySignature() throws {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else {
            throw StudyApprovalError(.badSignature, "the approval's public key is not an Ed25519 key")
        }
        guard Self.fingerprint(of: key) == keyFingerprint else {
            throw StudyApprovalError(.badSignature, "the approval's keyFingerprint is not its publicKey's")
        }
        guard let canonical = try? canonicalBytes(), key.isValidSignature(signature, for: canonical) else {
            throw StudyApprovalError(
                .badSignature, "the approval's signature does not verify: approval.json was changed after it was sealed")
        }
    }

    /// Verifies the signature with one of `trusted` keys (matched by fingerprint).
    public func verify(trusting trusted: [Curve25519.Signing.PublicKey]) throws {
        guard let key = trusted.first(where: { Self.fingerprint(of: $0) == keyFingerprint }),
            key.rawRepresentation == publicKey
        else {
            throw StudyApprovalError(
                .untrustedKey, "the approval is signed by key \(keyFingerprint), which is not one of approvalKeys")
        }
        try verifySignature()
    }

    /// Checks the approval for `study` (one language of it) at `site` on `today` (`YYYY-MM-DD`): the signature
    /// with a trusted key, the study and version, the language, the site and the dates.
    public func check(
        _ study: Study, site kioskSite: String?, today: String, trusting trusted: [Curve25519.Signing.PublicKey]
    ) throws {
        try verify(trusting: trusted)
        guard self.study == study.id else {
            throw StudyApprovalError(.versionMismatch, "the approval is for study \"\(self.study)\", not \"\(study.id)\"")
        }
        guard let version = versions.first(where: { $0.key.lowercased() == study.language.lowercased() })?.value else {
            throw StudyApprovalError(
                .languageNotCovered,
                "the approval does not cover the consent in \"\(study.language)\" (it covers \(languages.joined(separator: ", ")))")
        }
        guard version == study.version else {
            throw StudyApprovalError(
                .versionMismatch,
                "the consent in \"\(study.language)\" changed since it was approved (approved version \(version.prefix(12)), "
                    + "this folder has \(study.shortVersion)); seal the new version")
        }
        if let site {
            guard let kioskSite else {
                throw StudyApprovalError(.wrongSite, "the approval is for site \"\(site)\" and this kiosk has no site set")
            }
            guard kioskSite == site else {
                throw StudyApprovalError(.wrongSite, "the approval is for site \"\(site)\", this kiosk is site \"\(kioskSite)\"")
            }
        }
        guard today >= approved else {
            throw StudyApprovalError(.notYetValid, "the approval starts on \(approved)")
        }
        guard today <= expires else {
            throw StudyApprovalError(.expired, "the approval expired: its last day was \(expires)")
        }
    }

    /// What a record binds of this approval, given the file's exact bytes.
    public func binding(fileBytes: Data) -> StudyApprovalBinding {
        StudyApprovalBinding(
            sha256: HexText.lowercase(SHA256.hash(data: fileBytes)), keyFingerprint: keyFingerprint, approved: approved,
            expires: expires, site: site, reference: reference, reviewPack: reviewPack, screensDigest: screensDigest)
    }

    /// Whole days from `today` to the last day (0: today is the last day; negative: expired).
    public func daysLeft(today: String) -> Int? {
        guard let from = CivilDate(today)?.daysSince1970, let to = CivilDate(expires)?.daysSince1970 else { return nil }
        return to - from
    }
}

/// Why an approval does not hold, one sentence a technician can act on (no PHI: study ids, dates, sites).
public struct StudyApprovalError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The study folder has no approval.json.
        case missing
        /// approval.json cannot be read as an approval.
        case malformed
        /// The signature does not verify (the file was changed after sealing).
        case badSignature
        /// The approving key is not one of `approvalKeys`.
        case untrustedKey
        /// Another study, or a version of the consent other than the one on the kiosk.
        case versionMismatch
        case languageNotCovered
        case wrongSite
        case notYetValid
        case expired
        /// The approval binds a review pack whose screens are no longer what this kiosk shows: its built-in texts,
        /// labels or voice changed since the IRB reviewed them (`ScreensDigest`).
        case reviewMismatch
    }

    public var reason: Reason
    public var message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }

    /// Equal by reason, as `AgentError` is by code: the message is for people.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.reason == rhs.reason }
    public func hash(into hasher: inout Hasher) { hasher.combine(reason) }
}

/// The IRB keys a kiosk trusts (`approvalKeys`): Ed25519 public keys read from PEM files.
public struct ApprovalKeyring: Sendable {
    public let keys: [Curve25519.Signing.PublicKey]

    public init(keys: [Curve25519.Signing.PublicKey]) { self.keys = keys }

    /// The keys' fingerprints (`SHA256:<hex>`), in file order.
    public var fingerprints: [String] { keys.map(StudyApproval.fingerprint(of:)) }

    /// Reads each file as an SPKI PEM public key (or the base64 of its 32 raw bytes).
    ///
    /// - Throws: `StudyApprovalError(.malformed)` naming the file that cannot be read or is not an Ed25519 key.
    public static func load(_ paths: [String]) throws -> ApprovalKeyring {
        try ApprovalKeyring(keys: paths.map { path in
            guard let bytes = try? FileBytes.read(path, limit: 64 << 10) else {
                throw StudyApprovalError(.malformed, "\(path): cannot read the approval key")
            }
            guard let key = KeyPEM.publicKey(fromText: String(decoding: bytes, as: UTF8.self)) else {
                throw StudyApprovalError(.malformed, "\(path): not an Ed25519 public key (PEM \"PUBLIC KEY\")")
            }
            return key
        })
    }
}

/// A study folder's `approval.json` as found: absent, unreadable, or read (with its exact bytes, which a record's
/// manifest hashes).
public enum StudyApprovalFile: Sendable, Hashable {
    case missing
    case unreadable(StudyApprovalError)
    case read(StudyApproval, bytes: Data)
    /// Read and well-formed, but refused whatever it says: its screens are no longer the ones approved
    /// (`checkingScreens`).
    case refused(StudyApproval, StudyApprovalError)

    /// The largest approval.json read: a real one is a few KB, its `files` a line per file of the study; this
    /// leaves room for a package's `maximumFiles` at long paths.
    public static let maximumBytes = 1 << 20

    /// Reads `<folder>/approval.json`.
    public static func load(folder: URL) -> StudyApprovalFile {
        let path = folder.appendingPathComponent(StudyApproval.fileName).path
        guard FileStatus.of(path) != nil else { return .missing }
        guard let bytes = try? FileBytes.read(path, limit: maximumBytes) else {
            return .unreadable(StudyApprovalError(.malformed, "approval.json cannot be read (or is larger than 1 MiB)"))
        }
        do {
            return .read(try StudyApproval.parse(Data(bytes)), bytes: Data(bytes))
        } catch let error as StudyApprovalError {
            return .unreadable(error)
        } catch {
            return .unreadable(StudyApprovalError(.malformed, "approval.json cannot be read"))
        }
    }

    /// The languages this approval approves when it reads and its signature verifies with one of `keyring`'s
    /// keys; none otherwise (whatever a forged or unreadable approval.json names).
    public func trustedLanguages(keyring: ApprovalKeyring) -> Set<String> {
        guard case .read(let approval, _) = self, (try? approval.verify(trusting: keyring.keys)) != nil else { return [] }
        return Set(approval.languages)
    }

    /// The binding a record makes of this approval, when it holds for `study` at `site` on `today`.
    ///
    /// - Throws: `StudyApprovalError` saying why it does not hold.
    public func admit(_ study: Study, site: String?, today: String, keyring: ApprovalKeyring) throws -> StudyApprovalBinding {
        switch self {
        case .missing:
            throw StudyApprovalError(.missing, "the study has no approval.json; seal it with consentctl study seal")
        case .unreadable(let error), .refused(_, let error):
            throw error
        case .read(let approval, let bytes):
            try approval.check(study, site: site, today: today, trusting: keyring.keys)
            return approval.binding(fileBytes: bytes)
        }
    }

    /// The approval, when one was read.
    public var approval: StudyApproval? {
        switch self {
        case .read(let approval, _), .refused(let approval, _): approval
        case .missing, .unreadable: nil
        }
    }

    /// This file, or `.refused` with `reviewMismatch` when it binds a review pack (`screensDigest`) and the
    /// screens of `study` (loaded with every language the approval covers) are no longer the ones reviewed: the
    /// check of a kiosk update that changed what the kiosk says. Costs one `ScreensDigest` (no rendering, no speech).
    public func checkingScreens(_ study: Study, packs: ScreensDigest.Packs = ScreensDigest.kioskPacks) -> StudyApprovalFile {
        guard case .read(let approval, _) = self, let approved = approval.screensDigest else { return self }
        // A language the approval covers but the folder lacks is the version check's to refuse.
        let languages = approval.languages.filter { study.inLanguage($0) != nil }
        guard languages.count == approval.languages.count else { return self }
        // A digest that cannot be made proves nothing: refused, as a different one is.
        let digest = ScreensDigest.of(study, languages: languages, packs: packs)
        guard digest != approved else { return self }
        return .refused(
            approval,
            StudyApprovalError(
                .reviewMismatch,
                "the screens this kiosk shows are not the ones the IRB reviewed (review pack screens "
                    + "\(approved.prefix(12)), this kiosk's \(digest.map { String($0.prefix(12)) } ?? "none")): its "
                    + "built-in texts, labels or voice changed; make a review pack with this version (consentctl "
                    + "study review) and seal it again"))
    }
}
