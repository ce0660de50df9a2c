#!/usr/bin/env python3
"""Writes Protocol/schemas/**, Protocol/consentd.openrpc.json, Protocol/errors.json and the copy of the OpenRPC
document compiled into consentd (Sources/ConsentAgent/OpenRPCText.swift).

This file is the single source of the machine-readable protocol: edit it, run `scripts/generate-protocol`, and
commit the outputs. Tests check that the outputs are current and that everything consentd sends validates.
Wire names here must match AgentProtocol's Method, EventName and RPCErrorType raw values (a test checks that).
"""
import copy
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROTOCOL = os.path.join(ROOT, "Protocol")
BASE = "https://consent-kiosk.example/agent/1/"
VERSION = "1.0.0"

STEPS = ["withdrawal", "changes", "eligibility", "keyInformation", "visual", "sharing", "optional", "reviewStep", "comprehension", "passcode", "staff", "done",
         "completed", "ineligible", "declined", "expired", "cancelled", "paused"]
ACTIONS = ["answer", "next", "back", "chooseSharing", "agree", "disagree", "setName", "beginSignature",
           "clearSignature", "submitSignature", "setPasscode", "complete", "decline", "cancel", "chooseSigner",
           "setSignerName", "confirmWithdrawal", "printCopy", "comprehensionAnswer", "optionalAnswer", "staffUnlock",
           "attestIdentity", "askStaff", "printBlank", "pause"]
ROLES = ["participant", "representative", "witness", "personObtainingConsent"]
IDENTITY_METHODS = ["photoId", "knownToStaff", "representativeDocuments", "other"]
# Why a participant's copy failed (Flow.copy.reason, printer.status lastCopy.reason).
COPY_FAILURES = ["timedOut", "jobAborted", "jobCancelled", "printerUnavailable", "printFailed", "copyNotMade"]
STAFF_PAGES = ["unlock", "attest", "signature"]
REVIEW_PAGES = ["document", "signer", "name", "representative", "signature", "witness", "witnessSignature"]
# The step-specific part of each step's view model: exactly this one is present (README §6).
STEP_PARTS = {"withdrawal": "withdrawal", "changes": "changes", "eligibility": "eligibility",
              "keyInformation": "keyInformation", "visual": "scene",
              "sharing": "sharing", "optional": "optional", "reviewStep": "review", "comprehension": "comprehension", "passcode": "passcode",
              "staff": "staff", "done": "end", "completed": "end",
              "ineligible": "end", "declined": "end", "expired": "end", "cancelled": "end",
              "paused": "end"}
PARTS = sorted(set(STEP_PARTS.values()))
# view.labels keys: every offered action, and the two answers of each eligibility question.
# view.labels keys: every offered action, the two answers of each eligibility question, and the two answers of each
# optional element.
LABEL_KEYS = ACTIONS + ["answer.yes", "answer.no", "optionalAnswer.yes", "optionalAnswer.no"]
MAX_ASSET_BYTES = 524288
MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"]
SECTION_TYPES = ["Overview", "DataGathering", "Privacy", "DataUse", "TimeCommitment", "StudySurvey", "StudyTasks",
                 "Withdrawing", "Custom", "OnlyInDocument"]

ERRORS = {
    "ParseError": (-32700, "The line is not valid JSON."),
    "InvalidRequest": (-32600, "The line is JSON but not a request of this profile (batch, missing id, wrong jsonrpc)."),
    "LineTooLong": (-32600, "The line exceeded the announced maxLineBytes; it was discarded up to its newline."),
    "NotNegotiated": (-32600, "Only session.negotiate and rpc.discover are served before negotiation. Also the last line (id null) to a client that did not negotiate within negotiationTimeoutSeconds of hello, before the connection is closed."),
    "MethodNotFound": (-32601, "The method does not exist."),
    "InvalidParams": (-32602, "A parameter is missing, of the wrong type, or unknown; data.field names it."),
    "InternalError": (-32603, "The agent failed; its log has the details."),
    "AlreadyNegotiated": (-32000, "session.negotiate was already called on this connection."),
    "UnsupportedVersion": (-32000, "The offered protocol version is not spoken; data.supported lists those that are."),
    "Overloaded": (-32000, "The agent is at one of its bounds: flow.start while maxFlows flows run; or a connection beyond maxConnections, which gets this as its only line (id null, data.maximum) before the close. Retry later."),
    "CapabilityNotGranted": (-32000, "The request needs a capability this connection did not negotiate (events.subscribe: events, topic ink: ink-stream, signature.submit with strokes: ui-strokes, records.get, uploads.status, printer.status and staff.answer: records); data.capability names it."),
    "ShuttingDown": (-32000, "The agent is stopping and starts nothing new."),
    "PeerRefused": (-32000, "The connecting user and its groups are not in the agent's allowedPeers; the only line sent before the connection is closed (id null; data.uid, data.gid)."),
    "UnknownStudy": (-32000, "No study has this id."),
    "UnknownLanguage": (-32000, "The study has no consent in this language; study.get lists its languages."),
    "UnknownAsset": (-32000, "study.asset: the study (in that language) uses no image of this name; names come from view.scene.image and the data-asset of an <img> in study HTML."),
    "AssetTooLarge": (-32000, "study.asset: the image is larger than a UI can be sent (data.maximum bytes, data.size); the study must shrink it."),
    "UnknownFlow": (-32000, "No flow has this id (never started, or forgotten after it ended)."),
    "StepMismatch": (-32000, "The action names a step (or review page) the flow is not at; data.step is the current step."),
    "InvalidAction": (-32000, "The current step does not offer this action."),
    "InvalidAnswers": (-32000, "More eligibility answers than questions, or an optional.answer answer for an element the study does not have."),
    "NotEligible": (-32000, "flow.next at eligibility before every question is answered as required."),
    "MissingName": (-32000, "The given or family name is missing."),
    "MissingSignature": (-32000, "flow.next on the signature page without a signature."),
    "InvalidPasscode": (-32000, "The passcode is not 4 to 8 digits."),
    "InvalidField": (-32000, "A value is out of range or holds what it may not: a name longer than 200 characters (or 1,200 UTF-8 bytes), or any typed text (a name, a relationship, a staff note, a withdrawal reason, a FHIR Patient's or Address's string in flow.complete, which then names it in data.field) with a control character (C0, DEL, C1, line breaks), a bidi mark, embedding, override or isolate (U+200E, U+200F, U+061C, U+202A-U+202E, U+2066-U+2069) or another invisible format character; a name also with anything but letters, marks, digits, spaces, apostrophes, hyphens, periods and middle dots."),
    "FlowFinished": (-32000, "The flow has ended (completed, declined, cancelled, ineligible). flow.get after a restart, for a flow whose record was kept while its flow.complete reply was lost: data.record is that record."),
    "FlowExpired": (-32000, "The flow expired after the inactivity timeout; its data is wiped."),
    "FlowBusy": (-32000, "The flow is being completed; wait for the flow.complete reply."),
    "FlowDrivenElsewhere": (-32000, "Another open connection drives this flow (it started it, or took it over after the previous driver closed): this connection may observe it (flow.get, events) but not act on it. When the driving connection closes, the next connection that acts on the flow drives it."),
    "NoPad": (-32000, "No usable signature pad is connected (or not the named one, or the agent may not open it)."),
    "PadBusy": (-32000, "The pad is capturing for another flow."),
    "NoCapture": (-32000, "signature.submit without strokes while no pad capture runs for the flow."),
    "SignatureTooShort": (-32000, "The signature is too short (fewer points, or on a pad less ink, than the agent accepts); the message says why. A pad capture goes on: sign again."),
    "InvalidStrokes": (-32000, "Reserved: strokes that are valid JSON but unusable (out-of-range strokes are InvalidParams, field strokes)."),
    "NoRecordMaker": (-32000, "The agent runs without a record maker and cannot complete consents."),
    "RecordFailed": (-32000, "Writing the record failed; nothing was kept. Retry flow.complete."),
    "UnknownRecord": (-32000, "No record has this id."),
    "RecordInvalid": (-32000, "The record does not match its signed manifest (a file changed, missing or added); consentctl verify says what."),
    "NotAConsent": (-32000, "The record is a withdrawal: it can be neither withdrawn nor consented to again."),
    "AlreadyWithdrawn": (-32000, "The record was withdrawn already (records.get on it names the withdrawal in withdrawnBy)."),
    "PasscodeRequired": (-32000, "The record was created with a passcode; flow.start needs it in passcode."),
    "PasscodeNotSet": (-32000, "flow.start with withdraw and passcode: the record was created without a passcode. Refused rather than ignored, because a participant who types a PIN believes they set one, so the record id is likely not theirs; check it, or leave passcode out."),
    "WrongPasscode": (-32000, "The passcode does not match the record's; 5 wrong ones in a row lock the record for 15 minutes."),
    "PasscodeLocked": (-32000, "Too many wrong passcodes for this record; it cannot be withdrawn for 15 minutes (or until consentd restarts)."),
    "StudyUnchanged": (-32000, "flow.start with previous: the record was signed for the study's current version; start a plain flow if a new consent is wanted."),
    "AlreadyAmended": (-32000, "flow.start with change, withdraw or previous (or the flow.complete of a change or withdrawal): another change amended the record already, or is being completed (records.get on it names the change in amendedBy); name that later record instead, which holds the answers as they stand."),
    "NoOptionalElements": (-32000, "flow.start with change: the record's study has no optional elements (urn:consent-kiosk:optional-element); there is nothing to change."),
    "StudyChanged": (-32000, "flow.start with change: the study served is another version than the one the record was signed for (in the record's language), so its optional elements may not be those answered; a re-consent (flow.start with previous) is the way."),
    "UnknownResumeCode": (-32000, "flow.start with resume: no paused flow on this kiosk (or its shared state directory) has the code, or its day (resumeDays) has passed and it was deleted. Case, spaces and the hyphen do not matter. Counted like a wrong passcode: five in a row lock resuming on the kiosk for 15 minutes (PasscodeLocked)."),
    "StudyNotApproved": (-32000, "flow.start (a consent or re-consent; never a withdrawal): the kiosk checks study approvals (approvalKeys) and the study, in the flow's language, has no valid, unexpired approval for this kiosk's site. The message gives the reason (no approval.json, a key not in approvalKeys, a changed version, a language or site it does not cover, not yet valid, expired) for a staff notice, and data.reason its code (missing, malformed, badSignature, untrustedKey, versionMismatch, languageNotCovered, wrongSite, notYetValid, expired, reviewMismatch: the approval binds a review pack whose screens, recomputed at load, are no longer what the kiosk shows); the participant's words are texts.errors.StudyNotApproved."),
    "PrinterUnavailable": (-32000, "copy.print, copy.printBlank: the kiosk has no printer, or CUPS does not know it, cannot be reached, or the printer is stopped or refusing jobs; data.state (idle, printing, stopped, unavailable or CUPS's status keyword) and data.reason (CUPS's printer-state-reasons) say which. Nothing was printed; the record is kept. copy.printBlank also while the form it sent moments ago (within 30 s) is printing (data.state printing)."),
    "WrongStaffPin": (-32000, "staff.unlock: the staff id or PIN is not correct; an id that does not exist gets the same answer, after a hash of the same cost, and counts the same. Five wrong PINs in a row for one id lock that id on the flow, ten on the flow (whatever ids) lock its unlock, for staffLockoutSeconds (default 900); twenty on the whole kiosk pause every flow's unlock (StaffLocked)."),
    "StaffLocked": (-32000, "staff.unlock: unlocking is paused until data.until (RFC 3339 UTC), whatever the id: this id had five wrong PINs in a row on this flow, or the flow ten (for staffLockoutSeconds), or the kiosk had twenty from all flows together (then one more try every staffLockoutSeconds / 20; the kiosk's count survives an agent restart). Other flows, and another staff member on this one after the id's lock, unlock meanwhile unless the kiosk's count is spent. The try that spends a count answers StaffLocked too."),
    "StaffNotUnlocked": (-32000, "staff.attestIdentity before staff.unlock: the person obtaining consent unlocks with their staff id and PIN first."),
    "SpeechUnavailable": (-32000, "speech.get: the kiosk cannot speak the flow's language (data.language: it speaks the languages it has texts in, those whose study.get texts.language is their own), or the speech engine (eSpeak NG) failed; the agent's log says which."),
    "UnknownPart": (-32000, "speech.get: the current screen has no such part (no learn-more page, no review document or key information, the flow has ended for expiring, no introduction page of that id), or section or chunk is past the end (data.sections, data.chunks give the count)."),
    "PrintFailed": (-32000, "copy.print, copy.printBlank: CUPS did not take the copy's (or form's) job (data.state: its IPP status keyword), or the copy could not be made. The record is kept."),
}


