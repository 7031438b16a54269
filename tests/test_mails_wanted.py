"""One mail a turn: a player who has just acted gets no mail for a decision that follows their own move while they are
at the game; if they leave it waiting, one mail comes with everything since.

Scripted games of each game are played by seeded random choices, each player acting at once when asked and an hour
passing whenever the turn passes to another player (the worker then writes what was held). For each player the test
counts their own turns, the out-of-turn questions put to them, and the mails they got.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from delivery import later, make_settings
from events.handling import Cause
from pbem.post.mail.outbox import draft_of
from pbem.post.people import set_mail
from pbem.post.story import turn_of
from pbem.service import Player, Service

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Alice", "Bob", "Carol")]
CLI = Cause("cli")
NAME = "Emerald with Alice, Bob and Carol"


def mails(service: Service, game_id: str) -> list[dict[str, Any]]:
    return service.store.query("SELECT * FROM outbox WHERE game_id = ? AND channel = 'mail' ORDER BY created_at, id",
                               (game_id,))


def play(service: Service, game_type: str, moves: int, seed: int) -> tuple[str, dict[str, Any]]:
    """The scripted game; what each player was asked and mailed."""
    game_id = service.create_game(game_type, PLAYERS, seed=f"wanted-{seed}").after.game_id
    chooser = random.Random(seed)
    turns: Counter[int] = Counter()
    questions: Counter[int] = Counter()
    own_mail: list[tuple[int, dict[str, Any]]] = []  # a mail written by a command to the player who made it
    last = None
    for _ in range(moves):
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        prompts = rules.prompts(state.game) if not state.ended else {}
        if not prompts:
            break
        key = turn_of(rules, state)
        if key is not None and key != last:
            turns[key[1]] += 1
            last = key
            later(service)  # the turn passes: an hour goes by, and the worker writes what was held
        seat = min(prompts)
        questions[seat] += prompts[seat].kind != "turn"
        legal = rules.legal_actions(state.game, seat)
        choice = chooser.choice([a for a in legal if a["kind"] != "pass"] or legal)
        before = len(mails(service, game_id))
        service.act_as(game_id, seat, choice, cause=CLI)
        own_mail += [(seat, m) for m in mails(service, game_id)[before:]
                     if m["to_addr"] == PLAYERS[seat].email and m["kind"] != "ended"]
    later(service)
    return game_id, {"turns": turns, "questions": questions, "own_mail": own_mail}


@pytest.fixture(scope="module", params=["emerald", "emerald1", "nanty"])
def scripted(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    service = Service.open(make_settings(tmp_path_factory.mktemp(request.param) / "inst"))
    game_id, counts = play(service, request.param, 150, seed=3)
    yield request.param, service, game_id, counts
    service.close()


def test_each_player_gets_about_one_mail_a_turn(scripted: Any) -> None:
    game_type, service, game_id, counts = scripted
    sent = mails(service, game_id)
    for seat, player in enumerate(PLAYERS):
        theirs = [m for m in sent if m["to_addr"] == player.email]
        turn_mails = [m for m in theirs if m["kind"] == "turn"]
        turns, asked = counts["turns"][seat], counts["questions"][seat]
        assert turns >= 9, (game_type, player.name, turns)
        # one mail a turn (it was two a turn in Emerald and three or four in Nanty Narking) ...
        assert len(turn_mails) <= 1.1 * turns, (game_type, player.name, len(turn_mails), turns)
        # ... and one for each question put to them out of turn, each its own decision
        assert len(theirs) <= 1.1 * (turns + asked), (game_type, player.name, len(theirs), turns, asked)
    assert not counts["own_mail"], "a player was mailed by their own command"


def test_subjects_name_the_game_and_say_what_to_do(scripted: Any) -> None:
    game_type, service, game_id, _ = scripted
    short = {"emerald": "Emerald", "emerald1": "Emerald (1st ed.)", "nanty": "Nanty Narking"}[game_type]
    for player in PLAYERS:
        theirs = [draft_of(m) for m in mails(service, game_id) if m["to_addr"] == player.email]
        for draft in theirs:
            assert draft["subject"].startswith(f"[{short} with Alice, Bob and Carol] "), draft["subject"]
            assert draft["context"]["game_id"] not in draft["subject"]  # the name, not the id
            assert not re.search(r"\b(move|event) \d", draft["subject"])  # turns as the game counts them
        for one, two in zip(theirs, theirs[1:]):  # two decisions, two subjects
            if one["subject"] == two["subject"]:
                assert one["context"]["prompt"]["text"] == two["context"]["prompt"]["text"]


def test_a_player_who_leaves_a_turn_half_played_gets_one_mail_with_everything_since(tmp_path: Path) -> None:
    service = Service.open(make_settings(tmp_path / "inst"))
    try:
        game_id = service.create_game("emerald", PLAYERS, seed="half").after.game_id
        for _ in range(30):  # the setup, and whoever goes before her
            state = service.load(game_id)
            rules = service.kernel.rules(state)
            key = turn_of(rules, state)
            if key is not None and key[0].startswith("turn") and key[1] == 0:
                break
            seat = min(rules.prompts(state.game))
            service.act_as(game_id, seat, service.legal(game_id, PLAYERS[seat].email)[0]["text"], cause=CLI)
        assert key is not None
        turn = key[0]
        later(service)  # the setup is done; Alice's first turn waits for her
        first = [m for m in mails(service, game_id) if m["to_addr"] == PLAYERS[0].email]
        assert first[-1]["subject"] == f"[{NAME}] Your turn ({turn}, action 1 of 2)"
        action = next(e["text"] for e in service.legal(game_id, PLAYERS[0].email) if e["text"].startswith("place"))
        service.act(game_id, PLAYERS[0].email, action, cause=Cause("link"))  # on the page
        assert [m for m in mails(service, game_id) if m["to_addr"] == PLAYERS[0].email] == first  # no mail now
        assert later(service) == 1  # she left it: one mail, with everything since her last turn
        [held] = [m for m in mails(service, game_id) if m["to_addr"] == PLAYERS[0].email][len(first):]
        draft = draft_of(held)
        assert draft["subject"] == f"[{NAME}] Your turn ({turn}, action 2 of 2)"
        story = draft["context"]["story"]
        assert story[-1]["heading"] == f"{turn.capitalize()} · Alice (you)"
        assert any(group["heading"].endswith("· Carol") for group in story)  # the turn before hers, told whole
        assert story[-1]["lines"][0].startswith("Alice plays ") and "Alice completes action 1." in story[-1]["lines"]
        assert later(service) == 0  # once
    finally:
        service.close()


def test_recording_an_absence_sends_no_turn_mail_again(tmp_path: Path) -> None:
    from datetime import datetime, timedelta, timezone
    service = Service.open(make_settings(tmp_path / "inst"))
    try:
        game_id = service.create_game("emerald", PLAYERS, seed="away").after.game_id
        later(service)
        before = len(mails(service, game_id))
        today = datetime.now(timezone.utc).date()
        service.declare_absence(game_id, 0, str(today + timedelta(days=3)), str(today + timedelta(days=5)),
                                cause=Cause("link"))
        assert len(mails(service, game_id)) == before
        assert later(service) == 0  # and none when she has left it: nothing was played since her last mail
    finally:
        service.close()


def test_with_receipts_on_a_move_that_ends_the_movers_part_mails_them_a_receipt(tmp_path: Path) -> None:
    service = Service.open(make_settings(tmp_path / "inst"))
    try:
        game_id = service.create_game("emerald", PLAYERS, seed="receipts").after.game_id
        for player in PLAYERS:
            set_mail(service.store, service.player_id(player.email), "every", "on")
        counts: Counter[int] = Counter()
        for _ in range(40):
            state = service.load(game_id)
            prompts = service.kernel.rules(state).prompts(state.game)
            seat = min(prompts)
            before = len(mails(service, game_id))
            service.act_as(game_id, seat, service.legal(game_id, PLAYERS[seat].email)[0]["text"], cause=CLI)
            after = service.load(game_id)
            mine = [m["kind"] for m in mails(service, game_id)[before:] if m["to_addr"] == PLAYERS[seat].email]
            ended = seat not in service.kernel.rules(after).prompts(after.game)
            assert mine == (["receipt"] if ended else []), (seat, mine)
            counts[seat] += ended
        assert sum(counts.values()) >= 10
    finally:
        service.close()
