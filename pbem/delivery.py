"""The delivery layer's own events: deadlines, pauses, time-outs and standing orders.

They live in the game's stream (so every deadline, extension, pause and time-out is on
record with its reason) but never reach the rules: their types start with ``pbem.``.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from events.envelope import Event
from events.rules import EventType

DEADLINE_SET = "pbem.DeadlineSet"
DEADLINE_EXTENDED = "pbem.DeadlineExtended"
GAME_PAUSED = "pbem.GamePaused"
GAME_RESUMED = "pbem.GameResumed"
TIMED_OUT = "pbem.TimedOut"
STANDING_ORDER_SET = "pbem.StandingOrderSet"

STANDING_ANSWERS = ("always", "never", "ask")


class DeadlineSetSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    kind = fields.String(required=True)
    due_at = fields.String(required=True)
    reason = fields.String(required=True)


class DeadlineExtendedSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    due_at = fields.String(required=True)
    reason = fields.String(required=True)


class ReasonSchema(Schema):
    reason = fields.String(required=True)


class TimedOutSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    due_at = fields.String(required=True)
    action = fields.Dict(required=True)


class StandingOrderSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    topic = fields.String(required=True, validate=validate.Length(min=1, max=80))
    answer = fields.String(required=True, validate=validate.OneOf(STANDING_ANSWERS))


DELIVERY_EVENT_TYPES = (
    EventType(DEADLINE_SET, DeadlineSetSchema,
              doc="A seat was prompted (its turn, or an out-of-turn decision) and must act by due_at (UTC)."),
    EventType(DEADLINE_EXTENDED, DeadlineExtendedSchema, doc="A seat's deadline was moved to due_at, with the reason."),
    EventType(GAME_PAUSED, ReasonSchema, doc="The organiser paused the game: no reminders, no time-outs."),
    EventType(GAME_RESUMED, ReasonSchema,
              doc="The organiser resumed the game; every running deadline is extended by the pause."),
    EventType(TIMED_OUT, TimedOutSchema,
              doc="A seat's deadline passed: the scheduler took the prompt's default action for it."),
    EventType(STANDING_ORDER_SET, StandingOrderSchema,
              doc="A player's standing answer to one kind of out-of-turn prompt: always, never, or ask."),
)


def describe_delivery(event: Event, names: list[str]) -> str:
    """One line in words for a delivery event (no hidden information in any of them)."""
    p = event.payload

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    if event.type == DEADLINE_SET:
        return f"{name(p['seat'])} is to act by {p['due_at']} UTC ({p['reason']})"
    if event.type == DEADLINE_EXTENDED:
        return f"{name(p['seat'])}'s deadline moved to {p['due_at']} UTC: {p['reason']}"
    if event.type == GAME_PAUSED:
        return f"game paused: {p['reason']}"
    if event.type == GAME_RESUMED:
        return f"game resumed: {p['reason']}"
    if event.type == TIMED_OUT:
        return f"{name(p['seat'])} ran out of time; the default was played for them"
    if event.type == STANDING_ORDER_SET:
        return f"{name(p['seat'])} set a standing order for {p['topic']}: {p['answer']}"
    return event.type
