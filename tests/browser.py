"""Real headless Chromium for the browser tests, driven by selenium over Debian's chromedriver.

One Chromium serves every browser test of a test process (the ``chrome`` fixture in ``tests/conftest.py``); each
test gets it cleared (``browser``). ``Browser`` keeps the few steps the tests say, over selenium's driver: ``go``,
``find``, ``click``, ``wait_text``, ``run``, ``resize``, ``screenshot``, ``axe`` (the accessibility rules of axe-core, as
the ``axe-core-python`` package ships them), ``smallest_text``.
"""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any, Iterator, Sequence

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service as DriverService
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait
from werkzeug.serving import make_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
WINDOW = (1100, 1500)
SMALLEST_TEXT = """
let least = [1e9, ''];
for (const box of document.querySelectorAll(arguments[0])) {
  for (const t of box.querySelectorAll('svg text')) {
    if (!t.getClientRects().length) continue;
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    if (px < least[0]) least = [px, t.textContent];
  }
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest('svg') || !el.getClientRects().length) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < least[0]) least = [px, n.textContent.trim().slice(0, 40)];
  }
}
return least;
"""


def start_chrome(profile: Path) -> webdriver.Chrome:
    """Headless Chromium with the flags this closed network needs (no background connections to Google)."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=DriverService(executable_path=str(CHROMEDRIVER)))
    driver.set_page_load_timeout(120)
    return driver


class Browser:
    """The steps the browser tests take, in their words, over one selenium driver (``driver`` for the rest)."""

    def __init__(self, driver: webdriver.Chrome) -> None:
        self.driver = driver

    def go(self, url: str) -> None:
        self.driver.get(url)

    def find(self, css: str) -> WebElement:
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css: str) -> list[WebElement]:
        return list(self.driver.find_elements(By.CSS_SELECTOR, css))

    def xpath_all(self, xpath: str) -> list[WebElement]:
        return list(self.driver.find_elements(By.XPATH, xpath))

    def click(self, element: WebElement) -> None:
        element.click()

    def type(self, element: WebElement, text: str) -> None:
        element.send_keys(text)

    def attr(self, element: WebElement, name: str) -> str:
        return str(element.get_property(name))

    def text(self, css: str = "body") -> str:
        return str(self.find(css).text)

    def wait_text(self, expected: str, seconds: float = 60) -> str:
        """The page's text once it shows ``expected`` (a submitted form's page may still be loading).

        While the next page loads, the driver may answer with a stale element, no body yet, or a renderer that did
        not answer in time (on a loaded machine): each is tried again until ``seconds`` have passed."""
        seen = [""]

        def shows(driver: Any) -> bool:
            try:
                seen[0] = driver.find_element(By.TAG_NAME, "body").text
            except WebDriverException as error:  # the old page went away meanwhile, or the new one is not yet there
                seen[0] = f"({type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''})"
                return False
            return expected in seen[0]

        try:
            WebDriverWait(self.driver, seconds, poll_frequency=0.05).until(shows)
        except Exception:
            raise AssertionError(f"the page never showed {expected!r}: {seen[0]}") from None
        return seen[0]

    def url(self) -> str:
        return str(self.driver.current_url)

    def run(self, script: str, *args: Any) -> Any:
        """The value of a JavaScript function body run in the page."""
        return self.driver.execute_script(script, *args)

    def resize(self, width: int, height: int) -> None:
        self.driver.set_window_size(width, height)

    def screenshot(self, path: Path) -> None:
        path.write_bytes(self.driver.get_screenshot_as_png())

    def axe(self) -> list[dict[str, Any]]:
        """What axe-core finds wrong on the page by the WCAG 2 A and AA rules: ``[{id, help, nodes: [target]}]``."""
        from axe_core_python.base import AXE_SCRIPT
        self.driver.set_script_timeout(60)
        self.driver.execute_script(AXE_SCRIPT)
        found = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
            ".then(r => done(r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target)}))));")
        return list(found)

    def smallest_text(self, css: str) -> tuple[float, str]:
        """The smallest text drawn inside ``css`` in CSS pixels, and its words: SVG text at its font size scaled by
        the drawing's transform, other text at its computed size; only what is shown."""
        found = self.run(SMALLEST_TEXT, css)
        return float(found[0]), str(found[1])

    def reset(self) -> None:
        """As a new browser: no cookies, the default window, a blank page."""
        self.driver.delete_all_cookies()
        self.driver.get("about:blank")
        self.resize(*WINDOW)


def serve(tmp_path: Path, settings: dict[str, Any] | None = None) -> Iterator[tuple[str, Any]]:
    """The app of a fresh instance on a free loopback port, in a thread: (base address, app)."""
    from pbem.web import create_app
    from web.conftest import SECRET
    holder: dict[str, Any] = {}
    httpd = make_server("127.0.0.1", 0, lambda env, start: holder["app"](env, start), threaded=True)
    base = f"http://127.0.0.1:{httpd.server_port}"
    holder["app"] = create_app({"instance": tmp_path / "inst", "secret_key": SECRET, "dev_mode": True,
                                "base_url": base, **(settings or {})})
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield base, holder["app"]
    httpd.shutdown()
    thread.join()


NOT_ASKING = ("Game over", "Take back a move?", "No move taken back", "Invitation:", "Everyone accepted")


def may_ask_for_move(subject: str) -> bool:
    """Whether a mail of this subject may ask for a move: a game's mail (``[Game name] <the decision's first
    sentence> (turn N, action i of k)``, ``... (setup)``, a reminder, a receipt, ...) that is not one of the kinds
    that never do (the end of the game, an undo request or its close, an invitation). The page says whether it does.
    """
    subject = " ".join(subject.split())  # a link's text, as the page lays it out
    if not subject.startswith("[") or "] " not in subject:
        return False
    return not subject.split("] ", 1)[1].startswith(NOT_ASKING)


def newest_mails(browser: Browser, base: str, emails: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Each player's newest mail in the dev mailbox: its subject and its page's address."""
    browser.go(f"{base}/dev/mail")
    newest: dict[str, tuple[str, str]] = {}
    for row in browser.find_all("tbody tr"):
        cells = row.find_elements(By.CSS_SELECTOR, "td")
        to = cells[0].text
        link = cells[1].find_element(By.CSS_SELECTOR, "a")
        for email in emails:
            if email in to and email not in newest:
                newest[email] = (browser.attr(link, "textContent"), browser.attr(link, "href"))
        if len(newest) == len(emails):
            break
    return newest
