"""Games recorded under earlier rules keep their rules: each record verifies (every command decided again gives the
recorded events), every seat and the spectator see what they saw after every event, a game stopped half-way plays on
as it did, and each ends with the outcome it had (the records and their expectations: ``tests/emerald/recorded.py``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from events.audit import verify
from events.gamedata import data_row
from events.replay import live_states
from events.store import Row
from pbem.proof.records import parse_record
from tests.emerald.recorded import EXPECTED, GAMES, Recorded, digests, new_kernel, outcome, play

WANTED = json.loads(EXPECTED.read_text(encoding="utf-8"))


def _read(game: Recorded) -> tuple[dict[str, Any], list[Any]]:
    return parse_record(gzip.decompress(game.path.read_bytes()).decode("utf-8").splitlines())


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_recorded_game_verifies_shows_every_reader_the_same_and_ends_as_it_did(game: Recorded,
                                                                                 tmp_path: Path) -> None:
    wanted = WANTED[game.name]
    header, events = _read(game)
    assert len(events) == wanted["recorded_events"]
    kernel = new_kernel(tmp_path)
    try:
        for data in (header.get("data") or {}).values():
            kernel.data.add(data)
        report = verify(kernel.replayer, events, header["seed"])
        assert report.ok, report.failure
        assert digests(kernel, events) == wanted["digests"][:len(events)]

        rows = [Row("game_secrets", {"game_id": game.name, "seed": header["seed"]})]
        kernel.import_events(events, rows + [data_row(d) for d in (header.get("data") or {}).values()])
        if game.stop_after is not None:
            assert not kernel.load(game.name).ended
            assert game.stop_after + play(kernel, game.name, game.seed, ruthless=game.ruthless) == wanted["commands"]
            events = kernel.store.read(game.name)
            assert digests(kernel, events) == wanted["digests"]
            report = verify(kernel.replayer, events)
            assert report.ok, report.failure
        assert kernel.load(game.name).ended and len(events) == wanted["events"]
        assert outcome(kernel, game.name) == wanted["outcome"]
    finally:
        kernel.store.close()


def _states(game: Recorded, tmp_path: Path) -> list[tuple[Any, Any]]:
    """The rules' state after every event of the record, with the event."""
    header, events = _read(game)
    tmp_path.mkdir()
    kernel = new_kernel(tmp_path)
    try:
        for data in (header.get("data") or {}).values():
            kernel.data.add(data)
        return [(s.game, e) for s, e in zip(live_states(kernel.replayer, events), events)]
    finally:
        kernel.store.close()


def test_the_records_hold_what_later_rules_changed(tmp_path: Path) -> None:
    """Each record is there for something a later rule changed: this checks it is in the record."""
    found: set[str] = set()
    for game in GAMES:
        states = _states(game, tmp_path / game.name)
        if states[0][1].payload["options"].get("free_actions_after_last_action") is False:
            found.add("no free actions after the last action")
        if game.stop_after is not None and states[-1][0].interrupt:
            found.add("stopped in an interrupt window")
        for state, event in states:
            if event.type == "emerald.CardsPlayed" and event.payload["to"] == "kept" and event.payload["use"] == "text":
                found.update(f"kept {state.cat.cards[c].text}" for c in event.payload["cards"]
                             if state.cat.cards[c].text_type == "action")
            if event.type == "emerald.CardRemoved" and event.payload.get("why") == "cthulhu":
                if state.city(event.payload["city"]).royalty:
                    found.add("cthulhu beside royalty")
            if event.type == "emerald.TurnStarted":
                found.update("revealed loyalist without agents" for seat, p in enumerate(state.players)
                             if p.revealed and p.side == "loyalist" and state.agents_on_board(seat) == 0)
                if sum(1 for c in state.cat.cards.values() if c.text == "fenians") == 2:
                    found.add("two fenians")
    assert found >= {"kept terrors", "kept zombies", "kept leopold", "cthulhu beside royalty",
                     "revealed loyalist without agents", "two fenians", "stopped in an interrupt window",
                     "no free actions after the last action"}, found
