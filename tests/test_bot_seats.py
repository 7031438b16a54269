"""Seats given to the computer from the start, and the organiser's choice of the autopilot's computer player.

A practice game of each game (one scripted human, two bot seats) plays to its end through the service and the
scheduler's ``seatlife.tick``: the bot seats are never mailed, the human's mails arrive, and the record verifies.
"""

from __future__ import annotations

import hashlib
import json
import random
from datetime import datetime, timezone
from typing import Any

import pytest

from delivery import ANN, BEN
from events.handling import Cause
from events.schema import GAME_ENDED
from pbem.bots import duel
from pbem.errors import ServiceError
from pbem.instance.players import Player
from pbem.service import Service
from pbem.table import botseats, seatlife
from pbem.table.seat_events import AUTOPILOT_ON, AUTOPILOT_PLAYED, BOT_REASON
from test_autopilot_bots import service  # noqa: F401 (a service that knows Highdie and its computer player)
from test_cli_seats import run  # noqa: F401 (``pbem`` on a new instance)

NOW = datetime.now(timezone.utc)


def outbox(service: Service, game: str) -> list[tuple[str, str]]:
    return [(str(r["to_addr"]), str(r["kind"])) for r in service.store.query(
        "SELECT to_addr, kind FROM outbox WHERE game_id = ? ORDER BY created_at", (game,))]


def reasons_hidden_from_ann(service: Service, game: str) -> None:
    """Before the end, the bots' reasons are the server's: Ann reads none of them anywhere; the organiser's audit
    does."""
    found = [e for e in service.store.read(game) if e.type == BOT_REASON]
    assert found and all(e.visibility.kind == "server" for e in found)
    seen = json.dumps([service.log(game, ANN.email), service.replay(game, seat=0), service.show(game, ANN.email)])
    for event in found[-3:]:
        assert event.payload["reason"] not in seen
        try:
            audit = json.dumps(service.audit(game, event.seq, reader=0, organiser=False, email=ANN.email))
            assert event.payload["reason"] not in audit
        except ServiceError:
            pass  # refused: which tells nothing
        assert event.payload["reason"] in json.dumps(service.audit(game, event.seq))  # the organiser's
    hidden = [line for line in service.log(game, ANN.email) if line["seq"] in {e.seq for e in found}]
    assert hidden and all(line["text"] == "the computer's reason for its move (hidden until the end)"
                          and line["repeats"] for line in hidden)  # and left out of lists (pages, mails)


def practice(service: Service, game_type: str, levels: list[str], seed: str) -> str:
    """A game of one human (Ann, who plays at random) against the computer, played to its end: Ann acts when the
    game asks her, the scheduler's tick plays the computer's seats; half-way, the reasons are hidden from Ann."""
    game = service.create_game(game_type, [ANN], seed=seed, options={"bots": botseats.chosen(1, levels)},
                               game_id=hashlib.sha256(seed.encode()).hexdigest()[:10]).after.game_id  # the bots'
    # moves are seeded by the game's id and the position: a fixed id, the same game at every run
    pick = random.Random(seed)
    for turn in range(3000):
        state = service.load(game)
        if state.ended:
            return game
        if turn == 30:
            reasons_hidden_from_ann(service, game)
        rules = service.kernel.rules(state)
        prompts = rules.prompts(state.game)
        if 0 in prompts:
            service.act_as(game, 0, pick.choice(rules.legal_actions(state.game, 0)), cause=Cause("link"))
        else:
            assert seatlife.tick(service, NOW)[1] >= 1, prompts  # the computer's seats are answered at once
    raise AssertionError("the practice game did not end")


def test_the_levels_the_table_knows_are_the_bots_levels() -> None:
    assert botseats.LEVELS == duel.LEVELS and botseats.DEFAULT_LEVEL in botseats.LEVELS


