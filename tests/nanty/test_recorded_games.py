"""Games recorded under older rules keep their rules: each record in ``records/`` verifies on today's code (every
command decided again gives the recorded events), gives every seat and the spectator the view it gave after every
event, ends as it ended, and an unfinished one plays on to a clean end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from events import audit
from events.replay import live_states
from events.store import Row, SQLiteEventStore
from tests.nanty.recorded import REVISION_1, Fixture, expectations, kernel_for, read
from tests.playout import play_random


@pytest.mark.parametrize("fixture", REVISION_1, ids=lambda f: f.name)
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
            assert "revision" not in events[0].payload["options"]
            game_id = events[0].game_id
            kernel.import_events(events, [Row("game_secrets", {"game_id": game_id, "seed": header["seed"]})])
            assert play_random(kernel, game_id, 5).ended
            assert audit.verify(kernel.replayer, store.read(game_id)).ok
    finally:
        store.close()
