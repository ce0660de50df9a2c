/// One thing that happened on the kiosk, as the audit log records it (21 CFR 11.10(e)).
///
/// The set is closed and every associated value is an identifier, a digest, an enum, a flag or a count, so an
/// event cannot carry PHI by construction: no names, no dates of birth, no signatures, no text a participant
/// typed. The agent maps its domain values (`ConsentStep`, `SignerRole`, …) onto these types; this module does
/// not know the consent modules, so the log's format cannot drift when they change.
///
/// The last three cases are written by `AuditLog` itself; `append` refuses them.
public enum AuditEvent: Sendable, Hashable {
    // MARK: The agent
    /// `consentd` started with a configuration (its hash) serving `studies` studies.
    case agentStarted(configuration: AuditDigest, studies: Int)
    /// The configuration differs from the one of the previous start.
    case configurationChanged(previous: AuditDigest?, current: AuditDigest)
    /// `consentd` is shutting down cleanly.
    case agentStopped
    /// A socket peer was refused (not an allowed user or group, too many connections, …).
    case peerRefused(uid: UInt32, pid: Int32?, reason: AuditPeerRefusal)

    // MARK: A consent flow
    case flowStarted(flow: AuditIdentifier, study: AuditStudy)
    /// The eligibility answers were evaluated; `answered` of `questions` were answered. Ineligible ends the flow.
    case eligibilityResult(flow: AuditIdentifier, study: AuditStudy, eligible: Bool, answered: Int, questions: Int)
    /// The flow reached a step; `index` is the scene number of a visual step (0-based), nil elsewhere.
    case stepReached(flow: AuditIdentifier, study: AuditStudy, step: AuditStep, index: Int?)
    case sharingChosen(flow: AuditIdentifier, study: AuditStudy, shareWidely: Bool)
    /// A signature was accepted; only its size is logged, never the strokes.
    case signatureCaptured(flow: AuditIdentifier, study: AuditStudy, signer: AuditSignerRole, strokes: Int, points: Int)
    case signatureCleared(flow: AuditIdentifier, study: AuditStudy, signer: AuditSignerRole)
    case declined(flow: AuditIdentifier, study: AuditStudy, at: AuditStep)
    case expired(flow: AuditIdentifier, study: AuditStudy, at: AuditStep)
    case cancelled(flow: AuditIdentifier, study: AuditStudy, at: AuditStep)
    /// The person obtaining consent unlocked the flow's staff step with their id and PIN (never the PIN).
    case staffUnlocked(flow: AuditIdentifier, study: AuditStudy, staff: AuditIdentifier)
    /// The person obtaining consent attested how the signer's identity was verified (the method's name, never
    /// the note they typed).
    case staffAttested(flow: AuditIdentifier, study: AuditStudy, staff: AuditIdentifier, method: AuditIdentifier)
    /// A member of staff was called to the kiosk at a step (`index`: the scene of a visual step); `reason` says
    /// who called (`participant`, `comprehensionStopped`).
    case staffCalled(flow: AuditIdentifier, study: AuditStudy, at: AuditStep, index: Int?, reason: AuditIdentifier)
    /// A member of staff answered the call; the wait is the time between the two lines.
    case staffAnswered(flow: AuditIdentifier, study: AuditStudy, at: AuditStep, index: Int?)
    /// The participant paused the flow at a step to think it over (`flow.pause`): its place is sealed on the kiosk
    /// as `pause` (the sealed file's id: never the resume code).
    case paused(flow: AuditIdentifier, study: AuditStudy, at: AuditStep, index: Int?, pause: AuditIdentifier)
    /// A flow started from the paused one `pause` (`flow.start {resume}`): where it stopped (`continued`), or from the
    /// beginning because the study's version changed meanwhile.
    case resumed(flow: AuditIdentifier, study: AuditStudy, pause: AuditIdentifier, continued: Bool)
    /// A paused flow passed its day (`resumeDays`) and was deleted, by the agent or `consentctl prune`.
    case pauseExpired(pause: AuditIdentifier)
    /// The flow ended with a written record. Appending it fsyncs the log.
    case completed(flow: AuditIdentifier, study: AuditStudy, record: AuditIdentifier)

    /// The agent stopped (a crash, kill -9, power loss) while `flow` was completing; found at the next start.
    /// `record` is the record that was nonetheless written whole, nil when nothing was kept and the flow did not
    /// complete (the participant must consent again).
    case completionInterrupted(flow: AuditIdentifier, record: AuditIdentifier?)

