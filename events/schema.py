"""marshmallow schemas: the envelope, the kernel's own event types, and the event type registry."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Iterator, Mapping

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from events.envelope import SALTED, Event
from events.payloadcheck import quick_check
from events.rules import EventType

HEX64 = validate.Regexp(r"^[0-9a-f]{64}$", error="must be 64 lowercase hex digits")


class EnvelopeSchema(Schema):
    """One event record as exported and imported (``docs/record-format.md``)."""

    game_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    type = fields.String(required=True, validate=validate.Regexp(r"^[a-z0-9_]+\.[A-Za-z0-9]+$"))
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    payload = fields.Dict(required=True, allow_none=True)
    payload_sha256 = fields.String(validate=HEX64)         # a withheld payload's digest, in older games
    payload_commitment = fields.String(validate=HEX64)     # a withheld payload's commitment
    payload_salt = fields.String(validate=HEX64)           # a shown hidden payload's salt, to check it
    actor = fields.String(required=True, validate=validate.Regexp(r"^(seat:\d+|system|scheduler|organiser)$"))
    visibility = fields.String(required=True, validate=validate.Regexp(r"^(public|server|seats:(\d+(,\d+)*)?)$"))
    reveals = fields.Boolean(required=True)
    recorded_at = fields.String(required=True)
    cause = fields.Dict(required=True)                     # in a reader's record, the parts they may read
    cause_withheld = fields.List(fields.String(validate=validate.OneOf(["words", "address"])))
    cause_salts = fields.Dict(keys=fields.String(), values=fields.String(validate=HEX64))
    cause_commitments = fields.Dict(keys=fields.String(), values=fields.String(validate=HEX64))
    prev_hash = fields.String(required=True, validate=HEX64)
    hash = fields.String(required=True, validate=HEX64)


# ---- the kernel's own events -------------------------------------------------------------


class SeatSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))


class GameCreatedSchema(Schema):
    game_type = fields.String(required=True)
    rules_version = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True, validate=validate.Length(min=1))
    options = fields.Dict(required=True)
    # the game's data: by its digest (``events.gamedata``), or inline in games created before
    data = fields.Dict()
    data_digest = fields.String(validate=HEX64)
    data_override = fields.Dict(required=True, allow_none=True)
    seed_commitment = fields.String(required=True, validate=HEX64)
    # "hmac-sha256": hidden payloads enter the chain through salted commitments (absent in older games)
    payload_commitments = fields.String(validate=validate.OneOf([SALTED]))
    # "hmac-sha256": causes enter the chain as their public part and salted commitments to the rest (absent in
    # older games, whose causes enter whole)
    cause_commitments = fields.String(validate=validate.OneOf([SALTED]))
    # true: the game starts from a position (``pbem.PositionGiven`` follows), not from the rules' own setup
    from_position = fields.Boolean()

    @validates_schema
    def one_source_of_data(self, payload: dict[str, Any], **_: Any) -> None:
        if ("data" in payload) == ("data_digest" in payload):
            raise ValidationError("GameCreated names its data either inline (data) or by digest (data_digest)")


class DrawSchema(Schema):
    n = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    op = fields.String(required=True, validate=validate.OneOf(["randint", "shuffle"]))
    args = fields.List(fields.Raw(), required=True)
    result = fields.Raw(required=True)


class RandomDrawnSchema(Schema):
    draws = fields.List(fields.Nested(DrawSchema), required=True, validate=validate.Length(min=1))


class ActionsUndoneSchema(Schema):
    from_seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    to_seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    seat = fields.Integer(required=True, strict=True)
    reason = fields.String(required=True)


class PositionGivenSchema(Schema):
    position = fields.Dict(required=True)


class GameEndedSchema(Schema):
    seed = fields.String(required=True, validate=validate.Length(min=1))
    outcome = fields.Dict(required=True)


GAME_CREATED = "pbem.GameCreated"
RANDOM_DRAWN = "pbem.RandomDrawn"
ACTIONS_UNDONE = "pbem.ActionsUndone"
GAME_ENDED = "pbem.GameEnded"
POSITION_GIVEN = "pbem.PositionGiven"

KERNEL_EVENT_TYPES = (
    EventType(GAME_CREATED, GameCreatedSchema,
              doc="A game was created: its type, rules version, seats, options, data (with any override) "
                  "and the sha256 commitment to its secret seed."),
    EventType(RANDOM_DRAWN, RandomDrawnSchema,
              doc="The random draws a command used, each with its counter, operation, arguments and result; "
                  "hidden until the game ends."),
    EventType(ACTIONS_UNDONE, ActionsUndoneSchema,
              doc="Events from_seq..to_seq no longer count: the effective history skips them."),
    EventType(POSITION_GIVEN, PositionGivenSchema,
              doc="The position a game started from, in the game's own words (server only until the end); the "
                  "game's setup events from it follow."),
    EventType(GAME_ENDED, GameEndedSchema,
              doc="The game ended: the final outcome, and the secret seed revealed for verification."),
)


class UnknownEventType(LookupError):
    pass


class EventTypeRegistry:
    """Every known event type by stable name, with payload validation and upcasting."""

    def __init__(self, types: Iterable[EventType] = ()) -> None:
        self._types: dict[str, EventType] = {}
        self._schemas: dict[str, Schema] = {}
        self._quick: dict[str, Any] = {}  # name -> a check that says "valid" only where the schema agrees
        for event_type in types:
            self.register(event_type)

    def register(self, event_type: EventType) -> None:
        known = self._types.get(event_type.name)
        if known is not None and known is not event_type:
            raise ValueError(f"event type {event_type.name} registered twice")
        missing = [v for v in range(1, event_type.version) if v not in event_type.upcasters]
        if missing:
            raise ValueError(f"event type {event_type.name} v{event_type.version} lacks upcasters from {missing}")
        self._types[event_type.name] = event_type
        self._schemas[event_type.name] = schema = event_type.schema()
        self._quick[event_type.name] = quick_check(schema)

    def __contains__(self, name: str) -> bool:
        return name in self._types

    def __iter__(self) -> Iterator[EventType]:
        return iter(sorted(self._types.values(), key=lambda t: t.name))

    def get(self, name: str) -> EventType:
        try:
            return self._types[name]
        except KeyError:
            raise UnknownEventType(f"unknown event type {name!r}") from None

    def current_version(self, name: str) -> int:
        return self.get(name).version

    def validate(self, name: str, payload: Mapping[str, Any]) -> None:
        """Check a current-version payload; raises ``ValidationError`` naming every bad field."""
        self.get(name)
        quick = self._quick[name]
        if quick is not None and quick(payload):
            return  # what marshmallow would accept too (``events.payloadcheck``)
        errors = self._schemas[name].validate(dict(payload))
        if errors:
            raise ValidationError({name: errors})

    def upcast(self, event: Event) -> Event:
        """The event with its payload brought to the current version of its type."""
        event_type = self.get(event.type)
        if event.version == event_type.version:
            return event
        if event.version > event_type.version:
            raise ValueError(f"{event.type} v{event.version} is newer than this code (v{event_type.version})")
        payload: Mapping[str, Any] = event.payload
        for version in range(event.version, event_type.version):
            payload = event_type.upcasters[version](dict(payload))
        return replace(event, version=event_type.version, payload=payload)
