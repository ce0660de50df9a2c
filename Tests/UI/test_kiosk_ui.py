"""The reference kiosk UI in Debian's chromium, end to end through consentweb and consentd."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By

from kiosk import BIN, ROOT, Kiosk, call_agent, canvas_ink_pixels, canvas_inked_near

SIGNERS_STUDY = ROOT / "Tests" / "ConsentdIntegrationTests" / "Fixtures" / "signers-study"
SAMPLE_STUDY = ROOT / "Sources" / "SampleStudy" / "sample"
STAFF_FILE = ROOT / "Tests" / "Fixtures" / "staff.json"
PEN_TABLET = ROOT / "Tests" / "SignaturePadLinuxTests" / "Fixtures" / "pen-tablet"
UMOCKDEV_RUN = "/usr/bin/umockdev-run"


def draw_signature(kiosk, kind):
    """A zigzag signature drawn with W3C pointer actions of `kind` (pen or touch) on the signing canvas."""
    canvas = kiosk.driver.find_element(By.CSS_SELECTOR, "canvas[data-signature]")
    width, height = canvas.size["width"], canvas.size["height"]
    pointer = PointerInput(interaction.POINTER_PEN if kind == "pen" else interaction.POINTER_TOUCH, kind)
    actions = ActionBuilder(kiosk.driver, mouse=pointer, duration=10)
    points = [(-0.4 + i * 0.05, 0.15 if i % 2 else -0.15) for i in range(17)]
    x, y = points[0]
    actions.pointer_action.move_to(canvas, int(x * width), int(y * height))
    actions.pointer_action.pointer_down(pressure=0.4)
    for i, (x, y) in enumerate(points[1:]):
        actions.pointer_action.move_to(canvas, int(x * width), int(y * height), pressure=0.4 + (i % 5) / 10)
    actions.pointer_action.pointer_up()
    actions.perform()


def answer_eligibility(kiosk, answers, correct_first=False):
    kiosk.wait_screen("eligibility")
    if correct_first and answers:
        # A mistaken tap, corrected before anything is sent: the flow must not end as ineligible.
        kiosk.tap(f'[data-action="answer"][data-question="0"][data-answer="{"no" if answers[0] else "yes"}"]')
        kiosk.shot("eligibility-mistaken-tap")
    for index, answer in enumerate(answers):
        kiosk.tap(f'[data-action="answer"][data-question="{index}"][data-answer="{"yes" if answer else "no"}"]')
    kiosk.shot("eligibility-answered")
    submit = [e for e in kiosk.driver.find_elements(By.CSS_SELECTOR, '[data-action="answer"]:not([data-question])') if e.is_displayed()]
    if submit:
        submit[0].click()
    kiosk.tap('nav [data-action="next"]')


# The sample study's optional elements, in its order: future use of data, contact about other studies.
SAMPLE_OPTIONAL = ("future-research", "contact-other-studies")


def answer_optional(kiosk, answers=(True, False), visit=None):
    """The sample study's optional elements (step optional), answered in order (True: Yes): nothing is chosen
    before the participant chooses and the send button waits for every answer; then it sends them."""
    kiosk.wait_screen("optional")
    ids = [e.get_attribute("data-element") for e in kiosk.driver.find_elements(By.CSS_SELECTOR, "#screen li.optional-element")]
    assert ids == list(SAMPLE_OPTIONAL), ids
    pressed = [b.get_attribute("aria-pressed") for b in kiosk.driver.find_elements(By.CSS_SELECTOR, '#screen [data-action="optionalAnswer"][data-answer]')]
    assert pressed and all(p == "false" for p in pressed), pressed
    send = kiosk.driver.find_element(By.CSS_SELECTOR, '#actions [data-action="optionalAnswer"][data-confirm]')
    assert not send.is_enabled(), "the send button before any answer"
    for element, answer in zip(ids, answers):
        kiosk.tap(f'#screen [data-action="optionalAnswer"][data-element="{element}"][data-answer="{"yes" if answer else "no"}"]')
    if visit:
        visit("optional")
    else:
        kiosk.shot("optional-answered")
    kiosk.tap('#actions [data-action="optionalAnswer"][data-confirm]')


def through_key_information(kiosk):
    """The key information the sample study begins with (step keyInformation): its page shown whole, then Next."""
    kiosk.wait_screen("keyInformation")
    kiosk.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#screen .document.key-information li"),
               message="the key information's page")
    kiosk.shot("key-information")
    kiosk.tap('nav [data-action="next"]')
    kiosk.wait(lambda d: kiosk.screen() != "keyInformation")


def through_scenes(kiosk, open_learn_more=True):
    kiosk.wait(lambda d: kiosk.screen() in ("keyInformation", "visual", "sharing", "reviewStep"))
    if kiosk.screen() == "keyInformation":
        through_key_information(kiosk)
    kiosk.wait(lambda d: kiosk.screen() in ("visual", "sharing", "reviewStep"))
    while kiosk.screen() == "visual":
        index = kiosk.scene_index()
        if kiosk.driver.execute_script("return window.consentKiosk.state.current.view.scene.image ?? null"):
            # The scene's image comes from the agent (study.asset) and is shown.
            kiosk.wait(lambda d: d.execute_script(
                "const i = document.querySelector('img.scene-image'); return !!i && i.complete && i.naturalWidth > 0"),
                message="the scene's image")
        kiosk.shot(f"scene-{index}")
        if open_learn_more and index == 0:
            more = kiosk.driver.find_elements(By.CSS_SELECTOR, '[data-action="learnMore"]')
            if more:
                more[0].click()
                kiosk.shot("scene-0-learn-more")
        kiosk.tap('nav [data-action="next"]')
        kiosk.wait(lambda d: kiosk.scene_index() != index or kiosk.screen() != "visual")


def study_copy(test, change=None):
    """A copy of the sample study in a temporary folder, changed by `change(folder)`."""
    study = Path(tempfile.mkdtemp(prefix="cui-study-", dir="/tmp")) / "study"
    test.addCleanup(shutil.rmtree, study.parent, True)
    shutil.copytree(SAMPLE_STUDY, study)
    if change:
        change(study)
    return study


def asking_for_a_passcode(study):
    options = json.loads((study / "options.json").read_text())
    options["askToCreatePasscode"] = True
    (study / "options.json").write_text(json.dumps(options))


def private_cups(test):
    """A private cupsd with a cups-pdf queue (Tests/Printing/private-cupsd), CUPS_SERVER set to it for the test:
    returns (its folder, whose out/ has the PDFs it printed, and the queue's name)."""
    cups_dir = tempfile.mkdtemp(prefix="cups-ui-", dir="/tmp")
    script = str(Path(__file__).resolve().parent.parent / "Printing" / "private-cupsd")
    started = subprocess.run([script, "start", cups_dir], capture_output=True, text=True)
    test.addCleanup(lambda: (subprocess.run([script, "stop", cups_dir]), shutil.rmtree(cups_dir, ignore_errors=True)))
    test.assertEqual(started.returncode, 0, started.stdout + started.stderr)
    values = dict(line.split("=", 1) for line in started.stdout.splitlines() if "=" in line)
    previous = os.environ.get("CUPS_SERVER")
    os.environ["CUPS_SERVER"] = values["CUPS_SERVER"]
    test.addCleanup(lambda: os.environ.pop("CUPS_SERVER") if previous is None else os.environ.update(CUPS_SERVER=previous))
    return Path(cups_dir), values["QUEUE"]


def ui_texts(kiosk, language=None):
    """The agent's UI texts (study.get's texts), to check the UI shows the agent's words."""
    params = {"language": language} if language else {}
    return call_agent(kiosk.agent.socket, ("study.get", params))[0]["result"]["study"]["texts"]


def open_record_screen(kiosk, record):
    kiosk.wait_screen("start")
    kiosk.tap('[data-action="existingRecord"]')
    kiosk.wait_screen("record")
    kiosk.type_on_keyboard("record", record)


def to_signature_page(kiosk, given, family, share_widely):
    """The sample study from the start screen to the participant's signature page, without detours: eligible at
    once, the scenes, sharing, Agree, the comprehension questions answered right, the name typed."""
    kiosk.wait_screen("start")
    kiosk.tap('[data-action="start"]')
    answer_eligibility(kiosk, [True, True, False, True])
    through_scenes(kiosk, open_learn_more=False)
    kiosk.wait_screen("sharing")
    kiosk.tap(f'[data-action="chooseSharing"][data-choice="{"true" if share_widely else "false"}"]')
    kiosk.tap('[data-action="chooseSharing"][data-confirm]')
    answer_optional(kiosk)
    kiosk.wait_page("document")
    kiosk.tap('nav [data-action="agree"]')
    kiosk.answer_comprehension()
    kiosk.wait_page("name")
    kiosk.type_on_keyboard("given", given)
    kiosk.type_on_keyboard("family", family)
    kiosk.tap('[data-action="setName"]')
    kiosk.wait_page("signature")


def consent(kiosk, kind, given="Ada", family="Lovelace", passcode=None, comprehension=None, optional=(True, False)):
    kiosk.wait_screen("start")
    kiosk.shot("start")
    kiosk.tap('[data-action="start"]')
    answer_eligibility(kiosk, [True, True, False, True], correct_first=True)
    through_scenes(kiosk)
    kiosk.wait_screen("sharing")
    kiosk.tap('[data-action="chooseSharing"][data-choice="true"]')
    kiosk.shot("sharing")
    kiosk.tap('[data-action="chooseSharing"][data-confirm]')
    answer_optional(kiosk, optional)
    kiosk.wait_page("document")
    kiosk.shot("review-document")
    kiosk.tap('nav [data-action="agree"]')
    (comprehension or kiosk.answer_comprehension)()
    kiosk.wait_page("name")
    kiosk.type_on_keyboard("given", given)
    kiosk.type_on_keyboard("family", family)
    kiosk.shot("name")
    kiosk.tap('[data-action="setName"]')
    kiosk.wait_page("signature")
    kiosk.shot("signature-empty")
    draw_signature(kiosk, kind)
    kiosk.wait(lambda d: canvas_ink_pixels(d) > 50, message="ink on the canvas")
    kiosk.shot(f"signature-{kind}")
    kiosk.tap('[data-action="submitSignature"]')
    if passcode:
        kiosk.wait_screen("passcode")
        kiosk.type_on_keyboard("passcode", passcode)
        kiosk.shot("passcode")
        kiosk.tap('[data-action="setPasscode"]')
    kiosk.wait_screen("done")
    kiosk.shot("done")
    kiosk.tap('nav [data-action="complete"]')
    kiosk.wait_screen("completed", timeout=60)
    kiosk.shot("completed")
    # The end screen's words are the agent's (view.end), not the UI's.
    end = kiosk.driver.execute_script("return window.consentKiosk.state.current.view.end")
    assert end["title"] and kiosk.driver.find_element(By.CSS_SELECTOR, "#screen h2").text == end["title"]
    return kiosk.driver.execute_script("return window.consentKiosk.state.current.record")


class KioskUITests(unittest.TestCase):
    def kiosk(self, *args, **kwargs):
        kiosk = Kiosk(self.id().split(".")[-1], *args, **kwargs)
        self.addCleanup(kiosk.close)
        return kiosk

    def check_record(self, kiosk, record, name):
        directory = Path(kiosk.agent.state) / "records" / record
        verify = subprocess.run([str(BIN / "consentctl"), "verify", str(directory)], capture_output=True, text=True)
        self.assertEqual(verify.returncode, 0, verify.stdout + verify.stderr)
        text = subprocess.run(["pdftotext", str(directory / "consent.pdf"), "-"], capture_output=True, text=True).stdout
        self.assertIn(name, " ".join(text.split()))

    def test_full_consent_signed_with_a_pen(self):
        kiosk = self.kiosk()
        record = consent(kiosk, "pen")
        self.check_record(kiosk, record, "Ada Lovelace")
        self.assertEqual([], kiosk.errors_in_console())

    def test_optional_elements_answered_yes_and_no_reach_the_review_the_pdf_and_the_fhir_consent(self):
        """At 1024x768: the sample study's two optional elements on one screen, nothing chosen, the send button
        waiting for both; answered No and Yes, the review document lists them (☐ Yes ☒ No, ☒ Yes ☐ No), the PDF
        too, and bundle.json's Consent has one nested provision each (deny, permit) and validates as FHIR R4."""
        kiosk = self.kiosk(size=(1024, 768))
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        answer_eligibility(kiosk, [True, True, False, True])
        through_scenes(kiosk, open_learn_more=False)
        kiosk.wait_screen("sharing")
        kiosk.tap('[data-action="chooseSharing"][data-choice="true"]')
        kiosk.tap('[data-action="chooseSharing"][data-confirm]')
        kiosk.wait_screen("optional")
        # The first element's Learn more page opens in place.
        kiosk.tap('#screen li[data-element="future-research"] [data-action="learnMore"]')
        kiosk.wait(lambda d: any(p.is_displayed() and "ethics committee approves each use" in p.text for p in d.find_elements(
            By.CSS_SELECTOR, '#screen li[data-element="future-research"] .learn-more')), message="the Learn more page")
        kiosk.shot("optional-learn-more")
        # Only one answer: the send button stays disabled, so the flow cannot go on half answered.
        kiosk.tap('#screen [data-element="future-research"][data-answer="no"]')
        self.assertFalse(kiosk.driver.find_element(By.CSS_SELECTOR, '#actions [data-action="optionalAnswer"]').is_enabled())
        kiosk.tap('#screen [data-element="contact-other-studies"][data-answer="yes"]')
        self.assertEqual(["false", "true", "true", "false"], [
            b.get_attribute("aria-pressed")
            for b in kiosk.driver.find_elements(By.CSS_SELECTOR, '#screen [data-action="optionalAnswer"][data-answer]')])
        kiosk.shot("optional-answered")
        kiosk.tap('#actions [data-action="optionalAnswer"][data-confirm]')
        kiosk.wait_page("document")
        document = " ".join(kiosk.driver.find_element(By.CSS_SELECTOR, "#screen .document").text.split())
        self.assertIn("Optional parts", document)
        self.assertIn("Future research with your data", document)
        self.assertIn("\u2610 Yes \u2612 No", document)
        self.assertIn("\u2612 Yes \u2610 No", document)
        # Back from the review document: the answers given are shown again, and one button goes on.
        kiosk.tap('nav [data-action="back"]')
        kiosk.wait_screen("optional")
        self.assertEqual("true", kiosk.driver.find_element(
            By.CSS_SELECTOR, '#screen [data-element="future-research"][data-answer="no"]').get_attribute("aria-pressed"))
        self.assertEqual([], [b for b in kiosk.driver.find_elements(By.CSS_SELECTOR, '#actions [data-action="next"]')])
        kiosk.tap('#actions [data-action="optionalAnswer"][data-confirm]')
        kiosk.wait_page("document")
        kiosk.tap('nav [data-action="agree"]')
        kiosk.answer_comprehension()
        kiosk.wait_page("name")
        kiosk.type_on_keyboard("given", "Ada")
        kiosk.type_on_keyboard("family", "Lovelace")
        kiosk.tap('[data-action="setName"]')
        kiosk.wait_page("signature")
        draw_signature(kiosk, "pen")
        kiosk.wait(lambda d: canvas_ink_pixels(d) > 50, message="ink on the canvas")
        kiosk.tap('[data-action="submitSignature"]')
        kiosk.wait_screen("done")
        kiosk.tap('nav [data-action="complete"]')
        kiosk.wait_screen("completed", timeout=60)
        record = kiosk.driver.execute_script("return window.consentKiosk.state.current.record")
        self.check_record(kiosk, record, "Ada Lovelace")
        directory = Path(kiosk.agent.state) / "records" / record
        text = " ".join(subprocess.run(["pdftotext", str(directory / "consent.pdf"), "-"], capture_output=True,
                                       text=True).stdout.split())
        self.assertIn("Optional parts", text)
        self.assertIn("Contact about other studies", text)
        bundle = json.loads((directory / "bundle.json").read_text())
        consent = next(e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "Consent")
        nested = [p for p in consent["provision"]["provision"] if p.get("id", "").startswith("optional-")]
        self.assertEqual([("optional-future-research", "deny", "future-research"),
                          ("optional-contact-other-studies", "permit", "recontact")],
                         [(p["id"], p["type"], p["purpose"][0]["code"]) for p in nested])
        manifest = json.loads((directory / "manifest.json").read_text())
        self.assertEqual([("future-research", False), ("contact-other-studies", True)],
                         [(e["id"], e["permitted"]) for e in manifest["optionalElements"]])
        validator = ROOT / "Tests" / "ConsentSigningTests" / "validate_fhir.py"
        valid = subprocess.run([sys.executable, str(validator), str(directory / "bundle.json")], capture_output=True, text=True)
        self.assertEqual(0, valid.returncode, valid.stdout + valid.stderr)
        self.assertEqual([], kiosk.errors_in_console())

    def test_a_wrong_comprehension_answer_shows_the_explanation_and_the_record_keeps_the_attempts(self):
        """At 1024x768: a wrong answer to the first question shows the agent's message, the explanation and the
        section again; Try Again asks it again; the record's QuestionnaireResponse and manifest hold both answers."""
        kiosk = self.kiosk(size=(1024, 768))

        def answer_with_one_mistake():
            kiosk.wait(lambda d: kiosk.screen() == "comprehension" and not kiosk.overlay_shown(), message="comprehension")
            kiosk.shot("comprehension-question")
            view = kiosk.comprehension()
            self.assertEqual(view["phase"], "question")
            shown = [b.text for b in kiosk.driver.find_elements(By.CSS_SELECTOR, '[data-action="comprehensionAnswer"]')]
            self.assertEqual(shown, view["choices"])
            kiosk.tap('[data-action="comprehensionAnswer"][data-choice="0"]')
            kiosk.wait(lambda d: (kiosk.comprehension() or {}).get("phase") == "explanation" and not kiosk.overlay_shown(),
                       message="the explanation")
            kiosk.shot("comprehension-explanation")
            view = kiosk.comprehension()
            text = kiosk.driver.find_element(By.ID, "screen").text
            for expected in (view["text"], view["explanation"], view["sectionTitle"], "four weeks"):
                self.assertIn(expected, text)
            self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, ".chosen").text, view["choices"][0])
            # The way on is the navigation's next, labelled by the agent, and it is on screen without scrolling.
            next_button = kiosk.button('nav [data-action="next"]')
            self.assertEqual(next_button.text, kiosk.driver.execute_script(
                "return window.consentKiosk.state.current.view.labels.next"))
            self.assertTrue(kiosk.driver.execute_script(
                "const r = arguments[0].getBoundingClientRect(); return r.bottom <= innerHeight && r.right <= innerWidth",
                next_button), "next is below the fold at 1024x768")
            kiosk.tap('nav [data-action="next"]')
            kiosk.wait(lambda d: (kiosk.comprehension() or {}).get("phase") == "question"
                       and kiosk.comprehension().get("attempt") == 1 and not kiosk.overlay_shown(), message="asked again")
            kiosk.answer_comprehension(shot="comprehension")

        record = consent(kiosk, "touch", comprehension=answer_with_one_mistake)
        self.check_record(kiosk, record, "Ada Lovelace")
        directory = Path(kiosk.agent.state) / "records" / record
        manifest = json.loads((directory / "manifest.json").read_text())
        self.assertEqual([q["attempts"] for q in manifest["comprehension"]["questions"]], [[0, 1], [1], [0]])
        response = json.loads((directory / "questionnaire-response.json").read_text())
        codes = [answer["valueCoding"]["code"] for answer in response["item"][0]["item"][0]["answer"]]
        self.assertEqual(codes, ["0", "1"])
        pdf = subprocess.run(["pdftotext", str(directory / "consent.pdf"), "-"], capture_output=True, text=True).stdout
        self.assertIn("Answered correctly on attempt 2.", " ".join(pdf.split()))
        self.assertEqual([], kiosk.errors_in_console())

    def test_repeated_misses_stop_and_call_the_staff_in_german(self):
        """A study that stops after one miss, in German at 1024x768: the wrong answer's screen asks for the staff in
        the agent's words, offers only decline and cancel, and cancel ends the flow without a record."""
        def stopping(study):
            options = json.loads((study / "options.json").read_text())
            options["comprehension"] = {"attempts": 1, "onRepeatedMiss": "stop"}
            (study / "options.json").write_text(json.dumps(options))

        kiosk = self.kiosk(study=study_copy(self, stopping), size=(1024, 768))
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="language"][data-language="de"]')
        kiosk.wait(lambda d: d.find_element(By.CSS_SELECTOR, '[data-action="start"]').text == ui_texts(kiosk, "de")["start"])
        kiosk.tap('[data-action="start"]')
        answer_eligibility(kiosk, [True, True, False, True])
        through_scenes(kiosk, open_learn_more=False)
        kiosk.wait_screen("sharing")
        kiosk.tap('[data-action="chooseSharing"][data-choice="true"]')
        kiosk.tap('[data-action="chooseSharing"][data-confirm]')
        answer_optional(kiosk)
        kiosk.wait_page("document")
        kiosk.tap('nav [data-action="agree"]')
        kiosk.wait(lambda d: kiosk.screen() == "comprehension" and not kiosk.overlay_shown(), message="comprehension")
        kiosk.shot("comprehension-question-de")
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, "h2.comprehension-question").text,
                         "Wie lange dauert die Studie?")
        kiosk.tap('[data-action="comprehensionAnswer"][data-choice="2"]')
        kiosk.wait(lambda d: (kiosk.comprehension() or {}).get("phase") == "stopped" and not kiosk.overlay_shown(),
                   message="the stop")
        kiosk.shot("comprehension-stopped-de")
        view = kiosk.comprehension()
        self.assertIn("Mitarbeiter", view["text"])
        self.assertIn(view["text"], kiosk.driver.find_element(By.ID, "screen").text)
        actions = [b.get_attribute("data-action") for b in kiosk.driver.find_elements(By.CSS_SELECTOR, "nav button")]
        self.assertEqual(sorted(actions), ["cancel", "decline"])
        kiosk.tap('nav [data-action="cancel"]')
        kiosk.wait_screen("cancelled")
        self.assertEqual([], list((Path(kiosk.agent.state) / "records").glob("*-*")))

    def test_full_consent_signed_by_touch_in_portrait(self):
        kiosk = self.kiosk(size=(800, 1280))
        record = consent(kiosk, "touch", given="Grace", family="Hopper")
        self.check_record(kiosk, record, "Grace Hopper")

    @unittest.skipUnless(os.access(UMOCKDEV_RUN, os.X_OK), "umockdev-run is not installed (scripts/ensure-deps installs it)")
    def test_pad_ink_is_drawn_live_on_the_canvas(self):
        """A (umockdev) pen tablet's replayed signature: echoed as ink.points, painted where it was drawn, recorded."""
        node = "/dev/input/event10"
        wrapper = [UMOCKDEV_RUN, "-d", str(PEN_TABLET / "device.umockdev"), "-i", f"{node}={PEN_TABLET / 'device.ioctl'}",
                   "-e", f"{node}={PEN_TABLET / 'signature.evemu'}"]
        kiosk = self.kiosk(agent_wrapper=wrapper, agent_args=["--pad-include-uninitialized"])
        to_signature_page(kiosk, "Pat", "Pen", share_widely=False)
        # The UI began a capture on the pad by itself; the replay starts when the node is opened.
        expected = json.loads((PEN_TABLET / "signature.strokes.json").read_text())["strokes"]
        points = [point for stroke in expected for point in stroke]
        kiosk.wait(lambda d: canvas_inked_near(d, points) == len(points), timeout=20,
                   message="every replayed point painted on the canvas")
        aspect = kiosk.driver.execute_script(
            "const c = document.querySelector('canvas[data-signature]'); return c.clientWidth / c.clientHeight")
        self.assertAlmostEqual(aspect, 216 / 135, delta=0.05)
        kiosk.shot("pad-ink")
        kiosk.tap('[data-action="submitSignature"]')
        kiosk.wait_screen("done")
        kiosk.tap('nav [data-action="complete"]')
        kiosk.wait_screen("completed", timeout=60)
        record = kiosk.driver.execute_script("return window.consentKiosk.state.current.record")
        self.check_record(kiosk, record, "Pat Pen")
        signature = json.loads((Path(kiosk.agent.state) / "records" / record / "signature.json").read_text())
        # The record took the pad's own capture (both strokes of the recording), not anything the UI drew.
        self.assertEqual(len(signature["strokes"]), len(expected))

    def test_large_landscape_screen(self):
        kiosk = self.kiosk(size=(1920, 1080))
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        kiosk.wait_screen("eligibility")
        kiosk.shot("eligibility-1920x1080")
        # Every control is a real button at least 48 px in both directions.
        small = kiosk.driver.execute_script("""
            return [...document.querySelectorAll('button')].filter(b => b.offsetParent)
              .map(b => b.getBoundingClientRect()).filter(r => r.width < 48 || r.height < 48).length""")
        self.assertEqual(small, 0)

    def test_witness_and_representative(self):
        kiosk = self.kiosk(study=SIGNERS_STUDY)
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        answer_eligibility(kiosk, [])
        through_scenes(kiosk, open_learn_more=False)
        kiosk.wait_page("document")
        kiosk.tap('nav [data-action="agree"]')
        kiosk.wait_page("signer")
        kiosk.shot("signer")
        kiosk.tap('[data-action="chooseSigner"][data-signer="representative"]')
        kiosk.wait_page("name")
        kiosk.type_on_keyboard("given", "Tom")
        kiosk.type_on_keyboard("family", "Child")
        kiosk.tap('[data-action="setName"]')
        kiosk.wait_page("representative")
        kiosk.type_on_keyboard("given", "Mary")
        kiosk.type_on_keyboard("family", "Parent")
        kiosk.tap('[data-action="setSignerName"][data-relationship="PRN"]')
        kiosk.shot("representative")
        kiosk.tap('[data-action="setSignerName"][data-submit]')
        kiosk.wait_page("signature")
        draw_signature(kiosk, "pen")
        kiosk.shot("representative-signature")
        kiosk.tap('[data-action="submitSignature"]')
        kiosk.wait_page("witness")
        kiosk.type_on_keyboard("given", "Walter")
        kiosk.type_on_keyboard("family", "Witness")
        kiosk.shot("witness")
        kiosk.tap('[data-action="setSignerName"]')
        kiosk.wait_page("witnessSignature")
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, "canvas[data-signature]").get_attribute("data-signature"), "witness")
        draw_signature(kiosk, "touch")
        kiosk.shot("witness-signature")
        kiosk.tap('[data-action="submitSignature"]')
        kiosk.wait_screen("done")
        kiosk.tap('nav [data-action="complete"]')
        kiosk.wait_screen("completed", timeout=60)
        kiosk.shot("completed")
        record = kiosk.driver.execute_script("return window.consentKiosk.state.current.record")
        self.check_record(kiosk, record, "Walter Witness")

    def test_passcode_then_a_withdrawal_with_it(self):
        """A consent that sets a passcode, then its withdrawal from the start screen: the passcode is asked for,
        a wrong one is refused in the agent's words, the right one opens the withdrawal."""
        kiosk = self.kiosk(study=study_copy(self, asking_for_a_passcode))
        record = consent(kiosk, "pen", passcode="2468")
        errors = ui_texts(kiosk)["errors"]
        kiosk.tap('[data-action="start"]')
        open_record_screen(kiosk, record)
        kiosk.shot("record")
        kiosk.tap('[data-action="withdraw"]')
        kiosk.wait(lambda d: kiosk.banner() == errors["PasscodeRequired"], message="PasscodeRequired in words")
        kiosk.shot("passcode-required")
        kiosk.type_on_keyboard("passcode", "1111")
        kiosk.tap('[data-action="withdraw"]')
        kiosk.wait(lambda d: kiosk.banner() == errors["WrongPasscode"], message="WrongPasscode in words")
        kiosk.shot("wrong-passcode")
        for _ in range(4):
            kiosk.tap('[data-action="key"][data-key="backspace"]')
        kiosk.type_on_keyboard("passcode", "2468")
        kiosk.tap('[data-action="withdraw"]')
        kiosk.wait_screen("withdrawal")
        kiosk.type_on_keyboard("reason", "moving away")
        kiosk.shot("withdrawal")
        kiosk.tap('[data-action="confirmWithdrawal"]')
        kiosk.wait_page("name")
        kiosk.type_on_keyboard("given", "Ada")
        kiosk.type_on_keyboard("family", "Lovelace")
        kiosk.tap('[data-action="setName"]')
        kiosk.wait_page("signature")
        draw_signature(kiosk, "touch")
        kiosk.shot("withdrawal-signature")
        kiosk.tap('[data-action="submitSignature"]')
        kiosk.wait_screen("done")
        kiosk.shot("withdrawal-done")
        kiosk.tap('nav [data-action="complete"]')
        kiosk.wait_screen("completed", timeout=60)
        kiosk.shot("withdrawal-completed")
        withdrawal = kiosk.driver.execute_script("return window.consentKiosk.state.current.record")
        verify = subprocess.run([str(BIN / "consentctl"), "verify", str(Path(kiosk.agent.state) / "records" / withdrawal)],
                                capture_output=True, text=True)
        self.assertEqual(verify.returncode, 0, verify.stdout + verify.stderr)
        original = call_agent(kiosk.agent.socket, ("records.get", {"id": record}))[0]["result"]
        self.assertEqual(original.get("withdrawnBy"), withdrawal)

    def test_a_change_of_one_answer_from_the_record_screen(self):
        """A consent with a passcode (future research yes, contact no), then a change from the record screen: the
        elements show the record's answers, one is changed, the participant signs, and the new record amends the
        original with both answers as they now stand."""
        kiosk = self.kiosk(study=study_copy(self, asking_for_a_passcode))
        record = consent(kiosk, "touch", passcode="2468")
        texts = ui_texts(kiosk)
        kiosk.tap('[data-action="start"]')
        open_record_screen(kiosk, record)
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, '[data-action="change"]').text, texts["change"])
        kiosk.tap('[data-action="change"]')
        kiosk.wait(lambda d: kiosk.banner() == texts["errors"]["PasscodeRequired"], message="PasscodeRequired in words")
        kiosk.type_on_keyboard("passcode", "2468")
        kiosk.tap('[data-action="change"]')
        kiosk.wait_screen("optional")
        kiosk.shot("change-optional")
        pressed = {
            (b.get_attribute("data-element"), b.get_attribute("data-answer")): b.get_attribute("aria-pressed")
            for b in kiosk.driver.find_elements(By.CSS_SELECTOR, '#screen [data-action="optionalAnswer"][data-answer]')
        }
        self.assertEqual(pressed[("future-research", "yes")], "true")
        self.assertEqual(pressed[("contact-other-studies", "no")], "true")
        kiosk.tap('#screen [data-action="optionalAnswer"][data-element="contact-other-studies"][data-answer="yes"]')
        kiosk.tap('#actions [data-action="optionalAnswer"][data-confirm]')
        kiosk.wait_page("name")
        kiosk.type_on_keyboard("given", "Ada")
        kiosk.type_on_keyboard("family", "Lovelace")
        kiosk.tap('[data-action="setName"]')
        kiosk.wait_page("signature")
        draw_signature(kiosk, "touch")
        kiosk.tap('[data-action="submitSignature"]')
        kiosk.wait_screen("done")
        # The closing screens speak of the changed choices (the agent's words), not of a consent.
        message = kiosk.driver.execute_script("return window.consentKiosk.state.current.view.end.message")
        self.assertIn("changed choices", message)
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, "#screen .summary").text, message)
        kiosk.tap('nav [data-action="complete"]')
        kiosk.wait_screen("completed", timeout=60)
        kiosk.shot("change-completed")
        self.assertIn("changed choices have been saved", kiosk.driver.find_element(By.CSS_SELECTOR, "#screen .summary").text)
        change = kiosk.driver.execute_script("return window.consentKiosk.state.current.record")
        verify = subprocess.run([str(BIN / "consentctl"), "verify", str(Path(kiosk.agent.state) / "records" / change)],
                                capture_output=True, text=True)
        self.assertEqual(verify.returncode, 0, verify.stdout + verify.stderr)
        original = call_agent(kiosk.agent.socket, ("records.get", {"id": record}))[0]["result"]
        self.assertEqual(original.get("amendedBy"), change)
        manifest = json.loads((Path(kiosk.agent.state) / "records" / change / "manifest.json").read_text())
        self.assertEqual(manifest["amends"], record)
        self.assertEqual([e["permitted"] for e in manifest["optionalElements"]], [True, True])

    def test_reconsent_shows_what_changed(self):
        """A consent, the study's text changed, the agent restarted on it: the record's re-consent starts at the
        changes screen (and before the change, the agent's StudyUnchanged sentence)."""
        study = study_copy(self)
        kiosk = self.kiosk(study=study)
        record = consent(kiosk, "touch")
        kiosk.tap('[data-action="start"]')
        open_record_screen(kiosk, record)
        kiosk.tap('[data-action="reconsent"]')
        unchanged = ui_texts(kiosk)["errors"]["StudyUnchanged"]
        kiosk.wait(lambda d: kiosk.banner() == unchanged, message="StudyUnchanged in words")
        kiosk.shot("study-unchanged")
        page = study / "withdrawing.html"
        page.write_text(page.read_text() + "<p>You may also ask us to delete your samples.</p>\n")
        kiosk.agent.stop()
        kiosk.agent.start()
        open_record_screen(kiosk, record)
        kiosk.tap('[data-action="reconsent"]')
        kiosk.wait_screen("changes")
        kiosk.shot("changes")
        changes = kiosk.driver.execute_script("return window.consentKiosk.state.current.view.changes")
        self.assertEqual(len(changes["edited"]), 1)
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, "ul.changes-edited li").text, changes["edited"][0])
        kiosk.tap('nav [data-action="next"]')
        kiosk.wait_screen("eligibility")
        kiosk.shot("reconsent-eligibility")

    def test_language_switch(self):
        kiosk = self.kiosk()
        kiosk.wait_screen("start")
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, '[data-action="start"]').text, ui_texts(kiosk)["start"])
        kiosk.tap('[data-action="language"][data-language="de"]')
        german = ui_texts(kiosk, "de")
        self.assertEqual(german["start"], "Beginnen")
        kiosk.wait(lambda d: d.find_element(By.CSS_SELECTOR, '[data-action="start"]').text == german["start"])
        kiosk.shot("start-de")
        kiosk.tap('[data-action="start"]')
        kiosk.wait_screen("eligibility")
        kiosk.shot("eligibility-de")
        self.assertEqual(kiosk.driver.execute_script("return window.consentKiosk.state.current.view.language"), "de")
        self.assertEqual(kiosk.driver.execute_script("return document.documentElement.lang"), "de")

    def test_expiry_returns_to_the_start_screen(self):
        kiosk = self.kiosk(agent_args=["--inactivity-timeout", "3"])
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        kiosk.wait_screen("eligibility")
        kiosk.wait_screen("start", timeout=30)
        kiosk.shot("expired")
        self.assertTrue(kiosk.driver.find_element(By.CSS_SELECTOR, ".notice").text)

    def test_agent_restarted_mid_flow(self):
        kiosk = self.kiosk()
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        answer_eligibility(kiosk, [True, True, False, True])
        kiosk.wait_screen("keyInformation")
        kiosk.agent.stop()
        kiosk.wait(lambda d: kiosk.overlay_shown(), message="the reconnecting overlay")
        kiosk.shot("agent-stopped")
        kiosk.agent.start()
        kiosk.wait_screen("start", timeout=30)
        kiosk.shot("after-restart")
        self.assertIn("start again", kiosk.driver.find_element(By.CSS_SELECTOR, ".notice").text.lower())
        # And a new consent works on the new agent.
        kiosk.tap('[data-action="start"]')
        kiosk.wait_screen("eligibility")

    def test_study_html_never_runs_script(self):
        study = Path(tempfile.mkdtemp(prefix="cui-study-", dir="/tmp")) / "study"
        self.addCleanup(shutil.rmtree, study.parent, True)
        shutil.copytree(SAMPLE_STUDY, study)
        hostile = ('<script>window.__pwned = "script"</script>'
                   '<img src="x" onerror="window.__pwned = \'onerror\'">'
                   '<p onclick="window.__pwned = \'click\'">Hostile paragraph</p>')
        for page in study.rglob("*.html"):
            page.write_text(page.read_text().replace("</body>", hostile + "</body>") if "</body>" in page.read_text()
                            else page.read_text() + hostile)
        kiosk = self.kiosk(study=study)
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        answer_eligibility(kiosk, [True, True, False, True])
        for _ in range(10):
            kiosk.wait(lambda d: kiosk.screen() in ("keyInformation", "visual", "sharing"))
            # A tap may re-render the screen (an event from the agent), leaving the elements found before it stale:
            # each is looked up again by its position for its own tap.
            for selector in ('//*[@data-action="learnMore"]', "//p[contains(., 'Hostile paragraph')]"):
                for position in range(len(kiosk.driver.find_elements(By.XPATH, selector))):
                    for _ in range(3):
                        found = kiosk.driver.find_elements(By.XPATH, selector)
                        if position >= len(found):
                            break
                        try:
                            found[position].click()
                            break
                        except StaleElementReferenceException:
                            continue
            if kiosk.screen() == "sharing":
                break
            index = kiosk.scene_index()
            kiosk.tap('nav [data-action="next"]')
            kiosk.wait(lambda d: kiosk.scene_index() != index or kiosk.screen() != "visual")
        time.sleep(0.5)
        kiosk.shot("hostile-html")
        self.assertIsNone(kiosk.driver.execute_script("return window.__pwned ?? null"))
        self.assertEqual(0, kiosk.driver.execute_script(
            "return document.querySelectorAll('#screen script, #screen [onerror], #screen [onclick]').length"))

    def test_a_page_without_its_token_tells_staff(self):
        """Before any agent answer the UI has no texts: a spinner, then (the bridge refusing /rpc) its one staff
        notice, which names the ?token= address."""
        kiosk = self.kiosk()
        kiosk.driver.delete_all_cookies()
        kiosk.driver.get(kiosk.bridge.url.split("?")[0])
        kiosk.wait(lambda d: "?token=" in d.find_element(By.ID, "overlay").text, timeout=30, message="the staff notice")
        kiosk.shot("no-token")

    def test_the_kiosk_session_opens_its_launch_page(self):
        """The installed kiosk session starts chromium on consentweb's launch page (a 0600 file) rather than on an
        address holding the token, which every local user could read in its command line: the page forwards to the
        UI with the token, the UI's WebSocket opens with the cookie it set, and the address bar keeps no token."""
        secrets = Path(tempfile.mkdtemp(prefix="cui-token-", dir="/tmp"))
        self.addCleanup(shutil.rmtree, secrets, True)
        token = secrets / "token"
        token.write_text("launchPageToken-0123456789\n")
        token.chmod(0o600)
        launch = secrets / "launch.html"
        kiosk = self.kiosk(bridge_args=["--token-file", str(token), "--launch-page", str(launch)],
                           open_url=f"file://{launch}")
        self.assertEqual(0o600, launch.stat().st_mode & 0o777)
        self.assertNotIn("launchPageToken", kiosk.bridge.url)
        kiosk.wait_screen("start")
        kiosk.shot("launched")
        self.assertTrue(kiosk.driver.current_url.startswith("http://127.0.0.1:"))
        self.assertNotIn("launchPageToken", kiosk.driver.current_url, "the UI drops the token from its address")

    def test_staff_page_shows_flows_without_names(self):
        kiosk = self.kiosk()
        consent_flow = call_agent(kiosk.agent.socket, ("flow.start", {}))[0]["result"]["flow"]
        kiosk.driver.get(kiosk.bridge.staff_url)
        kiosk.wait(lambda d: d.find_elements(By.CSS_SELECTOR, f'tr[data-flow="{consent_flow}"]'))
        # The upload queue from uploads.status (no destination here: nothing waits).
        kiosk.wait(lambda d: d.find_element(By.ID, "uploads").get_attribute("data-pending") == "0", message="uploads")
        self.assertIn("0 waiting", kiosk.driver.find_element(By.ID, "uploads").text)
        kiosk.shot("staff")


    def test_a_participant_calls_staff_from_a_scene_and_the_staff_page_answers(self):
        """Ask a staff member (askStaff) on a scene: the participant's screen says someone is coming, the staff
        page lists the kiosk, the screen and the wait, and its answer clears both."""
        kiosk = self.kiosk()
        kiosk.wait_screen("start")
        self.assertEqual([], kiosk.driver.find_elements(By.CSS_SELECTOR, '#tools [data-action="askStaff"]'),
                         "no flow, no call")
        kiosk.tap('[data-action="start"]')
        answer_eligibility(kiosk, [True, True, False, True])
        through_key_information(kiosk)
        kiosk.wait_screen("visual")
        view = kiosk.driver.execute_script("return window.consentKiosk.state.current.view")
        ask = kiosk.button('#tools [data-action="askStaff"]')
        self.assertEqual(ask.text, view["labels"]["askStaff"])
        self.assertEqual(ask.get_attribute("aria-pressed"), "false")
        flow = kiosk.driver.execute_script("return window.consentKiosk.state.flow")
        participant = kiosk.driver.current_window_handle
        ask.click()
        kiosk.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#screen .staff-call"), message="someone is coming")
        notice = kiosk.driver.find_element(By.CSS_SELECTOR, "#screen .staff-call")
        self.assertEqual(notice.text, kiosk.driver.execute_script(
            "return window.consentKiosk.state.current.view.staffCall.text"))
        self.assertEqual(kiosk.button('#tools [data-action="askStaff"]').get_attribute("aria-pressed"), "true")
        kiosk.shot("scene-staff-called")
        # The staff page, in another tab: who waits, where, for how long.
        kiosk.driver.switch_to.new_window("tab")
        kiosk.driver.get(kiosk.bridge.staff_url)
        row = f'#waiting tr[data-flow="{flow}"]'
        kiosk.wait(lambda d: d.find_elements(By.CSS_SELECTOR, row), message="the waiting list")
        cells = [c.text for c in kiosk.driver.find_elements(By.CSS_SELECTOR, f"{row} td")]
        # The call came before this page connected: the flow itself says where and since when.
        self.assertTrue(cells[0], "the kiosk's id")
        self.assertEqual(cells[1], flow)
        self.assertEqual(cells[2], "visual scene 1")
        self.assertEqual(cells[3], "participant")
        kiosk.wait(lambda d: d.find_element(By.CSS_SELECTOR, f"{row} td:nth-child(5)").text.endswith(" s"), message="the wait")
        kiosk.shot("staff-waiting")
        kiosk.driver.find_element(By.CSS_SELECTOR, f'{row} [data-action="answerStaff"]').click()
        kiosk.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, row), message="answered")
        self.assertFalse(kiosk.driver.find_element(By.ID, "waiting-none").get_attribute("hidden"))
        kiosk.driver.close()
        kiosk.driver.switch_to.window(participant)
        kiosk.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, "#screen .staff-call"), message="the notice goes")
        self.assertEqual(kiosk.button('#tools [data-action="askStaff"]').get_attribute("aria-pressed"), "false")
        self.assertEqual(kiosk.screen(), "visual")
        self.assertEqual([], kiosk.errors_in_console())

    def test_unapproved_study_shows_staff_the_reason(self):
        """With approvalKeys that do not include the key the sample is sealed with, Begin is refused with
        StudyNotApproved: the participant reads the agent's "ask staff" sentence, staff the agent's reason beneath it;
        the staff page names the approval as not approved."""
        directory = Path(tempfile.mkdtemp(prefix="approval-ui-", dir="/tmp"))
        self.addCleanup(lambda: shutil.rmtree(directory, ignore_errors=True))
        key, public = directory / "other.pem", directory / "other.pub.pem"
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(key)], check=True)
        subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout", "-out", str(public)], check=True)
        config = directory / "consentd.json"
        config.write_text(json.dumps({"approvalKeys": [str(public)], "site": "clinic-3"}))
        kiosk = self.kiosk(agent_args=["--config", str(config)])
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        texts = kiosk.driver.execute_script("return window.consentKiosk.state.texts.get('en')")
        kiosk.wait(lambda d: kiosk.banner() == texts["errors"]["StudyNotApproved"], message="the participant's sentence")
        notice = kiosk.driver.find_element(By.ID, "staff-notice")
        kiosk.wait(lambda d: notice.is_displayed(), message="the staff notice")
        self.assertIn("not approved on this kiosk", notice.text)
        self.assertIn("not one of approvalKeys", notice.text)
        self.assertEqual("start", kiosk.screen(), "the kiosk stays on its start screen")
        kiosk.shot("not-approved")
        kiosk.driver.get(kiosk.bridge.staff_url)
        kiosk.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '#approvals li[data-approval="notApproved"]'), message="approvals")
        self.assertIn("NOT APPROVED", kiosk.driver.find_element(By.ID, "approvals").text)
        kiosk.shot("staff-not-approved")

    def test_staff_page_warns_before_the_approval_expires(self):
        """A copy of the sample sealed (consentctl study seal) with a key the kiosk trusts, its last day ten days
        away: consents run, and the staff page says the approval expires, in how many days."""
        import datetime
        directory = Path(tempfile.mkdtemp(prefix="approval-ui-", dir="/tmp"))
        self.addCleanup(lambda: shutil.rmtree(directory, ignore_errors=True))
        study = directory / "study"
        shutil.copytree(SAMPLE_STUDY, study)
        key, public = directory / "irb.pem", directory / "irb.pub.pem"
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(key)], check=True)
        subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout", "-out", str(public)], check=True)
        last = (datetime.date.today() + datetime.timedelta(days=10)).isoformat()
        subprocess.run([str(BIN / "consentctl"), "study", "seal", str(study), "--key", str(key), "--approved", "2026-01-01",
                        "--expires", last, "--reference", "IRB #2026-0042"], check=True, capture_output=True)
        config = directory / "consentd.json"
        config.write_text(json.dumps({"approvalKeys": [str(public)]}))
        kiosk = self.kiosk(study=study, agent_args=["--config", str(config)])
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        kiosk.wait_screen("eligibility")
        kiosk.driver.get(kiosk.bridge.staff_url)
        # One approval per language of the sample: its default language at the top and each translation's folder.
        languages = 1 + sum(1 for folder in SAMPLE_STUDY.iterdir() if (folder / "contract.json").is_file())
        kiosk.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, '#approvals li[data-approval="expiring"]')) == languages,
                   message="approvals")
        text = kiosk.driver.find_element(By.ID, "approvals").text
        self.assertIn("EXPIRES in 10 day(s)", text)
        self.assertIn("IRB #2026-0042", text)
        kiosk.driver.execute_script("document.getElementById('approvals').scrollIntoView()")
        kiosk.shot("staff-expiring")

    def test_print_my_copy_then_the_staff_page_shows_the_printer(self):
        """With --printer (a private cupsd's cups-pdf queue), the end screen's "Print my copy" prints the copy and
        says so in the agent's words; the staff page shows the printer and the last copy's job, and prints nothing."""
        cups_dir, queue = private_cups(self)
        kiosk = self.kiosk(agent_args=["--printer", queue])
        consent(kiosk, "pen")
        kiosk.tap('[data-action="printCopy"]')
        # Read in the page: the end screen is drawn again as the copy's state changes (printing, printed).
        status = "const s = document.querySelector('.copy-status'); return s && [s.dataset.copy, s.textContent]"
        kiosk.wait(lambda d: (d.execute_script(status) or [None])[0] == "printed", timeout=60, message="the copy printed")
        texts = kiosk.driver.execute_script("return window.consentKiosk.state.texts.get('en')")
        self.assertEqual(kiosk.driver.execute_script(status)[1], texts["copyPrinted"])
        self.assertFalse(kiosk.driver.find_elements(By.CSS_SELECTOR, '[data-action="printCopy"]'), "printed once")
        kiosk.shot("copy-printed")
        self.assertTrue([f for f in os.listdir(Path(cups_dir) / "out") if f.endswith(".pdf")])
        kiosk.driver.get(kiosk.bridge.staff_url)
        kiosk.wait(lambda d: d.find_element(By.ID, "printer").get_attribute("data-state") == "idle", message="printer")
        self.assertIn("last copy: job", kiosk.driver.find_element(By.ID, "printer").text)
        self.assertFalse(kiosk.driver.find_elements(By.CSS_SELECTOR, '[data-action="printCopy"]'))
        kiosk.shot("staff-printer")

    def test_a_copy_the_printer_never_takes_asks_for_staff_and_the_staff_page_says_so(self):
        """A hung CUPS server (Tests/Printing/silent-server as CUPS_SERVER): "Print my copy" says it prints, then, when
        CUPS never answered, the agent's words asking the participant to see staff; the staff page says the last
        copy was not printed, and why."""
        folder = tempfile.mkdtemp(prefix="cups-hung-", dir="/tmp")
        self.addCleanup(shutil.rmtree, folder, True)
        socket_path = str(Path(folder) / "cups.sock")
        server = subprocess.Popen([str(ROOT / "Tests" / "Printing" / "silent-server"), "unix", socket_path],
                                  stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: (server.kill(), server.wait()))
        self.assertTrue(server.stdout.readline().startswith("ready"))
        previous = os.environ.get("CUPS_SERVER")
        os.environ["CUPS_SERVER"] = socket_path
        self.addCleanup(lambda: os.environ.pop("CUPS_SERVER") if previous is None else os.environ.update(CUPS_SERVER=previous))
        kiosk = self.kiosk(agent_args=["--printer", "kiosk"])
        consent(kiosk, "pen")
        kiosk.tap('[data-action="printCopy"]')
        status = "const s = document.querySelector('.copy-status'); return s && [s.dataset.copy, s.textContent]"
        kiosk.wait(lambda d: (d.execute_script(status) or [None])[0] == "failed", timeout=60, message="the copy failed")
        texts = kiosk.driver.execute_script("return window.consentKiosk.state.texts.get('en')")
        self.assertEqual(kiosk.driver.execute_script(status)[1], texts["copyFailed"])
        kiosk.shot("copy-not-printed")
        kiosk.driver.get(kiosk.bridge.staff_url)
        printer = lambda d: d.find_element(By.ID, "printer")
        kiosk.wait(lambda d: printer(d).get_attribute("data-copy") == "failed", message="the staff page's printer line")
        self.assertIn("last copy NOT PRINTED: the printer was unavailable", printer(kiosk.driver).text)
        kiosk.shot("staff-copy-not-printed")

    def test_person_obtaining_consent_countersigns(self):
        """staffCountersignature required: after the participant signs, the staff page asks for a staff id and PIN
        (a wrong PIN is refused, in the agent's words), how identity was verified, and the staff signature; the
        record's PDF names the person obtaining consent and how identity was verified."""
        config = Path(tempfile.mkdtemp(prefix="cui-staff-", dir="/tmp")) / "consentd.json"
        self.addCleanup(shutil.rmtree, config.parent, True)
        config.write_text(json.dumps({"staffCountersignature": "required", "staffFile": str(STAFF_FILE)}))
        kiosk = self.kiosk(agent_args=["--config", str(config)])
        to_staff_page(kiosk)
        kiosk.shot("staff-unlock")
        view = kiosk.driver.execute_script("return window.consentKiosk.state.current.view")
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, '[data-action="staffUnlock"]').text, view["labels"]["staffUnlock"])
        self.assertIn(view["staff"]["staffIdLabel"], kiosk.driver.find_element(By.CSS_SELECTOR, "#screen").text)
        unlock(kiosk, "jroe", "111111")
        kiosk.wait(lambda d: kiosk.banner() == ui_texts(kiosk)["errors"]["WrongStaffPin"], message="wrong PIN refused")
        kiosk.shot("staff-wrong-pin")
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, '[data-field="pin"]').get_attribute("value"), "")
        unlock(kiosk, "jroe", "482913")
        kiosk.wait(lambda d: staff_page(kiosk) == "attest", message="attest page")
        attest = kiosk.driver.find_element(By.CSS_SELECTOR, '[data-action="attestIdentity"]:not([data-identity])')
        self.assertFalse(attest.is_enabled(), "a method must be chosen first")
        kiosk.tap('[data-identity="photoId"]')
        kiosk.shot("staff-attest")
        kiosk.tap('[data-action="attestIdentity"]:not([data-identity])')
        kiosk.wait(lambda d: staff_page(kiosk) == "signature", message="staff signature page")
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, "canvas[data-signature]").get_attribute("data-signature"),
                         "personObtainingConsent")
        draw_signature(kiosk, "pen")
        kiosk.wait(lambda d: canvas_ink_pixels(d) > 50, message="ink on the canvas")
        kiosk.shot("staff-signature")
        # "Change Identity Check" goes back to the methods; the confirming button keeps its own words.
        kiosk.tap('[data-change="identity"]')
        confirm = kiosk.button('[data-action="attestIdentity"]:not([data-identity])')
        self.assertEqual(confirm.text, view_of(kiosk)["staff"]["attestLabel"])
        kiosk.tap('[data-identity="knownToStaff"]')
        kiosk.shot("staff-change-identity")
        kiosk.tap('[data-action="attestIdentity"]:not([data-identity])')
        kiosk.wait(lambda d: staff_page(kiosk) == "signature" and view_of(kiosk)["staff"]["method"] == "knownToStaff",
                   message="the new method")
        draw_signature(kiosk, "pen")
        kiosk.wait(lambda d: canvas_ink_pixels(d) > 50, message="ink on the canvas")
        kiosk.tap('[data-action="submitSignature"]')
        kiosk.wait_screen("done")
        kiosk.tap('nav [data-action="complete"]')
        kiosk.wait_screen("completed", timeout=60)
        record = kiosk.driver.execute_script("return window.consentKiosk.state.current.record")
        self.check_record(kiosk, record, "Person Obtaining Consent")
        self.check_record(kiosk, record, "Identity verified by: Known to me personally")
        self.assertEqual([], kiosk.errors_in_console())

    def test_five_wrong_staff_pins_lock_the_staff_id(self):
        config = Path(tempfile.mkdtemp(prefix="cui-staff-", dir="/tmp")) / "consentd.json"
        self.addCleanup(shutil.rmtree, config.parent, True)
        config.write_text(json.dumps({"staffCountersignature": "required", "staffFile": str(STAFF_FILE),
                                      "staffLockoutSeconds": 600}))
        kiosk = self.kiosk(agent_args=["--config", str(config)])
        to_staff_page(kiosk)
        errors = ui_texts(kiosk)["errors"]
        for attempt in range(5):
            unlock(kiosk, "jroe", "11111" + str(attempt))
            expected = errors["StaffLocked"] if attempt == 4 else errors["WrongStaffPin"]
            kiosk.wait(lambda d: kiosk.banner() == expected, message=f"attempt {attempt + 1}")
        kiosk.shot("staff-locked")
        unlock(kiosk, "jroe", "482913")
        kiosk.wait(lambda d: kiosk.banner() == errors["StaffLocked"], message="the right PIN is refused while locked")
        self.assertEqual(staff_page(kiosk), "unlock")
        # Another staff member can still countersign.
        unlock(kiosk, "mmax", "135790")
        kiosk.wait(lambda d: staff_page(kiosk) == "attest", message="another staff member unlocks")
        kiosk.shot("staff-other-member")


