"""A whole game of Nanty Narking in headless Chromium, every player acting from their mailbox.

The game is made short with a data override, as a group that owns the game could give one: every standard
personality wins at the start of its owner's turn with 4 areas occupied (each player starts in 3). The test
plays the worker (it composes the mails a move owes and sends the outbox to the file mailbox after each move)
and the two players: a player opens the dev mailbox, their newest mail, the link in it; if the page asks for a
move they choose one, by clicking its choice or typing its command, preview it and confirm it, all through the
pages. Long games are played to the end through the same pages by ``test_whole_games``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from pbem.games.nanty.data import catalog, load_data
from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.transport import FileTransport
from pbem.service import Player, Service
from browser import CHROMEDRIVER, CHROMIUM, MISSING, Browser, may_ask_for_move, newest_mails, serve

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=MISSING)]

PLAYERS = [Player("alice@example.org", "Alice"), Player("bob@example.org", "Bob")]
SCREENSHOT = Path("/tmp/pbem-nanty-play-page.png")
QUICK = {"personalities": [{"set": "standard", "id": p["id"],
                            "goals": [{"measure": "occupied", "target": {"2": 4, "3": 4, "4": 4}}]}
                           for p in catalog(load_data(None)).personalities["standard"]]}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    yield from serve(tmp_path, {"idle_minutes": 0})  # the game is followed through its mails only


def follow_mail(browser: Browser, mail_url: str) -> bool:
    browser.go(mail_url)
    links = [a for a in browser.find_all("pre a") if re.search(r"/play/[^/]+$", browser.attr(a, "href"))]
    if not links:
        return False
    browser.click(links[0])
    return "it is your move" in browser.wait_text("pbem")


def test_a_whole_nanty_game_through_the_mails_and_pages(server: tuple[str, Any], browser: Browser) -> None:
    base, app = server
    settings = app.config["PBEM_SETTINGS"]
    service = Service.open(settings)
    chooser = random.Random(3)
    try:
        game_id = service.create_game("nanty", PLAYERS, seed="browser-nanty", data_override=QUICK).after.game_id
        moves = 0
        for _ in range(80):
            service.write_owed_mail()  # as the worker: the mails the pages' moves owe composed, then sent
            dispatch(service.store, FileTransport(settings.mailbox), "pbem@localhost", max_attempts=3, retry_seconds=1)
            if service.show(game_id)["status"] == "ended":
                break
            acted = False
            for player in PLAYERS:
                subject, mail_url = newest_mails(browser, base, [p.email for p in PLAYERS]).get(player.email, ("", ""))
                if not may_ask_for_move(subject) or not follow_mail(browser, mail_url):
                    continue
                assert "Your hand" in browser.text()
                if moves == 2:
                    browser.screenshot(SCREENSHOT)
                legal = service.legal(game_id, player.email)
                # place agents in new areas when a card allows it, so that the short goal is reached
                spread = [e for e in legal if e["action"]["kind"] in ("agent", "play", "end")]
                command = str(chooser.choice(spread or legal)["text"])
                radios = browser.xpath_all(f"//input[@name='choice' and @value='{command}']")
                if radios and moves % 2:
                    folded = browser.xpath_all(f"//details[.//input[@name='choice' and @value='{command}']]"
                                               "[not(@open)]/summary")
                    if folded:
                        browser.click(folded[0])
                    browser.click(radios[0])
                else:
                    browser.type(browser.find("input[name=text]"), command)
                browser.click(browser.find("form[action$='/preview'] button[type=submit]"))
                browser.wait_text("Preview:")
                browser.click(browser.find("form button[type=submit]"))
                assert "Receipt" in browser.wait_text("Done:")
                moves += 1
                acted = True
                break
            assert acted, f"after {moves} moves nobody's newest mail asked for a move"
        assert service.show(game_id)["status"] == "ended", f"not over after {moves} moves"
        dispatch(service.store, FileTransport(settings.mailbox), "pbem@localhost", max_attempts=3, retry_seconds=1)
        browser.go(f"{base}/dev/mail")
        assert browser.text().count("] Game over") == len(PLAYERS)
        browser.go(f"{base}/games/{game_id}")
        assert "The game is over." in browser.text()
        assert service.verify(game_id).ok
        print(f"{moves} moves through the pages")
    finally:
        service.close()
