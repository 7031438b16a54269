"""A whole Highdie game in real headless Chromium, through the mails and pages only.

The test is the scheduler (it sends the outbox to the file mailbox after each move) and
the players: each opens the dev mailbox, their newest mail, the link in it, picks an
action, previews it and confirms. Chromium is driven by chromedriver's W3C WebDriver
HTTP API with plain ``urllib``.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from werkzeug.serving import make_server

from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.transport import FileTransport
from pbem.service import Player, Service
from pbem.web import create_app
from web.conftest import SECRET

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                                reason="needs Debian's chromium and chromium-driver (apt-get install chromium "
                                       "chromium-driver)")
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
SCREENSHOT = Path("/tmp/pbem-play-page.png")
PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben")]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Browser:
    """The few WebDriver commands this test needs."""

    def __init__(self, driver_url: str, profile: Path) -> None:
        self.driver_url = driver_url
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={profile}", "--window-size=1100,1500"]
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome",
                                                 "goog:chromeOptions": {"binary": CHROMIUM, "args": args}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else (b"{}" if method == "POST" else None)
        request = urllib.request.Request(self.driver_url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as err:
            raise AssertionError(f"WebDriver {method} {path}: {err.read().decode()[:500]}") from None

    def s(self, method: str, path: str, body: Any = None) -> Any:
        return self.call(method, f"/session/{self.session}{path}", body)

    def go(self, url: str) -> None:
        self.s("POST", "/url", {"url": url})

    def find(self, css: str) -> str:
        return str(self.s("POST", "/element", {"using": "css selector", "value": css})[ELEMENT])

    def find_all(self, css: str) -> list[str]:
        return [e[ELEMENT] for e in self.s("POST", "/elements", {"using": "css selector", "value": css})]

    def xpath_all(self, xpath: str) -> list[str]:
        return [e[ELEMENT] for e in self.s("POST", "/elements", {"using": "xpath", "value": xpath})]

    def click(self, element: str) -> None:
        self.s("POST", f"/element/{element}/click")

    def type(self, element: str, text: str) -> None:
        self.s("POST", f"/element/{element}/value", {"text": text})

    def attr(self, element: str, name: str) -> str:
        return str(self.s("GET", f"/element/{element}/property/{name}"))

    def text(self, css: str = "body") -> str:
        return str(self.s("GET", f"/element/{self.find(css)}/text"))

    def wait_text(self, expected: str) -> str:
        """The page's text once it shows ``expected`` (a submitted form's page may still be loading)."""
        page = ""
        for _ in range(400):
            try:
                page = self.text()
            except AssertionError as err:  # the old page went away while it was read
                transient = ("stale element", "no such element", "does not belong to the document")
                if not any(t in str(err) for t in transient):
                    raise
                continue
            if expected in page:
                return page
            time.sleep(0.05)
        raise AssertionError(f"the page never showed {expected!r}: {page}")

    def url(self) -> str:
        return str(self.s("GET", "/url"))

    def run(self, script: str, *args: Any) -> Any:
        """The value of a JavaScript function body run in the page."""
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def resize(self, width: int, height: int) -> None:
        self.s("POST", "/window/rect", {"width": width, "height": height})

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.s("GET", "/screenshot")))

    def quit(self) -> None:
        self.s("DELETE", "")


@pytest.fixture
def server(tmp_path: Path, highdie_registered: None) -> Iterator[tuple[str, Any]]:
    yield from serve(tmp_path)


def serve(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """The app of a fresh instance on a free loopback port, in a thread: (base address, app)."""
    holder: dict[str, Any] = {}
    httpd = make_server("127.0.0.1", 0, lambda env, start: holder["app"](env, start), threaded=True)
    base = f"http://127.0.0.1:{httpd.server_port}"
    holder["app"] = create_app({"instance": tmp_path / "inst", "secret_key": SECRET, "dev_mode": True,
                                "base_url": base})
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield base, holder["app"]
    httpd.shutdown()
    thread.join()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    port = free_port()
    driver = subprocess.Popen([str(CHROMEDRIVER), f"--port={port}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):  # chromedriver needs a moment to listen
            try:
                with urllib.request.urlopen(url + "/status", timeout=2) as response:
                    if json.load(response)["value"].get("ready"):
                        break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.05)
        found = Browser(url, tmp_path / "chromium-profile")
        yield found
        found.quit()
    finally:
        driver.terminate()
        driver.wait(timeout=30)


def open_newest_prompt_mail(browser: Browser, base: str, email: str) -> bool:
    """Open the player's newest mail; follow its link if it asks for a move. False if it does not."""
    browser.go(f"{base}/dev/mail")
    rows = browser.xpath_all(f"//tbody/tr[td[1][contains(., '{email}')]]/td[2]/a")
    if not rows:
        return False
    subject = browser.attr(rows[0], "textContent")
    if "Your turn" not in subject and "A decision for you" not in subject:
        return False
    browser.click(rows[0])
    links = [a for a in browser.find_all("pre a")  # the play link itself, not its replay or an audit
             if re.search(r"/play/[^/]+$", browser.attr(a, "href"))]
    assert links, browser.text()
    browser.click(links[0])
    return True


