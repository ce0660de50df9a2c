"""Read aloud (Listen, speech.get) and time to think (flow.expiring, "I need more time") in the reference kiosk UI."""
import base64
import json
import shutil
import tempfile
import time
import unittest
from pathlib import Path

from selenium.webdriver.common.by import By

from kiosk import Kiosk, call_agent
from test_kiosk_ui import answer_eligibility, answer_optional, through_scenes, ui_texts

AUDIO_SOURCE = ("const a = document.getElementById('speech-audio'); "
                "return a ? [a.src.slice(0, 40), a.dataset.part ?? null, a.dataset.screen ?? null] : null")


def config_file(test, values):
    """A consentd config file with `values`, for the agent's --config."""
    folder = Path(tempfile.mkdtemp(prefix="cui-config-", dir="/tmp"))
    test.addCleanup(shutil.rmtree, folder, True)
    path = folder / "consentd.json"
    path.write_text(json.dumps(values))
    return str(path)


class ReadAloudUITests(unittest.TestCase):
    def kiosk(self, *args, **kwargs):
        kiosk = Kiosk(self.id().split(".")[-1], *args, **kwargs)
        self.addCleanup(kiosk.close)
        return kiosk

    def audio(self, kiosk):
        return kiosk.driver.execute_script(AUDIO_SOURCE)

    def wait_audio(self, kiosk, part, screen=None, timeout=20):
        def played(d):
            audio = self.audio(kiosk) or [None, None, None]
            return (audio[1] == part and (screen is None or audio[2] == screen)
                    and (audio[0] or "").startswith("data:audio/wav;base64,"))
        kiosk.wait(played, timeout=timeout, message=f"audio of {part} on {screen}")

    def test_the_start_screen_shows_the_study_introduction_and_reads_its_pages(self):
        """intro.json's welcome, logo and HTML pages on the start screen, in the language chosen; a page opens whole,
        Listen reads that page, Back returns to the start screen."""
        kiosk = self.kiosk()
        kiosk.wait_screen("start")
        for language in ("en", "fr"):
            study = call_agent(kiosk.agent.socket, ("study.get", {"language": language}))[0]["result"]["study"]
            intro = study["introduction"]
            if language != "en":
                kiosk.tap(f'[data-action="language"][data-language="{language}"]')
            kiosk.wait(lambda d: d.find_element(By.CSS_SELECTOR, ".welcome .subtitle").text == intro["subtitle"],
                       message=f"the {language} welcome")
            self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, ".welcome h1").text, intro["title"])
            kiosk.wait(lambda d: d.execute_script(
                "const i = document.querySelector('.welcome img.logo'); return !!i && i.complete && i.naturalWidth > 0"),
                message="the logo")
            self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, ".welcome img.logo").get_attribute("data-asset"), intro["logo"])
            pages = kiosk.driver.find_elements(By.CSS_SELECTOR, 'nav.introduction [data-action="introductionPage"]')
            self.assertEqual([p.text for p in pages], [p["title"] for p in intro["pages"]])
            self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, "nav.introduction h2").text,
                             study["texts"]["introductionPages"])
        kiosk.shot("start-introduction-fr")
        page = intro["pages"][1]
        kiosk.tap(f'[data-action="introductionPage"][data-page="{page["id"]}"]')
        kiosk.wait_screen("introduction")
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, '[data-screen="introduction"] h2').text, page["title"])
        items = kiosk.driver.find_elements(By.CSS_SELECTOR, ".introduction-document li")
        self.assertEqual(len(items), 3)
        kiosk.shot("introduction-page-fr")
        kiosk.tap('[data-action="listen"]')
        self.wait_audio(kiosk, "introduction", screen="introduction")
        # What was read is that page, in French: the agent's reply names it.
        spoken = call_agent(kiosk.agent.socket, ("speech.get", {"part": "introduction", "page": page["id"], "language": "fr"}))[0]
        self.assertEqual(spoken["result"]["page"], page["id"])
        self.assertEqual(spoken["result"]["language"], "fr")
        unknown = call_agent(kiosk.agent.socket, ("speech.get", {"part": "introduction", "page": "nope"}))[0]
        self.assertEqual(unknown["error"]["data"]["type"], "UnknownPart")
        kiosk.tap('#actions [data-action="back"]')
        kiosk.wait_screen("start")
        self.assertEqual(kiosk.driver.execute_script("return window.consentKiosk.state.language"), "fr")
        self.assertEqual([], kiosk.errors_in_console())

    def test_listen_plays_every_screen_in_the_flows_language(self):
        kiosk = self.kiosk()
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="language"][data-language="de"]')
        kiosk.tap('[data-action="start"]')
        kiosk.wait_screen("eligibility")
        german = ui_texts(kiosk, "de")
        listen = kiosk.button('[data-action="listen"]')
        self.assertEqual(listen.text, german["listen"])
        self.assertEqual(listen.get_attribute("aria-pressed"), "false")
        kiosk.shot("eligibility-listen")
        listen.click()
        self.wait_audio(kiosk, "screen")
        # The UI plays what the agent synthesised: a WAV of this screen, in German.
        played = kiosk.driver.execute_script("return document.getElementById('speech-audio').src")
        wav = base64.b64decode(played.split(",", 1)[1])
        self.assertEqual(wav[:4], b"RIFF")
        self.assertGreater(len(wav), 22050, "at least half a second of speech")
        kiosk.wait(lambda d: kiosk.button('[data-action="listen"]').get_attribute("aria-pressed") == "true"
                   or self.audio(kiosk)[1] == "screen", message="reading")
        kiosk.shot("eligibility-reading")
        # Read-aloud stays on: the next screen is read without another tap, and its learn-more page on request.
        answer_eligibility(kiosk, [True, True, False, True])
        # The key information the sample begins with: its screen, then its page, as the review document is read.
        kiosk.wait_screen("keyInformation")
        self.wait_audio(kiosk, "screen", "keyInformation/")
        self.wait_audio(kiosk, "document", "keyInformation/", timeout=60)
        kiosk.shot("key-information-reading")
        kiosk.tap('nav [data-action="next"]')
        kiosk.wait_screen("visual")
        self.wait_audio(kiosk, "screen", "visual/0")
        kiosk.shot("scene-reading")
        through_scenes(kiosk, open_learn_more=False)
        kiosk.wait_screen("sharing")
        kiosk.tap('[data-action="chooseSharing"][data-choice="true"]')
        kiosk.tap('[data-action="chooseSharing"][data-confirm]')
        answer_optional(kiosk)
        kiosk.wait_page("document")
        # The review document is read after the screen, section by section.
        self.wait_audio(kiosk, "document", "reviewStep/document", timeout=90)
        kiosk.shot("review-document-reading")
        self.assertEqual([], kiosk.errors_in_console())

    def test_listen_on_the_start_of_an_english_flow_then_stop(self):
        kiosk = self.kiosk()
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        kiosk.wait_screen("eligibility")
        english = ui_texts(kiosk, "en")
        kiosk.tap('[data-action="listen"]')
        self.wait_audio(kiosk, "screen")
        kiosk.wait(lambda d: kiosk.button('[data-action="listen"]').text in (english["stopListening"], english["listen"]))
        if kiosk.button('[data-action="listen"]').text == english["stopListening"]:
            kiosk.tap('[data-action="listen"]')
        kiosk.wait(lambda d: kiosk.button('[data-action="listen"]').get_attribute("aria-pressed") == "false")
        self.assertFalse(kiosk.driver.execute_script("return window.consentKiosk.state.readAloud"))

    def test_listen_before_a_flow(self):
        kiosk = self.kiosk()
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="language"][data-language="fr"]')
        kiosk.wait(lambda d: kiosk.button('[data-action="listen"]').text == ui_texts(kiosk, "fr")["listen"])
        kiosk.tap('[data-action="listen"]')
        self.wait_audio(kiosk, "start", "start")
        kiosk.shot("start-listen-fr")
        kiosk.tap('[data-action="existingRecord"]')
        kiosk.wait_screen("record")
        kiosk.tap('[data-action="listen"]')
        self.wait_audio(kiosk, "record", "record")
        kiosk.shot("record-listen")
        # The resume screen reads its own words, not the start screen's it was opened from.
        kiosk.tap('[data-action="back"]')
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="resume"]')
        kiosk.wait_screen("resume")
        kiosk.tap('[data-action="listen"]')
        self.wait_audio(kiosk, "resume", "resume")
        self.assertEqual([], kiosk.errors_in_console())

    def test_the_expiry_warning_and_more_time(self):
        config = config_file(self, {"inactivityTimeoutSeconds": 10, "inactivityWarningSeconds": 6})
        kiosk = self.kiosk(agent_args=["--config", config])
        kiosk.wait_screen("start")
        kiosk.tap('[data-action="start"]')
        kiosk.wait_screen("eligibility")
        started = time.monotonic()
        english = ui_texts(kiosk, "en")
        # Read-aloud on: the warning is spoken too.
        kiosk.tap('[data-action="listen"]')
        kiosk.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-dialog="expiring"]'), timeout=15,
                   message="the expiry warning")
        self.assertLess(time.monotonic() - started, 9, "the warning comes before the wipe")
        dialog = kiosk.driver.find_element(By.CSS_SELECTOR, '[data-dialog="expiring"]')
        self.assertEqual(dialog.get_attribute("role"), "alertdialog")
        self.assertEqual(dialog.find_element(By.CSS_SELECTOR, "h2").text, english["expiringTitle"])
        left = int(dialog.find_element(By.CSS_SELECTOR, "[data-seconds-left]").get_attribute("data-seconds-left"))
        self.assertTrue(0 < left <= 6, left)
        self.assertIn(str(left), dialog.find_element(By.CSS_SELECTOR, "[data-seconds-left]").text)
        more = kiosk.button('[data-action="moreTime"]')
        self.assertEqual(more.text, english["moreTime"])
        self.wait_audio(kiosk, "expiring")
        kiosk.shot("expiry-warning")
        # The countdown counts.
        kiosk.wait(lambda d: int(d.find_element(By.CSS_SELECTOR, "[data-seconds-left]").get_attribute("data-seconds-left")) < left,
                   message="the countdown")
        kiosk.shot("expiry-warning-counting")
        kiosk.tap('[data-action="moreTime"]')
        kiosk.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, '[data-dialog="expiring"]'), message="the warning gone")
        extended = time.monotonic()
        kiosk.shot("after-more-time")
        # Past the first deadline, the flow goes on.
        while time.monotonic() - started < 11:
            time.sleep(0.2)
        self.assertEqual(kiosk.screen(), "eligibility")
        # Without another answer, it warns again and then expires.
        kiosk.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-dialog="expiring"]'), timeout=15, message="the second warning")
        kiosk.wait_screen("start", timeout=20)
        self.assertGreater(time.monotonic() - extended, 8)
        self.assertFalse(kiosk.driver.find_elements(By.CSS_SELECTOR, '[data-dialog="expiring"]'))
        kiosk.shot("expired")
        self.assertEqual(kiosk.driver.find_element(By.CSS_SELECTOR, ".notice").text, english["expired"])


if __name__ == "__main__":
    unittest.main()
