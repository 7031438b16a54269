"""The mails a player wants: one per decision point, a short subject, the receipt folded into the next mail.

A seeded three-player game of A Study in Emerald is played forty moves by a script; after each move
the test knows who is asked to decide and checks that exactly they got a mail, and that the mover
got none when the move ended their part. The same game with receipts on adds one mail per such move.
"""

from __future__ import annotations

import email
import email.policy
import random
import re
from pathlib import Path
from typing import Any

import pytest

from events.handling import Cause
from pbem.proof import witness
from pbem.post.mail.outbox import message_of, draft_of
from pbem.post.people import set_mail
from pbem.service import Player, Service
from pbem.web import create_app

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Alice", "Bob", "Carol")]
CLI = Cause("cli")
SUBJECT = re.compile(r"^\[Emerald · [0-9a-f]+\] (Your turn \((setup|turn (\d+), (action [12] of 2|both actions done))\)"
                     r"|A decision for you|Move recorded|Game over(: .+ wins?)?)$")


def mails(service: Service, game_id: str) -> list[dict[str, Any]]:
    return service.store.query("SELECT * FROM outbox WHERE game_id = ? ORDER BY created_at, rowid", (game_id,))


def text_of(row: dict[str, Any]) -> str:
    parsed = email.message_from_string(message_of(row), policy=email.policy.default)
    return str(parsed.get_body(("plain",)).get_content())  # type: ignore[union-attr]


def play(tmp: Path, *, receipts: bool) -> tuple[Service, str, list[dict[str, Any]]]:
    """The scripted game; for each move: who moved, the events, who was asked before and after, the new mails."""
    app = create_app({"instance": tmp / "inst", "secret_key": "wanted-test-key", "TESTING": True})
    service = Service.open(app.config["PBEM_SETTINGS"])
    game_id = service.create_game("emerald", PLAYERS, seed="present").after.game_id
    if receipts:
        for player in PLAYERS:
            set_mail(service.store, service.player_id(player.email), "every", "on")
    chooser = random.Random(7)
    moves = []
    for _ in range(40):
        waiting = {w["seat"] for w in service.show(game_id)["waiting_for"]}
        if not waiting:
            break
        seat = min(waiting)
        legal = service.legal(game_id, PLAYERS[seat].email)
        choices = [entry for entry in legal if entry["action"]["kind"] != "pass"] or legal
        before = len(mails(service, game_id))
        result = service.act(game_id, PLAYERS[seat].email, chooser.choice(choices)["text"], cause=CLI)
        after = {w["seat"] for w in service.show(game_id)["waiting_for"]}
        moves.append({"seat": seat, "events": result.events, "before": waiting, "after": after,
                      "mails": mails(service, game_id)[before:]})
    return service, game_id, moves


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Any:
    service, game_id, moves = play(tmp_path_factory.mktemp("wanted"), receipts=False)
    yield service, game_id, moves
    service.close()


def test_each_player_gets_one_mail_per_decision_point_and_none_for_a_move_that_ends_their_part(game: Any) -> None:
    service, game_id, moves = game
    for move in moves:
        asked = {s for s in move["after"] if s not in move["before"] or s == move["seat"]}
        got = [PLAYERS.index(next(p for p in PLAYERS if p.email == m["to_addr"])) for m in move["mails"]]
        assert sorted(got) == sorted(asked), move
    kinds = {m["kind"] for m in mails(service, game_id)}
    assert kinds <= {"turn", "prompt", "ended"}
    # 40 moves and the game's start: one mail each (it was 61 with a receipt for every move)
    assert len(mails(service, game_id)) == 41


def test_subjects_are_short_name_the_turn_and_never_repeat_themselves(game: Any) -> None:
    service, game_id, _ = game
    for row in mails(service, game_id):
        draft = draft_of(row)
        subject = draft["subject"]
        match = SUBJECT.match(subject)
        assert match, subject
        assert "Your turn: Your turn" not in subject and len(subject) <= 60
        if match[3]:
            assert int(match[3]) == draft["context"]["view"]["turn"]
    assert any("action 2 of 2" in row["subject"] for row in mails(service, game_id))


def test_the_receipt_is_in_the_movers_next_mail_and_read_back_as_a_witness(game: Any) -> None:
    service, game_id, moves = game
    everything = mails(service, game_id)
    for move in moves:
        seat, last = move["seat"], move["events"][-1].seq
        later = [m for m in everything if m["to_addr"] == PLAYERS[seat].email
                 and draft_of(m)["context"]["seq"] >= last]
        if not later:
            continue  # the game stopped before their next mail
        text = text_of(later[0])
        for event in move["events"]:
            assert f"event {event.seq}  sha256 {event.hash}" in text and event.type not in text  # in words, not type names
        found = {(w.seq, w.hash) for w in witness.read(game_id, [("saved.eml", message_of(later[0]).encode())])}
        assert {(e.seq, e.hash) for e in move["events"]} <= found


def test_every_mail_is_under_30_kb_and_opens_with_what_happened_and_what_to_do(game: Any) -> None:
    service, game_id, _ = game
    for row in mails(service, game_id):
        message = message_of(row)
        assert len(message.encode()) < 30_000
        text = text_of(row)
        top = text[:text.index("THE TABLE")]
        if "SINCE YOUR LAST MAIL" in top:
            since = top[top.index("SINCE YOUR LAST MAIL"):].split("\n\n")[0].splitlines()[1:]
            assert len(since) <= 13, since  # twelve lines and the "and N more" with the replay's link
            if len(since) == 13:
                assert re.match(r"^ +\.\.\. and \d+ more before these: http\S+/replay$", since[0])
        assert "WHAT TO DO" in top


def test_each_mail_names_its_game_as_a_list(game: Any) -> None:
    service, game_id, _ = game
    parsed = email.message_from_string(message_of(mails(service, game_id)[-1]), policy=email.policy.default)
    assert parsed["List-Id"] == f"A Study in Emerald (2nd edition) <{game_id}.pbem.localhost>"


def test_with_receipts_on_a_move_that_ends_the_movers_part_mails_them_a_receipt(tmp_path: Path) -> None:
    service, game_id, moves = play(tmp_path, receipts=True)
    try:
        for move in moves:
            mover = PLAYERS[move["seat"]].email
            theirs = [m["kind"] for m in move["mails"] if m["to_addr"] == mover]
            assert len(theirs) == 1, move
            assert (theirs[0] in ("turn", "prompt")) == (move["seat"] in move["after"]), move
        ended_part = sum(1 for move in moves if move["seat"] not in move["after"])
        assert len(mails(service, game_id)) == 41 + ended_part
    finally:
        service.close()
