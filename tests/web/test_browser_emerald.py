"""A whole game of A Study in Emerald in headless Chromium, every player acting from their mailbox.

The test plays the worker (it composes the mails a move owes and sends the outbox to the file mailbox after each move) and the
three players. A player opens the dev mailbox, their newest mail, the link in it; if the page
asks for a move they choose one (their choice is made by a simple seeded strategy that prefers
moving the track markers, then claiming, then assassinating, so that a game ends in a few
hundred moves), preview it and confirm it, all through the pages.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.transport import FileTransport
from pbem.service import Player, Service
from browser import CHROMEDRIVER, CHROMIUM, MISSING, Browser, may_ask_for_move, newest_mails, serve

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=MISSING)

PLAYERS = [Player("alice@example.org", "Alice"), Player("bob@example.org", "Bob")]
PREFER = ("markers", "claim", "assassinate", "place")
SCREENSHOT = Path("/tmp/pbem-emerald-play-page.png")
# The game is played to its end, as its owners may set it up (a data override): to 6 victory points, not 28, so that
# the whole game through the pages takes 37 moves, not hundreds; every page and mail of it is the same.
SHORTER = {"game": {"victory_target": {"2": 6, "3": 6, "4": 6, "5": 6}}}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    yield from serve(tmp_path, {"idle_minutes": 0})  # the game is followed through its mails only


def pick(service: Service, game_id: str, email: str, chooser: random.Random) -> str:
    """The player's choice, as the text command they would give."""
    legal = service.legal(game_id, email)
    for kind in PREFER:
        options = [a for a in legal if a["action"]["kind"] == kind]
        if options:
            return str(chooser.choice(options)["text"])
    options = [a for a in legal if a["action"]["kind"] not in ("pass", "discard")] or legal
    return str(chooser.choice(options)["text"])


def follow_mail(browser: Browser, mail_url: str) -> bool:
    """Open a mail and the play link in it; True if the page asks for a move."""
    browser.go(mail_url)
    links = [a for a in browser.find_all("pre a")  # the play link itself, not its replay or an audit
             if re.search(r"/play/[^/]+$", browser.attr(a, "href"))]
    if not links:
        return False
    browser.click(links[0])
    return "it is your move" in browser.wait_text("pbem")


def test_a_whole_emerald_game_through_the_mails_and_pages(server: tuple[str, Any],
                                                          browser: Browser) -> None:
    base, app = server
    settings = app.config["PBEM_SETTINGS"]
    service = Service.open(settings)
    chooser = random.Random(7)
    try:
        game_id = service.create_game("emerald", PLAYERS, seed="browser-emerald",
                                      data_override=SHORTER).after.game_id
        moves = 0
        for _ in range(600):
            service.write_owed_mail()  # as the worker: the mails the pages' moves owe composed, then sent
            dispatch(service.store, FileTransport(settings.mailbox), "pbem@localhost", max_attempts=3,
                     retry_seconds=1)
            if service.show(game_id)["status"] == "ended":
                break
            acted = False
            newest = newest_mails(browser, base, [p.email for p in PLAYERS])
            for player in PLAYERS:
                subject, mail_url = newest.get(player.email, ("", ""))
                if not may_ask_for_move(subject) or not follow_mail(browser, mail_url):
                    continue
                if moves == 10:
                    browser.screenshot(SCREENSHOT)
                command = pick(service, game_id, player.email, chooser)
                radios = browser.xpath_all(f"//input[@name='choice' and @value='{command}']") if "'" not in command else []
                if radios and moves % 2:
                    folded = browser.xpath_all(f"//details[.//input[@name='choice' and @value='{command}']]"
                                               "[not(@open)]/summary")
                    if folded:  # a long group of choices is folded: open it, as a player would
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
        shown = service.show(game_id)
        assert shown["status"] == "ended", f"not over after {moves} moves"
        assert moves > 20
        print(f"{moves} moves through the pages")
        dispatch(service.store, FileTransport(settings.mailbox), "pbem@localhost", max_attempts=3, retry_seconds=1)
        browser.go(f"{base}/dev/mail")
        assert browser.text().count("] Game over") == len(PLAYERS)
        assert service.verify(game_id).ok
    finally:
        service.close()
