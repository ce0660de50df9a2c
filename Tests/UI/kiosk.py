"""Test harness of the kiosk UI tests: a consentd and a consentweb per test, and Debian's chromium (headless)
driven by Selenium through /usr/bin/chromedriver. Every step's screenshot goes to .build/ui-screenshots/<test>/."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / ".build" / "ui-screenshots"


def bin_path():
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


BIN = Path(os.environ.get("CONSENT_KIOSK_BIN") or bin_path())


class Agent:
    """consentd on its own socket and state folder."""

    def __init__(self, directory, study=None, extra=(), wrapper=()):
        self.directory = Path(directory)
        self.wrapper = list(wrapper)
        self.socket = str(self.directory / "run" / "consentd.sock")
        self.state = str(self.directory / "state")
        self.study = study
        self.extra = list(extra)
        self.log = open(self.directory / "consentd.log", "ab")
        self.process = None
        self.start()

    def start(self):
        args = [str(BIN / "consentd"), "--socket", self.socket, "--state-dir", self.state] + self.extra
        if self.study:
            args += ["--study", str(self.study)]
        if not any(a.startswith("--pad") or a == "--no-pads" for a in self.extra):
            args.append("--no-pads")
        # In its own process group, so a wrapper (umockdev-run) and consentd under it stop together.
        self.process = subprocess.Popen(self.wrapper + (["--"] if self.wrapper else []) + args,
                                        stdout=subprocess.DEVNULL, stderr=self.log, start_new_session=True)
        deadline = time.time() + 20
        while time.time() < deadline:
            if os.path.exists(self.socket) and b"listening" in (self.directory / "consentd.log").read_bytes():
                return
            if self.process.poll() is not None:
                raise RuntimeError("consentd exited: " + (self.directory / "consentd.log").read_text())
            time.sleep(0.05)
        raise RuntimeError("consentd did not listen")

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=40)
        # The next start must not see the old "listening" line.
        (self.directory / "consentd.log").write_bytes(b"")


class Bridge:
    def __init__(self, agent, extra=()):
        self.process = subprocess.Popen(
            [str(BIN / "consentweb"), "--socket", agent.socket, "--listen", "127.0.0.1:0", "--ui", str(ROOT / "UI" / "app")]
            + list(extra),
            stdout=subprocess.PIPE, stderr=open(Path(agent.directory) / "consentweb.log", "ab"), text=True)
        self.url = self.process.stdout.readline().strip()
        # The second line: the staff page's address, with its own token (the kiosk's does not open it).
        self.staff_url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            raise RuntimeError("consentweb printed no URL")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=10)


def browser(width=1280, height=800, touch=False):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    if touch:
        options.add_argument("--touch-events=enabled")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


# The sample study's correct comprehension choices, by question (Sources/SampleStudy/sample/contract.json).
SAMPLE_COMPREHENSION_CHOICES = (1, 1, 0)


class Kiosk:
    """One agent, one bridge, one browser; `shot` writes the numbered screenshots of a test."""

    def __init__(self, name, study=None, agent_args=(), size=(1280, 800), agent_wrapper=(), bridge_args=(), open_url=None):
        self.name = name
        self.directory = Path(tempfile.mkdtemp(prefix="cui-", dir="/tmp"))
        self.agent = Agent(self.directory, study=study, extra=agent_args, wrapper=agent_wrapper)
        self.bridge = Bridge(self.agent, extra=bridge_args)
        self.driver = browser(*size)
        self.driver.set_page_load_timeout(30)
        self.shots = SCREENSHOTS / name
        shutil.rmtree(self.shots, ignore_errors=True)
        self.shots.mkdir(parents=True, exist_ok=True)
        self.count = 0
        self.driver.get(open_url or self.bridge.url)

    def close(self):
        try:
            self.driver.quit()
        finally:
            self.bridge.stop()
            self.agent.stop()
            shutil.rmtree(self.directory, ignore_errors=True)

    def shot(self, label):
        self.count += 1
        self.driver.save_screenshot(str(self.shots / f"{self.count:02d}-{label}.png"))

    # Waiting on the screen the agent's view model asks for.
    def wait(self, condition, timeout=20, message=""):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda d: condition(d), message)

    def screen(self):
        try:
            return self.driver.find_element(By.CSS_SELECTOR, "#screen > section").get_attribute("data-screen")
        except Exception:
            return None

    def wait_screen(self, name, timeout=20):
        self.wait(lambda d: self.screen() == name and not self.overlay_shown(), timeout, f"screen {name}, now {self.screen()}")

    def overlay_shown(self):
        return self.driver.execute_script("return !document.getElementById('overlay').hidden")

    def page(self):
        return self.driver.execute_script("return window.consentKiosk.state.current?.view?.review?.page ?? null")

    def wait_page(self, page):
        self.wait(lambda d: self.screen() == "reviewStep" and self.page() == page, message=f"page {page}")

    def button(self, selector):
        def find(driver):
            try:
                return next((e for e in driver.find_elements(By.CSS_SELECTOR, selector)
                             if e.is_displayed() and e.is_enabled()), None)
            except StaleElementReferenceException:
                return None  # the screen was re-rendered meanwhile: look again
        return self.wait(find, message=selector)

    def tap(self, selector):
        for _ in range(5):
            try:
                return self.button(selector).click()
            except StaleElementReferenceException:
                continue
        raise AssertionError(f"{selector} kept being re-rendered")

    def comprehension(self):
        return self.driver.execute_script("return window.consentKiosk.state.current?.view?.comprehension ?? null")

    def answer_comprehension(self, choices=SAMPLE_COMPREHENSION_CHOICES, wrong_first=(), shot=None, visit=None):
        """On the comprehension screen after Agree: answers each question with its choice in `choices` (the
        sample study's correct ones by default). A question whose index is in `wrong_first` is first answered
        wrongly, and the explanation screen's next asks it again. `shot` names screenshots of each screen;
        `visit(label, primary=...)` is called on each (the question's choices answer at once: no primary action)."""
        for index, choice in enumerate(choices):
            self.wait(lambda d: self.screen() == "comprehension" and not self.overlay_shown()
                      and (self.comprehension() or {}).get("index") == index
                      and (self.comprehension() or {}).get("phase") == "question", message=f"comprehension question {index}")
            if shot:
                self.shot(f"{shot}-question-{index + 1}")
            if visit:
                visit(f"comprehension-question-{index + 1}", primary=False)
            if index in wrong_first:
                wrong = next(c for c in range(len(self.comprehension()["choices"])) if c != choice)
                self.tap(f'[data-action="comprehensionAnswer"][data-choice="{wrong}"]')
                self.wait(lambda d: (self.comprehension() or {}).get("phase") == "explanation" and not self.overlay_shown(),
                          message="the explanation after a wrong answer")
                if shot:
                    self.shot(f"{shot}-explanation-{index + 1}")
                if visit:
                    visit(f"comprehension-explanation-{index + 1}")
                self.tap('#actions [data-action="next"]')
                self.wait(lambda d: (self.comprehension() or {}).get("phase") == "question" and not self.overlay_shown(),
                          message="the question asked again")
            self.tap(f'[data-action="comprehensionAnswer"][data-choice="{choice}"]')

    def scene_index(self):
        return self.driver.execute_script("return window.consentKiosk.state.current?.view?.scene?.index ?? null")

    def type_on_keyboard(self, field, text):
        self.driver.find_element(By.CSS_SELECTOR, f'[data-field="{field}"]').click()
        for character in text:
            key = character.lower()
            self.tap(f'[data-action="key"][data-key="{key}"]' if character != " " else '[data-key="space"]')

    def banner(self):
        element = self.driver.find_element(By.ID, "banner")
        return element.text if element.is_displayed() else ""

    def errors_in_console(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]


def call_agent(socket_path, *requests):
    """Plain JSON-RPC over the agent's socket (for checks outside the UI)."""
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(socket_path)
    reader = connection.makefile("r")
    reader.readline()
    replies = []
    for number, (method, params) in enumerate([("session.negotiate", {"client": "ui-test", "version": 1})] + list(requests)):
        connection.sendall((json.dumps({"jsonrpc": "2.0", "id": number, "method": method, "params": params}) + "\n").encode())
        while True:
            message = json.loads(reader.readline())
            if message.get("id") == number:
                replies.append(message)
                break
    connection.close()
    return replies[1:]


def canvas_ink_pixels(driver):
    """How many pixels of the signing canvas carry ink (the ink colour, not the baseline)."""
    return driver.execute_script("""
        const c = document.querySelector('canvas[data-signature]');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && d[i] < 60 && d[i + 2] > 60) n++;
        return n;""")


def canvas_inked_near(driver, points, radius=4):
    """How many of `points` ([x, y, ...], normalised) have ink on the signing canvas within `radius` pixels."""
    return driver.execute_script("""
        const [points, radius] = arguments;
        const c = document.querySelector('canvas[data-signature]');
        const g = c.getContext('2d');
        let hits = 0;
        for (const [x, y] of points) {
          const px = Math.round(x * c.width), py = Math.round(y * c.height);
          const d = g.getImageData(px - radius, py - radius, 2 * radius + 1, 2 * radius + 1).data;
          for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && d[i] < 60 && d[i + 2] > 60) { hits++; break; }
        }
        return hits;""", points, radius)
