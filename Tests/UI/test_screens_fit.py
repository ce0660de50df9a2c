"""Every screen of a consent is accessible and fits the kiosk: axe-core (the axe.min.js of a pinned PyPI package,
scripts/test-requirements-nodeps.txt) finds no WCAG 2.0/2.1/2.2 A or AA violation but the documented meta-viewport
(docs/UI-DEVELOPERS.md, "Screens that fit"); at 1024x768, 1280x800 and 1920x1080, landscape and portrait, and at
every text size, the action bar (the primary action, Back, the ways out) is inside the viewport and nothing is
clipped or scrolls sideways; the touch keyboard is the flow's language's; the text size and contrast hold for a flow
and end with it. Screenshots at the largest text size: .build/ui-screenshots/<test>/."""
import importlib.resources
import subprocess
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from kiosk import Kiosk, canvas_ink_pixels
from test_kiosk_ui import (SIGNERS_STUDY, answer_eligibility, answer_optional, asking_for_a_passcode, draw_signature,
                           private_cups, study_copy, through_scenes, ui_texts)

# Width x height: the common kiosk panels, each in landscape and in portrait.
VIEWPORTS = [(1024, 768), (768, 1024), (1280, 800), (800, 1280), (1920, 1080), (1080, 1920)]
SIZES = ["100", "150", "200"]
LARGEST = SIZES[-1]
# The WCAG 2.0, 2.1 and 2.2 A and AA rules of axe-core.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
# The one violation allowed: the page turns zoom off (a kiosk must not zoom by accident) and offers its own text
# size instead (docs/UI-DEVELOPERS.md, "Screens that fit").
ALLOWED = {"meta-viewport"}