def ref(name, mode):
    return {"$ref": f"#/components/schemas/{name}"} if mode == "openrpc" else {"$ref": f"{BASE}types/{name}.schema.json"}


def obj(props, required=(), open_=True):
    s = {"type": "object", "properties": props, "required": list(required)}
    s["additionalProperties"] = open_
    return s


def step_parts():
    """`allOf` of one if/then per step: the step's own part is required and every other part absent."""
    rules = []
    for step, part in STEP_PARTS.items():
        others = [p for p in PARTS if p != part]
        rules.append({"if": {"properties": {"step": {"const": step}}, "required": ["step"]},
                      "then": {"required": [part], "not": {"anyOf": [{"required": [o]} for o in others]}}})
    return rules


# study.get's texts: the words a UI shows outside the view model (README §6, "UI texts").
UI_TEXTS = {
    "start": "The start screen's button (flow.start).",
    "languagePicker": "The accessible name of the language picker.",
    "introductionPages": "The start screen's heading above the study introduction's pages (study.introduction.pages).",
    "existingRecord": "The way to a withdrawal or re-consent of a consent given earlier.",
    "existingRecordText": "What that screen asks for (the record number; the passcode if one was set).",
    "recordLabel": "The record number field's label.",
    "recordPasscodeLabel": "The passcode field's label (flow.start passcode).",
    "withdraw": "flow.start with withdraw.",
    "reconsent": "flow.start with previous.",
    "change": "flow.start with change: change the answers to the optional parts of that consent.",
    "back": "Back to the start screen.",
    "resume": "The start screen's way back to a paused flow (flow.start with resume).",
    "resumeText": "What that screen asks for: the code given when the flow was paused.",
    "resumeCodeLabel": "The code field's label.",
    "resumeGoOn": "The control that sends the code (flow.start with resume).",
    "learnMore": "Opens a scene's or the sharing step's learnMoreHTML when it has no learnMoreTitle.",
    "close": "Closes the learn-more text.",
    "startAgain": "On an end screen: back to the start screen.",
    "saving": "Shown while flow.complete writes a consent's record.",
    "savingWithdrawal": "Shown while flow.complete writes a withdrawal's record (a flow started with withdraw).",
    "savingChange": "Shown while flow.complete writes a change of answers (a flow started with change).",
    "reconnecting": "Shown while the connection is gone (agent.stopping, a restart).",
    "interrupted": "The flow is gone (the agent restarted, or another client ended it).",
    "expired": "After flow.expired (the notice a UI shows once it is back at its start screen; the flow's final view.end, step expired, is the same news as an end screen).",
    "copyPrinting": "On the end screen: the participant's copy was sent to the printer (copy.print answered, or Flow.copy.state printing).",
    "copyPrinted": "On the end screen: CUPS finished the copy's job (Flow.copy.state printed).",
    "copyFailed": "On the end screen: the copy was not printed (Flow.copy.state failed, PrinterUnavailable, PrintFailed); the participant asks staff.",
    "printBlank": "The start screen's control that prints the form to take home (copy.printBlank), shown when study.printBlank is true.",
    "blankPrinting": "copy.printBlank answered: the form is on its way, not signed, for reading only.",
    "blankFailed": "copy.printBlank failed (PrinterUnavailable, PrintFailed): the participant asks staff.",
    "listen": "The read-aloud control on every participant screen (speech.get).",
    "stopListening": "The same control while it reads: stops the reading.",
    "expiringTitle": "The title of the warning shown on flow.expiring.",
    "expiring": "The warning's sentence; {seconds} stands for the seconds left (flow.expiring secondsLeft, counting down).",
    "moreTime": "The warning's control that asks for more time (flow.extend).",
}


def ui_texts():
    string = {"type": "string", "minLength": 1}
    props = {name: dict(string, description=d) for name, d in UI_TEXTS.items()}
    props["language"] = {"type": "string", "description": "The tag of the kiosk's table these texts come from: the asked language's, or en when the kiosk has none (a study translation in another language)."}
    key = {"type": "string", "minLength": 1, "maxLength": 1}
    props["keys"] = obj({"shift": string, "space": string, "erase": string,
                         "layout": {"type": "string", "pattern": "^[a-z]+(-[a-z]+)*$",
                                    "description": "The letters' layout by name, as the language names it (e.g. qwerty for en, qwertz for de, azerty for fr): a UI or test may tell layouts apart by it, never needs to know them all."},
                         "letters": {"type": "array", "minItems": 3, "items": {"type": "array", "minItems": 1, "items": key},
                                     "description": "The touch keyboard's letter rows for names, top row first, in the language's own layout and with its accented letters: one lowercase character a key."}},
                        ["shift", "space", "erase", "layout", "letters"]) | {
        "description": "The touch keyboard of the language: its special keys' words and its letters."}
    size = obj({"percent": {"type": "integer", "minimum": 100, "maximum": 200,
                            "description": "The text's size relative to the UI's own."},
                "name": dict(string, description="The size button's accessible name.")}, ["percent", "name"])
    props["display"] = obj({"textSize": dict(string, description="The accessible name of the group of text-size buttons."),
                            "sizes": {"type": "array", "minItems": 3, "items": size,
                                      "description": "One text-size button each (data-action=\"textSize\", data-size=percent), smallest first: 100 (the UI's own size) up to 200."},
                            "contrast": dict(string, description="The high-contrast theme's toggle (data-action=\"contrast\").")},
                           ["textSize", "sizes", "contrast"]) | {
        "description": "The display controls a UI adds to every screen, kept for one flow: text size and high contrast."}
    props["errors"] = {"type": "object", "properties": {name: string for name in sorted(ERRORS)},
                       "required": sorted(ERRORS), "additionalProperties": string,
                       "description": "One sentence a participant can read for every error type (data.type), in the language."}
    return obj(props, ["language", "keys", "display", "errors"] + list(UI_TEXTS)) | {
        "description": "The words a UI shows outside the view model, in one language: the start screen, its own controls, notices between screens, and a sentence for every error type."}


