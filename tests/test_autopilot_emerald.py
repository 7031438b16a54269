"""Autopilot and resignation in a seeded game of A Study in Emerald: the computer player plays the seats, the game
still ends, and verifies."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

from events.handling import Cause
from events.store import SQLiteEventStore
from pbem.table import seatlife
from pbem.table.autopilot import status
from pbem.table.seat_events import AUTOPILOT_ON, AUTOPILOT_PLAYED, SEAT_RESIGNED
from pbem.service import Player, Service

PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), Player("cy@example.org", "Cy")]


def test_a_seat_on_autopilot_and_a_resigned_one_play_on_to_the_end(tmp_path: Path) -> None:
    service = Service(SQLiteEventStore(tmp_path / "pbem.sqlite"))
    try:
        game = service.create_game("emerald", PLAYERS, seed="vanish-1", options={"autopilot_after": 2},
                                   game_id="0a0a0a0a0a").after.game_id  # the autopilot's moves: seeded by it
        pick = random.Random(7)
        far = datetime.now(timezone.utc) + timedelta(days=400)
        resigned = False
        for _ in range(4000):
            state = service.load(game)
            if state.ended:
                break
            prompts = service.kernel.rules(state).prompts(state.game)
            if not resigned and 2 in prompts and state.seq > 40:
                service.seat_command(game, 2, "resign", cause=Cause("test"))  # Cy resigns part way through
                resigned = True
                continue
            if 1 in prompts and not status(service.store, game, 1)["autopilot"]:
                service.time_out(game, 1, far)  # Ben has vanished: his deadlines run out
                continue
            if seatlife.tick(service, datetime.now(timezone.utc))[1]:
                continue
            seat = sorted(prompts)[0]
            actions = service.kernel.rules(state).legal_actions(state.game, seat)
            service.act_as(game, seat, pick.choice(actions), cause=Cause("test"))
        state = service.load(game)
        assert state.ended and state.outcome is not None
        events = service.store.read(game)
        assert [e.payload["seat"] for e in events if e.type == AUTOPILOT_ON] == [1, 2]
        assert [e.payload["seat"] for e in events if e.type == SEAT_RESIGNED] == [2]
        played = {e.payload["seat"] for e in events if e.type == AUTOPILOT_PLAYED}
        assert played == {1, 2}
        # the game's computer player chose every move the scheduler made for them (``pbem.bots.pilot``)
        assert {e.payload.get("bot") for e in events if e.type == AUTOPILOT_PLAYED} == {"greedy 1"}
        report = service.verify(game)
        assert report.ok, report.failure
    finally:
        service.close()