def test_bot_seats_are_named_and_seated_after_the_players() -> None:
    assert botseats.names(["search", "random", "random"]) == ["Computer (search)", "Computer (random)",
                                                             "Computer 2 (random)"]
    assert botseats.chosen(1, ["search", "random"]) == {"1": "search", "2": "random"}
    seated = botseats.seated([ANN], {"bots": {"1": "search", "2": "search"}})
    assert seated == [ANN, Player("bot-1@bots.invalid", "Computer (search)"),
                      Player("bot-2@bots.invalid", "Computer 2 (search)")]
    for refused in ({"bots": {"2": "search"}}, {"bots": {"1": "clever"}}, {"bots": ["search"]},
                    {"autopilot_bot": "clever"}):
        with pytest.raises(ServiceError):
            botseats.seated([ANN], refused)
    with pytest.raises(ServiceError, match="at least one human"):
        botseats.chosen(0, ["random"])
    with pytest.raises(ServiceError, match="kept for computer players"):
        botseats.seated([ANN, Player("bot-1@bots.invalid", "Bot")], {})
    with pytest.raises(ServiceError, match="name of a computer player"):
        botseats.seated([Player("c@example.org", "Computer (random)")], {"bots": {"1": "random"}})


def test_a_bad_request_creates_nothing(service: Service) -> None:
    for options in ({"bots": {"1": "clever"}}, {"autopilot_bot": "clever"}, {"bots": {"3": "random"}}):
        with pytest.raises(ServiceError):
            service.create_game("highdie", [ANN], options=options)
    assert service.list_games() == [] and service.store.query("SELECT * FROM seats") == []


@pytest.mark.parametrize("game_type", ["emerald", "emerald1", "nanty"])
def test_a_practice_game_plays_to_its_end_and_mails_only_the_human(service: Service, game_type: str) -> None:
    game = practice(service, game_type, ["random", "greedy"], f"practice-{game_type}")
    events = service.store.read(game)
    created = events[0]
    assert created.payload["options"]["bots"] == {"1": "random", "2": "greedy"}
    assert service.load(game).config.seats[1].name == "Computer (random)"
    assert [(e.payload["seat"], e.actor) for e in events if e.type == AUTOPILOT_ON] == [(1, "system"), (2, "system")]
    assert all(e.cause == created.cause for e in events if e.type == AUTOPILOT_ON)  # in the creation command
    bots = {(e.payload["seat"], e.payload.get("bot")) for e in events if e.type == AUTOPILOT_PLAYED}
    assert bots == {(1, "random 1"), (2, "greedy 1")}
    mails = outbox(service, game)
    assert mails and {to for to, _ in mails} == {ANN.email}  # nothing is ever queued for a computer's seat
    assert mails[0] in (("ann@example.org", "turn"), ("ann@example.org", "prompt"))  # the game asks her first
    assert mails[-1] == ("ann@example.org", "ended")
    assert [p["mail"] for p in service.players(game)] == [1, 0, 0]
    assert not service.store.query("SELECT * FROM players WHERE email LIKE ?", ("%.invalid",))
    log = " ".join(line["text"] for line in service.log(game, ANN.email))
    assert "Computer (greedy) is played by the computer (greedy)" in log
    assert "the computer (greedy) played for Computer (greedy)" in log and "(autopilot)" not in log
    # every bot move's reason, in its command, readable by everyone now that the game is over
    reasons = [e for e in events if e.type == BOT_REASON]
    played = [e for e in events if e.type == AUTOPILOT_PLAYED]
    assert len(reasons) == len(played) and all(r.seq == p.seq + 1 and r.payload["seat"] == p.payload["seat"]
                                               and r.payload["bot"] == p.payload["bot"] and r.cause == p.cause
                                               for r, p in zip(reasons, played))
    ended = next(e.seq for e in events if e.type == GAME_ENDED)
    assert all(e.seq < ended for e in reasons)  # nothing recorded after the end
    last = reasons[-1]
    assert f"the computer ({last.payload['bot'].split()[0]})'s reason for " \
           f"{service.load(game).config.seats[last.payload['seat']].name}'s move: {last.payload['reason']}" in log
    report = service.verify(game)
    assert report.ok, report.failure