def types(mode):
    r = lambda n: ref(n, mode)
    string = {"type": "string"}
    boolean = {"type": "boolean"}
    mm = {"type": "number", "exclusiveMinimum": 0}
    view = obj({
            "step": r("Step"), "title": string,
            "language": {"type": "string", "description": "The language tag of every text of the view."},
            "studyTitle": {"type": "string", "description": "The study's own title in the view's language (study.get's title)."},
            "staffCall": obj({"text": {"type": "string", "minLength": 1, "description": "What the participant is told: a member of staff is on the way."},
                              "reason": {"type": "string", "enum": ["participant", "comprehensionStopped"], "description": "Who called: the participant (staff.call, action askStaff) or the comprehension check that stopped."}},
                             ["text", "reason"]) | {"description": "Present while a member of staff called for the flow is on the way (until staff.answer): the flow does not expire meanwhile."},
            "paused": obj({"code": {"type": "string", "pattern": "^[ACDEFHJKMNPRTUVWXY3479]{4}-[ACDEFHJKMNPRTUVWXY3479]{4}$", "description": "The resume code, as shown and printed (flow.start resume takes it with or without the hyphen, in any case)."},
                           "codeLabel": {"type": "string", "minLength": 1},
                           "expires": {"type": "string", "format": "date-time", "description": "The last moment the code works (RFC 3339 UTC): resumeDays after the pause."},
                           "text": {"type": "string", "minLength": 1, "description": "The sentence naming that day in words, and how to come back."},
                           "slip": {"type": "string", "minLength": 1, "description": "On a kiosk with a printer: the slip with the code (and a QR code of it) is printing."}},
                          ["code", "codeLabel", "expires", "text"]) | {"description": "Step paused (flow.pause): the code to come back with. Only in the pause's reply and the flow's own events and flow.get: the flow is gone once forgotten."},
            "resumed": obj({"outcome": {"type": "string", "enum": ["continued", "startedOver"], "description": "continued: at the place it was paused, with its answers; startedOver: from the beginning, because the study's version changed since (or the place is no longer in it)."},
                            "text": {"type": "string", "minLength": 1}},
                           ["outcome", "text"]) | {"description": "On the first screen of a flow started with resume, until its first accepted action."},
            "comprehensionFlagged": {"type": "boolean", "const": True, "description": "Present (true) on the steps after a comprehension question was missed on every attempt and the study went on (onRepeatedMiss continue): staff should go over the consent with the participant before they sign."},
            "actions": {"type": "array", "items": {"type": "string", "enum": ACTIONS}},
            "labels": {"type": "object", "propertyNames": {"enum": LABEL_KEYS},
                       "additionalProperties": {"type": "string", "minLength": 1},
                       "description": "The text of the control of every action in actions, by action name, plus answer.yes and answer.no when answer is offered."},
            "eligibility": obj({"questions": {"type": "array", "items": string},
                                "answers": {"type": "array", "items": {"type": ["boolean", "null"]},
                                            "description": "The answers, for the connection that started the flow; all null for every other connection (answersWithheld)."},
                                "answersWithheld": {"type": "boolean", "description": "True when this connection does not drive the flow and the answers (health data) are withheld."},
                                "status": {"type": "string", "enum": ["eligible", "ineligible", "incomplete"]},
                                "heading": string, "message": string,
                                "button": {"type": "string", "description": "The button the message names: labels.answer while incomplete, labels.next when eligible."}},
                               ["questions", "answers", "status", "heading", "message", "button"]),
            "keyInformation": obj({
                "text": {"type": "string", "minLength": 1, "description": "The sentence above the page: why it comes first."},
                "html": {"type": "string", "minLength": 1, "description": "The study's key information page (the Contract's urn:consent-kiosk:key-information extension), sanitised as a section's HTML; the view's title is its heading. speech.get part document reads it section by section."}},
                ["text", "html"]) | {"description": "Step keyInformation (studies that have it): after eligibility, before the scenes, the key information the consent begins with (45 CFR 46.116(a)(5)(i)); actions next, back, decline, cancel."},
            "scene": obj({"index": {"type": "integer", "minimum": 0}, "count": {"type": "integer", "minimum": 1},
                          "type": {"type": "string", "enum": SECTION_TYPES}, "title": string, "summary": string,
                          "learnMoreTitle": string, "learnMoreHTML": string, "image": string, "animation": string},
                         ["index", "count", "type"]),
            "sharing": obj({"team": string, "text": string,
                            "choices": {"type": "array", "items": obj({"shareWidely": boolean, "text": string},
                                                                      ["shareWidely", "text"])},
                            "learnMoreTitle": string, "learnMoreHTML": string, "selected": boolean},
                           ["team", "text", "choices"]),
            "optional": obj({
                "text": {"type": "string", "minLength": 1, "description": "The sentence above the elements."},
                "elements": {"type": "array", "minItems": 1, "items": obj({
                    "id": {"type": "string", "pattern": "^[a-z0-9-]{1,40}$", "description": "The element's stable id: the key of optional.answer's answers."},
                    "title": {"type": "string", "minLength": 1},
                    "text": {"type": "string", "minLength": 1, "description": "The question, answered Yes (labels optionalAnswer.yes) or No (labels optionalAnswer.no)."},
                    "learnMoreTitle": string,
                    "learnMoreHTML": {"type": "string", "description": "The element's Learn more page (its htmlContentFile), sanitised as a section's HTML; absent when it has none."},
                    "answer": {"type": "boolean", "description": "The answer given (true: Yes); absent before one, so nothing is pre-selected, and for connections that do not drive the flow (answersWithheld)."}},
                    ["id", "title", "text"])},
                "answersWithheld": {"type": "boolean", "description": "True when this connection does not drive the flow and the answers are withheld."},
                "amends": {"type": "string", "description": "A change flow (flow.start with change): the record whose answers it changes. The elements then start with that record's answers, the title and text say so, and the actions are optionalAnswer, next once an answer differs from the record's, and cancel."}},
                ["text", "elements"]) | {"description": "Step optional (studies with urn:consent-kiosk:optional-element extensions): after sharing, before the review document, every optional element on one screen, each answered Yes or No; actions optionalAnswer (optional.answer), next once every element has its answer, back, decline, cancel. A change flow's first step (amends)."},
            "review": obj({"page": {"type": "string", "enum": REVIEW_PAGES},
                           "html": string, "reasonForConsent": string, "givenNameLabel": string,
                           "familyNameLabel": string, "placeholder": string, "hasName": boolean,
                           "signatureInstruction": string, "hasSignature": boolean,
                           "role": r("Role"),
                           "signerChoices": {"type": "array", "items": obj({"role": r("Role"), "text": string},
                                                                           ["role", "text"])},
                           "signedBy": r("Role"), "relationshipLabel": string,
                           "relationships": {"type": "array", "items": obj({"code": string, "display": string},
                                                                           ["code", "display"])},
                           "hasRepresentative": boolean, "hasWitnessName": boolean,
                           "hasWitnessSignature": boolean, "text": string,
                           "signingArea": obj({"widthMM": mm, "heightMM": mm, "aspect": mm,
                                               "source": {"type": "string", "enum": ["pad", "default"],
                                                          "description": "pad: the capturing pad's active area; default: 120 x 40 mm, for a signature the UI draws."},
                                               "pad": {"type": "string", "description": "The capturing pad's id (source pad)."}},
                                              ["widthMM", "heightMM", "aspect", "source"])},
                          ["page", "hasName", "hasSignature"]),
            "passcode": obj({"text": string, "digits": {"type": "integer"}}, ["text", "digits"]),
            "comprehension": obj({
                "index": {"type": "integer", "minimum": 0, "description": "The question's 0-based index (comprehension.answer's question)."},
                "count": {"type": "integer", "minimum": 1}, "progress": string,
                "phase": {"type": "string", "enum": ["question", "explanation", "stopped"],
                          "description": "question: the choices (comprehensionAnswer); explanation: after a wrong answer, the explanation and the section again (next asks again, or goes on once the attempts are used up); stopped: the attempts are used up and the study stops: only decline and cancel (a member of staff is called)."},
                "question": string, "choices": {"type": "array", "minItems": 2, "items": string},
                "text": {"type": "string", "description": "The instruction above the choices, or the message after a wrong answer."},
                "attempt": {"type": "integer", "minimum": 0, "description": "Answers given to this question so far."},
                "attempts": {"type": "integer", "minimum": 1, "description": "Answers the question may take."},
                "chosen": {"type": "integer", "minimum": 0, "description": "After a wrong answer: the choice given (only to the connection that drives the flow). The correct one is never sent."},
                "explanationHeading": string, "explanation": string, "sectionHeading": string,
                "sectionTitle": string, "sectionHTML": {"type": "string", "description": "The section the question is about, as the review document shows it."}},
                ["index", "count", "progress", "phase", "question", "choices", "text", "attempt", "attempts"]),
            "staff": obj({"page": {"type": "string", "enum": STAFF_PAGES,
                                   "description": "unlock: staff id and PIN (staff.unlock); attest: how identity was verified (staff.attestIdentity); signature: the countersignature (role personObtainingConsent)."},
                          "text": string,
                          "staffId": {"type": "string", "description": "The unlocked staff member's id (staff data, never the participant's)."},
                          "staffName": {"type": "string", "description": "The unlocked staff member's name."},
                          "staffIdLabel": string, "pinLabel": string,
                          "methods": {"type": "array", "items": obj({"method": {"type": "string", "enum": IDENTITY_METHODS}, "text": string},
                                                                    ["method", "text"])},
                          "method": {"type": "string", "enum": IDENTITY_METHODS},
                          "hasNote": {"type": "boolean", "description": "Whether a note was given (never the note)."},
                          "noteLabel": string, "signatureInstruction": string,
                          "attestLabel": {"type": "string", "description": "The attest page's confirming button; on the signature page labels.attestIdentity is the way back to the methods."},
                          "hasSignature": boolean,
                          "signingArea": obj({"widthMM": mm, "heightMM": mm, "aspect": mm,
                                              "source": {"type": "string", "enum": ["pad", "default"]},
                                              "pad": {"type": "string"}},
                                             ["widthMM", "heightMM", "aspect", "source"])},
                         ["page", "text", "hasNote", "hasSignature"]),
            "end": obj({"title": string, "message": string}, ["title", "message"]),
            "withdrawal": obj({"record": string, "studyTitle": string,
                               "signedOn": {"type": "string", "description": "YYYY-MM-DD (UTC) the consent was signed."},
                               "text": string, "reasonLabel": string,
                               "hasReason": {"type": "boolean", "description": "Whether a reason was given (never the reason)."}},
                              ["record", "studyTitle", "signedOn", "text", "reasonLabel", "hasReason"]),
            "changes": obj({"previousRecord": string, "text": string,
                            "detailed": {"type": "boolean", "description": "False for a previous record that does not list its sections: the lists are then empty."},
                            "added": {"type": "array", "items": string}, "removed": {"type": "array", "items": string},
                            "edited": {"type": "array", "items": string}},
                           ["previousRecord", "text", "detailed", "added", "removed", "edited"]),
        }, ["step", "language", "title", "studyTitle", "actions", "labels"])
    view["allOf"] = step_parts()
    view["description"] = "What a UI shows for the current step; exactly one step-specific part, the one of its step."
    return {
        "Step": {"type": "string", "enum": STEPS, "description": "A step of the consent flow."},
        "Role": {"type": "string", "enum": ROLES,
                 "description": "Who signs: the participant, a legally authorized representative on the participant's behalf, a witness, or the person obtaining consent (the staff step's countersignature)."},
        "StepViewModel": view,
        "Flow": obj({"flow": string, "study": string, "step": r("Step"), "view": r("StepViewModel"),
                     "language": {"type": "string", "description": "The language tag of the flow's consent."},
                     "version": {"type": "string", "description": "The version hash of that language's study files."},
                     "record": {"type": "string", "description": "The record id, once completed."},
                     "withdraws": {"type": "string", "description": "A withdrawal flow: the record it withdraws."},
                     "previous": {"type": "string", "description": "A re-consent: the record it replaces."},
                     "amends": {"type": "string", "description": "A change of answers: the record whose optional elements' answers it changes."},
                     "staffCall": obj({"at": {"type": "string", "format": "date-time", "description": "When the member of staff was called (RFC 3339 UTC)."},
                                       "kioskId": {"type": "string"},
                                       "reason": {"type": "string", "enum": ["participant", "comprehensionStopped"]}},
                                      ["at", "kioskId", "reason"]) | {"description": "While a member of staff called for the flow is on the way (staff.call): for a staff page that connects meanwhile (staff.called said the same)."},
                     "copy": obj({"state": {"type": "string", "enum": ["printing", "printed", "failed"]},
                                  "job": {"type": "integer", "minimum": 1, "description": "CUPS's job number."},
                                  "reason": {"type": "string", "enum": COPY_FAILURES, "description": "failed: why. timedOut: CUPS had not finished the job printTimeoutSeconds after it took it (a queue stopped mid-job), and the agent cancelled it; jobAborted, jobCancelled: CUPS ended the job unprinted; printerUnavailable, printFailed: CUPS did not take it; copyNotMade: the copy could not be stamped."}},
                                 ["state"]) | {"description": "The participant's printed copy, once one was asked for (or printed without asking, printCopy always)."}},
                    ["flow", "study", "step", "view"]),
        "StrokePoint": {"type": "array", "minItems": 3, "maxItems": 4,
                        "prefixItems": [{"type": "number", "minimum": 0, "maximum": 1},
                                        {"type": "number", "minimum": 0, "maximum": 1},
                                        {"type": "number", "minimum": 0, "maximum": 3600000},
                                        {"type": ["number", "null"], "minimum": 0, "maximum": 1}],
                        "description": "[x, y, t, p]: x, y normalised 0..1 from the top-left, t ms since the first point (at most an hour), p pressure 0..1 or null."},
        "Strokes": obj({"strokes": {"type": "array", "items": {"type": "array", "items": r("StrokePoint")}},
                        "widthMM": {"type": "number", "minimum": 1, "maximum": 5000,
                                    "description": "The signing area's width; with heightMM, neither more than 100 times the other."},
                        "heightMM": {"type": "number", "minimum": 1, "maximum": 5000}},
                       ["strokes"], open_=False) | {
                           "description": "Strokes the UI drew. No device: the agent alone states how a signature was "
                                          "captured (the record's device); a device or any other member is InvalidParams "
                                          "naming it."},
        "UITexts": ui_texts(),
        "Pad": obj({"id": string, "name": string, "widthMM": {"type": "number"}, "heightMM": {"type": "number"},
                    "hasPressure": boolean}, ["id", "name", "hasPressure"]),
        "ErrorObject": obj({"code": {"type": "integer"}, "message": string,
                            "data": obj({"type": {"type": "string", "enum": sorted(ERRORS)}}, ["type"])},
                           ["code", "message", "data"], open_=False),
    }


