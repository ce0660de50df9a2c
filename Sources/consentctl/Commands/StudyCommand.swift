import ArgumentParser
import ConsentCore
import ConsentSigning
import FileBytes
import Foundation
import UTCTime

/// `consentctl study …`: a study's IRB approval (`seal`).
struct StudyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "study",
        abstract: "Make a study version's IRB review pack; seal it with its IRB approval; pack it to publish; pull it onto a kiosk.",
        subcommands: [Review.self, Seal.self, Pack.self, Pull.self])
}

extension StudyCommand {
    /// `consentctl study seal STUDY --key IRB-KEY.pem --approved DATE --expires DATE [--site SITE] [--language L…]
    /// [--reference "IRB #…"] [--name NAME]`: writes `STUDY/approval.json` (docs/OPERATIONS.md, "Approved study
    /// packages").
    struct Seal: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write STUDY/approval.json: the IRB's Ed25519-signed approval of this version of the study.",
            discussion: """
                The approval names the version hash of each language it covers (all of the study's, or --language), \
                the site (any when --site is left out), the first (--approved) and last (--expires) day it covers, \
                the IRB's reference, the approving key's fingerprint, the version's folder name on the kiosks \
                (--name) and every file of the version, which are all a package of it may hold. A kiosk with \
                approvalKeys serves the study only while the approval verifies against one of them. With \
                --review-pack (consentctl study review) the approval also binds the pack the IRB reviewed: the \
                SHA-256 of its pack.json and its screensDigest, after every file of the pack is checked against its \
                hash and the screens against the study; a kiosk then refuses the version (reviewMismatch) once the \
                screens it shows differ from those. Exit status: 0 written, 1 usage or I/O error.
                """)

        @Argument(help: "The study folder (with contract.json).")
        var study: String

        @Option(help: ArgumentHelp("The IRB's Ed25519 private key (PEM, PKCS#8: openssl genpkey -algorithm ed25519).", valueName: "IRB-KEY.pem"))
        var key: String

        @Option(help: ArgumentHelp("The first day the approval covers.", valueName: "YYYY-MM-DD"))
        var approved: String

        @Option(help: ArgumentHelp("The last day the approval covers.", valueName: "YYYY-MM-DD"))
        var expires: String

        @Option(help: ArgumentHelp("The site the approval is for (a kiosk's config site); default: any site.", valueName: "SITE"))
        var site: String?

        @Option(parsing: .upToNextOption, help: ArgumentHelp("The languages approved; default: every language of the study.", valueName: "L"))
        var language: [String] = []

        @Option(help: ArgumentHelp("The IRB's reference for the approval.", valueName: "\"IRB #…\""))
        var reference: String?

        @Option(help: ArgumentHelp(
            "The version's folder name on the kiosks, bound by the approval (study pack and pull use it). Default: the study folder's name.",
            valueName: "NAME"))
        var name: String?

        @Option(help: ArgumentHelp(
            "The review pack the IRB approved (consentctl study review): its digest and screensDigest are sealed into the approval.",
            valueName: "FOLDER"))
        var reviewPack: String?

        func run() throws {
            let folder = URL(fileURLWithPath: study)
            let loaded: ConsentCore.Study
            do { loaded = try ConsentCore.Study.load(from: folder) } catch let error as ConsentCoreError {
                throw CommandFailure(error.description)
            }
            guard let bytes = try? FileBytes.read(key, limit: 64 << 10) else {
                throw CommandFailure("\(key): cannot read the key file; check the path and its permissions")
            }
            guard let privateKey = KeyPEM.privateKey(fromPEM: String(decoding: bytes, as: UTF8.self)) else {
                throw CommandFailure("\(key): not an Ed25519 private key (PEM \"PRIVATE KEY\", as openssl genpkey -algorithm ed25519 writes)")
            }
            if let site, !site.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._:-".contains($0)) }) {
                throw CommandFailure("--site must be letters, digits and . _ : - only (as the kiosk's site)")
            }
            let approval: StudyApproval
            do {
                let pack = try reviewPack.map { try ReviewPack.read(folder: URL(fileURLWithPath: $0)) }
                approval = try StudyApproval.seal(
                    loaded, languages: language.isEmpty ? nil : language, site: site, approved: approved, expires: expires,
                    reference: reference, name: name, reviewPack: pack, key: privateKey)
            } catch let error as StudyApprovalError {
                throw CommandFailure(error.message)
            }
            let path = folder.appendingPathComponent(StudyApproval.fileName).path
            do {
                try DurableWrite.replace(path, contents: try approval.encoded(), mode: 0o644)
            } catch {
                throw CommandFailure("\(path): cannot write the approval (\(error))")
            }
            print("sealed \(loaded.id): \(path)")
            for tag in approval.languages {
                print("  \(tag) version \(approval.versions[tag]?.prefix(12) ?? "")")
            }
            print("  site \(approval.site ?? "any"), \(approval.approved) to \(approval.expires)"
                + (approval.reference.map { ", \($0)" } ?? ""))
            print("  key \(approval.keyFingerprint)")
            print("  folder \(approval.name ?? ""), \(approval.files?.count ?? 0) files")
            if let pack = approval.reviewPack, let screens = approval.screensDigest {
                print("  review pack \(pack.prefix(12)), screens \(screens.prefix(12))")
            }
        }
    }
}

