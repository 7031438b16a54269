"""A game of each of the three games on a phone (375 by 800 pixels) and at a desk (1280 by 900), in headless Chromium.

Each game is brought by the service to a move where the player to act can click something on the board that leaves
one choice, and where another player has written to them. On the play page, at both widths: no board text is
under 11 CSS pixels (SVG text at its size scaled by the drawing, other text at its computed size); the decision's
first choice, or the link to the choices, is within the first 800 pixels; the page does not scroll sideways; axe-core
finds no violation of WCAG 2.1 A and AA. Then the player clicks the thing on the board: the one choice left is
selected, the preview says it, and the move is confirmed. The other pages a player reads (the preview, the receipt,
the replay, an event's audit, the page of an outdated link, their home page) are checked the same way for sideways scrolling. A screenshot of
every page at both widths goes to the test's temporary folder (or ``$PBEM_SCREENSHOTS``).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any, Iterator

import pytest

from events.handling import Cause
from pbem.games.presentation import picks
from pbem.service import Player, Service
from pbem.table.talk import Talk
from browser import CHROMEDRIVER, CHROMIUM, MISSING, Browser, serve

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=MISSING)

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cy")]
WIDTHS = ((375, 800), (1280, 900))
BOARD = ".emerald-board, .nanty-board"
# Each game, with a seed and a number of random moves that bring it to a player who can click the board to one choice.
GAMES = {"emerald": ("board", 6), "emerald1": ("phone", 6), "nanty": ("phone", 11)}
BOXES_SCROLLING = ("return [...document.querySelectorAll('section, figure, .scroll')]"
                   ".filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent.trim().slice(0, 40));")
FIRST_CHOICE = ("const found = document.querySelector('input[name=choice], a[href=\"#choices\"]');"
                "return found ? found.getBoundingClientRect().top : null;")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    yield from serve(tmp_path)


def played(service: Service, game: str) -> tuple[str, int]:
    """The game brought to its move by seeded random moves; the seat to act."""
    seed, moves = GAMES[game]
    game_id = service.create_game(game, PLAYERS, seed=seed).after.game_id
    pick = random.Random(4)
    for _ in range(moves):
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("cli"))
    return game_id, int(service.show(game_id)["waiting_for"][0]["seat"])


def check(browser: Browser, shots: Path, name: str, play: bool = False) -> None:
    """At both widths: a screenshot; no sideways scrolling; on a play page the board's text and the choices' place."""
    for width, height in WIDTHS:
        browser.resize(width, height)
        browser.run("window.scrollTo(0, 0);")
        wide, inner = browser.run("return [document.documentElement.scrollWidth, window.innerWidth];")
        assert wide <= inner, f"{name} scrolls sideways at {width}px: {wide} > {inner}"
        boxed = browser.run(BOXES_SCROLLING)
        assert boxed == [], f"{name} at {width}px: sections that scroll sideways, cutting {boxed}"
        browser.screenshot(shots / f"{name}-{width}.png")
        if play:
            browser.run("arguments[0].scrollIntoView();", browser.find(BOARD))
            browser.screenshot(shots / f"{name}-board-{width}.png")
            browser.run("window.scrollTo(0, 0);")
            size, words = browser.smallest_text(BOARD)
            assert size >= 11, f"{name} at {width}px: board text of {size:.1f}px ({words!r})"
            top = browser.run(FIRST_CHOICE)
            assert top is not None and top < 800, f"{name} at {width}px: the choices begin at {top}px"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_move_on_a_phone_and_at_a_desk(game: str, server: tuple[str, Any], browser: Browser,
                                        tmp_path: Path) -> None:
    base, app = server
    shots = Path(os.environ.get("PBEM_SCREENSHOTS", tmp_path / "screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    service = Service.open(app.config["PBEM_SETTINGS"])
    try:
        game_id, seat = played(service, game)
        other = (seat + 1) % len(PLAYERS)
        service.say(game_id, other, Talk("say", "Shall we share Paris?", (seat,)), cause=Cause("cli"))
        email = PLAYERS[seat].email
        shown, legal = service.show(game_id, email), service.legal(game_id, email)
        ones = [key for key, n in picks(game, shown["view"], legal).items() if n == 1]
        key = sorted(ones, key=lambda k: k.startswith("card:"))[0]  # a thing on the board rather than a card
        links = app.extensions["pbem.links"]
        token = links.play(game_id, seat, service.store.last(game_id)[0])

        browser.go(f"{base}/play/{token}")
        check(browser, shots, f"{game}-play", play=True)
        page = browser.text()
        assert f"{PLAYERS[other].name} to {PLAYERS[seat].name}: \u201cShall we share Paris?\u201d" in page
        assert "Table talk (1 new)" in page
        assert browser.axe() == [], game

        browser.resize(1280, 900)
        clicked = [a for a in browser.find_all(" a, ".join(BOARD.split(", ")) + " a")  # the map's links first
                   if str(browser.run("return arguments[0].getAttribute('href');", a)).endswith(f"?on={key}#prompt-h")]
        assert clicked, key
        browser.run("arguments[0].scrollIntoView();", clicked[0])
        browser.click(clicked[0])
        browser.wait_text("Your choices with")
        check(browser, shots, f"{game}-focus", play=True)
        chosen = browser.find_all("fieldset.focus input[name=choice]")
        assert len(chosen) == 1 and chosen[0].is_selected()
        command = browser.attr(chosen[0], "value")
        assert command == next(e["text"] for e in legal if key in _touched(game, shown["view"], e))

        browser.resize(1280, 900)
        browser.click(browser.find("form#choices button[type=submit]"))
        preview = browser.wait_text("If you confirm, this is played")
        assert command in preview
        check(browser, shots, f"{game}-preview")
        browser.resize(1280, 900)
        browser.click(browser.find("form button[type=submit]"))
        browser.wait_text("Receipt")
        check(browser, shots, f"{game}-done")
        audit = str(browser.attr(browser.find("a[href*='/audit/']"), "href"))  # the player's own move, explained

        for name, url in (("replay", f"{base}/play/{token}/replay"), ("audit", audit)):
            browser.go(url)
            assert "Not available" not in browser.text(), name
            check(browser, shots, f"{game}-{name}")
        browser.go(f"{base}/play/{token}")  # the link of the mail before the move: the game moved on since
        assert "Nothing was changed" in browser.text()
        check(browser, shots, f"{game}-stale")
        home = links.make("home", service.player_id(email))
        browser.go(f"{base}/home/{home}")
        check(browser, shots, f"{game}-home")
        assert browser.axe() == [], f"{game} home"
    finally:
        service.close()
    for name in ("play", "focus", "preview", "done", "replay", "audit", "stale", "home"):
        for width, _ in WIDTHS:
            assert (shots / f"{game}-{name}-{width}.png").stat().st_size > 5_000


def _touched(game: str, view: Any, entry: Any) -> list[str]:
    from pbem.games.presentation import lookup
    found = lookup(game)
    return list(found.touches(view, entry["action"])) if found is not None and hasattr(found, "touches") else []


def test_the_home_page_offers_the_browsers_time_zone_and_every_page_then_reads_in_it(
        server: tuple[str, Any], browser: Browser, tmp_path: Path) -> None:
    base, app = server
    service = Service.open(app.config["PBEM_SETTINGS"])
    browser.driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Berlin"})
    try:
        game_id, seat = played(service, "nanty")
        email = PLAYERS[seat].email
        links = app.extensions["pbem.links"]
        browser.go(f"{base}/home/{links.make('home', service.player_id(email))}")
        assert "times are in UTC" in browser.text("footer")
        offer = browser.find("#tz-browser")
        assert offer.is_displayed() and offer.text == "Use my browser\u2019s time zone: Europe/Berlin"
        groups = [browser.attr(g, "label") for g in browser.find_all("#timezone optgroup")]
        assert groups[:3] == ["Common time zones", "Europe", "The Americas"]
        assert "Factory" not in browser.text("#timezone") and "localtime" not in browser.text("#timezone")
        browser.click(offer)
        assert "Your time zone is now Europe/Berlin." in browser.wait_text("Your time zone is now")
        assert "times are in your time zone, Europe/Berlin" in browser.text("footer")

        browser.go(f"{base}/play/{links.play(game_id, seat, service.store.last(game_id)[0])}")
        assert "times are in your time zone, Europe/Berlin" in browser.text("footer")
        assert "(Europe/Berlin)" in browser.text(".deadline")
    finally:
        browser.driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})  # the machine's again
        service.close()
