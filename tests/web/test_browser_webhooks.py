"""Webhooks added from a browser: a player on their home page, the organiser on the game's page, in headless
Chromium at 375 and 1280 pixels; the posts then reach a real receiver on loopback, the player's signed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from delivery import free_port
from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.transport import FileTransport
from pbem.service import Player, Service
from pbem.post.webhook_post import Poster, verify
from receiver import Receiver
from browser import CHROMEDRIVER, CHROMIUM, MISSING, Browser, serve
from web.test_browser_pages import check_page

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=MISSING)

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cy")]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """The app on a free loopback port, allowed to post to webhooks on this machine (the test's receiver)."""
    yield from serve(tmp_path, {"webhook_loopback": True})


def add(browser: Browser, url: str, kind: str = "") -> None:
    browser.type(browser.find("#hook-url"), url)
    if kind:
        browser.click(browser.find(f"#hook-kind option[value={kind}]"))
    browser.click(browser.find("form[action$='/webhooks'] button"))


def test_a_player_and_the_organiser_add_webhooks_from_their_pages(server: tuple[str, Any],
                                                                 browser: Browser,
                                                                 tmp_path: Path) -> None:
    base, app = server
    shots = Path(os.environ.get("PBEM_SCREENSHOTS", tmp_path / "screenshots"))
    shots.mkdir(exist_ok=True)
    receiver = Receiver(free_port()).start()
    service = Service.open(app.config["PBEM_SETTINGS"])
    try:
        game_id = service.create_game("emerald", PLAYERS, seed="hooks").after.game_id
        links = app.extensions["pbem.links"]

        browser.go(f"{base}/home/{links.make('home', service.player_id(PLAYERS[0].email))}")
        assert "No webhook yet" in browser.text()
        add(browser, receiver.url("/ann-secret-path"))
        page = check_page(browser, shots, "home-webhook")[375]
        assert "JSON webhook at 127.0.0.1" in page and "shown this once" in page
        assert "ann-secret-path" not in page
        secret = browser.text("code")

        browser.go(f"{base}/organise/{links.make('organiser', game_id)}")
        add(browser, receiver.url("/table"), "discord")
        page = check_page(browser, shots, "organise-webhook")[375]
        assert "Discord webhook at 127.0.0.1" in page and "shown this once" not in page

        dispatch(service.store, FileTransport(settings_mailbox(app)), "pbem@localhost", max_attempts=3,
                 retry_seconds=1, poster=Poster(timeout=2, allow_loopback=True))
        by_path = {p.path: p for p in receiver.posts}
        assert set(by_path) == {"/ann-secret-path", "/table"}
        ann = by_path["/ann-secret-path"]
        assert verify(secret, ann.body, ann.headers["x-pbem-timestamp"], ann.headers["x-pbem-signature"])
        assert "public news" in by_path["/table"].json["content"]
    finally:
        service.close()
        receiver.stop()


def settings_mailbox(app: Any) -> Path:
    mailbox: Path = app.config["PBEM_SETTINGS"].mailbox
    return mailbox
