"""Every event type round-trips through JSON and validates; old versions upcast; recorded logs replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from marshmallow import ValidationError

from events.audit import verify
from events.envelope import Event
from events.handling import Cause, Kernel
from events.rules import EventType
from events.schema import KERNEL_EVENT_TYPES, EnvelopeSchema, EventTypeRegistry
from kernelgame import EVENT_TYPES, RULES
from pbem.proof.records import parse_record
from playout import play_random

RECORDS = Path(__file__).parent / "records"


@pytest.fixture
def all_events(kernel: Kernel) -> list[Event]:
    """Events of several finished games, an undo and a contest among them: every type appears."""
    found: list[Event] = []
    for seed in range(6):
        game_id = kernel.create("highdie", ["A", "B", "C"], seed=f"types-{seed}").after.game_id
        kernel.execute(game_id, 0, {"kind": "bet", "points": 1}, cause=Cause("test"))
        kernel.undo(game_id, 0, cause=Cause("test"))
        play_random(kernel, game_id, seed)
        found += kernel.store.read(game_id)
    position = {"hands": [[1, 2], [3, 4], [5, 6]], "deck": list(range(7, 16)), "scores": [3, 0, 1], "turn": 1}
    game_id = kernel.create("highdie", ["A", "B", "C"], seed="types-position", position=position).after.game_id
    play_random(kernel, game_id, 7)
    return found + kernel.store.read(game_id)


def test_every_event_type_occurs_and_round_trips_through_json(kernel: Kernel, all_events: list[Event]) -> None:
    names = {t.name for t in KERNEL_EVENT_TYPES} | {t.name for t in EVENT_TYPES}
    assert {e.type for e in all_events} == names
    schema = EnvelopeSchema()
    for event in all_events:
        record = json.loads(json.dumps(event.to_record()))
        assert schema.validate(record) == {}
        assert Event.from_record(record) == event
        kernel.registry.validate(event.type, event.payload)


def test_a_bad_payload_is_refused_naming_the_field(kernel: Kernel) -> None:
    with pytest.raises(ValidationError) as err:
        kernel.registry.validate("dice.Bet", {"seat": "zero"})
    assert "points" in str(err.value.messages) and "seat" in str(err.value.messages)


def test_a_type_with_a_later_version_needs_every_upcaster() -> None:
    from kernelgame import BetSchema
    with pytest.raises(ValueError, match="upcasters"):
        EventTypeRegistry([EventType("x.Thing", BetSchema, version=3, upcasters={1: lambda p: p})])


def test_an_unknown_event_type_is_refused(kernel: Kernel) -> None:
    with pytest.raises(LookupError, match="unknown event type"):
        kernel.registry.validate("dice.Nope", {})


def test_a_v1_bet_upcasts_to_v2() -> None:
    registry = EventTypeRegistry(EVENT_TYPES)
    lines = (RECORDS / "highdie-v1.jsonl").read_text(encoding="utf-8").splitlines()
    _, events = parse_record(lines)
    old = next(e for e in events if e.type == "dice.Bet")
    assert old.version == 1 and "amount" in old.payload
    new = registry.upcast(old)
    assert new.version == 2 and new.payload == {"seat": old.payload["seat"], "points": old.payload["amount"]}


def test_a_recorded_v1_game_still_replays_and_verifies(kernel: Kernel) -> None:
    lines = (RECORDS / "highdie-v1.jsonl").read_text(encoding="utf-8").splitlines()
    _, events = parse_record(lines)
    state = kernel.replayer.fold(events)
    assert state.ended and state.outcome is not None
    assert state.game.scores == tuple(state.outcome["scores"][str(i)] for i in range(2))
    report = verify(kernel.replayer, events)
    assert report.ok, report.failure