FLOW_ERRORS = ["UnknownFlow", "FlowBusy", "FlowFinished", "FlowExpired", "StepMismatch", "InvalidAction", "FlowDrivenElsewhere"]


def methods(mode):
    r = lambda n: ref(n, mode)
    string = {"type": "string"}
    flow_param = ("flow", string, True)
    role_param = ("role", dict(r("Role"), description="Whose signature (default participant); the flow's signature page must be this role's."), False)
    flow_result = r("Flow")
    with_ = lambda extra, req: {"allOf": [r("Flow"), obj(extra, req)]}
    return [
        ("session.negotiate", "Picks the protocol version and the capabilities; required before anything but rpc.discover.",
         [("client", dict(string, minLength=1, description="The UI's name, 1 to 200 characters without control characters (a record of strokes the UI drew names it); else InvalidParams."), True), ("version", {"type": "integer"}, True),
          ("capabilities", {"type": "array", "items": string,
                            "description": "The capabilities wanted (events, ink-stream, ui-strokes, records; unknown ones are ignored). Absent: all of them. A request needing one not granted is CapabilityNotGranted."}, False)],
         obj({"version": {"type": "integer"}, "session": string, "capabilities": {"type": "array", "items": string}},
             ["version", "session", "capabilities"]), ["AlreadyNegotiated", "UnsupportedVersion"]),
        ("rpc.discover", "Returns this OpenRPC document.", [],
         obj({"openrpc": string, "info": {"type": "object"}, "methods": {"type": "array"}}, ["openrpc", "info", "methods"]), []),
        ("session.sync", "Replies after every event queued to this client before it has been written (a barrier).", [],
         obj({"seq": {"type": "integer", "minimum": 0, "description": "The seq of the last event sent before this reply."}}, ["seq"]), []),
        ("events.subscribe", "Sets the event topics of this connection; replies with a snapshot and the seq after which the stream continues. Needs the capability events (and ink-stream for the topic ink).",
         [("topics", {"type": "array", "items": {"type": "string", "enum": ["flow", "ink", "pad"]}}, True)],
         obj({"seq": {"type": "integer", "minimum": 0},
              "snapshot": obj({"topics": {"type": "array", "items": string},
                               "flows": {"type": "array", "items": r("Flow")},
                               "pads": {"type": "array", "items": r("Pad")}}, ["topics", "flows", "pads"])},
             ["seq", "snapshot"]), ["CapabilityNotGranted"]),
        ("study.get", "Describes a study (default: the first one) and lists the available ones; texts are a UI's words outside the view model, in language (default: the study's default language).",
         [("study", string, False),
          ("language", {"type": "string", "description": "A language of the study (study.languages): the language of texts; nothing else in the reply changes."}, False)],
         obj({"study": obj({"id": string, "version": string, "title": string,
                            "eligibilityQuestions": {"type": "array", "items": string},
                            "sections": {"type": "integer"}, "askForSharing": {"type": "boolean"},
                            "askToCreatePasscode": {"type": "boolean"}, "requireWitness": {"type": "boolean"},
                            "allowRepresentative": {"type": "boolean"},
                            "printBlank": {"type": "boolean", "description": "Whether copy.printBlank can print here (the kiosk has a printer for participants): the start screen offers the form to take home."},
                            "language": {"type": "string", "description": "The default language's tag."},
                            "languages": {"type": "array", "description": "Every language, the default first.",
                                          "items": obj({"tag": string, "name": string, "version": string,
                                                        "default": {"type": "boolean"},
                                                        "title": {"type": "string", "description": "The study's title in that language."}},
                                                       ["tag", "name", "version", "default", "title"])},
                            "texts": r("UITexts"),
                            "introduction": obj({
                                "title": {"type": "string", "minLength": 1, "description": "The welcome item's title (else intro.json's title)."},
                                "subtitle": {"type": "string", "minLength": 1, "description": "The welcome item's subtitle."},
                                "logo": {"type": "string", "minLength": 1, "description": "intro.json's logo: an image name for study.asset (present only when the image loaded and can be sent)."},
                                "pages": {"type": "array", "description": "intro.json's HTML items, in its order: pages the start screen offers before flow.start.",
                                          "items": obj({"id": {"type": "string", "minLength": 1, "description": "The item's filename: the same in every language (speech.get part introduction's page)."},
                                                        "title": {"type": "string", "minLength": 1},
                                                        "html": {"type": "string", "description": "The page, sanitised as a section's HTML (data-asset images only)."}},
                                                       ["id", "title", "html"])}},
                                ["pages"]) | {"description": "The study's introduction in language (that language's intro.json: C3-PRO's StudyIntroConfiguration, docs/C3PRO.md section 2a), for the start screen; absent when it has none."},
                            "approval": obj({
                                "state": {"type": "string", "enum": ["active", "expiring", "notApproved"],
                                          "description": "expiring: within approvalWarningDays of its last day; notApproved: flows are refused (StudyNotApproved)."},
                                "reason": {"type": "string", "enum": ["missing", "malformed", "badSignature", "untrustedKey", "versionMismatch",
                                                                      "languageNotCovered", "wrongSite", "notYetValid", "expired", "reviewMismatch"]},
                                "message": {"type": "string", "description": "Why it is notApproved, for staff."},
                                "approved": {"type": "string", "description": "The first day it covers (YYYY-MM-DD)."},
                                "expires": {"type": "string", "description": "The last day it covers (YYYY-MM-DD)."},
                                "daysLeft": {"type": "integer", "description": "Days from today to expires (0: its last day)."},
                                "site": string, "reference": string,
                                "languages": {"type": "array", "items": string},
                                "keyFingerprint": {"type": "string", "description": "SHA256:<hex> of the approving key's SubjectPublicKeyInfo."}},
                                ["state"]) | {"description": "The IRB approval of the study in language (approval.json), only when the kiosk checks approvals (approvalKeys)."}},
                           ["id", "version", "title", "eligibilityQuestions", "language", "languages", "texts"]),
              "studies": {"type": "array", "items": string}}, ["study", "studies"]), ["UnknownStudy", "UnknownLanguage"]),
        ("study.asset", f"Returns an image the study uses (a scene's image, or the data-asset of an <img> in study HTML), in a language of the study (default: its default language), base64; at most {MAX_ASSET_BYTES} bytes.",
         [("name", string, True), ("study", string, False), ("language", string, False)],
         obj({"name": string, "mediaType": {"type": "string", "enum": MEDIA_TYPES},
              "size": {"type": "integer", "minimum": 1, "maximum": MAX_ASSET_BYTES, "description": "The decoded bytes."},
              "data": {"type": "string", "contentEncoding": "base64", "pattern": "^[A-Za-z0-9+/]*={0,2}$"}},
             ["name", "mediaType", "size", "data"]),
         ["UnknownAsset", "AssetTooLarge", "UnknownStudy", "UnknownLanguage"]),
        ("flow.start", "Starts a consent flow at eligibility, in a language of the study (default: its default language; for withdraw, previous and change, the record's); with withdraw, a withdrawal of that record (at step withdrawal); with previous, a re-consent replacing that record (at step changes); with change, a change of that record's answers to the study's optional elements without withdrawing (at step optional, the record's answers given: optional.answer with at least one answer changed goes on to the name and signature pages, then done; flow.complete writes a record of kind change, amends in its manifest, carrying every answer as it now stands, and its upload Bundle sends the earlier Consent again with status inactive); with resume (alone), the paused flow of that code, in its study and language: where it was paused (view.resumed continued) when the study's version is the same, else from the beginning (startedOver). A code works once: its sealed file is deleted as the flow starts.",
         [("study", string, False), ("language", string, False),
          ("resume", {"type": "string", "maxLength": 64, "description": "A resume code from flow.pause (ACDE-FH34; case, spaces and the hyphen do not matter). No other parameter goes with it."}, False),
          ("withdraw", {"type": "string", "description": "The id of the record to withdraw."}, False),
          ("passcode", {"type": "string", "description": "With withdraw or change: the PIN set with the record, when one was (for a record without one it is PasscodeNotSet). Wrong ones count for the record whichever of the two is started."}, False),
          ("previous", {"type": "string", "description": "The id of the record a re-consent replaces; the study must have changed since."}, False),
          ("change", {"type": "string", "description": "The id of a consent record whose answers to the optional elements this flow changes; the study served must be the version it was signed for (StudyChanged) and have optional elements (NoOptionalElements); a record withdrawn is AlreadyWithdrawn, one changed already AlreadyAmended. Excludes withdraw and previous."}, False)],
         flow_result,
         ["UnknownStudy", "UnknownLanguage", "ShuttingDown", "UnknownRecord", "RecordInvalid", "NotAConsent", "AlreadyWithdrawn",
          "PasscodeRequired", "PasscodeNotSet", "WrongPasscode", "PasscodeLocked", "StudyUnchanged", "Overloaded",
          "StudyNotApproved", "UnknownResumeCode", "RecordFailed", "AlreadyAmended", "NoOptionalElements", "StudyChanged"]),
        ("withdrawal.confirm", "Confirms what a withdrawal flow withdraws, with an optional reason (kept in the record, never echoed); the name page follows.",
         [flow_param, ("reason", {"type": "string", "maxLength": 1000}, False)], flow_result,
         FLOW_ERRORS + ["InvalidField"]),
        ("flow.get", "Returns a flow's current step and view model (also after it ended; resync after events.overflow).",
         [flow_param], flow_result, ["UnknownFlow", "FlowFinished"]),
        ("eligibility.answer", "Sets the eligibility answers in requirement order (null: unanswered).",
         [flow_param, ("answers", {"type": "array", "items": {"type": ["boolean", "null"]}}, True)], flow_result,
         FLOW_ERRORS + ["InvalidAnswers"]),
        ("flow.next", "Goes forward from the named step.", [flow_param, ("step", r("Step"), True)], flow_result,
         FLOW_ERRORS + ["NotEligible", "MissingName", "MissingSignature"]),
        ("flow.back", "Goes back from the named step.", [flow_param, ("step", r("Step"), True)], flow_result, FLOW_ERRORS),
        ("sharing.choose", "Chooses how widely the data is shared.", [flow_param, ("shareWidely", {"type": "boolean"}, True)],
         flow_result, FLOW_ERRORS),
        ("review.agree", "Agrees to the review document; the comprehension step follows when the study asks questions (until they are answered), else the next review page.", [flow_param], flow_result, FLOW_ERRORS),
        ("review.disagree", "Disagrees; the flow is declined and wiped.", [flow_param], flow_result, FLOW_ERRORS),
        ("participant.setName", "Sets the printed name (never echoed back: the view model only says hasName).",
         [flow_param, ("given", string, True), ("family", string, True)], flow_result,
         FLOW_ERRORS + ["MissingName", "InvalidField"]),
        ("signer.choose", "On the review page signer (studies that allow a representative): who signs the consent.",
         [flow_param, ("signer", {"type": "string", "enum": ["participant", "representative"]}, True)], flow_result,
         FLOW_ERRORS + ["InvalidField"]),
        ("signer.setName", "Sets a signer's printed name: the participant's (as participant.setName), the representative's with their relationship (a code from view.review.relationships), or the witness's. Never echoed back.",
         [flow_param, ("role", r("Role"), True), ("given", string, True), ("family", string, True),
          ("relationship", dict(string, description="The representative's relationship code; only with role representative."), False)],
         flow_result, FLOW_ERRORS + ["MissingName", "InvalidField"]),
        ("signature.begin", "Starts capturing on a signature pad and holds it for the flow (grabbed when dedicated); ink follows as ink.points events naming the role. The param pad is a pad's id (a string from pads.list); the result's pad is the Pad object of the pad that captures.",
         [flow_param, ("pad", dict(string, description="The id of the pad to use (an id from pads.list); default: the preferred pad."), False), role_param],
         with_({"pad": dict(r("Pad"), description="The pad that captures: a Pad object ({id, name, widthMM?, heightMM?, hasPressure}), not its id.")}, ["pad"]),
         FLOW_ERRORS + ["NoPad", "PadBusy"]),
        ("signature.clear", "Clears the signature of the page (and the pad's ink).", [flow_param, role_param], flow_result,
         FLOW_ERRORS),
        ("signature.submit", "Takes the signature: the pad capture's strokes, or strokes the UI captured itself (needs the capability ui-strokes).",
         [flow_param, ("strokes", r("Strokes"), False), role_param], flow_result,
         FLOW_ERRORS + ["MissingName", "NoCapture", "SignatureTooShort", "CapabilityNotGranted"]),
        ("comprehension.answer", "At step comprehension (phase question): the participant's choice for the question on screen. A right answer moves on (after the last question, to the page after the review document); a wrong one shows the explanation and the section again (phase explanation; flow.next with step comprehension asks again), or, when the question's attempts are used up, goes on (the study's onRepeatedMiss continue, the record flagged) or stops (phase stopped). The answers are never echoed back except view.comprehension.chosen.",
         [flow_param, ("question", {"type": "integer", "minimum": 0, "description": "view.comprehension.index: the question the choice answers."}, True),
          ("choice", {"type": "integer", "minimum": 0, "description": "The 0-based index of the chosen view.comprehension.choices entry."}, True)],
         flow_result, FLOW_ERRORS + ["InvalidField"]),
        ("optional.answer", "At step optional: the participant's answers to optional elements, by element id (true: Yes, false: No); those given before and not named stay. While an element has no answer the flow stays at optional; once every element has one it goes on to the review document. An id the study does not have is InvalidAnswers (nothing is kept); a value that is not a boolean is InvalidParams (data.field answers.<id>). In a change flow every element starts with the record's answer: the answers go on to the name page once one differs from the record's, and answers that leave them all as the record has them are InvalidAnswers. The answers are never echoed to connections that do not drive the flow.",
         [flow_param, ("answers", {"type": "object", "additionalProperties": {"type": "boolean"},
                                   "propertyNames": {"pattern": "^[a-z0-9-]{1,40}$"},
                                   "description": "Answers by view.optional.elements[].id."}, True)],
         flow_result, FLOW_ERRORS + ["InvalidAnswers"]),
        ("staff.unlock", "On the staff step (staffCountersignature required): the person obtaining consent unlocks with their staff id and PIN (config staffFile, consentctl staff add). Every try is counted before its PIN is hashed, per flow and per kiosk, the same for an id that exists and one that does not: five wrong PINs in a row for one id lock that id on this flow and ten lock the flow's unlock, for staffLockoutSeconds; twenty on the kiosk pause every flow's (StaffLocked, data.until). Neither the PIN nor anything of the participant reaches the audit log, which records staff.unlocked with the staff id.",
         [flow_param, ("staffId", dict(string, maxLength=64), True), ("pin", dict(string, maxLength=64, description="6 to 12 digits; never echoed, logged or kept."), True)],
         flow_result, FLOW_ERRORS + ["WrongStaffPin", "StaffLocked"]),
        ("staff.attestIdentity", "On the staff step, once unlocked: how the person obtaining consent verified the signer's identity; the countersignature (signature.begin/submit, role personObtainingConsent) follows. The audit log records staff.attested with the staff id and the method, never the note.",
         [flow_param, ("method", {"type": "string", "enum": IDENTITY_METHODS}, True),
          ("note", dict(string, maxLength=200, description="A short description; required for other."), False)],
         flow_result, FLOW_ERRORS + ["StaffNotUnlocked", "InvalidField"]),
        ("passcode.set", "Sets the 4-8 digit passcode (when the study asks for one).",
         [flow_param, ("passcode", string, True)], flow_result, FLOW_ERRORS + ["InvalidPasscode"]),
        ("flow.complete", "Writes the record (a withdrawal's, re-consent's or change's linked to the earlier one); replies once it is durable.",
         [flow_param, ("patient", {"type": "object", "description": "A FHIR Patient (resourceType Patient; id, name, gender, birthDate and the repeating members checked; birthDate a calendar date, not in the future). A bad member is InvalidParams naming it in data.field; a string anywhere in it with a control or bidi character, or a HumanName part (given, family, text, prefix, suffix) with anything a name does not hold, is InvalidField naming the member in data.field."}, False),
          ("deidentify", {"type": "boolean"}, False),
          ("location", {"type": "object", "description": "A FHIR Address: where the consent was taken (reduced when de-identified); only Address members, strings where FHIR has strings, none with a control or bidi character (InvalidField)."}, False)],
         with_({"record": string, "directory": string, "files": {"type": "array", "items": string}},
               ["record", "directory", "files"]),
         FLOW_ERRORS + ["NoRecordMaker", "RecordFailed", "ShuttingDown", "RecordInvalid", "AlreadyWithdrawn", "AlreadyAmended", "InvalidField"]),
        ("flow.decline", "Declines; the flow ends and is wiped.", [flow_param], flow_result, FLOW_ERRORS),
        ("flow.cancel", "Cancels; the flow ends and is wiped. A connection with the capability records (a staff page) may cancel a flow another connection drives.", [flow_param], flow_result, FLOW_ERRORS),
        ("pads.list", "Lists the connected, usable signature pads; a pad's id is its event node.", [],
         obj({"pads": {"type": "array", "items": r("Pad")}}, ["pads"]), []),
        ("records.get", "Where a record is, which files it has (never its content), and how it links to others. Needs the capability records.", [("id", string, True)],
         obj({"id": string, "directory": string, "files": {"type": "array", "items": string},
              "kind": {"type": "string", "enum": ["consent", "withdrawal", "change"]},
              "withdrawnBy": {"type": "string", "description": "The withdrawal record that withdrew this consent."},
              "withdraws": {"type": "string", "description": "The consent record this withdrawal withdraws."},
              "previousRecord": {"type": "string", "description": "The record this re-consent replaces."},
              "replacedBy": {"type": "array", "items": string, "description": "Re-consents that replace this record."},
              "amends": {"type": "string", "description": "The consent record whose optional elements' answers this change amends."},
              "amendedBy": {"type": "string", "description": "The change that amended this record's optional elements' answers."}},
             ["id", "directory", "files"]),
         ["UnknownRecord", "CapabilityNotGranted"]),
        ("copy.print", "Prints the participant's copy of a completed flow's record (view action printCopy): the record's consent.pdf as signed, with the verification mark CK1:<record id>:<manifest SHA-256> stamped as a QR code and text on its signature page (never written into the record). Replies once CUPS accepted the job ({flow, job}), or after 2 s without job when CUPS has not answered by then (the copy is printing meanwhile; a slow printer never holds up the connection's next requests); Flow.copy (flow.changed) follows it to printed or failed (failed also when CUPS has not finished it printTimeoutSeconds after taking it). Printed once per flow; only by the connection that drove the flow, never by a staff connection.",
         [flow_param],
         obj({"flow": string, "job": {"type": "integer", "minimum": 1, "description": "CUPS's job number; absent when CUPS had not taken the job within 2 s (Flow.copy.job follows)."}}, ["flow"]),
         ["UnknownFlow", "InvalidAction", "StepMismatch", "FlowDrivenElsewhere", "PrinterUnavailable", "PrintFailed"]),
        ("copy.printBlank", "Prints the consent form to take home (view action printBlank on the review document; before a flow, the start screen when study.get's printBlank is true): the study's consent in one language as it is signed, key information first, the optional elements with no box ticked, an empty signature block, and on every page \"NOT SIGNED: FOR READING ONLY\" (in the language) with the study version and the IRB approval it runs under (approvalKeys). No name, no answer, no record, no audit line: nothing of a participant is on it. With flow: the flow's study and language, on its review document only (only the connection that drives it); without: study and language (defaults: the first study, its default language), approved as flow.start requires. One form every 30 s per kiosk (PrinterUnavailable, state printing, meanwhile). Replies once CUPS took the job, or after 2 s without job.",
         [("flow", dict(string, description="From a flow's review document: its study and language (then neither study nor language)."), False),
          ("study", dict(string, description="Before a flow: the study (default: the first)."), False),
          ("language", dict(string, description="Before a flow: a language of the study (default: its default language)."), False)],
         obj({"study": string, "language": string,
              "version": dict(string, description="The version hash of the study's files in that language: what the pages' short version names."),
              "pages": {"type": "integer", "minimum": 1},
              "job": {"type": "integer", "minimum": 1, "description": "CUPS's job number; absent when CUPS had not taken the job within 2 s."}},
             ["study", "language", "version", "pages"]),
         ["UnknownFlow", "InvalidAction", "FlowDrivenElsewhere", "UnknownStudy", "UnknownLanguage", "StudyNotApproved", "PrinterUnavailable", "PrintFailed"]),
        ("printer.status", "The printer of the participant's copies, the last copy's job and what became of the last copy, for a staff page; no PHI, no record id. Needs the capability records.", [],
         obj({"configured": {"type": "boolean", "description": "False: no printer is set (printer, --printer); nothing else is present."},
              "printer": {"type": "string", "description": "The CUPS destination name."},
              "state": {"type": "string", "enum": ["idle", "printing", "stopped", "unavailable"]},
              "reason": {"type": "string", "description": "CUPS's printer-state-reasons keywords (or, when unavailable, its status keyword)."},
              "acceptingJobs": {"type": "boolean"},
              "lastJob": obj({"job": {"type": "integer", "minimum": 1},
                              "state": {"type": "string", "enum": ["pending", "held", "processing", "stopped", "cancelled", "aborted", "completed"]}},
                             ["job"]),
              "lastCopy": obj({"state": {"type": "string", "enum": ["printing", "printed", "failed"]},
                               "reason": {"type": "string", "enum": COPY_FAILURES, "description": "failed: why, as Flow.copy.reason (timedOut: not finished within printTimeoutSeconds, and cancelled by the agent)."},
                               "job": {"type": "integer", "minimum": 1, "description": "CUPS's job number, once CUPS took the copy."}},
                              ["state"]) | {"description": "What the participant was told of the last copy (Flow.copy): a failed one asked them to see staff."}},
             ["configured"]),
         ["CapabilityNotGranted"]),
        ("speech.get", "Read-aloud: a part of the flow's current screen spoken in the flow's language (eSpeak NG, in the voice of each language the kiosk has texts in), as a WAV (16-bit mono PCM), base64. The text is the view model's (never a name, passcode, answer or reason: the view model holds none) and is neither logged nor echoed. part screen: the title, the step's texts and choices, the labels of the offered actions (on a paused flow's screen, its resume code first, letter by letter, and that audio is not cached); learnMore: the screen's learn-more page; document: one section (section, 0-based) of the review document, or of the key information on step keyInformation; expiring: the expiry warning with the seconds left. Before a flow, without flow: part start (the start screen: the study's title in language, its introduction's welcome and page titles, and its controls), record (the screen that asks for an earlier consent's record number), resume (the screen that asks for a paused flow's resume code) and introduction (one page of the study's introduction, page: its id), in study and language (defaults: the first study, its default language). A part is spoken in chunks of whole sentences (chunk, 0-based; chunks is their count, each at most about 15 s of audio): play chunk 0 at once, ask for the next while it plays (the agent synthesises it ahead). Audio is cached by text and language (not a paused flow's code, nor a withdrawal's or a re-consent's texts). Any connection may ask; it does not count as activity (flow.extend does).",
         [("flow", dict(string, description="Required for every part but start, record, resume and introduction, which take none."), False),
          ("part", {"type": "string", "enum": ["screen", "learnMore", "document", "expiring", "start", "record", "resume", "introduction"]}, True),
          ("study", dict(string, description="start, record and introduction only: the study (default: the first)."), False),
          ("language", dict(string, description="start, record and introduction only: a language of the study (default: its default language)."), False),
          ("page", dict(string, description="part introduction (required): the page's id (study.get introduction.pages[].id)."), False),
          ("section", {"type": "integer", "minimum": 0, "description": "part document: the section (default 0)."}, False),
          ("chunk", {"type": "integer", "minimum": 0, "description": "The chunk of the part (default 0)."}, False)],
         obj({"flow": string, "part": string, "language": string,
              "study": dict(string, description="start, record and introduction: the study spoken."),
              "page": dict(string, description="part introduction: the page spoken."),
              "section": {"type": "integer", "minimum": 0}, "sections": {"type": "integer", "minimum": 1, "description": "part document: how many sections the document has."},
              "chunk": {"type": "integer", "minimum": 0}, "chunks": {"type": "integer", "minimum": 1},
              "mediaType": {"const": "audio/wav"},
              "durationMs": {"type": "integer", "minimum": 0},
              "size": {"type": "integer", "minimum": 44, "description": "The decoded bytes."},
              "data": {"type": "string", "contentEncoding": "base64", "pattern": "^[A-Za-z0-9+/]*={0,2}$"}},
             ["part", "language", "chunk", "chunks", "mediaType", "durationMs", "size", "data"]),
         ["UnknownFlow", "UnknownPart", "SpeechUnavailable", "UnknownStudy", "UnknownLanguage"]),
        ("staff.call", "Ask a staff member (the view's action askStaff, on every participant screen of a running flow; not on the staff step): the flow waits for a member of staff. Its inactivity clock stops (it never expires for inactivity while it waits; flow.expiring is not sent), its view gains staffCall (someone is coming), and staff.called is published. A call already open changes nothing (no second event). Returns the flow. The comprehension check that stops (phase stopped) calls by itself.",
         [flow_param], flow_result, ["UnknownFlow", "FlowBusy", "FlowFinished", "FlowExpired", "FlowDrivenElsewhere", "InvalidAction"]),
        ("staff.answer", "A member of staff came to the kiosk (a staff page: needs the capability records; any flow, whichever connection drives it): the flow's call is closed, staff.answered is published, and the flow's inactivity clock starts again. A flow without an open call is returned as it is.",
         [flow_param], flow_result, ["CapabilityNotGranted", "UnknownFlow", "FlowBusy", "FlowFinished"]),
        ("flow.pause", "I want to think about it (the view's action pause, on a consent's steps before the signature: eligibility, keyInformation, the scenes, sharing, optional, and the review's document, signer, name and representative pages; not on the comprehension check, nor while a staff call is open; never when resumeDays is 0): the flow's place and answers (never a name, signature or PIN) are sealed on the kiosk under a new resume code, encrypted with the kiosk's pause key (AES-256-GCM, 0600, written atomically), for resumeDays days (default 7); then the flow ends at step paused, its view.paused showing the code and its day. Only once the sealed file is on disk does the flow end: RecordFailed leaves it where it was. A restart of consentd keeps paused flows; past their day they are deleted (audit flow.pause_expired). Returns the flow with resumeCode and expires.",
         [flow_param],
         with_({"resumeCode": {"type": "string", "pattern": "^[ACDEFHJKMNPRTUVWXY3479]{4}-[ACDEFHJKMNPRTUVWXY3479]{4}$", "description": "The code to come back with (also view.paused.code)."},
                "expires": {"type": "string", "format": "date-time", "description": "The last moment the code works (RFC 3339 UTC)."}},
               ["resumeCode", "expires"]),
         ["UnknownFlow", "FlowBusy", "FlowFinished", "FlowExpired", "FlowDrivenElsewhere", "InvalidAction", "RecordFailed"]),
        ("flow.extend", "I need more time: restarts the flow's inactivity clock (after flow.expiring, or at any time); nothing else changes, so no flow.changed follows.",
         [flow_param], flow_result, ["UnknownFlow", "FlowBusy", "FlowFinished", "FlowExpired", "FlowDrivenElsewhere"]),
        ("uploads.status", "The upload queue's state for a staff page, without PHI or record ids. Needs the capability records.", [],
         obj({"pending": {"type": "integer", "minimum": 0, "description": "Records waiting to be delivered."},
              "parked": {"type": "integer", "minimum": 0, "description": "Records an operator set aside (consentctl queue park)."},
              "halted": {"type": "boolean", "description": "The head was refused for good: the queue waits for consentctl queue retry or park."},
              "attempts": {"type": "integer", "minimum": 0, "description": "Failed attempts of the head so far."},
              "oldestAgeSeconds": {"type": "integer", "minimum": 0, "description": "How long the oldest pending record has waited; absent when none waits."},
              "nextAttemptInSeconds": {"type": "integer", "minimum": 0, "description": "When the head is tried next; absent when none waits or the queue is halted."},
              "lastError": obj({"code": string, "httpStatus": {"type": "integer"},
                                "ageSeconds": {"type": "integer", "minimum": 0}}, ["code", "ageSeconds"]) | {
                  "description": "The head's last failure: its code (e.g. connectionFailed, serverError, rejected) and HTTP status, never its message."}},
             ["pending", "parked", "halted", "attempts"]),
         ["CapabilityNotGranted", "InternalError"]),
    ]


