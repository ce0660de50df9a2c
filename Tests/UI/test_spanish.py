"""A Spanish consent through the reference kiosk UI: chosen on the start screen, every screen in the agent's Spanish
words, read aloud with the Spanish voice, the name typed on the Spanish keyboard (QWERTY with ñ and a row of
á é í ó ú ü ¿ ¡), signed, and kept as a record whose PDF is in Spanish. The keyboard's keys and the long Spanish
screens fit the kiosk's panels at every text size. Screenshots: .build/ui-screenshots/<test>/."""
import base64
import subprocess
import unittest
from pathlib import Path

from selenium.webdriver.common.by import By

import test_screens_fit as fit
from kiosk import BIN, Kiosk, call_agent, canvas_ink_pixels
from test_kiosk_ui import answer_eligibility, answer_optional, draw_signature, ui_texts

SPANISH_LETTERS = "ñáéíóúü¿¡"

# Records every speech.get the UI sends and the language the agent answered in (the reader calls the same agent).
SPY_ON_SPEECH = """
    const agent = window.consentKiosk.agent;
    if (!agent.__spoken) {
      agent.__spoken = [];
      const call = agent.call.bind(agent);
      agent.call = (method, params) => {
        const reply = call(method, params);
        if (method === 'speech.get')
          reply.then((r) => agent.__spoken.push([params.part, r.language, r.mediaType, r.size]), () => {});
        return reply;
      };
    }"""

# Every key of the on-screen keyboard, scrolled into view in turn: wholly inside the viewport, the one element at
# its centre (not under the action bar or the tools), its letter not cut; and the keyboard no wider than the screen.
KEYS_OUTSIDE = """
    const vw = window.innerWidth, vh = window.innerHeight, problems = [];
    const board = document.querySelector('#screen .keyboard');
    if (!board) return ['no keyboard'];
    const b = board.getBoundingClientRect();
    if (b.left < -0.5 || b.right > vw + 0.5) problems.push(`the keyboard is ${Math.round(b.width)} px wide`);
    for (const key of board.querySelectorAll('button')) {
      key.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const r = key.getBoundingClientRect();
      const where = `${key.dataset.key} at ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
      if (r.width < 1 || r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        problems.push(`${where} outside ${vw}x${vh}`);
        continue;
      }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!key.contains(hit)) problems.push(`${where} covered by ${hit?.outerHTML?.slice(0, 60)}`);
      if (key.scrollWidth > key.clientWidth + 1 || key.scrollHeight > key.clientHeight + 1) problems.push(`${where} cut`);
    }
    document.getElementById('screen').scrollTop = 0;
    return problems;"""


