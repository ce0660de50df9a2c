/// Where a paused flow stopped and what the participant had answered: what the agent seals under a resume code
/// (`flow.pause`), and what a new flow goes on from (`flow.start {resume}`). Never a name, a signature or a PIN:
/// a name typed before the pause is asked again.
public struct PausedConsent: Sendable, Hashable, Codable {
    /// The places a flow can be paused at: the steps before the signature.
    public enum Place: Sendable, Hashable, Codable {
        case eligibility, keyInformation, sharing, optional
        case visual(scene: Int)
        /// A review page before the signature: the document, the signer choice, the name, the representative's.
        case review(ReviewPage)
    }

    public var place: Place
    /// The eligibility answers, one per question.
    public var answers: [Bool?]
    public var shareWidely: Bool?
    /// The optional elements' answers by element id.
    public var optionalAnswers: [String: Bool]
    /// Who signs, when the participant had chosen (`signer.choose`).
    public var signedBy: SigningRole?

    public init(
        place: Place, answers: [Bool?], shareWidely: Bool?, optionalAnswers: [String: Bool], signedBy: SigningRole?
    ) {
        self.place = place
        self.answers = answers
        self.shareWidely = shareWidely
        self.optionalAnswers = optionalAnswers
        self.signedBy = signedBy
    }
}

/// How a flow started from a paused one began.
public enum Resumption: String, Sendable, Hashable, Codable {
    /// At the place it was paused, with its answers.
    case continued
    /// From the beginning: the study's version changed since the pause (or the place no longer exists in it).
    case startedOver
}

extension ConsentSession {
    /// Whether "I want to think about it" (`pause`) is offered here: a consent (`allowsPause`) that has not reached
    /// the signature. Not on the comprehension check (its answers are the check's own: the participant pauses from
    /// the document before it), nor on a page whose staff call is open (the member of staff is on the way).
    public var offersPause: Bool {
        allowsPause && staffCall == nil && pausePlace != nil
    }

    /// The position as a place a flow can be paused at; nil where it cannot.
    var pausePlace: PausedConsent.Place? {
        switch position {
        case .eligibility: return .eligibility
        case .keyInformation: return .keyInformation
        case .visual(let scene): return .visual(scene: scene)
        case .sharing: return .sharing
        case .optional: return .optional
        case .review(let page):
            switch page {
            case .document, .signer, .name, .representative: return .review(page)
            case .signature, .witness, .witnessSignature: return nil
            }
        case .withdrawal, .changes, .comprehension, .passcode, .staff, .done, .completed, .ineligible, .declined,
            .expired, .cancelled, .paused:
            return nil
        }
    }

    /// What `pause` would seal, without ending the flow: the agent writes it to disk first, and ends the flow
    /// (`pause`) only once it is kept, so a failed write leaves the participant where they were.
    ///
    /// - Throws: `.flowFinished` when the flow has ended or expired before the request came; `.invalidAction` where
    ///   pausing is not offered.
    public mutating func pausePoint(now: Duration) throws -> PausedConsent {
        try requireRunning(now: now)
        guard allowsPause else {
            throw ConsentCoreError(.invalidAction, "this flow cannot be paused (a withdrawal, a re-consent, or resumeDays is 0)")
        }
        guard staffCall == nil else {
            throw ConsentCoreError(.invalidAction, "a member of staff is on the way; pause once they answered the call")
        }
        guard let place = pausePlace else {
            throw ConsentCoreError(.invalidAction, "the flow cannot be paused at \(placeName); only before the signature")
        }
        return PausedConsent(
            place: place, answers: answers, shareWidely: shareWidely, optionalAnswers: optionalAnswers, signedBy: signedBy)
    }

    /// Ends the flow `paused` once the agent kept `point` (from `pausePoint`): the names, the answers and the rest
    /// are wiped from memory as on any end without a record.
    ///
    /// - Throws: `.invalidAction` when the flow moved since `point` was taken (the sealed place would be stale).
    public mutating func pause(at point: PausedConsent, now: Duration) throws {
        guard try pausePoint(now: now) == point else {
            throw ConsentCoreError(.invalidAction, "the flow moved on while it was being paused; pause again")
        }
        endPaused()
    }

    /// A new flow at the place `paused` stopped, with its answers, when the study (the same version) still has that
    /// place; nil when it does not (the agent then starts the flow from the beginning and says so).
    public init?(
        resuming paused: PausedConsent, id: String, study: Study, now: Duration,
        inactivityTimeout: Duration = defaultInactivityTimeout, staffCountersignature: Bool = false
    ) {
        self.init(
            id: id, study: study, now: now, inactivityTimeout: inactivityTimeout, staffCountersignature: staffCountersignature,
            pause: true)
        let document = study.document
        guard paused.answers.count == document.eligibility.count else { return nil }
        let ids = Set(document.optionalElements.map(\.id))
        guard paused.optionalAnswers.keys.allSatisfy(ids.contains) else { return nil }
        let eligible = document.eligibility.evaluate(paused.answers) == .eligible
        // Past sharing, the choice was made when the study asks for it.
        let shared = !study.options.askForSharing || paused.shareWidely != nil
        let place: ConsentPosition
        switch paused.place {
        case .eligibility: place = .eligibility
        case .keyInformation:
            guard eligible, document.keyInformation != nil else { return nil }
            place = .keyInformation
        case .visual(let scene):
            guard eligible, document.visualSections.indices.contains(scene) else { return nil }
            place = .visual(scene: scene)
        case .sharing:
            guard eligible, study.options.askForSharing else { return nil }
            place = .sharing
        case .optional:
            guard eligible, shared, !document.optionalElements.isEmpty else { return nil }
            place = .optional
        case .review(let page):
            // The review comes after every element was answered.
            guard eligible, shared, paused.optionalAnswers.count == ids.count else { return nil }
            place = .review(page)
        }
        restore(paused, at: place)
        if case .review(let page) = place {
            // A page this flow does not have (the representative's without one chosen), or one past the signer
            // choice before anyone was chosen: start over.
            guard reviewPages.contains(page) else { return nil }
            if offersRepresentative, signedBy == nil, page != .document, page != .signer { return nil }
        }
        resumption = .continued
    }
}

extension ConsentSession {
    /// The flow a resume code starts (`flow.start {resume}`): at the paused place when `paused` was sealed for this
    /// very version of the study and the place is still there, else from the beginning (`startedOver`, which the
    /// first screen says). Either way a consent that may be paused again.
    public static func resuming(
        _ paused: PausedConsent, sameVersion: Bool, id: String, study: Study, now: Duration,
        inactivityTimeout: Duration = defaultInactivityTimeout, staffCountersignature: Bool = false
    ) -> ConsentSession {
        if sameVersion,
            let session = ConsentSession(
                resuming: paused, id: id, study: study, now: now, inactivityTimeout: inactivityTimeout,
                staffCountersignature: staffCountersignature)
        {
            return session
        }
        var session = ConsentSession(
            id: id, study: study, now: now, inactivityTimeout: inactivityTimeout,
            staffCountersignature: staffCountersignature, pause: true)
        session.resumption = .startedOver
        return session
    }
}
