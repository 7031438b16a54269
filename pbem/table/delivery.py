"""The delivery layer's own events: deadlines, pauses, time-outs, standing orders and undo requests.

They live in the game's stream (so every deadline, extension, pause and time-out is on
record with its reason) but never reach the rules: their types start with ``pbem.``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from marshmallow import Schema, fields, validate

from events.envelope import SCHEDULER, Event
from events.rules import EventType, Prompt
from pbem.instance.times import utc

DEADLINE_SET = "pbem.DeadlineSet"
DEADLINE_EXTENDED = "pbem.DeadlineExtended"
GAME_PAUSED = "pbem.GamePaused"
GAME_RESUMED = "pbem.GameResumed"
TIMED_OUT = "pbem.TimedOut"
STANDING_ORDER_SET = "pbem.StandingOrderSet"
UNDO_REQUESTED = "pbem.UndoRequested"
UNDO_ANSWERED = "pbem.UndoAnswered"
UNDO_DECIDED = "pbem.UndoDecided"
UNDO_REQUEST_CLOSED = "pbem.UndoRequestClosed"

STANDING_ANSWERS = ("always", "never", "ask")
UNDO_ANSWERS = ("approve", "refuse")
UNDO_RESULTS = ("approved", "refused", "expired", "lapsed")
UNDO_EVENTS = (UNDO_REQUESTED, UNDO_ANSWERED, UNDO_DECIDED, UNDO_REQUEST_CLOSED)


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


class UndoRequestedSchema(Schema):
    request = fields.String(required=True, validate=validate.Length(min=1, max=32))
    seat = fields.Integer(required=True, strict=True)
    from_seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    to_seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    reason = fields.String(required=True, validate=validate.Length(max=300))
    due_at = fields.String(required=True)
    approvers = fields.List(fields.Integer(strict=True), required=True, validate=validate.Length(min=1))


class UndoAnsweredSchema(Schema):
    request = fields.String(required=True, validate=validate.Length(min=1, max=32))
    seat = fields.Integer(required=True, strict=True)
    answer = fields.String(required=True, validate=validate.OneOf(UNDO_ANSWERS))


class UndoDecidedSchema(Schema):
    request = fields.String(required=True, validate=validate.Length(min=1, max=32))
    answer = fields.String(required=True, validate=validate.OneOf(UNDO_ANSWERS))
    reason = fields.String(required=True, validate=validate.Length(max=300))


class UndoRequestClosedSchema(Schema):
    request = fields.String(required=True, validate=validate.Length(min=1, max=32))
    seat = fields.Integer(required=True, strict=True)
    result = fields.String(required=True, validate=validate.OneOf(UNDO_RESULTS))
    reason = fields.String(required=True)


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
    EventType(UNDO_REQUESTED, UndoRequestedSchema,
              doc="A player asked the others to agree to take back events from_seq..to_seq, by due_at."),
    EventType(UNDO_ANSWERED, UndoAnsweredSchema, doc="One of the players asked answered an undo request."),
    EventType(UNDO_DECIDED, UndoDecidedSchema, doc="The organiser decided an undo request for the players."),
    EventType(UNDO_REQUEST_CLOSED, UndoRequestClosedSchema,
              doc="An undo request was closed: approved (the undo is in the same command), refused, "
                  "expired or lapsed."),
)


# What everyone but the prompted player reads of a prompt: its kind in words, never its text. The text may
# name what the player holds ("Play Vampires to stop it?"), and any wording that varies with the hand tells
# the table what is in it.
PUBLIC_PROMPT = {"turn": "their turn", "interrupt": "a response"}


def public_prompt(kind: str) -> str:
    """A prompt as the other players and spectators see it."""
    return PUBLIC_PROMPT.get(kind, "a decision")


def waiting_for(prompts: Mapping[int, Prompt], names: Sequence[str], reader: int | None,
                everything: bool = False) -> list[dict[str, Any]]:
    """Who the game waits for, as ``reader`` may read it: their own prompt's text, the others' kind only."""
    return [{"seat": p.seat, "name": names[p.seat], "kind": p.kind,
             "text": p.text if everything or p.seat == reader else public_prompt(p.kind)}
            for p in prompts.values()]



def describe_delivery(event: Event, names: list[str]) -> str:
    """One line in words for a delivery event (no hidden information in any of them)."""
    p = event.payload

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    if event.type == DEADLINE_SET:
        return f"{name(p['seat'])} is to act by {utc(p['due_at'])} ({p['reason']})"
    if event.type == DEADLINE_EXTENDED:
        return f"{name(p['seat'])}'s deadline moved to {utc(p['due_at'])}: {p['reason']}"
    if event.type == GAME_PAUSED:
        return f"game paused: {p['reason']}"
    if event.type == GAME_RESUMED:
        return f"game resumed: {p['reason']}"
    if event.type == TIMED_OUT:
        return f"{name(p['seat'])} ran out of time; the default was played for them"
    if event.type == STANDING_ORDER_SET:
        return f"{name(p['seat'])} set a standing order for {p['topic']}: {p['answer']}"
    if event.type == UNDO_REQUESTED:
        reason = f" ({p['reason']})" if p["reason"] else ""
        return (f"{name(p['seat'])} asks to take back their last move and every move after it{reason}; "
                f"{' and '.join(name(s) for s in p['approvers'])} to answer by {utc(p['due_at'])}")
    if event.type == UNDO_ANSWERED:
        return f"{name(p['seat'])} {'approves' if p['answer'] == 'approve' else 'refuses'} the undo request"
    if event.type == UNDO_DECIDED:
        verb = "approves" if p["answer"] == "approve" else "refuses"
        return f"the organiser {verb} the undo request" + (f": {p['reason']}" if p["reason"] else "")
    if event.type == UNDO_REQUEST_CLOSED:
        return f"{name(p['seat'])}'s undo request is closed, {p['result']}: {p['reason']}"
    return event.type


def check_scheduled(history: Sequence[Event], command: Sequence[Event]) -> str | None:
    """Why a command cannot be an honest time-out, or None (``events.audit.verify``'s command check).

    The scheduler moves for a player only when their deadline has passed, and records
    why in the same command: a ``pbem.TimedOut`` for that seat, naming the action played and
    the deadline it answers, which must be the last one set or moved for that seat. A
    time-out anywhere else, or a scheduler's move without one, is not something pbem writes.
    """
    first = command[0]
    outs = [e for e in command if e.type == TIMED_OUT]
    by_scheduler = first.cause.get("actor") == SCHEDULER and "action" in first.cause
    if not by_scheduler:
        return "a time-out is recorded in a command the scheduler did not make" if outs else None
    if len(outs) != 1:
        return "the scheduler made a move without the time-out that caused it"
    timed_out, seat = outs[0].payload, first.cause.get("seat")
    if timed_out["seat"] != seat or dict(timed_out["action"]) != dict(first.cause["action"]):
        return "the time-out names another player or another action than the move the scheduler made"
    due = None
    for event in history:
        if event.type in (DEADLINE_SET, DEADLINE_EXTENDED) and event.payload["seat"] == seat:
            due = event.payload["due_at"]
    if due != timed_out["due_at"]:
        return "the time-out answers a deadline that was never set for that player"
    return None


# ---- a game's webhooks (``pbem.post.webhooks``): added and removed, public, the address never recorded -------------

WEBHOOK_ADDED = "pbem.WebhookAdded"
WEBHOOK_REMOVED = "pbem.WebhookRemoved"
WEBHOOK_TYPES = (WEBHOOK_ADDED, WEBHOOK_REMOVED)
WEBHOOK_KINDS = {"discord": "Discord", "slack": "Slack", "json": "JSON"}  # what a webhook is, and its name in words


class WebhookSchema(Schema):
    webhook = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{12}$"))
    kind = fields.String(required=True, validate=validate.OneOf(tuple(WEBHOOK_KINDS)))
    host = fields.String(required=True, validate=validate.Length(min=1, max=255))


WEBHOOK_EVENT_TYPES = (
    EventType(WEBHOOK_ADDED, WebhookSchema,
              doc="The organiser added a webhook: the game's public news is posted there too (its id, its kind "
                  "discord, slack or json, and its host; the address itself is never recorded in the game)."),
    EventType(WEBHOOK_REMOVED, WebhookSchema, doc="The organiser removed one of the game's webhooks."),
)


def describe_webhook(event: Event) -> str:
    p = event.payload
    verb = "added" if event.type == WEBHOOK_ADDED else "removed"
    return f"the organiser {verb} a {WEBHOOK_KINDS.get(p['kind'], p['kind'])} webhook ({p['host']})"
