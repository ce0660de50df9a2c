/// How each event fills a line: its wire name, its outcome and its own keys.
extension AuditEvent {
    /// The wire names of the events, fixed here (never derived from Swift identifiers, so a rename cannot change the log).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case agentStarted = "agent.started"
        case configurationChanged = "config.changed"
        case agentStopped = "agent.stopped"
        case peerRefused = "peer.refused"
        case flowStarted = "flow.started"
        case eligibilityResult = "flow.eligibility"
        case stepReached = "flow.step"
        case sharingChosen = "flow.sharing"
        case signatureCaptured = "flow.signature"
        case signatureCleared = "flow.signature_cleared"
        case staffUnlocked = "staff.unlocked"
        case staffAttested = "staff.attested"
        case staffCalled = "staff.called"
        case staffAnswered = "staff.answered"
        case paused = "flow.paused"
        case resumed = "flow.resumed"
        case pauseExpired = "flow.pause_expired"
        case declined = "flow.declined"
        case expired = "flow.expired"
        case cancelled = "flow.cancelled"
        case completed = "flow.completed"
        case completionInterrupted = "flow.interrupted"
        case recordWritten = "record.written"
        case recordUploaded = "record.uploaded"
        case withdrawalRecorded = "record.withdrawn"
        case amendmentRecorded = "record.amended"
        case studyApproval = "study.approval"
        case studyServed = "study.served"
        case logOpened = "log.opened"
        case logRecovered = "log.recovered"
        case logRotated = "log.rotated"
    }

    public var kind: Kind {
        switch self {
        case .agentStarted: .agentStarted
        case .configurationChanged: .configurationChanged
        case .agentStopped: .agentStopped
        case .peerRefused: .peerRefused
        case .flowStarted: .flowStarted
        case .eligibilityResult: .eligibilityResult
        case .stepReached: .stepReached
        case .sharingChosen: .sharingChosen
        case .signatureCaptured: .signatureCaptured
        case .signatureCleared: .signatureCleared
        case .staffUnlocked: .staffUnlocked
        case .staffAttested: .staffAttested
        case .staffCalled: .staffCalled
        case .staffAnswered: .staffAnswered
        case .paused: .paused
        case .resumed: .resumed
        case .pauseExpired: .pauseExpired
        case .declined: .declined
        case .expired: .expired
        case .cancelled: .cancelled
        case .completed: .completed
        case .completionInterrupted: .completionInterrupted
        case .recordWritten: .recordWritten
        case .recordUploaded: .recordUploaded
        case .withdrawalRecorded: .withdrawalRecorded
        case .amendmentRecorded: .amendmentRecorded
        case .studyApproval: .studyApproval
        case .studyServed: .studyServed
        case .logOpened: .logOpened
        case .logRecovered: .logRecovered
        case .logRotated: .logRotated
        }
    }

    /// What came of it, in one word: the line's `outcome`.
    public var outcome: String {
        switch self {
        case .agentStarted: "ok"
        case .configurationChanged: "changed"
        case .agentStopped: "stopped"
        case .peerRefused: "refused"
        case .flowStarted: "started"
        case .eligibilityResult(_, _, let eligible, _, _): eligible ? "eligible" : "ineligible"
        case .stepReached: "reached"
        case .sharingChosen(_, _, let shareWidely): shareWidely ? "share_widely" : "share_limited"
        case .signatureCaptured: "captured"
        case .signatureCleared: "cleared"
        case .staffUnlocked: "unlocked"
        case .staffAttested: "attested"
        case .staffCalled: "called"
        case .staffAnswered: "answered"
        case .paused: "paused"
        case .resumed(_, _, _, let continued): continued ? "continued" : "started_over"
        case .pauseExpired: "deleted"
        case .declined: "declined"
        case .expired: "expired"
        case .cancelled: "cancelled"
        case .completed: "completed"
        case .completionInterrupted(_, let record): record == nil ? "not_completed" : "record_kept"
        case .recordWritten: "written"
        case .recordUploaded(_, _, let outcome, _): outcome.rawValue
        case .withdrawalRecorded: "withdrawn"
        case .amendmentRecorded: "amended"
        case .studyApproval(_, let outcome, _, _): outcome.rawValue
        case .studyServed: "served"
        case .logOpened: "opened"
        case .logRecovered: "recovered"
        case .logRotated: "rotated"
        }
    }

    /// Whether the log is fsync'd right after this event: the end of every flow (the issue's "per completed
    /// flow"), every record and withdrawal, and the log's and agent's own milestones. Steps within a flow are
    /// not, so a flow costs one fsync; a crash mid-flow loses at most that flow's unsynced steps, never the chain.
    public var isDurabilityPoint: Bool {
        switch self {
        case .eligibilityResult(_, _, let eligible, _, _): !eligible
        case .flowStarted, .stepReached, .sharingChosen, .signatureCaptured, .signatureCleared, .staffUnlocked,
            .staffAttested, .staffCalled, .staffAnswered, .resumed:
            false
        case .agentStarted, .configurationChanged, .agentStopped, .peerRefused, .declined, .expired, .cancelled,
            .completed, .completionInterrupted, .paused, .pauseExpired, .recordWritten, .recordUploaded, .withdrawalRecorded, .amendmentRecorded, .logOpened, .logRecovered, .logRotated, .studyApproval, .studyServed:
            true
        }
    }

    /// Only `AuditLog` writes these.
    var isReserved: Bool {
        switch self {
        case .logOpened, .logRecovered, .logRotated: true
        default: false
        }
    }

    /// Sets the event's own keys on `line`.
    func fill(_ line: inout AuditLine) {
        switch self {
        case .agentStarted(let configuration, let studies):
            line.configuration = configuration.hex
            line.studies = studies
        case .configurationChanged(let previous, let current):
            line.previousConfiguration = previous?.hex
            line.configuration = current.hex
        case .agentStopped:
            break
        case .peerRefused(let uid, let pid, let reason):
            line.peerUID = uid
            line.peerPID = pid
            line.reason = reason.rawValue
        case .flowStarted(let flow, let study):
            line.set(flow: flow, study: study)
        case .eligibilityResult(let flow, let study, let eligible, let answered, let questions):
            line.set(flow: flow, study: study)
            line.eligible = eligible
            line.answered = answered
            line.questions = questions
        case .stepReached(let flow, let study, let step, let index):
            line.set(flow: flow, study: study)
            line.step = step.rawValue
            line.index = index
        case .sharingChosen(let flow, let study, let shareWidely):
            line.set(flow: flow, study: study)
            line.shareWidely = shareWidely
        case .signatureCaptured(let flow, let study, let signer, let strokes, let points):
            line.set(flow: flow, study: study)
            line.signer = signer.rawValue
            line.strokes = strokes
            line.points = points
        case .signatureCleared(let flow, let study, let signer):
            line.set(flow: flow, study: study)
            line.signer = signer.rawValue
        case .staffUnlocked(let flow, let study, let staff):
            line.set(flow: flow, study: study)
            line.staff = staff.value
        case .staffAttested(let flow, let study, let staff, let method):
            line.set(flow: flow, study: study)
            line.staff = staff.value
            line.method = method.value
        case .staffCalled(let flow, let study, let step, let index, let reason):
            line.set(flow: flow, study: study)
            line.step = step.rawValue
            line.index = index
            line.reason = reason.value
        case .staffAnswered(let flow, let study, let step, let index):
            line.set(flow: flow, study: study)
            line.step = step.rawValue
            line.index = index
        case .paused(let flow, let study, let step, let index, let pause):
            line.set(flow: flow, study: study)
            line.step = step.rawValue
            line.index = index
            line.pause = pause.value
        case .resumed(let flow, let study, let pause, _):
            line.set(flow: flow, study: study)
            line.pause = pause.value
        case .pauseExpired(let pause):
            line.pause = pause.value
        case .declined(let flow, let study, let step), .expired(let flow, let study, let step),
            .cancelled(let flow, let study, let step):
            line.set(flow: flow, study: study)
            line.step = step.rawValue
        case .completed(let flow, let study, let record):
            line.set(flow: flow, study: study)
            line.record = record.value
        case .completionInterrupted(let flow, let record):
            line.flow = flow.value
            line.record = record?.value
        case .recordWritten(let flow, let study, let record, let manifest):
            line.set(flow: flow, study: study)
            line.record = record.value
            line.manifest = manifest.hex
        case .recordUploaded(let record, let destination, _, let httpStatus):
            line.record = record.value
            line.destination = destination.value
            line.httpStatus = httpStatus
        case .withdrawalRecorded(let flow, let study, let record), .amendmentRecorded(let flow, let study, let record):
            line.set(flow: flow, study: study)
            line.record = record.value
        case .studyApproval(let study, _, let reason, let daysLeft):
            line.set(flow: nil, study: study)
            line.reason = reason?.value
            line.daysLeft = daysLeft
        case .studyServed(let study):
            line.set(flow: nil, study: study)
        case .logOpened(let boot):
            line.boot = boot?.value
        case .logRecovered(let truncatedBytes, let truncatedSHA256):
            line.truncatedBytes = truncatedBytes
            line.truncatedSHA256 = truncatedSHA256.hex
        case .logRotated(let previousFile):
            line.previousFile = previousFile.value
        }
    }
}

extension AuditLine {
    fileprivate mutating func set(flow: AuditIdentifier?, study: AuditStudy) {
        self.flow = flow?.value
        self.study = study.id.value
        studyVersion = study.version.hex
    }
}