def axe_source():
    """axe-core's browser build, as the PyPI package ships it (only its axe.min.js is used: no Playwright)."""
    return (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text()


AXE = axe_source()


def run_axe(driver):
    """axe-core's WCAG A/AA violations of the page as it is: [(rule, impact, [targets])]."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(AXE)
    result = driver.execute_async_script("""
        const [tags, done] = arguments;
        const known = new Set(axe.getRules().flatMap((rule) => rule.tags));
        axe.run(document, { runOnly: { type: 'tag', values: tags.filter((tag) => known.has(tag)) },
                            resultTypes: ['violations'] })
          .then((r) => done({ version: axe.version, violations: r.violations.map((v) => [v.id, v.impact,
              v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').slice(0, 200))]) }))
          .catch((e) => done({ error: String(e) }));""", WCAG_TAGS)
    assert "error" not in result, result
    assert result["version"].startswith("4."), result["version"]
    return result["violations"]


def set_viewport(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    settle(driver)


def settle(driver):
    """Two animation frames: the layout (and the signing canvas's resize) after a change has been drawn."""
    driver.execute_async_script(
        "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()))")


def choose_text_size(driver, size):
    driver.find_element(By.CSS_SELECTOR, f'#tools [data-action="textSize"][data-size="{size}"]').click()
    settle(driver)


# What must hold on a screen: every button of the action bar and the tools wholly inside the viewport, not covered,
# its words not cut; no button of the content wider than the screen; nothing scrolls sideways.
FIT_PROBLEMS = """
    const vw = window.innerWidth, vh = window.innerHeight, problems = [];
    const name = (b) => `${b.dataset.action}${b.dataset.size ? '=' + b.dataset.size : ''} "${b.textContent.trim().slice(0, 30)}"`;
    const box = (r) => `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
    const fixed = [...document.querySelectorAll('#actions button, #tools button')];
    for (const b of fixed) {
      const r = b.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        problems.push(`${name(b)} outside the ${vw}x${vh} viewport at ${box(r)}`);
        continue;
      }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!b.contains(hit)) problems.push(`${name(b)} covered by ${hit?.outerHTML?.slice(0, 80)}`);
    }
    for (const b of document.querySelectorAll('#screen button, #actions button, #tools button')) {
      if (!b.offsetParent) continue;
      const r = b.getBoundingClientRect();
      if (r.left < -0.5 || r.right > vw + 0.5) problems.push(`${name(b)} wider than the screen at ${box(r)}`);
      if (b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1) problems.push(`${name(b)} words cut`);
    }
    const screen = document.getElementById('screen');
    // The review document and the signing area take the height left and are wholly on screen: the content itself
    // does not scroll on their pages, and the document reaches down to the action bar.
    const whole = document.querySelector('#screen .document, #screen canvas.signature');
    if (whole) {
      const r = whole.getBoundingClientRect(), s = screen.getBoundingClientRect();
      const bottom = s.bottom - parseFloat(getComputedStyle(screen).paddingBottom);
      if (screen.scrollHeight > screen.clientHeight + 1) problems.push(`${whole.className} page scrolls (${screen.scrollHeight} > ${screen.clientHeight})`);
      if (r.top < s.top - 0.5 || r.bottom > s.bottom + 0.5) problems.push(`${whole.className} not wholly on screen at ${box(r)}`);
      // Or the form to take home's line under it does (the document takes every pixel the line leaves).
      const under = whole.matches('.document') && whole.nextElementSibling?.matches('.take-home') ? whole.nextElementSibling : whole;
      const end = under.getBoundingClientRect().bottom;
      if (under !== whole && (end > s.bottom + 0.5 || end < bottom - 2)) problems.push(`the form to take home's line ends at ${Math.round(end)}, not at the bar (${Math.round(bottom)})`);
      if (whole.matches('.document') && end < bottom - 2) problems.push(`the document ends at ${Math.round(r.bottom)}, above the bar (${Math.round(bottom)})`);
    }
    if (document.documentElement.scrollWidth > vw + 1) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth})`);
    if (screen.scrollWidth > screen.clientWidth + 1) problems.push(`the content scrolls sideways (${screen.scrollWidth} > ${screen.clientWidth})`);
    return { problems, primary: document.querySelectorAll('#actions [data-slot="primary"] button').length,
             bar: document.querySelectorAll('#actions button').length };
"""


class ScreensFitTests(unittest.TestCase):
    def kiosk(self, *args, **kwargs):
        kiosk = Kiosk(self.id().split(".")[-1], *args, **kwargs)
        self.addCleanup(kiosk.close)
        return kiosk

    def assert_axe_clean(self, kiosk, label):
        found = run_axe(kiosk.driver)
        # axe did run its WCAG rules: the documented exception is reported on every screen.
        self.assertIn("meta-viewport", [v[0] for v in found], f"axe on {label}")
        self.assertEqual([], [v for v in found if v[0] not in ALLOWED], f"axe on {label}")

    def assert_fits(self, kiosk, label, primary=True, viewports=VIEWPORTS, sizes=SIZES, shots=True):
        """The screen at every viewport and text size; screenshots at the largest; then back to 1280x800, 100 %."""
        failures = []
        for width, height in viewports:
            set_viewport(kiosk.driver, width, height)
            for size in sizes:
                choose_text_size(kiosk.driver, size)
                found = kiosk.driver.execute_script(FIT_PROBLEMS)
                failures += [f"{label} {width}x{height} {size}%: {p}" for p in found["problems"]]
                if primary and found["primary"] == 0:
                    failures.append(f"{label} {width}x{height} {size}%: no primary action in the action bar")
            if shots:
                kiosk.shot(f"{label}-{width}x{height}-{LARGEST}")
        set_viewport(kiosk.driver, 1280, 800)
        choose_text_size(kiosk.driver, "100")
        self.assertEqual([], failures)

    def visit(self, kiosk, label, primary=True, fit=True):
        """axe on the screen as it is, then (fit) its layout at every viewport and text size."""
        self.assert_axe_clean(kiosk, label)
        if fit:
            self.assert_fits(kiosk, label, primary)
        else:
            kiosk.shot(label)

    def walk(self, kiosk, visit, passcode=None, given="Ada", family="Lovelace"):
        """A full consent from the start screen, calling visit(label, primary=...) on every screen."""
        kiosk.wait_screen("start")
        kiosk.wait(lambda d: d.execute_script(
            "const i = document.querySelector('.welcome img.logo'); return !!i && i.complete && i.naturalWidth > 0"),
            message="the study's logo")
        visit("start")
        # The sample study's introduction: its first page, then back to the start screen.
        kiosk.tap('[data-action="introductionPage"]')
        kiosk.wait_screen("introduction")
        visit("introduction-page", primary=False)
        kiosk.tap('#actions [data-action="back"]')
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        kiosk.wait_screen("eligibility")
        visit("eligibility")
        answer = [True, True, False, True]
        for index, value in enumerate(answer):
            kiosk.tap(f'[data-action="answer"][data-question="{index}"][data-answer="{"yes" if value else "no"}"]')
        kiosk.tap('#actions [data-action="answer"]')
        kiosk.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '#actions [data-action="next"]'), message="eligible")
        visit("eligible")
        kiosk.tap('#actions [data-action="next"]')
        # The sample study begins with its key information: the page whole, in a box that scrolls.
        kiosk.wait_screen("keyInformation")
        kiosk.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#screen .document.key-information li"),
                   message="the key information's page")
        visit("key-information")
        kiosk.tap('#actions [data-action="next"]')
        kiosk.wait(lambda d: kiosk.screen() in ("visual", "sharing"))
        while kiosk.screen() == "visual":
            index = kiosk.scene_index()
            if kiosk.driver.execute_script("return window.consentKiosk.state.current.view.scene.image ?? null"):
                # The scene's picture is part of what must fit: wait for it.
                kiosk.wait(lambda d: d.execute_script(
                    "const i = document.querySelector('img.scene-image'); return !!i && i.complete && i.naturalWidth > 0"),
                    message="the scene's image")
            more = kiosk.driver.find_elements(By.CSS_SELECTOR, '[data-action="learnMore"]')
            if index == 0 and more:
                more[0].click()
                visit("scene-0-learn-more")
            else:
                visit(f"scene-{index}")
            kiosk.tap('#actions [data-action="next"]')
            kiosk.wait(lambda d: kiosk.scene_index() != index or kiosk.screen() != "visual")
        kiosk.wait_screen("sharing")
        kiosk.tap('[data-action="chooseSharing"][data-choice="true"]')
        visit("sharing")
        kiosk.tap('[data-action="chooseSharing"][data-confirm]')
        # Every optional element on one screen, Yes and No each, nothing chosen before; with a Learn more page.
        kiosk.wait_screen("optional")
        visit("optional-unanswered")
        answer_optional(kiosk, visit=visit)
        kiosk.wait_page("document")
        visit("review-document")
        kiosk.tap('#actions [data-action="agree"]')
        kiosk.answer_comprehension(wrong_first=(0,), visit=visit)
        kiosk.wait_page("name")
        kiosk.type_on_keyboard("given", given)
        kiosk.type_on_keyboard("family", family)
        visit("name")
        kiosk.tap('#actions [data-action="setName"]')
        kiosk.wait_page("signature")
        draw_signature(kiosk, "pen")
        kiosk.wait(lambda d: canvas_ink_pixels(d) > 50, message="ink on the canvas")
        visit("signature")
        kiosk.tap('#actions [data-action="submitSignature"]')
        if passcode:
            kiosk.wait_screen("passcode")
            kiosk.type_on_keyboard("passcode", passcode)
            visit("passcode")
            kiosk.tap('#actions [data-action="setPasscode"]')
        kiosk.wait_screen("done")
        visit("done")
        kiosk.tap('#actions [data-action="complete"]')
        kiosk.wait_screen("completed", timeout=60)
        visit("completed")
        return kiosk.driver.execute_script("return window.consentKiosk.state.current.record")

    def test_every_screen_in_english_passes_axe_and_fits(self):
        """A consent with a passcode, then the record and withdrawal screens: axe on each, and each at the six
        viewports and three text sizes."""
        kiosk = self.kiosk(study=study_copy(self, asking_for_a_passcode))
        record = self.walk(kiosk, lambda label, **kw: self.visit(kiosk, label, **kw), passcode="2468")
        self.assertEqual("qwerty", kiosk.driver.execute_script("return window.consentKiosk.state.texts.get('en').keys.layout"))
        kiosk.tap('#actions [data-action="start"]')
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="existingRecord"]')
        kiosk.wait_screen("record")
        kiosk.type_on_keyboard("record", record)
        kiosk.type_on_keyboard("passcode", "2468")
        self.visit(kiosk, "record")
        kiosk.tap('#actions [data-action="withdraw"]')
        kiosk.wait_screen("withdrawal")
        self.visit(kiosk, "withdrawal")
        # Not withdrawn after all: the same record's change of answers, its first screen with the record's answers.
        kiosk.tap('#actions [data-action="cancel"]')
        kiosk.wait_screen("cancelled")
        kiosk.tap('#actions [data-action="start"]')
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="existingRecord"]')
        kiosk.wait_screen("record")
        kiosk.type_on_keyboard("record", record)
        kiosk.type_on_keyboard("passcode", "2468")
        kiosk.tap('#actions [data-action="change"]')
        kiosk.wait_screen("optional")
        self.visit(kiosk, "change-optional")
        self.assertEqual([], kiosk.errors_in_console())

    def test_the_form_to_take_home_prints_from_the_start_screen_and_fits_under_the_review_document(self):
        """With a printer (a private cupsd's cups-pdf queue): the start screen offers the form to take home in the
        agent's words; in German it prints the form and says so in the agent's words; the review document offers
        it under the document, which keeps the height left; both screens pass axe and fit at every size."""
        cups, queue = private_cups(self)
        kiosk = self.kiosk(agent_args=["--printer", queue])
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="language"][data-language="de"]')
        german = ui_texts(kiosk, "de")
        kiosk.wait(lambda d: d.find_element(By.CSS_SELECTOR, '[data-action="printBlank"]').text == german["printBlank"],
                   message="the German control")
        self.visit(kiosk, "start-take-home")
        kiosk.tap('[data-action="printBlank"]')
        status = "const s = document.querySelector('.blank-status'); return s && [s.dataset.blank ?? null, s.textContent]"
        kiosk.wait(lambda d: (d.execute_script(status) or [None])[0] == "printing", message="the form printing")
        self.assertEqual(german["blankPrinting"], kiosk.driver.execute_script(status)[1])
        # The control waits while the agent would refuse a second form.
        self.assertFalse(kiosk.driver.find_element(By.CSS_SELECTOR, '[data-action="printBlank"]').is_enabled())
        kiosk.shot("start-take-home-printing")
        out = cups / "out"
        kiosk.wait(lambda d: [f for f in out.iterdir() if f.suffix == ".pdf"] if out.exists() else [], timeout=60,
                   message="cups-pdf wrote the form")
        pdf = next(f for f in out.iterdir() if f.suffix == ".pdf")
        # cups-pdf writes the file as the job runs: whole once pdfinfo reads it. Its words are outlines; they are
        # checked on the agent's own rendering (ConsentPDFTests/ReadingCopyTests).
        kiosk.wait(lambda d: subprocess.run(["pdfinfo", str(pdf)], capture_output=True).returncode == 0, timeout=60,
                   message="the form printed whole")
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
        self.assertGreaterEqual(int(next(l for l in info.splitlines() if l.startswith("Pages:")).split()[1]), 2)

        kiosk.tap('[data-action="language"][data-language="en"]')
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        answer_eligibility(kiosk, [True, True, False, True])
        through_scenes(kiosk, open_learn_more=False)
        kiosk.wait_screen("sharing")
        kiosk.tap('[data-action="chooseSharing"][data-choice="true"]')
        kiosk.tap('[data-action="chooseSharing"][data-confirm]')
        answer_optional(kiosk)
        kiosk.wait_page("document")
        label = kiosk.driver.execute_script("return window.consentKiosk.state.current.view.labels.printBlank")
        self.assertEqual("Print the form to take home", label)
        button = kiosk.driver.find_element(By.CSS_SELECTOR, '#screen .take-home [data-action="printBlank"]')
        self.assertEqual(label, button.text)
        self.visit(kiosk, "review-take-home")
        self.assertEqual([], kiosk.errors_in_console())

    def test_a_participant_pauses_at_the_review_document_and_goes_on_after_a_restart(self):
        """"I want to think about it" at the review document: the paused screen shows the agent's code and day; consentd
        restarts; on the start screen the code, typed on the kiosk's keyboard, resumes the flow at the document, which
        says so, and the consent completes. The paused, resume and resumed screens pass axe and fit at every size."""
        kiosk = self.kiosk()
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        answer_eligibility(kiosk, [True, True, False, True])
        through_scenes(kiosk, open_learn_more=False)
        kiosk.wait_screen("sharing")
        kiosk.tap('[data-action="chooseSharing"][data-choice="false"]')
        kiosk.tap('[data-action="chooseSharing"][data-confirm]')
        answer_optional(kiosk, (False, True))
        kiosk.wait_page("document")
        view = kiosk.driver.execute_script("return window.consentKiosk.state.current.view")
        pause = kiosk.button('#tools [data-action="pause"]')
        self.assertEqual(view["labels"]["pause"], pause.text)
        self.visit(kiosk, "review-document-with-pause")
        pause.click()
        kiosk.wait_screen("paused")
        paused = kiosk.driver.execute_script("return window.consentKiosk.state.current.view.paused")
        shown = kiosk.driver.find_element(By.CSS_SELECTOR, "#screen .resume-code")
        self.assertEqual(paused["code"], shown.get_attribute("data-resume-code"))
        self.assertIn(paused["code"], shown.text)
        self.assertEqual(paused["text"], kiosk.driver.find_element(By.CSS_SELECTOR, "#screen .resume-until").text)
        self.assertEqual([], kiosk.driver.find_elements(By.CSS_SELECTOR, '#tools [data-action="pause"]'))
        self.visit(kiosk, "paused")

        kiosk.agent.stop()
        kiosk.agent.start()
        kiosk.driver.get(kiosk.bridge.url)
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="resume"]')
        kiosk.wait_screen("resume")
        for character in paused["code"].replace("-", ""):
            kiosk.tap(f'[data-action="key"][data-key="{character}"]')
        self.visit(kiosk, "resume")
        kiosk.tap('#actions [data-action="resumeGoOn"]')
        kiosk.wait_page("document")
        resumed = kiosk.driver.execute_script("return window.consentKiosk.state.current.view.resumed")
        self.assertEqual("continued", resumed["outcome"])
        self.assertEqual(resumed["text"], kiosk.driver.find_element(By.CSS_SELECTOR, "#screen .resumed").text)
        self.visit(kiosk, "resumed-review-document")
        kiosk.tap('#actions [data-action="agree"]')
        kiosk.answer_comprehension()
        kiosk.wait_page("name")
        kiosk.type_on_keyboard("given", "Ada")
        kiosk.type_on_keyboard("family", "Lovelace")
        kiosk.tap('#actions [data-action="setName"]')
        kiosk.wait_page("signature")
        draw_signature(kiosk, "pen")
        kiosk.wait(lambda d: canvas_ink_pixels(d) > 50, message="ink on the canvas")
        kiosk.tap('#actions [data-action="submitSignature"]')
        kiosk.wait_screen("done")
        kiosk.tap('#actions [data-action="complete"]')
        kiosk.wait_screen("completed", timeout=60)
        self.assertEqual([], kiosk.errors_in_console())

    def test_every_screen_in_german_passes_axe_in_both_themes(self):
        """The German flow, axe on every screen in the UI's colours and in high contrast at the largest text; its
        longer words fit the smallest screen at that size, both ways round; the keyboard is QWERTZ with the German
        letters."""
        kiosk = self.kiosk()

        def visit(label, primary=True):
            self.assert_axe_clean(kiosk, f"{label} (de)")
            self.assert_fits(kiosk, f"{label} (de)", primary, viewports=VIEWPORTS[:2], sizes=[LARGEST], shots=False)
            kiosk.driver.find_element(By.CSS_SELECTOR, '#tools [data-action="contrast"]').click()
            choose_text_size(kiosk.driver, LARGEST)
            self.assert_axe_clean(kiosk, f"{label} (de, high contrast, {LARGEST} %)")
            kiosk.shot(f"{label}-high-contrast")
            if label == "name":
                board = kiosk.driver.find_element(By.CSS_SELECTOR, ".keyboard")
                self.assertEqual("qwertz", board.get_attribute("data-layout"))
                first = [k.get_attribute("data-key") for k in board.find_elements(By.CSS_SELECTOR, ".keyrow:first-child button")]
                self.assertEqual(list("qwertz"), first[:6])
                for letter in "äöüß":
                    self.assertTrue(board.find_elements(By.CSS_SELECTOR, f'[data-key="{letter}"]'), letter)
            kiosk.driver.find_element(By.CSS_SELECTOR, '#tools [data-action="contrast"]').click()
            choose_text_size(kiosk.driver, "100")

        kiosk.wait_screen("start")
        kiosk.tap('[data-action="language"][data-language="de"]')
        kiosk.wait(lambda d: d.execute_script("return document.documentElement.lang") == "de")
        self.walk(kiosk, visit, given="Jürgen", family="Weiß")
        self.assertEqual([], kiosk.errors_in_console())

    def test_the_signer_pages_pass_axe_and_fit(self):
        """A representative signs for a participant before a witness: the signer choice (no primary action: the
        choices are the way on), the representative's name with the relationships, the witness's name and
        signature, each checked by axe and at the smallest screen both ways round at the largest text size."""
        kiosk = self.kiosk(study=SIGNERS_STUDY)

        def visit(label, primary=True):
            self.assert_axe_clean(kiosk, label)
            self.assert_fits(kiosk, label, primary, viewports=VIEWPORTS[:2], sizes=[LARGEST])

        kiosk.wait_screen("start")
        kiosk.tap('#actions [data-action="start"]')
        answer_eligibility(kiosk, [])
        while kiosk.screen() != "reviewStep":
            kiosk.wait(lambda d: kiosk.screen() in ("visual", "sharing", "reviewStep"))
            if kiosk.screen() == "visual":
                index = kiosk.scene_index()
                kiosk.tap('#actions [data-action="next"]')
                kiosk.wait(lambda d: kiosk.scene_index() != index or kiosk.screen() != "visual")
        kiosk.wait_page("document")
        kiosk.tap('#actions [data-action="agree"]')
        kiosk.wait_page("signer")
        visit("signer", primary=False)
        kiosk.tap('[data-action="chooseSigner"][data-signer="representative"]')
        kiosk.wait_page("name")
        kiosk.type_on_keyboard("given", "Tom")
        kiosk.type_on_keyboard("family", "Child")
        kiosk.tap('#actions [data-action="setName"]')
        kiosk.wait_page("representative")
        kiosk.type_on_keyboard("given", "Mary")
        kiosk.type_on_keyboard("family", "Parent")
        kiosk.tap('[data-action="setSignerName"][data-relationship="PRN"]')
        visit("representative")
        kiosk.tap('#actions [data-action="setSignerName"][data-submit]')
        kiosk.wait_page("signature")
        draw_signature(kiosk, "pen")
        kiosk.tap('#actions [data-action="submitSignature"]')
        kiosk.wait_page("witness")
        kiosk.type_on_keyboard("given", "Walter")
        kiosk.type_on_keyboard("family", "Witness")
        visit("witness")
        kiosk.tap('#actions [data-action="setSignerName"]')
        kiosk.wait_page("witnessSignature")
        draw_signature(kiosk, "touch")
        visit("witness-signature")

    def scrolls_by_keyboard_and_touch(self, kiosk):
        """The review document is reached with Tab and scrolled with the keys, and a finger drags it."""
        document = kiosk.driver.find_element(By.CSS_SELECTOR, "#screen .document")
        self.assertEqual("0", document.get_attribute("tabindex"))
        self.assertEqual("region", document.get_attribute("role"))
        self.assertTrue(document.get_attribute("aria-label"))
        top = lambda: kiosk.driver.execute_script("return document.querySelector('#screen .document').scrollTop")
        kiosk.driver.execute_script("document.querySelector('#screen .document').focus()")
        self.assertTrue(kiosk.driver.execute_script("return document.activeElement.matches('.document')"))
        ActionChains(kiosk.driver).send_keys(Keys.PAGE_DOWN).perform()
        kiosk.wait(lambda d: top() > 100, message="Page Down scrolls the document")
        ActionChains(kiosk.driver).send_keys(Keys.HOME).perform()
        kiosk.wait(lambda d: top() == 0, message="Home scrolls it back")
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        drag = ActionBuilder(kiosk.driver, mouse=finger, duration=50)
        drag.pointer_action.move_to(document, 0, 100).pointer_down()
        for step in range(1, 7):
            drag.pointer_action.move_to(document, 0, 100 - 40 * step)
        drag.pointer_action.pointer_up()
        drag.perform()
        kiosk.wait(lambda d: top() > 50, message="a finger's drag scrolls the document")

    def test_text_size_and_contrast_hold_for_the_flow_and_the_keyboard_is_french(self):
        """Chosen on the start screen, the size and contrast stay on every screen of the flow (labelled in its
        language by the agent's words); the French keyboard is AZERTY and types accented names; the flow's end
        gives the next participant the UI's own size and colours."""
        kiosk = self.kiosk()
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="language"][data-language="fr"]')
        words = ui_texts(kiosk, "fr")["display"]
        kiosk.wait(lambda d: d.find_element(By.CSS_SELECTOR, '#tools [data-action="contrast"]').get_attribute("aria-label")
                   == words["contrast"], message="the contrast toggle in French")
        sizes = kiosk.driver.find_elements(By.CSS_SELECTOR, '#tools [data-action="textSize"]')
        self.assertEqual([str(s["percent"]) for s in words["sizes"]], [b.get_attribute("data-size") for b in sizes])
        self.assertEqual([s["name"] for s in words["sizes"]], [b.get_attribute("aria-label") for b in sizes])
        normal = kiosk.driver.execute_script("return parseFloat(getComputedStyle(document.documentElement).fontSize)")
        kiosk.tap('#tools [data-action="textSize"][data-size="200"]')
        kiosk.tap('#tools [data-action="contrast"]')
        kiosk.shot("start-fr-200-high-contrast")

        def held(label):
            root = kiosk.driver.execute_script("""
                const r = document.documentElement;
                return [r.dataset.textSize, r.dataset.contrast ?? null, parseFloat(getComputedStyle(r).fontSize),
                        getComputedStyle(document.body).backgroundColor,
                        document.querySelector('#tools [data-size="200"]').getAttribute('aria-pressed')]""")
            self.assertEqual(["200", "high"], root[:2], label)
            self.assertAlmostEqual(root[2], 2 * normal, delta=0.5, msg=label)
            self.assertEqual("rgb(0, 0, 0)", root[3], label)
            self.assertEqual("true", root[4], label)

        held("start")
        kiosk.tap('#actions [data-action="start"]')
        answer_eligibility(kiosk, [True, True, False, True])
        kiosk.wait_screen("keyInformation")
        held("keyInformation")
        kiosk.tap('#actions [data-action="next"]')
        kiosk.wait(lambda d: kiosk.screen() == "visual")
        held("visual")
        while kiosk.screen() == "visual":
            index = kiosk.scene_index()
            kiosk.tap('#actions [data-action="next"]')
            kiosk.wait(lambda d: kiosk.scene_index() != index or kiosk.screen() != "visual")
        kiosk.wait_screen("sharing")
        kiosk.tap('[data-action="chooseSharing"][data-choice="false"]')
        kiosk.tap('[data-action="chooseSharing"][data-confirm]')
        kiosk.wait_screen("optional")
        held("optional")
        answer_optional(kiosk, (False, True))
        kiosk.wait_page("document")
        held("document")
        self.scrolls_by_keyboard_and_touch(kiosk)
        kiosk.tap('#actions [data-action="agree"]')
        kiosk.answer_comprehension()
        kiosk.wait_page("name")
        held("name")
        board = kiosk.driver.find_element(By.CSS_SELECTOR, ".keyboard")
        self.assertEqual("azerty", board.get_attribute("data-layout"))
        first = [k.get_attribute("data-key") for k in board.find_elements(By.CSS_SELECTOR, ".keyrow:first-child button")]
        self.assertEqual(list("azerty"), first[:6])
        kiosk.type_on_keyboard("given", "Hélène")
        kiosk.type_on_keyboard("family", "Françoise-Cœur")
        self.assertEqual("Hélène", kiosk.driver.find_element(By.CSS_SELECTOR, '[data-field="given"]').get_attribute("value"))
        self.assertEqual("Françoise-Cœur", kiosk.driver.find_element(By.CSS_SELECTOR, '[data-field="family"]').get_attribute("value"))
        kiosk.shot("name-fr-azerty")
        # The flow ends (the participant cancels): the end screen, then the start screen for the next participant.
        kiosk.tap('#actions [data-action="cancel"]')
        kiosk.wait_screen("cancelled")
        held("cancelled")
        kiosk.tap('#actions [data-action="start"]')
        kiosk.wait_screen("start")
        reset = kiosk.driver.execute_script("""
            const r = document.documentElement;
            return [r.dataset.textSize, r.dataset.contrast ?? null, parseFloat(getComputedStyle(r).fontSize),
                    document.querySelector('#tools [data-size="100"]').getAttribute('aria-pressed')]""")
        self.assertEqual(["100", None], reset[:2])
        self.assertAlmostEqual(reset[2], normal, delta=0.5)
        self.assertEqual("true", reset[3])
        kiosk.shot("start-after-the-flow")


if __name__ == "__main__":
    unittest.main()