def view_of(kiosk):
    return kiosk.driver.execute_script("return window.consentKiosk.state.current.view")


def staff_page(kiosk):
    return kiosk.driver.execute_script("return window.consentKiosk.state.current?.view?.staff?.page ?? null")


def to_staff_page(kiosk):
    """A consent up to the participant's signature; then the staff step."""
    to_signature_page(kiosk, "Ada", "Lovelace", share_widely=True)
    draw_signature(kiosk, "touch")
    kiosk.wait(lambda d: canvas_ink_pixels(d) > 50, message="ink on the canvas")
    kiosk.tap('[data-action="submitSignature"]')
    kiosk.wait_screen("staff")
    kiosk.wait(lambda d: staff_page(kiosk) == "unlock", message="unlock page")


def unlock(kiosk, staff_id, pin):
    """Types the staff id and PIN on the on-screen keyboards and unlocks."""
    field = kiosk.driver.find_element(By.CSS_SELECTOR, '[data-field="staffId"]')
    kiosk.driver.execute_script("arguments[0].value = ''", field)
    kiosk.type_on_keyboard("staffId", staff_id)
    # A staff id is typed as it is: the keyboard capitalises names only.
    assert field.get_attribute("value") == staff_id, field.get_attribute("value")
    kiosk.type_on_keyboard("pin", pin)
    kiosk.tap('[data-action="staffUnlock"]')


if __name__ == "__main__":
    unittest.main()