    // MARK: Records
    /// A record directory was written; `manifest` is the SHA-256 of its `manifest.json`.
    case recordWritten(flow: AuditIdentifier?, study: AuditStudy, record: AuditIdentifier, manifest: AuditDigest)
    /// An upload attempt to a configured destination (named by its configuration key, not its URL).
    case recordUploaded(record: AuditIdentifier, destination: AuditIdentifier, outcome: AuditUploadOutcome, httpStatus: Int?)
    /// A participant withdrew the consent of `record`; the reason they give is never logged.
    case withdrawalRecorded(flow: AuditIdentifier?, study: AuditStudy, record: AuditIdentifier)
    /// A record that changes the answers of an earlier consent (`record`: that original) to its optional elements
    /// was kept; never the answers themselves.
    case amendmentRecorded(flow: AuditIdentifier?, study: AuditStudy, record: AuditIdentifier)

    // MARK: Studies
    /// A study's IRB approval (`approval.json`): about to expire (`expiring`, `daysLeft` to its last day), or a
    /// flow refused because it does not hold (`refused`, `reason`: expired, wrongSite, untrustedKey…).
    case studyApproval(study: AuditStudy, outcome: AuditApprovalOutcome, reason: AuditIdentifier?, daysLeft: Int?)
    /// A reload (SIGHUP) serves a version of a study language it did not serve before (a package `consentctl study
    /// pull` wrote, an amendment copied beside the others).
    case studyServed(study: AuditStudy)

    // MARK: Written by the log itself
    /// The log was opened for writing; `boot` is the kernel's boot id, so `mono_ns` values can be compared.
    case logOpened(boot: AuditIdentifier?)
    /// A torn final line (a crash mid-write) was cut off before the chain went on; its size and hash are named.
    case logRecovered(truncatedBytes: Int, truncatedSHA256: AuditDigest)
    /// The first line of a file after rotation; it chains to the last line of `previousFile`.
    case logRotated(previousFile: AuditIdentifier)
}

/// A study as the log names it: its id and the SHA-256 of its files (the version a record pins).
public struct AuditStudy: Sendable, Hashable {
    public var id: AuditIdentifier
    public var version: AuditDigest

    public init(id: AuditIdentifier, version: AuditDigest) {
        self.id = id
        self.version = version
    }
}

/// The steps and review pages of a consent flow. Raw values are the log's wire names, fixed here, not derived
/// from ConsentCore's identifiers.
public enum AuditStep: String, Sendable, Hashable, Codable, CaseIterable {
    case withdrawal
    case changes
    case eligibility
    /// The key information the consent begins with (studies that have it).
    case keyInformation
    case visual
    case sharing
    /// The optional elements (studies that have them; only whether it was reached, never the answers).
    case optional
    case reviewDocument = "review.document"
    case reviewName = "review.name"
    case reviewSignature = "review.signature"
    case reviewSigner = "review.signer"
    case reviewRepresentative = "review.representative"
    case reviewWitness = "review.witness"
    case reviewWitnessSignature = "review.witnessSignature"
    /// The comprehension check (only whether it was reached, never the answers).
    case comprehension
    case passcode
    case staff
    case done
}

public enum AuditSignerRole: String, Sendable, Hashable, Codable, CaseIterable {
    case participant
    case witness
    case interpreter
    case legallyAuthorizedRepresentative = "representative"
    case personObtainingConsent = "staff"
}

public enum AuditUploadOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// The server took the record.
    case accepted
    /// The server answered and refused it.
    case rejected
    /// No answer (network, timeout); it will be retried.
    case failed
}

public enum AuditApprovalOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// The approval's last day is near (`approvalWarningDays`).
    case expiring
    /// The approval does not hold: no flow was started.
    case refused
}

public enum AuditPeerRefusal: String, Sendable, Hashable, Codable, CaseIterable {
    /// The peer's uid is not allowed to use the socket.
    case userNotAllowed = "user_not_allowed"
    /// The peer is in none of the allowed groups.
    case groupNotAllowed = "group_not_allowed"
    /// The connection limit was reached.
    case tooManyConnections = "too_many_connections"
    /// The peer's credentials could not be read.
    case unknownPeer = "unknown_peer"
}
