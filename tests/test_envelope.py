"""The envelope: canonical JSON, the hash over every field, visibility."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, strategies as st

from events.envelope import (GENESIS_HASH, Event, NewEvent, Visibility, actor_seat, canonical_json, payload_hash,
                             recompute_hash, seat_actor)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def make_event(payload: Any) -> Event:
    event = Event("g", 1, "test.Thing", 1, payload, "seat:0", Visibility.public(), False,
                  "2026-01-01T00:00:00.000000+00:00", {"command": "c1"}, GENESIS_HASH, "")
    return replace(event, hash=recompute_hash(event))


@given(st.dictionaries(st.text(max_size=6), json_values, max_size=5))
def test_an_event_survives_a_json_round_trip_with_its_hash(payload: dict[str, Any]) -> None:
    event = make_event(payload)
    again = Event.from_record(json.loads(json.dumps(event.to_record())))
    assert again == event and recompute_hash(again) == event.hash


@given(st.dictionaries(st.text(max_size=6), json_values, min_size=1, max_size=5))
def test_canonical_json_ignores_key_order(payload: dict[str, Any]) -> None:
    reordered = dict(reversed(list(payload.items())))
    assert canonical_json(payload) == canonical_json(reordered)
    assert payload_hash(payload) == payload_hash(reordered)


@pytest.mark.parametrize("change", [
    {"seq": 2}, {"type": "test.Other"}, {"version": 2}, {"payload": {"n": 2}}, {"actor": "seat:1"},
    {"visibility": Visibility.to(0)}, {"reveals": True}, {"recorded_at": "2026-01-01T00:00:01.000000+00:00"},
    {"cause": {"command": "c2"}}, {"prev_hash": "1" * 64}, {"game_id": "h"},
])
def test_changing_any_field_changes_the_hash(change: dict[str, Any]) -> None:
    event = make_event({"n": 1})
    assert recompute_hash(replace(event, **change)) != event.hash


def test_canonical_json_refuses_nan() -> None:
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


def test_visibility_encodes_and_decides_who_may_read() -> None:
    for v in (Visibility.public(), Visibility.server(), Visibility.to(2, 0)):
        assert Visibility.decode(v.encode()) == v
    assert Visibility.to(2, 0).encode() == "seats:0,2"
    assert Visibility.to(1).allows(1) and not Visibility.to(1).allows(0) and not Visibility.to(1).allows(None)
    assert not Visibility.server().allows(0)
    assert Visibility.server().allows(None, finished=True) and Visibility.to(1).allows(0, finished=True)
    with pytest.raises(ValueError):
        Visibility.decode("everyone")


def test_actors_name_seats() -> None:
    assert seat_actor(3) == "seat:3" and actor_seat("seat:3") == 3 and actor_seat("scheduler") is None


def test_events_are_frozen_and_built_by_name_or_place() -> None:
    by_place = Event("g", 1, "t", 1, {"a": 1}, "seat:0", Visibility.to(0), True, "now", {"command": "c"}, "p", "h")
    by_name = Event(game_id="g", seq=1, type="t", version=1, payload={"a": 1}, actor="seat:0",
                    visibility=Visibility.to(0), reveals=True, recorded_at="now", cause={"command": "c"},
                    prev_hash="p", hash="h")
    assert by_place == by_name and by_place.seat == 0 and by_place.command_id == "c"
    assert dataclasses.replace(by_place, seq=2).seq == 2 and by_place.seq == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        by_place.seq = 3  # type: ignore[misc]
    new = NewEvent("t", {"a": 1})
    assert (new.visibility, new.reveals, new.actor) == (Visibility.public(), False, None)
    assert new == NewEvent(type="t", payload={"a": 1}, visibility=Visibility("public"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.reveals = True  # type: ignore[misc]
