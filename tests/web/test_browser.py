"""A whole Highdie game in real headless Chromium, through the mails and pages only.

The test is the scheduler (it sends the outbox to the file mailbox after each move) and
the players: each opens the dev mailbox, their newest mail, the link in it, picks an
action, previews it and confirms. Chromium is driven by selenium (``tests/browser.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.transport import FileTransport
from pbem.service import Player, Service
from browser import CHROMEDRIVER, CHROMIUM, MISSING, Browser, may_ask_for_move, serve

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=MISSING)
PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben")]


@pytest.fixture
def server(tmp_path: Path, highdie_registered: None) -> Iterator[tuple[str, Any]]:
    yield from serve(tmp_path, {"idle_minutes": 0})  # the game is followed through its mails only


def open_newest_prompt_mail(browser: Browser, base: str, email: str) -> bool:
    """Open the player's newest mail; follow its link if it asks for a move. False if it does not."""
    browser.go(f"{base}/dev/mail")
    rows = browser.xpath_all(f"//tbody/tr[td[1][contains(., '{email}')]]/td[2]/a")
    if not rows:
        return False
    subject = browser.attr(rows[0], "textContent")
    if not may_ask_for_move(subject):
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


def test_a_whole_game_through_the_mails_and_pages(server: tuple[str, Any], browser: Browser,
                                                  tmp_path: Path) -> None:
    base, app = server
    settings = app.config["PBEM_SETTINGS"]
    service = Service.open(settings)
    shot = tmp_path / "play-page.png"
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
                    browser.screenshot(shot)
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
        assert f"Step {last} of {last}" in browser.wait_text("Everything revealed")
        browser.click(browser.find("a[rel=prev]"))
        assert f"Step {last - 1} of {last}" in browser.wait_text(f"Step {last - 1} of")
        browser.click(browser.find("a[rel=next]"))
        browser.wait_text(f"Step {last} of")
        browser.click(browser.xpath_all("//select[@id='turn']/option[contains(., 'Turn 2:')]")[0])
        browser.click(browser.find("form[method=get] button[type=submit]"))
        # the last move's page also shows every table: wait for what only turn 2's page says (its first step, which
        # names its turn as the list marks it)
        turn_two = browser.wait_text("Replay: turn 2,")
        assert browser.run("return document.getElementById('turn').selectedOptions[0].text") == "Turn 2: Ben"
        assert "The table, as Ann saw it" in turn_two and "The table, as Ben saw it" in turn_two, turn_two
        browser.go(f"{base}/games/{game_id}/verify")
        assert "Verified" in browser.wait_text("What was checked")
    finally:
        service.close()
    assert shot.stat().st_size > 10_000
