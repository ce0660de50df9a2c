import ConsentCore
import Foundation
import FuzzStudy
import FuzzSupport
import SampleStudy

/// Runs one input as a byte-coded sequence of what a kiosk UI (through the agent) can do to one `ConsentSession`:
/// the core state machine alone, no agent, no socket, no clock but the input's.
///
/// Input layout:
///
/// ```
///  byte 0   the flow: bits 0-2 the study (`Variant`, modulo 8); bits 3-4 the purpose (0 consent, 1 withdrawal,
///           2 re-consent with the changes, 3 re-consent whose changes are unknown); bit 5 a 5 s inactivity
///           timeout instead of 600 s (so expiry is in reach)
///  rest     operations, one byte each (`Op`, modulo its count), some followed by argument bytes; the clock moves on
///           1 s per operation (`wait` moves it further); an argument missing at the end reads as 0
/// ```
///
/// Checks after each operation that changed the session (a `precondition`, so libFuzzer reports it as a crash):
/// - a refused action (`apply` throws, `markCompleted` throws, `expireNow`/`expireIfIdle` say false) leaves the
///   session exactly as it was (a value snapshot of everything it exposes), except the one documented case: an
///   action arriving after the inactivity deadline expires the flow and is refused with `flowFinished`;
///   the session only ever throws `ConsentCoreError`;
/// - an accepted action restarts the inactivity clock;
/// - at `done`, `outcome()` succeeds (else `flow.complete` could never finish the flow) and the outcome has a
///   participant name (trimmed, non-empty), a valid non-empty signature, answers the study's eligibility accepts
///   (a withdrawal: none), the representative and witness exactly when the study and the signer choice ask for
///   them, the sharing choice exactly when asked; before `done`, `outcome()` and `markCompleted()` refuse;
/// - past eligibility a consent's answers are eligible; an ended flow kept nothing a participant gave (the answers,
///   names, signatures, passcode, reason; the sharing choice unless completed); every signer entry has a valid name,
///   a witness signature implies the consent signature; the step and review page are ones this flow has;
/// - the comprehension check: an ended flow kept no answers; past it (the name and on) it is complete; the outcome
///   has its answers exactly when the study asks questions, each question answered at most as often as allowed;
/// - `view`: for each action without arguments, the view model offers it exactly when the session accepts it, and
///   `complete` exactly when `outcome()` succeeds; `requireSignaturePage` agrees with `signingRole`.
///
/// A valid passcode is never given: `PasscodeHash` runs PBKDF2 with 210,000 rounds (~0.1 s with ASan), which would
/// cut the rate by 1,000×. So the passcode study reaches `passcode` and its refusals, never `done`.
struct SessionFuzzer: Sendable {
    /// A study byte 0 picks, with what the harness reads of it per operation, computed once (`visualSections` and
    /// `title` are computed properties that allocate, and allocations are most of an execution's cost under ASan).
    struct Flow: Sendable {
        let study: Study
        let sceneCount: Int
        /// The answers that make a participant eligible.
        let eligibleAnswers: [Bool?]
        /// By byte 0's bits 3-4.
        let purposes: [FlowPurpose]

        init(_ study: Study) {
            self.study = study
            sceneCount = study.document.visualSections.count
            eligibleAnswers = study.document.eligibility.map(\.mustBeMet)
            let changes = ConsentDocumentDiff(added: ["New"], removed: [], edited: ["Old"])
            purposes = [
                .consent,
                .withdrawal(WithdrawalTarget(recordID: "rec-1", studyTitle: study.title, signedOn: "2026-01-02")),
                .reconsent(ReconsentBasis(previousRecordID: "rec-1", changes: changes)),
                .reconsent(ReconsentBasis(previousRecordID: "rec-1", changes: nil)),
            ]
        }
    }

    /// The studies byte 0 picks from: the bundled sample study and variations of its options and document.
    let flows: [Flow]

    /// The most `view` operations checked per input: the view model of the review document runs regular
    /// expressions over the whole document, so an input of views would be slow; one per input, wherever the
    /// input puts it, covers every step over the corpus.
    static let maximumViews = 1
    /// `Op.allCases.count`, once: `allCases` builds its array at each call.
    static let opCount = UInt8(Op.allCases.count)

