import AgentProtocol
import ConsentCore
import ConsentSigning
import Foundation
import StaffCredentials

extension StartContext {
    /// The study and purpose of a new flow: a first consent, a withdrawal of `withdraw` (its PIN in `passcode`),
    /// a re-consent replacing `previous`, or a change of the answers of `change` (its PIN in `passcode`). Everything
    /// is checked before the flow exists.
    func flowPlan(
        study studyID: String?, withdraw: String?, passcode: String?, previous: String?, change: String? = nil
    ) async throws -> (study: Study, purpose: FlowPurpose) {
        if withdraw != nil, previous != nil {
            throw RPCErrorObject.invalidParams(field: "previous", "a flow either withdraws a record or replaces one, not both")
        }
        if change != nil, withdraw != nil || previous != nil {
            throw RPCErrorObject.invalidParams(
                field: "change", "a flow either changes a record's answers, withdraws it or replaces it, not two of them")
        }
        if passcode != nil, withdraw == nil, change == nil {
            throw RPCErrorObject.invalidParams(field: "passcode", "a passcode is only given with withdraw or change")
        }
        if let withdraw { return try await withdrawalPlan(withdraw, study: studyID, passcode: passcode) }
        if let change { return try await changePlan(change, study: studyID, passcode: passcode) }
        if let previous { return try await reconsentPlan(previous, study: studyID) }
        return (try study(studyID), .consent)
    }

    private func withdrawalPlan(_ id: String, study studyID: String?, passcode: String?) async throws -> (study: Study, purpose: FlowPurpose) {
        let manifest = try await consentRecord(id, study: studyID, field: "withdraw")
        let study = try recordLanguage(of: servedStudy(manifest.studyID), manifest)
        try await checkRecordPasscode(passcode, of: manifest, record: id)
        let title = study.contract["title"]?.stringValue ?? study.id
        let target = WithdrawalTarget(
            recordID: id, studyTitle: title, signedOn: String(manifest.signedAt.prefix(10)),
            signedOnText: signedOnText(manifest, study))
        return (study, .withdrawal(target))
    }

    /// A change of a consent's answers to the study's optional elements: the record's PIN as for a withdrawal; the
    /// study served must be the version the record was signed for (its elements are the ones answered) and have
    /// optional elements; a record another change amended is refused (the later one holds the answers).
    private func changePlan(_ id: String, study studyID: String?, passcode: String?) async throws -> (study: Study, purpose: FlowPurpose) {
        let manifest = try await consentRecord(id, study: studyID, field: "change")
        let study = try recordLanguage(of: servedStudy(manifest.studyID), manifest)
        // Checked before the PIN: they tell nothing of the participant, and a participant with a stale record number
        // should not spend PIN tries on it.
        guard !study.document.optionalElements.isEmpty else {
            throw AgentError(.noOptionalElements, "the record's study has no optional elements; there is nothing to change")
        }
        guard manifest.studyVersion == study.version else {
            throw AgentError(
                .studyChanged,
                "the record was signed for another version of the study than the one served; re-consent with previous")
        }
        try await checkRecordPasscode(passcode, of: manifest, record: id)
        var answers: [String: Bool] = [:]
        for answer in manifest.optionalElements ?? [] { answers[answer.id] = answer.permitted }
        let title = study.contract["title"]?.stringValue ?? study.id
        let basis = ChangeBasis(
            recordID: id, studyTitle: title, signedOn: String(manifest.signedAt.prefix(10)),
            signedOnText: signedOnText(manifest, study), answers: answers, passcode: manifest.passcode)
        return (study, .change(basis))
    }

    /// The PIN rule of a withdrawal and a change: the record's PIN when it has one (`checkPasscode`), none when not.
    private func checkRecordPasscode(_ passcode: String?, of manifest: RecordManifest, record id: String) async throws {
        if let hash = manifest.passcode {
            try await checkPasscode(passcode, against: hash, record: id)
        } else if passcode != nil {
            // Refused, not ignored: a participant who types a PIN believes they set one, so the record number is
            // most likely not theirs (a typo can name another participant's record, which has no PIN to stop a
            // withdrawal). Saying so lets them check it before they withdraw someone else's consent; leaving the
            // PIN out withdraws a record that has none. It tells nothing new: starting without a PIN tells as much.
            throw AgentError(
                .passcodeNotSet, "the record was created without a passcode; check the record id, or leave passcode out")
        }
    }