def events(mode):
    r = lambda n: ref(n, mode)
    string = {"type": "string"}
    integer = {"type": "integer", "minimum": 0}
    return [
        ("flow.changed", "topic flow: a flow's step or view model changed (also when it ended).", r("Flow")),
        ("flow.completed", "topic flow: the record of a flow is durable.",
         obj({"flow": string, "record": string}, ["flow", "record"])),
        ("flow.declined", "topic flow: the participant declined or disagreed.", obj({"flow": string}, ["flow"])),
        ("flow.expired", "topic flow: the flow expired after the inactivity timeout.", obj({"flow": string}, ["flow"])),
        ("flow.expiring", "topic flow: the flow expires in secondsLeft seconds unless the participant acts or asks for more time (flow.extend); sent once per approach, inactivityWarningSeconds before the inactivity timeout.",
         obj({"flow": string, "secondsLeft": integer}, ["flow", "secondsLeft"])),
        ("staff.called", "topic flow: a member of staff was called for a flow (staff.call, or the comprehension check stopping): the kiosk (kioskId), the screen (step, and page at the review or staff step, scene at a visual one), when (at, RFC 3339 UTC) and who called (reason). No PHI.",
         obj({"flow": string, "kioskId": string, "step": r("Step"), "page": string, "scene": integer,
              "at": {"type": "string", "format": "date-time"},
              "reason": {"type": "string", "enum": ["participant", "comprehensionStopped"]}},
             ["flow", "kioskId", "step", "at", "reason"])),
        ("staff.answered", "topic flow: the call was answered (staff.answer), after waitedSeconds; the flow's screen as in staff.called.",
         obj({"flow": string, "kioskId": string, "step": r("Step"), "page": string, "scene": integer,
              "at": {"type": "string", "format": "date-time"}, "waitedSeconds": integer},
             ["flow", "kioskId", "step", "at", "waitedSeconds"])),
        ("ink.points", "topic ink: points of one pad frame (coalesced per stroke when the client lags).",
         obj({"flow": string, "pad": string, "stroke": integer, "role": r("Role"),
              "points": {"type": "array", "items": r("StrokePoint")}}, ["flow", "pad", "stroke", "points"])),
        ("ink.strokeEnded", "topic ink: the pen lifted, or the pad was unplugged (the stroke ends as interrupted).",
         obj({"flow": string, "pad": string, "stroke": integer, "role": r("Role")}, ["flow", "pad", "stroke"])),
        ("pad.added", "topic pad: a pad was connected.", obj({"pad": r("Pad")}, ["pad"])),
        ("pad.removed", "topic pad: a pad was disconnected.", obj({"pad": r("Pad")}, ["pad"])),
        ("events.overflow", "always: the client lagged past its queue bound; events were dropped; resync with flow.get.",
         obj({"dropped": {"type": "integer", "minimum": 1}, "resync": string}, ["dropped", "resync"])),
        ("agent.stopping", "always, also before negotiation: the agent is stopping (SIGTERM/SIGINT); the replies of records being written came first; the agent closes the connection next. unfinishedRecords counts flow.complete writes abandoned after the shutdown bound (normally 0).",
         obj({"unfinishedRecords": {"type": "integer", "minimum": 0}}, ["unfinishedRecords"])),
    ]