def test_a_bot_seat_is_answered_at_once_and_never_reminded_or_timed_out_for_missing(service: Service) -> None:
    game = service.create_game("highdie", [ANN], seed="quick", options={"bots": {"1": "random"}},
                               organiser="org@example.org").after.game_id
    assert not [m for m in outbox(service, game) if m[1] == "substitute"]  # nobody is wanted for a bot seat
    state = service.load(game)
    service.act_as(game, 0, service.kernel.rules(state).prompts(state.game)[0].default, cause=Cause("cli"))
    service.remind(game, 1)  # a reminder asked for the bot seat: the seat takes no mail
    assert {to for to, _ in outbox(service, game)} <= {ANN.email}
    assert seatlife.tick(service, NOW)[1] >= 1
    assert seatlife.autopilot.status(service.store, game, 1)["missed"] == 0
    found = seatlife.seats_of(service, game)
    assert [s["bot"] for s in found["seats"]] == [None, "random"] and found["autopilot_bot"] == "greedy"


def test_the_organiser_gives_a_bot_seat_to_a_human(service: Service) -> None:
    game = service.create_game("highdie", [ANN], seed="swap", options={"bots": {"1": "random"}}).after.game_id
    service.replace(game, 1, BEN, cause=Cause("cli"))
    assert seatlife.autopilot.status(service.store, game, 1)["autopilot"] == 0
    assert seatlife.seats_of(service, game)["seats"][1]["bot"] is None
    assert ("ben@example.org", "welcome") in outbox(service, game)
    assert not [to for to, _ in outbox(service, game) if to.endswith(".invalid")]  # no notice to the computer
    for _ in range(40):  # Ben plays his seat himself now: the scheduler does not
        state = service.load(game)
        if state.ended:
            break
        prompts = service.kernel.rules(state).prompts(state.game)
        assert seatlife.tick(service, NOW)[1] == 0
        seat = next(iter(prompts))
        service.act_as(game, seat, prompts[seat].default, cause=Cause("cli"))
    assert service.seat_of(game, BEN.email) == 1
    assert not [e for e in service.store.read(game) if e.type == AUTOPILOT_PLAYED and e.seq > 3]
    assert service.verify(game).ok


def test_the_autopilot_level_chosen_is_the_one_that_plays(service: Service) -> None:
    game = service.create_game("highdie", [ANN, BEN], seed="level",
                               options={"autopilot_bot": "random", "autopilot_after": 1}).after.game_id
    service.seat_command(game, 1, "resign", cause=Cause("cli"))
    for _ in range(400):
        state = service.load(game)
        if state.ended:
            break
        prompts = service.kernel.rules(state).prompts(state.game)
        if 1 in prompts:
            assert seatlife.tick(service, NOW)[1] >= 1
        else:
            service.act_as(game, 0, prompts[0].default, cause=Cause("cli"))
    played = {e.payload.get("bot") for e in service.store.read(game) if e.type == AUTOPILOT_PLAYED}
    assert played == {"random 1"}
    assert service.verify(game).ok


# ---- the command line ------------------------------------------------------------------------------------------

def test_pbem_game_new_with_bots_and_an_autopilot_level(run: Any) -> None:
    game = run("game", "new", "nanty", "--player", "Ann <ann@example.org>", "--bot", "search", "--bot", "random",
               "--autopilot-bot", "search").output.strip()
    shown = run("game", "show", game).output
    assert "Computer (search) is played by the computer (search)" in shown
    assert "Computer (random) is played by the computer (random)" in shown
    assert "the autopilot's computer player: search" in shown
    assert "no organiser address" in shown
    listed = run("game", "list").output
    assert listed.count(game) == 1


def test_pbem_game_new_refuses_bad_bots_plainly_and_creates_nothing(run: Any) -> None:
    refused = run("game", "new", "nanty", "--player", "ann@example.org", "--bot", "clever", ok=False).output
    assert "must be one of random, greedy, search, not 'clever'" in refused
    refused = run("game", "new", "nanty", "--player", "ann@example.org", "--autopilot-bot", "x", ok=False).output
    assert "the autopilot's computer player must be one of" in refused
    assert "Missing option '--player'" in run("game", "new", "nanty", "--bot", "random", ok=False).output
    too_many = run("game", "new", "nanty", "--player", "ann@example.org", *["--bot", "random"] * 4, ok=False).output
    assert "Traceback" not in too_many and "Error" in too_many
    assert "no games yet" in run("game", "list").output