extension StudyCommand {
    /// `consentctl study pack STUDY -o PACKAGE.json [--name NAME]`: one sealed version as one file to publish.
    struct Pack: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a sealed study version as one package file (consent-kiosk-package/1) to publish for kiosks.",
            discussion: """
                The package holds approval.json and the files it lists, nothing else of the folder, under the folder \
                name it binds; at most \(StudyPackage.maximumBytes) bytes. An approval sealed by an older consentctl \
                (no name, no files) cannot be packed: seal the version again.
                """)

        @Argument(help: "The sealed study folder (with approval.json).")
        var study: String

        @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The package file to write.", valueName: "PACKAGE.json"))
        var output: String

        @Option(help: ArgumentHelp("The version's folder name on the kiosks; must be the one the approval binds (study seal --name). Default: that name.", valueName: "NAME"))
        var name: String?

        func run() throws {
            let data: Data
            do { data = try StudyPackage.pack(folder: URL(fileURLWithPath: study), name: name) } catch let error as StudyApprovalError {
                throw CommandFailure(error.message)
            }
            do { try DurableWrite.replace(output, contents: data, mode: 0o644) } catch {
                throw CommandFailure("\(output): cannot be written (\(error))")
            }
            print("packed \(study) as \(output) (\(data.count) bytes)")
        }
    }

    /// `consentctl study pull URL --into DIR [--config FILE | --approval-key KEY…] [--site SITE] [--ca-file PEM]
    /// [--timeout S] [--minimum-rate B] [--rate-window S] [--reload [--socket PATH]]`: fetches a package over HTTPS
    /// and writes it beside the other versions, only if its approval verifies against the kiosk's `approvalKeys`.
    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch a sealed study package over HTTPS and add it beside the kiosk's other versions.",
            discussion: """
                The package (consentctl study pack) is accepted only if its approval.json verifies with one of the \
                kiosk's approvalKeys (--config, or --approval-key), binds the package's name, lists exactly the \
                package's other files, holds for the version it carries, covers its site (when both name one) and \
                has not expired; it is then written atomically as DIR/<name>/ (a version already there is never \
                overwritten). A package holds at most \(StudyPackage.maximumBytes) bytes. The download must end within \
                --timeout and bring at least --minimum-rate bytes a second in every --rate-window after the response \
                head. --reload then has consentd serve it (its audit log records study.served). Exit status: 0 added, \
                4 refused (nothing written), 1 download or I/O error (nothing written), 64 usage.
                """)

        static let refusedExitCode: Int32 = 4

        @Argument(help: ArgumentHelp("The package's HTTPS URL.", valueName: "URL"))
        var url: String

        @Option(help: ArgumentHelp("The folder of versions it joins (a study path of consentd's).", valueName: "DIR"))
        var into: String

        @Option(help: ArgumentHelp("consentd's config file: its approvalKeys and site.", valueName: "FILE"))
        var config: String?

        @Option(name: .customLong("approval-key"), help: ArgumentHelp("A trusted IRB public key (repeatable), instead of the config's approvalKeys.", valueName: "KEY.pem"))
        var approvalKeys: [String] = []

        @Option(help: ArgumentHelp("The kiosk's site, instead of the config's.", valueName: "SITE"))
        var site: String?

        @Option(help: ArgumentHelp("Trust this CA (PEM) for the server's certificate instead of the system's CAs.", valueName: "CA.pem"))
        var caFile: String?

        @Option(help: ArgumentHelp(
            "The most the whole download (connecting, the response head, the body) may take.", valueName: "SECONDS"))
        var timeout = PackageDownload.Limits.defaultTimeoutSeconds

        @Option(name: .customLong("minimum-rate"), help: ArgumentHelp(
            "The fewest bytes a second the body must bring, averaged over each --rate-window after the response head; 0: no minimum.",
            valueName: "BYTES"))
        var minimumRate = PackageDownload.Limits.defaultMinimumRate

        @Option(name: .customLong("rate-window"), help: ArgumentHelp("The window --minimum-rate is averaged over.", valueName: "SECONDS"))
        var rateWindow = PackageDownload.Limits.defaultRateWindowSeconds

        @Flag(help: "After adding it, have the running consentd serve it (as consentctl reload).")
        var reload = false

        @Option(help: ArgumentHelp("consentd's socket, for --reload.", valueName: "PATH"))
        var socket: String?

        /// Bounded so the rate check's arithmetic (rate × window) can never overflow.
        func validate() throws {
            guard (1...PackageDownload.Limits.maximumSeconds).contains(timeout) else {
                throw ValidationError("--timeout must be 1 to \(PackageDownload.Limits.maximumSeconds) seconds")
            }
            guard (0...PackageDownload.Limits.maximumRate).contains(minimumRate) else {
                throw ValidationError("--minimum-rate must be 0 to \(PackageDownload.Limits.maximumRate) bytes a second")
            }
            guard (1...PackageDownload.Limits.maximumSeconds).contains(rateWindow) else {
                throw ValidationError("--rate-window must be 1 to \(PackageDownload.Limits.maximumSeconds) seconds")
            }
        }

        func run() async throws {
            guard let target = URL(string: url), target.scheme == "https", target.host != nil else {
                throw CommandFailure("\(url): give the package's https:// URL")
            }
            var keys = approvalKeys
            var kioskSite = site
            if let config {
                guard let bytes = try? FileBytes.read(config, limit: 16 << 20), let file = try? JSONValue.parse(Data(bytes)) else {
                    throw CommandFailure("\(config): cannot read it as consentd's JSON config file")
                }
                if keys.isEmpty { keys = (file["approvalKeys"]?.arrayValue ?? []).compactMap(\.stringValue) }
                if kioskSite == nil { kioskSite = file["site"]?.stringValue }
            }
            guard !keys.isEmpty else {
                throw CommandFailure("no approval key: give --config with approvalKeys, or --approval-key; a package is only accepted when its approval verifies")
            }
            let keyring: ApprovalKeyring
            do { keyring = try ApprovalKeyring.load(keys) } catch let error as StudyApprovalError { throw CommandFailure(error.message) }
            let limits = PackageDownload.Limits(timeoutSeconds: timeout, minimumRate: minimumRate, windowSeconds: rateWindow)
            let data: Data
            do { data = try await PackageDownload(url: target, caFile: caFile, limits: limits).run() } catch let tooLarge as PackageDownload.TooLarge {
                FileHandle.standardError.write(Data(
                    "consentctl: package refused (\(StudyApprovalError.Reason.malformed.rawValue)): the download is larger than a package may be (\(tooLarge.maximum) bytes); nothing was written\n".utf8))
                throw ExitCode(Self.refusedExitCode)
            }
            let accepted: (folder: URL, study: ConsentCore.Study, approval: StudyApproval)
            do {
                accepted = try StudyPackage.accept(
                    data, into: URL(fileURLWithPath: into), keyring: keyring, site: kioskSite, today: CivilDate.today(in: .current).text)
            } catch let error as StudyApprovalError {
                FileHandle.standardError.write(Data("consentctl: package refused (\(error.reason.rawValue)): \(error.message)\n".utf8))
                throw ExitCode(Self.refusedExitCode)
            } catch let error as StudyPackage.WriteFailure {
                throw CommandFailure("\(error.message); nothing was written")
            }
            print("added \(accepted.study.id) as \(accepted.folder.path)")
            print("  approved \(accepted.approval.approved) to \(accepted.approval.expires) for \(accepted.approval.languages.joined(separator: ", "))"
                + (accepted.approval.reference.map { ", \($0)" } ?? "") + " by \(accepted.approval.keyFingerprint)")
            if reload {
                try Reload.signal(socket: socket)
            }
        }
    }
}
