"""A seat on autopilot is played by its game's computer player (``pbem.bots.pilot``), from what the seat may know.

On Highdie, the kernel's test game, with its bot (``tests/bots/highdie.py``, written as a new game writes its
``bot.py``): the scheduler's move for the seat is the ``greedy`` bot's, recorded with the bot's name; the same
position gives the same move; a game without a computer player, or a bot that fails, gets the prompt's default;
and the record verifies, the bot's moves included.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator

import pytest

from delivery import ANN, BEN, make_settings
from events.handling import Cause
from pbem.bots import pilot
from pbem.bots.knowledge import knowledge_of
from pbem.service import Service
from pbem.table import seatlife
from pbem.table.seat_events import AUTOPILOT_PLAYED
from tests.bots import highdie

CLI = Cause("cli")


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    highdie.register()
    s = Service.open(make_settings(tmp_path / "inst"))
    yield s
    s.close()
    highdie.unregister()


def until_asked(service: Service, game: str, seat: int) -> None:
    """The other player plays their prompts' defaults until ``seat`` is asked."""
    while seat not in service.kernel.rules(service.load(game)).prompts(service.load(game).game):
        other = 1 - seat
        service.act_as(game, other, service.kernel.rules(service.load(game)).prompts(
            service.load(game).game)[other].default, cause=CLI)


def on_autopilot(service: Service, seat: int) -> str:
    """A Highdie game whose ``seat`` went on autopilot after one missed deadline, and is asked again."""
    game = service.create_game("highdie", [ANN, BEN], seed="pilot", options={"autopilot_after": 1},
                               game_id="0b0b0b0b0b").after.game_id  # the same bot moves at every run
    until_asked(service, game, seat)
    due = service.store.query("SELECT due_at FROM deadlines WHERE game_id = ? AND seat = ?", (game, seat))[0]
    service.time_out(game, seat, datetime.fromisoformat(due["due_at"]) + timedelta(seconds=1))
    assert seatlife.autopilot.status(service.store, game, seat)["autopilot"] == 1
    until_asked(service, game, seat)
    return game


def play_to_the_end(service: Service, game: str, seat: int) -> None:
    """The other player plays their prompts' defaults; the scheduler plays for ``seat``."""
    for _ in range(400):
        state = service.load(game)
        if state.ended:
            return
        prompts = service.kernel.rules(state).prompts(state.game)
        if seat in prompts:
            assert seatlife.tick(service, datetime.now(timezone.utc))[1] >= 1
        else:
            other = next(iter(prompts))
            service.act_as(game, other, prompts[other].default, cause=CLI)
    raise AssertionError("the game did not end")


def played(service: Service, game: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in service.store.read(game) if e.type == AUTOPILOT_PLAYED]


def test_a_seat_on_autopilot_is_played_by_the_games_computer_player(service: Service) -> None:
    game = on_autopilot(service, 0)
    play_to_the_end(service, game, 0)
    moves = played(service, game)
    assert moves and all(m["bot"] == "greedy 1" and m["seat"] == 0 for m in moves)
    defaults = [m for m in moves if m["action"] == {"kind": "pass"}]
    assert len(defaults) < len(moves)  # the bot plays; the default (a pass) would be every move
    log = " ".join(line["text"] for line in service.log(game, BEN.email))
    assert f"the computer (greedy) played for {ANN.name} (autopilot)" in log
    report = service.verify(game)
    assert report.ok, report.failure


def test_the_same_position_gives_the_same_move(service: Service) -> None:
    game = on_autopilot(service, 0)
    state = service.load(game)
    rules = service.kernel.rules(state)
    default = rules.prompts(state.game)[0].default
    first = pilot.autopilot_move(service.store, rules, state, 0, default)
    assert first == pilot.autopilot_move(service.store, rules, state, 0, default)
    assert first[1] == "greedy 1" and first[0] in rules.legal_actions(state.game, 0)


def test_a_bot_that_fails_gives_the_default_and_says_so(service: Service, monkeypatch: pytest.MonkeyPatch,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    game = on_autopilot(service, 0)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a sampler's slip")
    monkeypatch.setattr(pilot, "choose", broken)
    with caplog.at_level(logging.WARNING, logger="pbem.bots.pilot"):
        assert seatlife.tick(service, datetime.now(timezone.utc))[1] == 1
    [move] = played(service, game)
    assert move == {"seat": 0, "action": {"kind": "pass"}}  # the default, and no bot named
    assert "the greedy bot failed for seat 0" in caplog.text
    assert service.verify(game).ok


def test_a_game_without_a_computer_player_gets_the_default(service: Service) -> None:
    highdie.unregister()  # the game stays, its bot goes
    from pbem import games
    from kernelgame import RULES
    games.register(RULES)
    game = on_autopilot(service, 0)
    assert seatlife.tick(service, datetime.now(timezone.utc))[1] == 1
    assert played(service, game) == [{"seat": 0, "action": {"kind": "pass"}}]


def test_a_kept_seat_moves_as_a_seat_read_afresh(service: Service) -> None:
    game = on_autopilot(service, 0)
    for _ in range(3):  # the kept seat reads only the events since its last decision
        assert seatlife.tick(service, datetime.now(timezone.utc))[1] == 1
        until_asked(service, game, 0)
    state = service.load(game)
    rules = service.kernel.rules(state)
    default = rules.prompts(state.game)[0].default
    kept = pilot.autopilot_move(service.store, rules, state, 0, default)
    assert pilot._seats[(game, 0)].seq == state.seq
    assert pilot._seats[(game, 0)].known == knowledge_of(rules, state.rules_version, state.config,
                                                         service.store.read(game), state.game, 0)
    pilot._seats.clear()  # as after a restart: the whole log read again
    assert pilot.autopilot_move(service.store, rules, state, 0, default) == kept