    init() throws {
        guard let folder = SampleStudy.folder else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the sample study is not bundled"])
        }
        // Kept for the whole run: FuzzStudy says why not `Study.load` as it is.
        let sample = FuzzStudy.ownedByThisThread(try Study.load(from: folder))
        func variant(_ change: (inout Study) -> Void) -> Study {
            var study = sample
            change(&study)
            return study
        }
        let studies = [
            // 0: the sample as shipped: 4 eligibility questions, 7 scenes, the sharing choice.
            sample,
            // 1: a witness study (as SignerStepsTests builds one).
            variant { $0.options.requireWitness = true },
            // 2: a witness and a representative.
            variant {
                $0.options.requireWitness = true
                $0.options.allowRepresentative = true
            },
            // 3: a representative, with the study's own relationships (one of them a default).
            variant {
                $0.options.allowRepresentative = true
                $0.options.representativeRelationships = [
                    RepresentativeRelationship(code: "GUARD", display: "Guardian"),
                    RepresentativeRelationship(code: "X-AUNT", display: "Aunt"),
                ]
            },
            // 4: a passcode (never reaches done: see above).
            variant { $0.options.askToCreatePasscode = true },
            // 5: a witness, no sharing choice.
            variant {
                $0.options.requireWitness = true
                $0.options.askForSharing = false
            },
            // 6: no questions, no scenes, no sharing choice, a representative and a witness: the shortest paths.
            variant {
                $0.document.eligibility = []
                $0.document.sections = $0.document.sections.filter { !$0.isVisual }
                $0.options.askForSharing = false
                $0.options.requireWitness = true
                $0.options.allowRepresentative = true
            },
            // 7: one question that must be answered no, one scene.
            variant {
                $0.document.eligibility = [EligibilityRequirement(question: "Are you pregnant?", mustBeMet: false)]
                let visual = $0.document.sections.filter(\.isVisual)
                $0.document.sections = $0.document.sections.filter { !$0.isVisual } + visual.prefix(1)
            },
        ]
        flows = studies.map(Flow.init)
    }

    /// The operations; an input byte picks one modulo their count. Keep the order: the seeds and the dictionary
    /// are written in these numbers.
    enum Op: UInt8, CaseIterable {
        /// Args: count and answer bits (2 bits each: 0 unanswered, 1 yes, 2 no, 3 the answer the question needs).
        case answer = 0
        /// Every question answered as it needs: the way on.
        case answerEligible
        case next, back
        /// Arg: the step named (any step, so mostly a mismatch).
        case nextAt, backAt
        case shareWidely, shareTeamOnly, agree, disagree
        /// Arg: a name from `names`.
        case setName
        /// Arg: the role.
        case chooseSigner
        /// Args: role and relationship, then the name.
        case setSignerName
        /// Arg: strokes from `strokes`.
        case submitSignature
        case clearSignature
        /// Arg: one of `passcodes` (none valid).
        case setPasscode
        /// Arg: one of `reasons`.
        case confirmWithdrawal
        case decline, cancel
        /// What `flow.complete` does: `outcome()`, then (the record written) `markCompleted()`.
        case complete
        case markCompleted, expireNow, expireIfIdle
        /// Arg: how far the clock moves (below 128: seconds; else 10 s steps, past the 600 s timeout).
        case wait
        /// Arg: the role asked for (or none).
        case requireSignaturePage
        /// The view model against what the session accepts (the costly check, so only when the input asks).
        case view
        /// Arg: the choice (modulo 4, so sometimes none of the question's); bit 7 names the next question instead
        /// of the one on screen (a stale tap).
        case answerComprehension
        /// The question on screen answered right: the way on.
        case answerComprehensionRight
        /// Arg: one of `staff` (the agent checked the PIN; the session only hears who unlocked).
        case unlockStaff
        /// Args: the method, then one of `notes`.
        case attestIdentity
        /// Arg: two bits per optional element (0 not named, 1 yes, 2 no, 3 yes), bit 7 adds an id the study does
        /// not have (refused whole).
        case answerOptional
        /// "Ask a staff member" (`staff.call`), and a member of staff answering (`staff.answer`): while a call is
        /// open the flow never expires for inactivity.
        case callStaff, answerStaff
        /// "I want to think about it" (`flow.pause`): the place and answers it seals, a flow resumed from them at the
        /// same place (checked to seal the same again), then the flow ended `paused`.
        case pause
    }

    static let staff = [StaffMember(id: "jroe", name: "Jane Roe"), StaffMember(id: "mmax", name: "Max")]
    static let notes: [String?] = [nil, "", "  ", "birth certificate", String(repeating: "n", count: 200), String(repeating: "n", count: 201)]

    static let names: [(String, String)] = [
        ("Ada", "Lovelace"),
        ("  Zoë ", "Müller\n"),
        ("", "Lovelace"),
        ("Ada", " \t"),
        ("\u{00A0}", "\u{2003}"),  // Unicode white space only: refused as empty
        ("\u{200B}", "\u{FEFF}"),  // zero width, not white space
        ("e\u{0301}", "\u{05D3}\u{05D5}\u{05D3}"),  // a combining accent; Hebrew
        ("👩‍👩‍👧", "\u{202E}evil"),  // a ZWJ emoji; a right-to-left override
        (String(repeating: "a", count: 200), "B"),  // the longest allowed
        (String(repeating: "a", count: 201), "B"),  // one too long
        (String(repeating: "e\u{0301}", count: 200), "B"),  // 200 characters, 400 scalars
        ("\u{0000}", "Nul"),
    ]

    static let roles: [SigningRole] = [.participant, .representative, .witness]
    static let relationships: [String?] = [nil, "PRN", "GUARD", "X-AUNT", "prn", ""]
    static let passcodes = ["", "123", "12a4", "123456789", "\u{0661}\u{0662}\u{0663}\u{0664}", "１２３４", " 1234"]
    static let reasons: [String?] = [
        nil, "", "  \n", "I moved away", String(repeating: "r", count: 1000), String(repeating: "r", count: 1001),
    ]

    static let strokes: [SignatureStrokes] = [
        SignatureStrokes(strokes: [[StrokePoint(x: 0.1, y: 0.5, t: 0, p: 0.4), StrokePoint(x: 0.6, y: 0.4, t: 120, p: 0.5)]]),
        SignatureStrokes(strokes: [[StrokePoint(x: 0.2, y: 0.2, t: 0), StrokePoint(x: 0.8, y: 0.3, t: 90)]], widthMM: 120, heightMM: 40),
        SignatureStrokes(strokes: []),
        SignatureStrokes(strokes: [[]]),
        SignatureStrokes(strokes: [[StrokePoint(x: 1.5, y: 0.5, t: 0)]]),
        SignatureStrokes(strokes: [[StrokePoint(x: 0.5, y: 0.5, t: .nan)]]),
        SignatureStrokes(strokes: [[StrokePoint(x: 0, y: 1, t: 0, p: 1)]]),  // one point, on the corner
        SignatureStrokes(
            strokes: [[StrokePoint(x: 0.5, y: 0.5, t: 0)]],
            hover: [StrokePoint(x: 0.5, y: 0.5, t: 5), StrokePoint(x: 0.5, y: 0.5, t: 4)]),
        SignatureStrokes(strokes: [[StrokePoint(x: 0.5, y: 0.5, t: 0)]], widthMM: 0, heightMM: 40),
        SignatureStrokes(strokes: [[StrokePoint(x: 0.5, y: 0.5, t: 0)]], tilt: [[[1, 2, 3]]]),
    ]

    func run(_ input: [UInt8]) {
        var reader = FuzzByteReader(bytes: input)
        guard let header = reader.byte() else { return }
        let flow = flows[Int(header & 7)]
        let purpose = flow.purposes[Int(header >> 3) & 3]
        let timeout: Duration = header & 0x20 == 0 ? ConsentSession.defaultInactivityTimeout : .seconds(5)
        var now: Duration = .zero
        var session = ConsentSession(
            id: "fuzz", study: flow.study, now: now, inactivityTimeout: timeout, purpose: purpose,
            staffCountersignature: header & 0x40 != 0, pause: header & 0x80 == 0)
        var viewsLeft = Self.maximumViews
        check(session, flow)
        // The session as it is: taken again after each change only, since a refusal is checked to leave it so.
        var snapshot = Snapshot(session)

        while let byte = reader.byte() {
            now += .seconds(1)
            // Whether the operation changed the session. A refusal is checked to change nothing, so the invariants
            // need checking again only after a change (most random operations are refusals).
            var changed = false
            guard let op = Op(rawValue: byte % Self.opCount) else { preconditionFailure("op out of range") }
            switch op {
            case .answer:
                let count = Int(reader.arg() % 8)
                let bits = reader.arg()
                let given: [Bool?] = (0..<count).map { i in
                    switch (bits >> (2 * (i % 4))) & 3 {
                    case 0: return nil
                    case 1: return true
                    case 2: return false
                    default: return i < flow.eligibleAnswers.count ? flow.eligibleAnswers[i] : true
                    }
                }
                changed = apply(.answerEligibility(given), to: &session, now: now, before: snapshot)
            case .answerEligible:
                changed = apply(.answerEligibility(flow.eligibleAnswers), to: &session, now: now, before: snapshot)
            case .next: changed = apply(.next(session.step), to: &session, now: now, before: snapshot)
            case .back: changed = apply(.back(session.step), to: &session, now: now, before: snapshot)
            case .nextAt: changed = apply(.next(Self.step(reader.arg())), to: &session, now: now, before: snapshot)
            case .backAt: changed = apply(.back(Self.step(reader.arg())), to: &session, now: now, before: snapshot)
            case .shareWidely: changed = apply(.chooseSharing(shareWidely: true), to: &session, now: now, before: snapshot)
            case .shareTeamOnly: changed = apply(.chooseSharing(shareWidely: false), to: &session, now: now, before: snapshot)
            case .agree: changed = apply(.agree, to: &session, now: now, before: snapshot)
            case .disagree: changed = apply(.disagree, to: &session, now: now, before: snapshot)
            case .setName:
                let (given, family) = Self.pick(Self.names, reader.arg())
                changed = apply(.setName(given: given, family: family), to: &session, now: now, before: snapshot)
            case .chooseSigner: changed = apply(.chooseSigner(Self.pick(Self.roles, reader.arg())), to: &session, now: now, before: snapshot)
            case .setSignerName:
                let arg = reader.arg()
                let role = Self.pick(Self.roles, arg)
                let relationship = Self.pick(Self.relationships, arg / 3)
                let (given, family) = Self.pick(Self.names, reader.arg())
                changed = apply(
                    .setSignerName(role, given: given, family: family, relationship: relationship), to: &session, now: now, before: snapshot)
            case .submitSignature: changed = apply(.submitSignature(Self.pick(Self.strokes, reader.arg())), to: &session, now: now, before: snapshot)
            case .clearSignature: changed = apply(.clearSignature, to: &session, now: now, before: snapshot)
            case .setPasscode: changed = apply(.setPasscode(Self.pick(Self.passcodes, reader.arg())), to: &session, now: now, before: snapshot)
            case .unlockStaff: changed = apply(.unlockStaff(Self.pick(Self.staff, reader.arg())), to: &session, now: now, before: snapshot)
            case .attestIdentity:
                let method = Self.pick(IdentityVerification.allCases, reader.arg())
                changed = apply(.attestIdentity(method, note: Self.pick(Self.notes, reader.arg())), to: &session, now: now, before: snapshot)
            case .confirmWithdrawal:
                changed = apply(.confirmWithdrawal(reason: Self.pick(Self.reasons, reader.arg())), to: &session, now: now, before: snapshot)
            case .decline: changed = apply(.decline, to: &session, now: now, before: snapshot)
            case .cancel: changed = apply(.cancel, to: &session, now: now, before: snapshot)
            case .complete: changed = complete(&session, before: snapshot)
            case .markCompleted:
                let before = snapshot
                do {
                    try session.markCompleted()
                    changed = true
                    precondition(before.step == .done, "markCompleted accepted at \(before.step)")
                    precondition(session.step == .completed, "markCompleted did not complete")
                } catch {
                    refused(error, before: before, after: session, expiryDue: false)
                }
            case .expireNow:
                let before = snapshot
                if session.expireNow() {
                    changed = true
                    precondition(!before.step.isFinished && session.step == .expired, "expireNow ended a finished flow")
                } else {
                    precondition(before.step.isFinished && before.matches(session), "expireNow refused but changed the flow")
                }
            case .expireIfIdle:
                let before = snapshot
                let due = Self.expiryDue(session, now)
                precondition(session.expireIfIdle(now: now) == due, "expireIfIdle disagrees with the deadline")
                if due {
                    changed = true
                    precondition(session.step == .expired, "an idle flow did not expire")
                } else {
                    precondition(before.matches(session), "expireIfIdle without expiring changed the flow")
                }
            case .wait:
                let arg = Int64(reader.arg())
                now += arg < 128 ? .seconds(arg) : .seconds((arg - 127) * 10)
            case .requireSignaturePage:
                let arg = reader.arg()
                let role: SigningRole? = arg % 4 == 3 ? nil : Self.pick(Self.roles, arg)
                let accepted = (try? session.requireSignaturePage(role: role)) != nil
                let expected = session.signingRole.map { role == nil || role == $0 } ?? false
                precondition(accepted == expected, "requireSignaturePage disagrees with signingRole")
            case .answerComprehension:
                let arg = reader.arg()
                let question = session.comprehension.index + (arg & 0x80 == 0 ? 0 : 1)
                changed = apply(
                    .answerComprehension(question: question, choice: Int(arg % 4)), to: &session, now: now, before: snapshot)
            case .answerComprehensionRight:
                let question = session.comprehension.current
                changed = apply(
                    .answerComprehension(question: question?.index ?? 0, choice: question?.answer ?? 0), to: &session, now: now,
                    before: snapshot)
            case .answerOptional:
                let arg = reader.arg()
                var given: [String: Bool] = [:]
                for (index, element) in session.study.document.optionalElements.prefix(3).enumerated() {
                    let bits = (arg >> (2 * index)) & 3
                    if bits != 0 { given[element.id] = bits != 2 }
                }
                if arg & 0x80 != 0 { given["no-such-element"] = true }
                changed = apply(.answerOptional(given), to: &session, now: now, before: snapshot)
            case .callStaff:
                let before = snapshot
                let due = Self.expiryDue(session, now)
                do {
                    let opened = try session.callStaff(now: now)
                    precondition(!due && !before.step.isFinished, "a call was taken by an ended or expired flow")
                    precondition(opened == (before.staffCall == nil), "callStaff opened a second call, or none")
                    precondition(session.staffCall != nil, "an accepted call is not open")
                    if opened {
                        changed = true
                        precondition(session.staffCall?.since == now && session.staffCall?.reason == .participant, "the call is not this one")
                    } else {
                        precondition(before.matches(session), "a second call changed the flow")
                    }
                } catch {
                    refused(error, before: before, after: session, expiryDue: due)
                    // A refusal past the deadline expired the flow: it changed.
                    changed = due
                    if !due, !before.step.isFinished {
                        precondition(!session.offersStaffCall, "a call refused on a screen that offers it")
                    }
                }
            case .answerStaff:
                let before = snapshot
                do {
                    let call = try session.answerStaff(now: now)
                    precondition(!before.step.isFinished, "an ended flow's call was answered")
                    precondition(call == before.staffCall && session.staffCall == nil, "answerStaff did not close the open call")
                    if call != nil {
                        changed = true
                        precondition(session.lastActivity == now, "an answered call did not restart the inactivity clock")
                    } else {
                        precondition(before.matches(session), "answering no call changed the flow")
                    }
                } catch {
                    refused(error, before: before, after: session, expiryDue: false)
                }
            case .pause:
                let before = snapshot
                let due = Self.expiryDue(session, now)
                let offered = session.offersPause
                do {
                    let point = try session.pausePoint(now: now)
                    precondition(!due && offered, "a pause taken where it is not offered, or past the deadline")
                    precondition(before.matches(session), "taking the place to pause at changed the flow")
                    // Resumed on the same study, the flow is where it stopped, with its answers and no name, and
                    // would seal the same again.
                    guard
                        var resumed = ConsentSession(
                            resuming: point, id: "fuzz-resumed", study: session.study, now: now,
                            inactivityTimeout: session.inactivityTimeout)
                    else { preconditionFailure("a place sealed on this study cannot be resumed on it: \(point.place)") }
                    precondition(resumed.step == session.step && resumed.position == session.position, "resumed elsewhere")
                    precondition(resumed.givenName == nil && resumed.resumption == .continued, "a resumed flow holds a name")
                    precondition((try? resumed.pausePoint(now: now)) == point, "a resumed flow seals another place or answers")
                    try session.pause(at: point, now: now)
                    precondition(session.step == .paused && session.givenName == nil, "a paused flow did not end, or kept a name")
                    changed = true
                } catch {
                    refused(error, before: before, after: session, expiryDue: due)
                    changed = due
                    if !due, !before.step.isFinished {
                        precondition(!offered, "a pause refused on a screen that offers it")
                    }
                }
            case .view:
                if viewsLeft > 0 {
                    viewsLeft -= 1
                    checkView(session)
                }
            }
            if changed {
                check(session, flow)
                snapshot = Snapshot(session)
            }
        }
    }

    // MARK: Actions

    /// Whether the flow is past its inactivity deadline and expires at its next touch: never while a member of
    /// staff it called is on the way.
    static func expiryDue(_ session: ConsentSession, _ now: Duration) -> Bool {
        !session.step.isFinished && session.staffCall == nil && now >= session.deadline
    }

    /// Applies one action and checks what it did, or that a refusal changed nothing; whether the session changed.
    private func apply(_ action: ConsentAction, to session: inout ConsentSession, now: Duration, before: Snapshot) -> Bool {
        let expiryDue = Self.expiryDue(session, now)
        do {
            try session.apply(action, now: now)
            precondition(!expiryDue, "an action was accepted after the inactivity deadline")
            precondition(!before.step.isFinished, "an action was accepted by an ended flow")
            precondition(session.lastActivity == now, "an accepted action did not restart the inactivity clock")
            return true
        } catch {
            refused(error, before: before, after: session, expiryDue: expiryDue)
            return expiryDue
        }
    }

    /// A refusal changed nothing, except for the expiry the refusal reports; it is the core's own error.
    private func refused(_ error: any Error, before: Snapshot, after session: ConsentSession, expiryDue: Bool) {
        guard let error = error as? ConsentCoreError else { preconditionFailure("a foreign error: \(error)") }
        if expiryDue {
            precondition(error.code == .flowFinished, "an expired flow refused with \(error.code)")
            precondition(session.step == .expired, "a refusal past the deadline did not expire the flow")
        } else {
            precondition(before.matches(session), "a refused action changed the flow (\(error.code))")
        }
    }

    /// `flow.complete`: the outcome, then (once the record is durable) `markCompleted`; whether it completed.
    private func complete(_ session: inout ConsentSession, before: Snapshot) -> Bool {
        let outcome: ConsentOutcome
        do {
            outcome = try session.outcome()
        } catch {
            precondition(session.step != .done, "a done flow has no outcome: \(error)")
            refused(error, before: before, after: session, expiryDue: false)
            return false
        }
        precondition(session.step == .done, "an outcome before the flow is done")
        check(outcome, of: session)
        do {
            try session.markCompleted()
        } catch {
            preconditionFailure("a done flow with its outcome could not be completed: \(error)")
        }
        precondition(session.step == .completed, "markCompleted did not complete")
        return true
    }

    // MARK: Checks

    private func check(_ outcome: ConsentOutcome, of session: ConsentSession) {
        let study = session.study
        precondition(Self.isTrimmedName(outcome.givenName) && Self.isTrimmedName(outcome.familyName), "an outcome without a name")
        precondition(!outcome.signature.isEmpty, "an outcome without a signature")
        precondition((try? outcome.signature.validate()) != nil, "an outcome with an invalid signature")
        precondition(outcome.studyID == study.id && outcome.studyVersion == study.version, "the outcome names another study")
        precondition(outcome.eligibilityAnswers.count == study.document.eligibility.count, "answers miscounted")
        let isWithdrawal: Bool
        switch session.purpose {
        case .withdrawal:
            isWithdrawal = true
            precondition(outcome.link?.kind == .withdrawal, "a withdrawal's outcome withdraws nothing")
            precondition(outcome.eligibilityAnswers.allSatisfy { $0 == nil }, "a withdrawal with eligibility answers")
        case .reconsent:
            isWithdrawal = false
            precondition(outcome.link?.kind == .reconsent, "a re-consent's outcome replaces nothing")
        case .consent:
            isWithdrawal = false
            precondition(outcome.link == nil, "a first consent links a record")
        case .change:
            // Not among the purposes this fuzzer starts (`purposes`).
            preconditionFailure("a change of answers the fuzzer did not start")
        }
        if !isWithdrawal {
            precondition(
                study.document.eligibility.evaluate(outcome.eligibilityAnswers) == .eligible,
                "a completed consent without eligible answers")
        }
        precondition(
            (outcome.shareWidely != nil) == (study.options.askForSharing && !isWithdrawal), "the sharing choice is wrong")
        precondition(
            (outcome.passcodeHash != nil) == (study.options.askToCreatePasscode && !isWithdrawal), "the passcode is wrong")
        precondition(
            (outcome.comprehension != nil) == (!study.document.comprehension.isEmpty && !isWithdrawal),
            "the comprehension answers missing or unasked for")
        if let comprehension = outcome.comprehension {
            precondition(
                comprehension.results.allSatisfy { !$0.attempts.isEmpty && $0.attempts.count <= comprehension.policy.attempts },
                "a comprehension question unanswered or answered more often than the study allows")
        }
        precondition((outcome.witness != nil) == session.asksForWitness, "a witness missing or unasked for")
        if let witness = outcome.witness {
            precondition(
                Self.isTrimmedName(witness.givenName) && Self.isTrimmedName(witness.familyName) && !witness.signature.isEmpty,
                "a witness without name or signature")
        }
        precondition(
            (outcome.representative != nil) == (session.signedBy == .representative), "a representative missing or unasked for")
        if let representative = outcome.representative {
            precondition(
                Self.isTrimmedName(representative.givenName) && Self.isTrimmedName(representative.familyName),
                "a representative without a name")
            precondition(
                study.representativeRelationships.contains(representative.relationship),
                "a relationship the study does not offer")
        }
    }

    /// What holds between any two operations.
    private func check(_ session: ConsentSession, _ flow: Flow) {
        let study = flow.study
        let step = session.step
        let isWithdrawal: Bool
        if case .withdrawal = session.purpose { isWithdrawal = true } else { isWithdrawal = false }
        precondition(session.answers.count == study.document.eligibility.count, "answers miscounted")
        switch step {
        case .withdrawal: precondition(isWithdrawal, "a consent at the withdrawal step")
        case .changes:
            guard case .reconsent = session.purpose else { preconditionFailure("a flow at changes that replaces nothing") }
        case .eligibility, .visual, .sharing, .passcode:
            precondition(!isWithdrawal, "a withdrawal at \(step)")
        case .keyInformation:
            precondition(!isWithdrawal && study.document.keyInformation != nil, "at key information the study does not have")
        case .comprehension:
            precondition(!isWithdrawal && session.comprehension.current != nil, "at comprehension without a question to ask")
        case .optional:
            precondition(!isWithdrawal && !study.document.optionalElements.isEmpty, "at optional elements the study does not have")
        default: break
        }
        if step == .visual {
            precondition((0..<flow.sceneCount).contains(session.sceneIndex), "a scene that does not exist")
        }
        if step == .reviewStep {
            precondition(session.reviewPages.contains(session.reviewPage), "a review page this flow does not have")
        }
        if step == .sharing { precondition(study.options.askForSharing, "the sharing step in a study that does not ask") }
        if step == .passcode { precondition(study.options.askToCreatePasscode, "the passcode step in a study that does not ask") }
        if !study.options.askForSharing || isWithdrawal { precondition(session.shareWidely == nil, "a sharing choice nobody asked for") }
        precondition(session.signedBy != nil || session.offersRepresentative, "no signer where no choice is offered")

        if step.isFinished {
            precondition(
                session.signers.isEmpty && session.passcodeHash == nil && session.withdrawalReason == nil
                    && session.answers.allSatisfy { $0 == nil },
                "an ended flow (\(step)) kept what the participant gave")
            precondition(session.comprehension.attempts.allSatisfy(\.isEmpty), "an ended flow kept the comprehension answers")
            if step != .completed { precondition(session.shareWidely == nil, "an ended flow kept the sharing choice") }
            if step != .completed { precondition(session.optionalAnswers.isEmpty, "an ended flow kept the optional answers") }
            // (That `outcome()` refuses before done is checked by the `complete` operation: the refusal's message
            // costs as much as the rest of the check.)
            return
        }

        // Running: past eligibility, a consent's answers are eligible ones.
        if !isWithdrawal {
            precondition(session.eligibilityStatus == study.document.eligibility.evaluate(session.answers), "a stale eligibility status")
            if step == .keyInformation || step == .visual || step == .sharing || step == .reviewStep || step == .comprehension || step == .passcode
                || step == .staff || step == .done
            {
                precondition(session.eligibilityStatus == .eligible, "past eligibility (\(step)) without eligible answers")
            }
        }
        for (role, entry) in session.signers {
            precondition(Self.isTrimmedName(entry.givenName) && Self.isTrimmedName(entry.familyName), "a \(role) without a valid name")
            precondition((entry.relationship != nil) == (role == .representative), "a relationship on the \(role)")
            if let strokes = entry.signature { precondition(!strokes.isEmpty, "an empty signature kept") }
        }
        if session.signers[.representative] != nil { precondition(session.signedBy == .representative, "a representative not chosen") }
        if session.signers[.witness] != nil { precondition(session.asksForWitness, "a witness nobody asked for") }
        if session.witnessSignature != nil { precondition(session.signature != nil, "a witness attests a signature not given") }
        // The staff step: only where asked for, after the participant signed, in order (unlock, attest, sign).
        if step == .staff { precondition(session.asksForStaff && session.signature != nil, "a staff step nobody asked for") }
        if step != .staff && step != .done { precondition(Self.isEmpty(session.staff), "staff progress kept off the staff step") }
        if session.staff.method != nil { precondition(session.staff.member != nil, "an attestation without an unlock") }
        if session.staff.signature != nil { precondition(session.staff.method != nil, "a staff signature without an attestation") }
        if let note = session.staff.note { precondition(!note.isEmpty && note.count <= StaffAttestation.maximumNoteLength, "a bad note kept") }

        // Past the comprehension check (the name and on), every question was answered right or missed on every try.
        if step == .passcode || step == .done || (step == .reviewStep && session.reviewPage != .document) {
            precondition(session.comprehension.isComplete, "past the comprehension check (\(step)) without completing it")
        }
        if step == .done {
            // flow.complete must be able to finish what reached done.
            do {
                check(try session.outcome(), of: session)
            } catch {
                preconditionFailure("a done flow has no outcome: \(error)")
            }
        }
    }

    /// The view lists exactly what the position offers (`ConsentSession.offer`), and the session accepts an action
    /// without arguments exactly when the offer has it (tried on a copy): the table `apply` checks first and the
    /// transitions behind it agree.
    private func checkView(_ session: ConsentSession) {
        let model = session.viewModel
        let offer = session.offer
        precondition(model.step == session.step, "the view shows another step")
        precondition(model.actions == offer.actions, "the view lists \(model.actions), the position offers \(offer.actions)")
        precondition(model.labels.keys.count >= model.actions.count, "an action without its label")
        let probes: [(ConsentActionName, ConsentAction)] = [
            (.next, .next(session.step)), (.back, .back(session.step)), (.agree, .agree), (.disagree, .disagree),
            (.clearSignature, .clearSignature), (.decline, .decline), (.cancel, .cancel),
            (.comprehensionAnswer, .answerComprehension(question: session.comprehension.index, choice: 0)),
        ]
        // The probe runs at the last activity's instant, so it is about the step, not the clock.
        for (name, action) in probes {
            var copy = session
            let offered = offer.offers(action)
            precondition(offered == model.actions.contains(name), "\(name): the offer and its list disagree")
            precondition((session.refusal(of: action) == nil) == offered, "\(name): refusal(of:) and the offer disagree")
            let accepted = (try? copy.apply(action, now: session.lastActivity)) != nil
            precondition(
                accepted == offered, "\(name) at \(session.position): offered \(offered), accepted \(accepted)")
        }
        precondition(
            model.actions.contains(.complete) == ((try? session.outcome()) != nil), "complete offered but no outcome, or not offered")
        precondition(model.actions.contains(.beginSignature) == (session.signingRole != nil), "beginSignature off a signature page")
    }

    // MARK: Input

    private static func isTrimmedName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, let last = name.unicodeScalars.last else { return false }
        return !first.properties.isWhitespace && !last.properties.isWhitespace && name.count <= 200
    }

    private static func pick<T>(_ list: [T], _ byte: UInt8) -> T { list[Int(byte) % list.count] }

    /// `staff == StaffProgress()`, field by field: the synthesized `==` copies both values' optionals (a signature
    /// among them) to compare them, which under ASan was a tenth of an execution, run after every change.
    static func isEmpty(_ staff: StaffProgress) -> Bool {
        staff.member == nil && staff.method == nil && staff.note == nil && staff.signature == nil
    }

    private static func step(_ byte: UInt8) -> ConsentStep { pick(ConsentStep.allCases, byte) }
}

