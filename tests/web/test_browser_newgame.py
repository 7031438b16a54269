"""Creating a game on the new-game page and accepting the invitations, in headless Chromium.

The operator invites Olive; she opens the new-game page from her link, chooses Nanty Narking and an option,
fills in three players and sends the invitations. Each player opens their invitation mail in the dev
mailbox, follows its Accept link and presses the button; after the last one the game has started and
the first player's turn mail is in the mailbox. Every page is checked at 375 and 1280 pixels (screenshots,
no sideways scrolling, text contrast at least 4.5:1).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from pbem.organising import muster, organisers
from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.transport import FileTransport
from pbem.service import Service
from browser import CHROMEDRIVER, CHROMIUM, MISSING, Browser, may_ask_for_move, serve
from web.test_browser_pages import check_page

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=MISSING)

PLAYERS = [("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cy", "cy@example.org")]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    yield from serve(tmp_path)


def open_link(browser: Browser, base: str, email: str, label: str) -> None:
    """Open the newest mail to ``email`` in the dev mailbox and follow its link labelled ``label``."""
    browser.go(f"{base}/dev/mail")
    rows = browser.xpath_all(f"//tbody/tr[td[1][contains(., '{email}')]]/td[2]/a")
    assert rows, browser.text()
    browser.click(rows[0])
    page = browser.text()
    found = re.findall(rf"^{label}: (\S+)$", page, re.M)
    assert found, page
    browser.go(found[-1])


def test_an_organiser_creates_a_game_in_the_browser_and_the_players_accept(server: tuple[str, Any],
                                                                           browser: Browser,
                                                                           tmp_path: Path) -> None:
    base, app = server
    shots = Path(os.environ.get("PBEM_SCREENSHOTS", tmp_path / "screenshots"))
    shots.mkdir(exist_ok=True)
    settings = app.config["PBEM_SETTINGS"]
    service = Service.open(settings)

    def send_mail() -> None:  # as the worker: the mails the pages' moves owe composed, then sent
        service.write_owed_mail()
        dispatch(service.store, FileTransport(settings.mailbox), "pbem@localhost", max_attempts=3, retry_seconds=1)

    try:
        assert service.notifier is not None
        organisers.invite(service.store, service.notifier, "olive@example.org")
        send_mail()
        open_link(browser, base, "olive@example.org", "Create a game")
        assert "Create a game" in browser.wait_text("Send the invitations")
        check_page(browser, shots, "newgame")

        browser.resize(1280, 900)
        browser.click(browser.xpath_all("//label[contains(., 'Nanty Narking')]/input")[0])
        browser.click(browser.xpath_all("//select[@name='opt.nanty.personalities']/option[@value='classic']")[0])
        names, emails = browser.find_all("input[name=player_name]"), browser.find_all("input[name=player_email]")
        for (name, email), name_box, email_box in zip(PLAYERS, names, emails):
            browser.type(name_box, name)
            browser.type(email_box, email)
        browser.type(browser.find("input#name"), "Olive")
        browser.click(browser.xpath_all("//input[@name='vacation'][@value='pause']")[0])
        browser.run("document.getElementById('autopilot_after').value = '';")
        browser.type(browser.find("input#autopilot_after"), "2")
        browser.click(browser.xpath_all("//button[.='Send the invitations']")[0])
        page = browser.wait_text("waiting for the players")
        assert "The invitations are on their way" in page and "Classic: the older table" in page
        assert "The game's clocks stop while anyone is away" in page and "After 2 missed deadlines in a row" in page
        check_page(browser, shots, "muster")
        muster_url = browser.url()

        send_mail()
        for number, (name, email) in enumerate(PLAYERS):
            open_link(browser, base, email, "Accept")
            page = browser.wait_text("Your answer")
            assert f"{name}, you are invited to play Nanty Narking" in page
            assert "The game's clocks stop while anyone is away" in page
            assert not [e for _, e in PLAYERS if e in page]  # names only, even one's own address is not needed
            if number == 0:
                check_page(browser, shots, "invitation")
                browser.resize(1280, 900)
            browser.click(browser.xpath_all("//button[starts-with(., 'Accept')]")[0])
            answered = browser.wait_text("You accepted")
            if number == len(PLAYERS) - 1:
                assert "the game has started" in answered
        browser.go(muster_url)
        page = browser.wait_text("started")
        assert "Organise the game" in page
        check_page(browser, shots, "started")

        found = muster.listing(service.store)[0]
        assert found["status"] == "started"
        options = service.load(found["game_id"]).config.options
        assert options["vacation"] == "pause" and options["autopilot_after"] == 2
        send_mail()
        browser.go(f"{base}/dev/mail")
        listing = browser.text()
        # the game's first mail: "[<the game's name>] <the decision's first sentence> (turn 1, ...)" or "(setup)"
        subjects = [" ".join(browser.attr(a, "textContent").split()) for a in browser.find_all("tbody tr td:nth-child(2) a")]
        assert any(s.startswith(f"[{options['name']}] ") and may_ask_for_move(s) for s in subjects), subjects
        assert listing.count("Invitation: Nanty Narking") == 3 and "Everyone accepted" in listing
    finally:
        service.close()