def params_schema(params):
    return {"type": "object", "properties": {n: s for n, s, _ in params},
            "required": [n for n, _, req in params if req], "additionalProperties": False}


def envelopes():
    idt = {"type": ["string", "integer"]}
    return {
        "request": {"type": "object", "properties": {"jsonrpc": {"const": "2.0"}, "id": idt, "method": {"type": "string"},
                                                     "params": {"type": "object"}},
                    "required": ["jsonrpc", "id", "method"], "additionalProperties": False},
        "response": {"type": "object", "properties": {"jsonrpc": {"const": "2.0"}, "id": {"type": ["string", "integer", "null"]},
                                                      "result": {}, "error": ref("ErrorObject", "file")},
                     "required": ["jsonrpc", "id"], "additionalProperties": False,
                     "oneOf": [{"required": ["result"]}, {"required": ["error"]}]},
        "notification": {"type": "object", "properties": {"jsonrpc": {"const": "2.0"}, "method": {"type": "string"},
                                                          "params": {"type": "object"}},
                         "required": ["jsonrpc", "method", "params"], "additionalProperties": False},
        "event-params": {"type": "object", "properties": {
            "seq": {"type": "integer", "minimum": 1},
            "time": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"},
            "mono_us": {"type": "integer", "minimum": 0}, "data": {"type": "object"}},
            "required": ["seq", "time", "mono_us", "data"], "additionalProperties": False},
        "hello": {"type": "object", "properties": {
            "protocol": {"const": "consent-kiosk-agent"},
            "versions": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
            "server": obj({"name": {"type": "string"}, "version": {"type": "string"}}, ["name", "version"]),
            "capabilities": {"type": "array", "items": {"type": "string"}},
            "limits": obj({"maxLineBytes": {"type": "integer"}, "maxInFlight": {"type": "integer"},
                           "outboundQueueMessages": {"type": "integer"}, "clientKillTimeoutMs": {"type": "integer"}},
                          ["maxLineBytes", "maxInFlight"])},
            "required": ["protocol", "versions", "server", "capabilities", "limits"], "additionalProperties": True},
    }


