"""The quick payload check (``events.payloadcheck``) says "valid" only where marshmallow agrees, and says it for the
payloads the games really write."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from marshmallow import fields

from delivery import make_settings, play_moves
from events.schema import EventTypeRegistry
from pbem.service import Player, Service

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=3),
                 st.lists(st.integers(0, 3), max_size=2), st.tuples(st.integers()), st.binary(max_size=2),
                 st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    s = Service.open(make_settings(Path(tmp_path_factory.mktemp("inst"))))
    yield s
    s.close()


def value_of(field: fields.Field, draw: Any, typed: bool) -> Any:
    """A value for ``field``: of its JSON type (``typed``), or now and then of any type."""
    if not typed and draw(st.integers(0, 4)) == 0:
        return draw(JUNK)
    if field.allow_none and draw(st.integers(0, 5)) == 0:
        return None
    kind = type(field)
    if kind is fields.Integer:
        return draw(st.integers(-3, 60))
    if kind is fields.String:
        choices = getattr(field.validators[0], "choices", None) if field.validators else None
        return draw(st.sampled_from(sorted(choices))) if choices and draw(st.booleans()) else draw(st.text(max_size=6))
    if kind is fields.Boolean:
        return draw(st.booleans())
    if kind is fields.List:
        inner = field.inner  # type: ignore[attr-defined]
        return [value_of(inner, draw, typed) for _ in range(draw(st.integers(0, 3)))]
    if kind is fields.Dict:
        keys = field.key_field  # type: ignore[attr-defined]
        values = field.value_field  # type: ignore[attr-defined]
        def key() -> Any:
            return value_of(keys, draw, typed) if keys and typed else draw(st.text(max_size=3))
        count = draw(st.integers(0, 2))
        return {key(): (value_of(values, draw, typed) if values else draw(JUNK)) for _ in range(count)}
    if kind is fields.Nested:
        return payload_of(field.schema, draw, typed)  # type: ignore[attr-defined]
    return draw(JUNK)


def payload_of(schema: Any, draw: Any, typed: bool) -> dict[str, Any]:
    payload = {name: value_of(field, draw, typed) for name, field in schema.load_fields.items()
               if field.required or draw(st.booleans())}
    if not typed and draw(st.integers(0, 5)) == 0:
        payload.pop(draw(st.sampled_from(sorted(payload))), None) if payload else None
    if not typed and draw(st.integers(0, 7)) == 0:
        payload["unknown_key"] = draw(JUNK)
    return payload


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_quick_check_never_accepts_what_marshmallow_refuses(service: Service, data: st.DataObject) -> None:
    registry: EventTypeRegistry = service.kernel.registry
    name = data.draw(st.sampled_from(sorted(registry._schemas)))
    schema, quick = registry._schemas[name], registry._quick[name]
    payload = payload_of(schema, data.draw, typed=data.draw(st.booleans()))
    refused = schema.validate(dict(payload))
    if quick is not None and quick(payload):
        assert refused == {}, (name, payload)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_payloads_of_their_json_types_get_the_same_answer_both_ways(service: Service, data: st.DataObject) -> None:
    registry: EventTypeRegistry = service.kernel.registry
    name = data.draw(st.sampled_from(sorted(n for n, q in registry._quick.items() if q is not None)))
    payload = payload_of(registry._schemas[name], data.draw, typed=True)
    assert registry._quick[name](payload) == (registry._schemas[name].validate(dict(payload)) == {}), (name, payload)


@pytest.mark.parametrize("game_type", ["emerald", "emerald1", "nanty"])
def test_every_payload_a_game_writes_passes_the_quick_check(service: Service, game_type: str) -> None:
    players = [Player(f"{n}@example.org", n) for n in ("ann", "ben", "cy")]
    game_id = service.create_game(game_type, players, seed=f"quick-{game_type}").after.game_id
    play_moves(service, game_id, 150, seed=3)
    registry = service.kernel.registry
    checked = 0
    for event in service.store.read(game_id):
        quick = registry._quick[event.type]
        if quick is None:
            assert event.type == "pbem.GameCreated"  # its schema checks the seats as a whole
            continue
        assert quick(dict(event.payload)), (event.type, event.payload)
        checked += 1
    assert checked > 100