/// Everything a session exposes that an action may change; equal before and after a refused action.
struct Snapshot: Equatable {
    var step: ConsentStep
    var sceneIndex: Int
    var reviewPage: ReviewPage
    var answers: [Bool?]
    var eligibilityStatus: EligibilityStatus
    var shareWidely: Bool?
    var optionalAnswers: [String: Bool]
    var signers: [SigningRole: SignerEntry]
    /// Whether there is one: the harness never sets a valid passcode (PBKDF2), and copying the hash's two `Data`
    /// for every snapshot is a measurable part of an execution.
    var hasPasscode: Bool
    var signedBy: SigningRole?
    var withdrawalReason: String?
    var lastActivity: Duration
    var comprehension: ComprehensionProgress
    var staff: StaffProgress
    var staffCall: StaffCall?

    // `__shared`: an initializer takes its arguments owned, so the session (and its study) would be copied for
    // every snapshot, a large part of the execution's time.
    init(_ session: __shared ConsentSession) {
        step = session.step
        sceneIndex = session.sceneIndex
        reviewPage = session.reviewPage
        answers = session.answers
        eligibilityStatus = session.eligibilityStatus
        shareWidely = session.shareWidely
        optionalAnswers = session.optionalAnswers
        signers = session.signers
        hasPasscode = session.passcodeHash != nil
        signedBy = session.signedBy
        withdrawalReason = session.withdrawalReason
        lastActivity = session.lastActivity
        comprehension = session.comprehension
        staff = session.staff
        staffCall = session.staffCall
    }

    /// `self == Snapshot(session)` without copying the session's values out first (it runs after every refusal).
    func matches(_ session: ConsentSession) -> Bool {
        step == session.step && sceneIndex == session.sceneIndex && reviewPage == session.reviewPage
            && answers == session.answers && eligibilityStatus == session.eligibilityStatus
            && shareWidely == session.shareWidely && optionalAnswers == session.optionalAnswers && signers == session.signers
            && hasPasscode == (session.passcodeHash != nil) && signedBy == session.signedBy
            && withdrawalReason == session.withdrawalReason && lastActivity == session.lastActivity
            && comprehension == session.comprehension && staffCall == session.staffCall
            && (SessionFuzzer.isEmpty(staff) ? SessionFuzzer.isEmpty(session.staff) : staff == session.staff)
    }
}