def with_header(schema, path, title):
    out = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": BASE + path, "title": title}
    out.update(schema)
    return out


def render(value):
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=True) + "\n"


def outputs():
    files = {}
    for name, schema in types("file").items():
        files[f"schemas/types/{name}.schema.json"] = with_header(schema, f"types/{name}.schema.json", name)
    for name, schema in envelopes().items():
        files[f"schemas/envelope/{name}.schema.json"] = with_header(schema, f"envelope/{name}.schema.json", name)
    for name, summary, params, result, errors in methods("file"):
        files[f"schemas/methods/{name}.params.schema.json"] = with_header(
            params_schema(params), f"methods/{name}.params.schema.json", f"{name} params")
        files[f"schemas/methods/{name}.result.schema.json"] = with_header(
            copy.deepcopy(result), f"methods/{name}.result.schema.json", f"{name} result")
    for name, summary, data in events("file"):
        files[f"schemas/events/{name}.schema.json"] = with_header(
            dict(copy.deepcopy(data), description=summary), f"events/{name}.schema.json", f"{name} data")
    files["errors.json"] = {n: {"code": c, "description": d, "since": "1.0"} for n, (c, d) in sorted(ERRORS.items())}

    openrpc = {
        "openrpc": "1.3.2",
        "info": {"title": "consentd (consent-kiosk-agent)", "version": VERSION,
                 "description": "JSON-RPC 2.0 over newline-delimited JSON on a UNIX socket. See Protocol/README.md."},
        "methods": [],
        "components": {"schemas": types("openrpc")},
        "x-events": [],
    }
    for name, summary, params, result, errors in methods("openrpc"):
        openrpc["methods"].append({
            "name": name, "summary": summary, "paramStructure": "by-name",
            "params": [{"name": n, "required": req, "schema": s} for n, s, req in params],
            "result": {"name": "result", "schema": result},
            "errors": [{"code": ERRORS[e][0], "message": ERRORS[e][1], "data": {"type": e}}
                       for e in ["InvalidParams"] + errors],
        })
    for name, summary, data in events("openrpc"):
        openrpc["x-events"].append({"name": name, "summary": summary, "data": data})
    files["consentd.openrpc.json"] = openrpc
    return files, openrpc


def main():
    check = "--check" in sys.argv
    files, openrpc = outputs()
    compact = json.dumps(openrpc, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    assert '"##' not in compact
    swift = ("// Generated by Protocol/tools/generate.py from the same source as Protocol/consentd.openrpc.json.\n"
             "// Do not edit; run scripts/generate-protocol. A test checks it equals the published document.\n"
             "enum OpenRPCText {\n    static let json = ##\"" + compact + "\"##\n}\n")
    rendered = {os.path.join(PROTOCOL, p): render(v) for p, v in files.items()}
    rendered[os.path.join(ROOT, "Sources/ConsentAgent/OpenRPCText.swift")] = swift
    stale = []
    for path, text in sorted(rendered.items()):
        current = open(path).read() if os.path.exists(path) else None
        if current != text:
            stale.append(os.path.relpath(path, ROOT))
            if not check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
    if check and stale:
        print("out of date (run scripts/generate-protocol):", *stale, sep="\n  ", file=sys.stderr)
        sys.exit(1)
    print(f"{len(rendered)} files {'checked' if check else 'written'}; {len(stale)} {'stale' if check else 'changed'}")


if __name__ == "__main__":
    main()