    private func reconsentPlan(_ id: String, study studyID: String?) async throws -> (study: Study, purpose: FlowPurpose) {
        let manifest = try await consentRecord(id, study: studyID, field: "previous")
        let study = try recordLanguage(of: servedStudy(manifest.studyID), manifest)
        guard manifest.studyVersion != study.version else {
            throw AgentError(
                .studyUnchanged, "the record was signed for the study's current version; there is nothing to consent to again")
        }
        let changes = manifest.sections.map {
            ConsentDocumentDiff(previous: $0, current: SectionFingerprint.of(study.document))
        }
        let basis = ReconsentBasis(
            previousRecordID: id, changes: changes, previousSignedOnText: signedOnText(manifest, study))
        return (study, .reconsent(basis))
    }

    /// The day the record was signed, as the sentence that names it writes a day: in the language of the kiosk's
    /// texts for the study's language (the sentence is the built-in table's, English for a language without one).
    private func signedOnText(_ manifest: RecordManifest, _ study: Study) -> String? {
        manifest.signingDate.map { settings.dates.text($0, language: study.texts.language) }
    }

    /// The study in the language the record was signed in (its default for records without one, or when the
    /// study no longer has that language), so a re-consent compares the version of that language.
    private func recordLanguage(of study: Study, _ manifest: RecordManifest) -> Study {
        manifest.language.flatMap { study.inLanguage($0) } ?? study
    }

    /// A verified consent record that has not been withdrawn or changed. The verification reads and hashes every file of the
    /// record: it runs off the actor (`DiskWork`); what follows runs on it again.
    private func consentRecord(_ id: String, study studyID: String?, field: String) async throws -> RecordManifest {
        let store = records
        let manifest = try await disk.run { try store.verifiedManifest(id) }
        guard manifest.withdraws == nil else {
            throw AgentError(.notAConsent, "the record is a withdrawal, not a consent")
        }
        if let studyID, studyID != manifest.studyID {
            throw RPCErrorObject.invalidParams(field: "study", "the record belongs to another study; leave study out")
        }
        let standing = try await standing(of: id)
        if standing.withdrawn {
            throw AgentError(.alreadyWithdrawn, "the record was already withdrawn; records.get names the withdrawal")
        }
        // A changed record no longer holds the participant's answers: withdrawing or replacing it would leave the
        // change standing (its Consent active where the record is sent), so the latest change is the one to name.
        if standing.amended {
            throw AgentError(.alreadyAmended, "the record was changed already; records.get names the change in amendedBy")
        }
        return manifest
    }

    private func servedStudy(_ id: String) throws -> Study {
        guard let study = studies.first(where: { $0.id == id }) else {
            throw AgentError(.unknownStudy, "the record's study is not served by this agent")
        }
        return study
    }

    /// Checks the PIN the record was created with, counting wrong ones (`passcodeTries`: five in a row lock the
    /// record's withdrawal and change for 15 minutes; a 4-digit PIN has 10,000 values, so guessing it at the kiosk takes months,
    /// while a participant who mistypes twice is not stopped. Counted in memory: a restart, which staff notice,
    /// clears it).
    ///
    /// The try is counted before the hash runs and forgiven when it matches (`AttemptLimiter`'s rule, the staff
    /// PIN's too): tries sent at once for the same record get no more than five hashes between them. The hash is
    /// deliberately slow, so it runs on the hashing pool (`HashWork`), never on the disk pool that writes records.
    private func checkPasscode(_ passcode: String?, against hash: PasscodeHash, record: String) async throws {
        // Seconds on the agent's monotonic clock: the count is kept in memory only.
        let (seconds, attoseconds) = now().components
        let instant = Double(seconds) + Double(attoseconds) / 1e18
        if passcodeTries.lockedUntil(record, now: instant) != nil {
            throw AgentError(.passcodeLocked, "too many wrong passcodes for this record; staff can help, or try again later")
        }
        guard let passcode else {
            throw AgentError(.passcodeRequired, "the record was created with a passcode; pass it as passcode")
        }
        guard case .counted = passcodeTries.admit(record, now: instant) else {
            throw AgentError(.passcodeLocked, "too many wrong passcodes for this record; staff can help, or try again later")
        }
        guard try await hashing.run({ hash.matches(passcode) }) else {
            logger.notice("wrong withdrawal passcode", metadata: ["failures": "\(passcodeTries.failures(record, now: instant))"])
            throw AgentError(.wrongPasscode, "the passcode does not match the one set with this consent")
        }
        // The right PIN: the count starts again.
        passcodeTries.reset(record)
    }
}