class SpanishUITests(unittest.TestCase):
    def kiosk(self, *args, **kwargs):
        kiosk = Kiosk(self.id().split(".")[-1], *args, **kwargs)
        self.addCleanup(kiosk.close)
        return kiosk

    def view(self, kiosk):
        return kiosk.driver.execute_script("return window.consentKiosk.state.current.view")

    def screen_text(self, kiosk):
        return " ".join(kiosk.driver.find_element(By.ID, "screen").text.split())

    def assert_spanish_bar(self, kiosk, label):
        """The action bar's buttons carry the agent's Spanish labels (view.labels), never the English ones."""
        view = self.view(kiosk)
        self.assertEqual("es", view["language"], label)
        english = {"Next", "Back", "Cancel", "Agree", "Disagree", "Done", "Continue", "Submit", "Clear"}
        for button in kiosk.driver.find_elements(By.CSS_SELECTOR, "#actions button"):
            if not button.is_displayed():
                continue
            action, text = button.get_attribute("data-action"), button.text.strip()
            if action in view["labels"] and not button.get_attribute("data-choice"):
                self.assertEqual(view["labels"][action], text, f"{label}: {action}")
            self.assertNotIn(text, english, f"{label}: {action}")

    def assert_keys_fit(self, kiosk, label):
        failures = []
        for width, height in fit.VIEWPORTS:
            fit.set_viewport(kiosk.driver, width, height)
            for size in fit.SIZES:
                fit.choose_text_size(kiosk.driver, size)
                failures += [f"{label} {width}x{height} {size}%: {p}" for p in kiosk.driver.execute_script(KEYS_OUTSIDE)]
            self.shot_scrolled_to(kiosk, f"{label}-{width}x{height}-{fit.LARGEST}", "#screen .keyboard")
        fit.set_viewport(kiosk.driver, 1280, 800)
        fit.choose_text_size(kiosk.driver, "100")
        self.assertEqual([], failures)

    def shot_scrolled_to(self, kiosk, label, selector):
        """A screenshot with the content scrolled so that `selector`'s element ends in view (what a participant sees
        there), then the content back at its top."""
        kiosk.driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'end'})", selector)
        fit.settle(kiosk.driver)
        kiosk.shot(label)
        kiosk.driver.execute_script("document.getElementById('screen').scrollTop = 0")

    def assert_fits(self, kiosk, label, primary=True):
        """The screen fits as every screen must (test_screens_fit's checks) at every panel and text size."""
        fit.ScreensFitTests.assert_fits(self, kiosk, label, primary)

    def test_a_spanish_consent_is_read_aloud_typed_on_the_spanish_keyboard_and_kept_as_a_spanish_pdf(self):
        kiosk = self.kiosk(size=(1024, 768))
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="language"][data-language="es"]')
        spanish = ui_texts(kiosk, "es")
        kiosk.wait(lambda d: d.find_element(By.CSS_SELECTOR, '[data-action="start"]').text == spanish["start"],
                   message="Begin in Spanish")
        self.assertEqual("es", kiosk.driver.execute_script("return document.documentElement.lang"))
        kiosk.driver.execute_script(SPY_ON_SPEECH)
        kiosk.shot("start-es")

        # Read aloud before the flow: the start screen in the Spanish voice, the very audio speech.get gives for es.
        listen = kiosk.button('[data-action="listen"]')
        self.assertEqual(spanish["listen"], listen.text)
        listen.click()
        wav = self.wait_wav(kiosk, "start", "start")
        direct = call_agent(kiosk.agent.socket, ("speech.get", {"part": "start", "language": "es"}))[0]["result"]
        self.assertEqual("es", direct["language"])
        self.assertEqual(base64.b64decode(direct["data"]), wav, "the UI played the agent's Spanish start screen")
        english = call_agent(kiosk.agent.socket, ("speech.get", {"part": "start", "language": "en"}))[0]["result"]
        self.assertNotEqual(english["data"], direct["data"])
        self.stop_reading(kiosk, spanish)

        kiosk.tap('[data-action="start"]')
        kiosk.wait_screen("eligibility")
        self.assertIn("Veamos si puede participar en Heartbeat & Sleep", self.screen_text(kiosk))
        self.assert_spanish_bar(kiosk, "eligibility")
        # Read aloud in the flow: the eligibility screen, synthesised in es.
        kiosk.tap('[data-action="listen"]')
        wav = self.wait_wav(kiosk, "screen")
        self.assertGreater(len(wav), 22050, "at least half a second of speech")
        self.stop_reading(kiosk, spanish)
        spoken = kiosk.driver.execute_script("return window.consentKiosk.agent.__spoken")
        self.assertEqual({"start", "screen"}, {part for part, *_ in spoken}, spoken)
        self.assertEqual({"es"}, {language for _, language, *_ in spoken}, spoken)
        self.assertEqual({"audio/wav"}, {media for _, _, media, _ in spoken}, spoken)
        kiosk.shot("eligibility-es-read")

        answer_eligibility(kiosk, [True, True, False, True])
        # The key information first, under its Spanish heading, with the Spanish page.
        kiosk.wait_screen("keyInformation")
        self.assertEqual("Información clave", self.view(kiosk)["title"])
        self.assertIn("Alternativas:", self.screen_text(kiosk))
        self.assert_spanish_bar(kiosk, "keyInformation")
        kiosk.shot("key-information-es")
        kiosk.tap('nav [data-action="next"]')
        kiosk.wait(lambda d: kiosk.screen() == "visual" and not kiosk.overlay_shown(), message="the first scene")
        titles = []
        while kiosk.screen() == "visual":
            index = kiosk.scene_index()
            scene = self.view(kiosk)["scene"]
            titles.append(scene["title"])
            self.assertIn(scene["title"], self.screen_text(kiosk))
            self.assert_spanish_bar(kiosk, f"scene {index}")
            kiosk.shot(f"scene-{index}-es")
            kiosk.tap('#actions [data-action="next"]')
            kiosk.wait(lambda d: kiosk.scene_index() != index or kiosk.screen() != "visual")
        self.assertEqual("Bienvenido a Heartbeat & Sleep", titles[0])
        self.assertIn("Recogida de datos", titles)

        kiosk.wait_screen("sharing")
        self.assertIn("Compartir mis datos solo con", self.screen_text(kiosk))
        self.assertIn("investigadores cualificados de todo el mundo", self.screen_text(kiosk))
        kiosk.tap('[data-action="chooseSharing"][data-choice="true"]')
        self.assert_spanish_bar(kiosk, "sharing")
        # The longest choices of the flow: they fit every panel at every text size.
        self.assert_fits(kiosk, "sharing-es")
        for width, height in fit.VIEWPORTS[:2]:
            fit.set_viewport(kiosk.driver, width, height)
            fit.choose_text_size(kiosk.driver, fit.LARGEST)
            self.shot_scrolled_to(kiosk, f"sharing-es-choices-{width}x{height}-{fit.LARGEST}", '[data-action="chooseSharing"][data-choice="true"]')
        fit.set_viewport(kiosk.driver, 1280, 800)
        fit.choose_text_size(kiosk.driver, "100")
        kiosk.tap('[data-action="chooseSharing"][data-confirm]')

        # The optional elements in Spanish, answered Sí and No: the review document lists them with those words.
        kiosk.wait_screen("optional")
        self.assertEqual("Partes opcionales", self.view(kiosk)["title"])
        self.assertIn("Investigación futura con sus datos", self.screen_text(kiosk))
        self.assertEqual("Sí", kiosk.button('#screen [data-action="optionalAnswer"][data-answer="yes"]').text)
        self.assert_spanish_bar(kiosk, "optional")
        answer_optional(kiosk)

        kiosk.wait_page("document")
        self.assertEqual("Acepto", kiosk.button('#actions [data-action="agree"]').text)
        document = " ".join(kiosk.driver.find_element(By.CSS_SELECTOR, "#screen .document").text.split())
        self.assertIn("Recogida de datos", document)
        self.assert_spanish_bar(kiosk, "review document")
        self.assert_fits(kiosk, "review-document-es")
        kiosk.tap('#actions [data-action="agree"]')

        kiosk.wait(lambda d: kiosk.screen() == "comprehension" and not kiosk.overlay_shown(), message="comprehension")
        self.assertEqual("¿Cuánto dura el estudio?",
                         kiosk.driver.find_element(By.CSS_SELECTOR, "h2.comprehension-question").text)
        kiosk.answer_comprehension()

        kiosk.wait_page("name")
        board = kiosk.driver.find_element(By.CSS_SELECTOR, ".keyboard")
        self.assertEqual("qwerty-es", board.get_attribute("data-layout"))
        first = [k.get_attribute("data-key") for k in board.find_elements(By.CSS_SELECTOR, ".keyrow:first-child button")]
        self.assertEqual(list("qwertyuiop"), first)
        for letter in SPANISH_LETTERS:
            self.assertTrue(board.find_elements(By.CSS_SELECTOR, f'[data-key="{letter}"]'), letter)
        self.assertIn("Nombre", self.screen_text(kiosk))
        self.assertIn("Apellidos", self.screen_text(kiosk))
        self.assert_spanish_bar(kiosk, "name")
        self.assert_keys_fit(kiosk, "name-keyboard-es")
        kiosk.type_on_keyboard("given", "Begoña")
        kiosk.type_on_keyboard("family", "Núñez")
        value = lambda field: kiosk.driver.find_element(By.CSS_SELECTOR, f'[data-field="{field}"]').get_attribute("value")
        self.assertEqual(("Begoña", "Núñez"), (value("given"), value("family")))
        self.assert_fits(kiosk, "name-es")
        kiosk.tap('#actions [data-action="setName"]')

        kiosk.wait_page("signature")
        self.assert_spanish_bar(kiosk, "signature")
        draw_signature(kiosk, "touch")
        kiosk.wait(lambda d: canvas_ink_pixels(d) > 50, message="ink on the canvas")
        kiosk.shot("signature-es")
        kiosk.tap('#actions [data-action="submitSignature"]')
        kiosk.wait_screen("done")
        self.assert_spanish_bar(kiosk, "done")
        kiosk.tap('#actions [data-action="complete"]')
        kiosk.wait_screen("completed", timeout=60)
        end = self.view(kiosk)["end"]
        self.assertEqual(end["title"], kiosk.driver.find_element(By.CSS_SELECTOR, "#screen h2").text)
        self.assertNotIn(end["title"], ("Thank you", "Thank You"))
        kiosk.shot("completed-es")
        record = kiosk.driver.execute_script("return window.consentKiosk.state.current.record")

        directory = Path(kiosk.agent.state) / "records" / record
        verify = subprocess.run([str(BIN / "consentctl"), "verify", str(directory)], capture_output=True, text=True)
        self.assertEqual(verify.returncode, 0, verify.stdout + verify.stderr)
        pdf = " ".join(subprocess.run(["pdftotext", str(directory / "consent.pdf"), "-"],
                                      capture_output=True, text=True, check=True).stdout.split())
        for spanish_text in ("Estudio Heartbeat & Sleep", "Bienvenido a Heartbeat & Sleep", "Recogida de datos",
                             "Nombre en letra de imprenta (Participante)", "Firma (Participante)",
                             "Significado de esta firma:", "Versión del estudio", "Página 1 de",
                             "Begoña Núñez"):
            self.assertIn(spanish_text, pdf)
        for english_text in ("Participant's", "Signature (Participant)", "Page 1 of", "Study version"):
            self.assertNotIn(english_text, pdf)
        info = subprocess.run(["pdfinfo", str(directory / "consent.pdf")], capture_output=True, text=True).stdout
        self.assertIn("Consentimiento para la investigación", info)
        self.assertEqual([], kiosk.errors_in_console())

    def wait_wav(self, kiosk, part, screen=None):
        """The WAV the page's audio element was given for `part` (on `screen`)."""
        def played(d):
            audio = d.execute_script(
                "const a = document.getElementById('speech-audio');"
                "return a ? [a.src.slice(0, 40), a.dataset.part ?? null, a.dataset.screen ?? null] : null") or [None] * 3
            return (audio[1] == part and (screen is None or audio[2] == screen)
                    and (audio[0] or "").startswith("data:audio/wav;base64,"))
        kiosk.wait(played, message=f"audio of {part}")
        source = kiosk.driver.execute_script("return document.getElementById('speech-audio').src")
        wav = base64.b64decode(source.split(",", 1)[1])
        self.assertEqual(b"RIFF", wav[:4])
        return wav

    def stop_reading(self, kiosk, spanish):
        """Read-aloud off again (on a flow's screens it stays on otherwise), by the button in its Spanish words:
        pressed while it reads, it stops; when the reading has already ended, pressed once to read and once to stop."""
        listen = lambda: kiosk.button('[data-action="listen"]')
        if listen().get_attribute("aria-pressed") != "true":
            kiosk.tap('[data-action="listen"]')
            kiosk.wait(lambda d: listen().get_attribute("aria-pressed") == "true", message="reading again")
        self.assertEqual(spanish["stopListening"], listen().text)
        kiosk.tap('[data-action="listen"]')
        kiosk.wait(lambda d: listen().get_attribute("aria-pressed") == "false", message="read-aloud off")
        self.assertEqual(spanish["listen"], listen().text)

if __name__ == "__main__":
    unittest.main()