def choose(browser: Browser, move: int) -> str:
    """The player's pick: the high card first, contest it, then alternately a safe bet and a typed roll."""
    choices = {browser.attr(e, "value"): e for e in browser.find_all("input[name=choice]")}
    if "contest" in choices:
        browser.click(choices["contest"])
        return "contest"
    if move == 0 and "play 14" in choices:
        browser.click(choices["play 14"])
        return "play 14"
    if move % 2:
        browser.type(browser.find("input[name=text]"), "roll")
        return "roll"
    browser.click(choices["bet 3"])
    return "bet 3"


def test_a_whole_game_through_the_mails_and_pages(server: tuple[str, Any], browser: Browser) -> None:
    base, app = server
    settings = app.config["PBEM_SETTINGS"]
    service = Service.open(settings)
    try:
        game_id = service.create_game("highdie", PLAYERS, seed="web-tests").after.game_id

        def send_mail() -> None:  # as the worker: the mails the pages' moves owe composed, then sent
            service.write_owed_mail()
            dispatch(service.store, FileTransport(settings.mailbox), "pbem@localhost", max_attempts=3,
                     retry_seconds=1)

        moves: list[str] = []
        for _ in range(40):
            send_mail()
            if service.show(game_id)["status"] == "ended":
                break
            acted = False
            waiting = {w["seat"] for w in service.show(game_id)["waiting_for"]}
            for seat, player in enumerate(PLAYERS):
                # a move that ends a player's part sends them no mail: their newest one is then an old turn's
                if seat not in waiting or not open_newest_prompt_mail(browser, base, player.email):
                    continue
                browser.wait_text("it is your move")
                if not moves:
                    browser.screenshot(SCREENSHOT)
                picked = choose(browser, len(moves))
                browser.click(browser.find("form[action$='/preview'] button[type=submit]"))
                preview = browser.wait_text(f"Preview: {picked}")
                if picked in ("roll", "contest"):
                    assert "involves chance" in preview
                browser.click(browser.find("form input[name=text] ~ p button, form button[type=submit]"))
                done = browser.wait_text(f"Done: {picked}")
                assert "Receipt" in done, done
                moves.append(f"{player.name}: {picked}")
                acted = True
                break
            assert acted, f"nobody had a mail asking for a move after {moves}"
        assert service.show(game_id)["status"] == "ended", moves
        assert moves[:2] == ["Ann: play 14", "Ben: contest"] and len(moves) >= 8

        browser.go(f"{base}/dev/mail")
        listing = browser.text()
        assert listing.count("] Game over") == len(PLAYERS)
        browser.go(f"{base}/games/{game_id}")
        public = browser.text()
        assert "Game over" in public and "(winner)" in public and "Seed, now revealed" in public

        # after the end: replay with everything revealed, step back and forward, jump to a turn, verify
        browser.click(browser.xpath_all("//a[contains(., 'Replay the game move by move')]")[0])
        browser.click(browser.xpath_all("//nav//a[.='Everything']")[0])
        last = service.store.last(game_id)[0]
        assert f"Replay: move {last} of {last}" in browser.wait_text("Everything revealed")
        browser.click(browser.find("a[rel=prev]"))
        assert f"Replay: move {last - 1} of {last}" in browser.wait_text(f"move {last - 1} of")
        browser.click(browser.find("a[rel=next]"))
        browser.wait_text(f"Replay: move {last} of")
        browser.click(browser.xpath_all("//select[@name='turn']/option[contains(., 'Turn 2:')]")[0])
        browser.click(browser.find("form[method=get] button[type=submit]"))
        # the last move's page also shows every table: wait for what only turn 2's page says
        turn_two = browser.wait_text("Waiting for: Ben")
        assert "The table, as Ann saw it" in turn_two and "The table, as Ben saw it" in turn_two, turn_two
        browser.go(f"{base}/games/{game_id}/verify")
        assert "Verified" in browser.wait_text("What was checked")
    finally:
        service.close()
    assert SCREENSHOT.stat().st_size > 10_000
