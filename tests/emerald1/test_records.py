"""Games recorded under earlier rules keep their rules: each fixture (``fixtures``) replays on today's code with
exactly the views it gave, verifies (every command decided again gives the recorded events), ends as it ended,
and a game stopped half-way plays on as it did."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from events.audit import verify
from events.store import SQLiteEventStore
from pbem.proof import records
from pbem.games.emerald1 import RULES
from pbem.service import Service
from tests.emerald1.fixtures import FIXTURES, ON, Fixture, events_digest, expected, play, read, views_digest


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.name for f in FIXTURES])
def test_a_recorded_game_replays_verifies_and_plays_on_as_it_did(fixture: Fixture, tmp_path: Path) -> None:
    want = expected()[fixture.name]
    store = SQLiteEventStore(tmp_path / "records.sqlite3")
    try:
        service = Service(store, {"emerald1": RULES})
        header, events = records.parse_record(read(fixture))
        assert len(events) == want["events"]
        state = service.import_record(read(fixture))  # which verifies it whole, or refuses it
        assert state.ended == (fixture.stop is None)
        report = verify(service.kernel.replayer, store.read(fixture.name), header["seed"])
        assert report.ok, report.failure
        marks, outcome = views_digest(service.kernel.replayer, store.read(fixture.name))
        wrong = [seq for seq in sorted(want["views"], key=int) if marks.get(seq) != want["views"][seq]]
        assert not wrong, f"the views differ from event {wrong[0]} on (checkpoints every few events)"
        assert outcome == want["outcome"]
        if fixture.stop is not None:
            play(service.kernel, fixture.name, random.Random(f"{fixture.seed}-on"), ON)
            assert events_digest(store.read(fixture.name, len(events))) == want["played_on"]
            report = verify(service.kernel.replayer, store.read(fixture.name), header["seed"])
            assert report.ok, report.failure
    finally:
        store.close()
