"""Games recorded under earlier code keep their rules: each record in ``records/`` (revision 1, before the options
were recorded; revision 2, under every reading) verifies on today's code (every command decided again gives the
recorded events), gives every seat and the spectator the view it gave after every event, ends as it ended, and an
unfinished one plays on to a clean end."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from events import audit
from events.handling import group_commands
from events.replay import effective, live_states
from events.rng import Rng
from events.store import Row, SQLiteEventStore
from pbem.games.nanty import RULES
from pbem.games.nanty.state import replace
from tests.nanty.recorded import FIXTURES, REVISION_1, Fixture, expectations, kernel_for, read
from tests.playout import play_random


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda f: f.name)
def test_a_recorded_game_verifies_and_gives_every_view_it_gave(fixture: Fixture, tmp_path: Path) -> None:
    header, events = read(fixture)
    store = SQLiteEventStore(tmp_path / "r.sqlite3")
    try:
        kernel = kernel_for(store, header)
        report = audit.verify(kernel.replayer, events, header["seed"])
        assert report.ok, report.failure
        expected = json.loads(fixture.expected.read_text(encoding="utf-8"))
        found = expectations(live_states(kernel.replayer, events), fixture.seats)
        differ = [seq for seq, (want, got) in enumerate(zip(expected["views"], found["views"]), 1) if want != got]
        assert not differ, f"the views after events {differ[:5]} are not those the record gave"
        assert found == expected
        if expected["outcome"] is None:  # unfinished: it goes on under the rules it began with, to a clean end
            assert events[0].payload["options"].get("revision", 1) == fixture.revision
            game_id = events[0].game_id
            kernel.import_events(events, [Row("game_secrets", {"game_id": game_id, "seed": header["seed"]})])
            assert play_random(kernel, game_id, 5).ended
            assert audit.verify(kernel.replayer, store.read(game_id)).ok
    finally:
        store.close()


@pytest.mark.parametrize(("name", "changed"), [("r1-four-standard-end", {"revision": 2}),
                                               ("r1-four-half-way", {"revision": 2}),
                                               ("r1-three-holborn-stops-a-fire-end", {"fire_saved_building": "goes_on"})])
def test_the_records_hold_moves_that_todays_defaults_would_decide_otherwise(name: str, changed: dict[str, object],
                                                                           tmp_path: Path) -> None:
    """So the test above proves something: a symbol passed over at once that a power could have made possible
    (revision 1), and a fire that a building Holborn kept stopped (ruling 28 as it was)."""
    fixture = next(f for f in REVISION_1 if f.name == name)
    header, events = read(fixture)
    store = SQLiteEventStore(tmp_path / "r.sqlite3")
    try:
        kernel = kernel_for(store, header)
        state, differ = None, 0
        for command in group_commands(effective(events)):
            if state is not None and "action" in command[0].cause:
                today = replace(state.game, readings=dataclasses.replace(state.game.readings, **changed))
                produced = RULES.decide(today, int(command[0].cause["seat"]), command[0].cause["action"],
                                        Rng(header["seed"], state.rng_counter))
                recorded = [(e.type, e.payload) for e in command if not e.type.startswith("pbem.")]
                differ += [(e.type, e.payload) for e in produced] != recorded
            state = kernel.replayer.fold(command, state)
        assert differ == 1
    finally:
        store.close()
