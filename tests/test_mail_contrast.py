"""Every mail says its language, and every colour of its text stands out from its background (WCAG AA, 4.5:1): a
game's mails, its talk mails and a digest of its talk among them."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser

import pytest

from delivery import html_of, parse, play_moves
from events.handling import Cause
from events.store import write_row
from pbem.post.mail.outbox import message_of
from pbem.post.people import set_mail
from pbem.service import Player, Service
from pbem.table.talk import Talk

PLAYERS = [Player("alice@example.org", "Alice"), Player("bob@example.org", "Bob"), Player("carol@example.org", "Carol")]
VOID = {"br", "img", "meta", "hr", "input", "link", "col", "area", "base", "wbr", "source"}


def luminance(hex_colour: str) -> float:
    digits = hex_colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


class Colours(HTMLParser):
    """Each text's colour and the background it stands on (the nearest element that sets one; white at the top)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str, str]] = [("", "#ffffff", "#222222")]
        self.pairs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        style = dict(attrs).get("style") or ""
        background = re.search(r"background(?:-color)?:\s*(#[0-9a-fA-F]{3,6})", style)
        colour = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3,6})", style)
        _, bg, fg = self.stack[-1]
        entry = (tag, background[1] if background else bg, colour[1] if colour else fg)
        if tag not in VOID:
            self.stack.append(entry)

    def handle_endtag(self, tag: str) -> None:
        while len(self.stack) > 1:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if data.strip():
            _, bg, fg = self.stack[-1]
            self.pairs.append((fg, bg, data.strip()[:40]))


@pytest.mark.parametrize("game_type", ["emerald", "emerald1", "nanty"])
def test_a_games_mails_say_their_language_and_every_text_colour_stands_out(service: Service, game_type: str) -> None:
    game_id = service.create_game(game_type, PLAYERS, seed="contrast").after.game_id
    # table talk mailed soon after to Alice, in a digest to Bob: their mails are checked too
    set_mail(service.store, service.player_id(PLAYERS[0].email), "every", "off", "soon")
    set_mail(service.store, service.player_id(PLAYERS[1].email), "every", "off", "digest")
    service.say(game_id, 2, Talk("say", "Good luck, both."), cause=Cause("link"))
    play_moves(service, game_id, 30, seed=5)
    later = datetime.now(timezone.utc) + timedelta(days=1)
    service.write_owed_mail(later)
    bob = service.store.query("SELECT * FROM players WHERE email = ?", (PLAYERS[1].email,))[0]
    assert service.notifier is not None
    with service.store.transaction() as conn:
        for r in service.notifier.digest(service, bob, later):
            write_row(conn, r)
    rows = service.store.query("SELECT * FROM outbox WHERE game_id = ? OR kind = 'digest'", (game_id,))
    assert rows and {"talk", "digest"} <= {r["kind"] for r in rows}
    for row in rows:
        html = html_of(parse(message_of(row)))
        assert '<html lang="en">' in html
        reader = Colours()
        reader.feed(html)
        poor = {(fg, bg, text) for fg, bg, text in reader.pairs if contrast(fg, bg) < 4.5}
        assert not poor, poor


def test_the_colours_once_used_for_empty_places_were_too_pale() -> None:
    assert contrast("#777777", "#ffffff") < 4.5 <= contrast("#595959", "#ffffff")
