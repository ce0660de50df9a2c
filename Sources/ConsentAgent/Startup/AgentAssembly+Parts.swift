import ConsentCore
import ConsentPDF
import ConsentRecords
import ConsentSigning
import Foundation
import Logging

/// The parts the assembly builds from the config file: the record writer (`SignedRecordMaker`, the innermost of
/// `RecordMakerChain`) and the study approval checks.
extension AgentAssembly {
    /// The kiosk's signing key (made on first start, 0600) and how records are composed.
    func makeRecordMaker(configuration: AgentConfiguration, file: AgentConfigFile, logger: Logger) throws -> SignedRecordMaker {
        // fhirMode and paper are the enums the file was read into (`SettingChoice`); nothing to check again.
        let mode = file.fhirMode ?? .r4
        let paper = file.paper
        let kiosk: KioskIdentity
        do {
            kiosk = try KioskIdentity.loadOrCreate(id: kioskID(file), stateDirectory: configuration.stateDirectory)
        } catch let error as ConsentSigningError {
            throw AgentStartupError("Cannot load or create the kiosk key: \(error)")
        }
        // locale and timeZone were checked when the file was read; the PDF prints the signing time in that zone.
        let pdf = PDFOptions(
            paper: paper, timeZone: file.timeZone?.zone ?? .current,
            localeIdentifier: file.locale?.identifier ?? Locale.current.identifier)
        var encryption: RecordEncryption?
        if let settings = file.recordEncryption {
            do {
                encryption = try settings.load()
            } catch {
                throw AgentStartupError("Cannot use recordEncryption.recipientPublicKey: \(error)")
            }
        }
        var escrow: RecordEncryption?
        if let settings = file.biometricEscrow {
            do {
                escrow = try settings.load()
            } catch {
                throw AgentStartupError("Cannot use biometricEscrow.recipientPublicKey: \(error)")
            }
        }
        let composer = ConsentRecordComposer(
            signer: ConsentSigner(kiosk: kiosk),
            settings: .init(mode: mode, siteAddress: file.siteAddress, pdf: pdf, encryption: encryption, biometricEscrow: escrow))
        return SignedRecordMaker(composer: composer, stateDirectory: configuration.stateDirectory, logger: logger)
    }

    /// The keys of `approvalKeys`; nil when approvals are not checked.
    func approvalKeyring(file: AgentConfigFile, logger: Logger) throws -> ApprovalKeyring? {
        guard let paths = file.approvalKeys else {
            if file.site != nil { logger.notice("site is set but approvalKeys is not: study approvals are not checked") }
            return nil
        }
        do { return try ApprovalKeyring.load(paths) } catch let error as StudyApprovalError {
            throw AgentStartupError("Cannot use approvalKeys: \(error.message)")
        }
    }

    /// The approval checks of `approvalKeys`, with each study folder's approval.json read.
    func approvalPolicy(file: AgentConfigFile, keyring: ApprovalKeyring, catalog: StudyCatalog, logger: Logger) -> ApprovalPolicy {
        var policy = ApprovalPolicy(
            keyring: keyring, site: file.site?.value, timeZone: file.timeZone?.zone ?? .current,
            warningDays: file.approvalWarningDays ?? ApprovalPolicy.defaultWarningDays)
        policy.read(catalog)
        logger.info(
            "study approvals are checked", metadata: ["keys": "\(keyring.fingerprints)", "site": "\(file.site?.value ?? "-")"])
        for study in policy.served(catalog) {
            for language in [study] + study.translations {
                do { _ = try policy.admit(language) } catch {
                    // Still serving: a flow on it is refused with StudyNotApproved, and the reason, to staff.
                    let reason = (error as? StudyApprovalError)?.message ?? "\(error)"
                    logger.warning(
                        "study not approved on this kiosk; its flows will be refused",
                        metadata: ["study": "\(study.id)", "language": "\(language.language)", "reason": "\(reason)"])
                }
            }
        }
        return policy
    }
}
