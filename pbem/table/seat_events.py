"""The events of a seat's life at the table: absences, autopilot, resignation, replacement, and mail that is not
arriving.

They are the delivery layer's (``pbem.*``): they change no position, so they outdate no link (but a
replacement ends the old holder's links: ``pbem.table.replacing``). All are public: the table is told who is
away until when, who is on autopilot, who resigned and that a seat has a new player. What is private
stays out of the log: an absence's reason the player kept to themselves enters it as a keyed hash only
(its words are in the ``absences`` table, read by its writer's pages), and a new holder's address as a
salted hash only. Mail that does not arrive names the player and the delivery report's words, never the address
(``pbem.post.undelivered`` cuts every address out of them).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Mapping, Sequence

from marshmallow import Schema, fields, validate

from events.envelope import Event
from events.rules import EventType

ABSENCE_DECLARED = "pbem.AbsenceDeclared"
ABSENCE_STARTED = "pbem.AbsenceStarted"
ABSENCE_ENDED = "pbem.AbsenceEnded"
AUTOPILOT_ON = "pbem.AutopilotOn"
AUTOPILOT_OFF = "pbem.AutopilotOff"
AUTOPILOT_PLAYED = "pbem.AutopilotPlayed"
BOT_REASON = "pbem.BotReason"  # the computer player's reason for a move: the server's until the game ends
SEAT_RESIGNED = "pbem.SeatResigned"
SEAT_REPLACED = "pbem.SeatReplaced"
MAIL_NOT_ARRIVING = "pbem.MailNotArriving"
MAIL_ARRIVING = "pbem.MailArriving"

POLICIES = ("pause", "run", "allowance")
ENDINGS = ("over", "back", "cancelled", "replaced")
MAX_REASON = 200
MAX_MAIL_REASON = 300
MAX_BOT_REASON = 500
# who made a seat's mail arrive again: the player (an address confirmed by the link mailed to it), the organiser (an
# address given on the organiser's page), or nobody at the table (the server's operator cleared the mark)
ARRIVING_HOW = ("player", "organiser", "cleared")
# the reason of the ``pbem.AutopilotOn`` of a seat a bot plays from the start (``pbem.table.botseats``)
BOT_SEAT_REASON = "a seat of the computer from the start"

# What the table reads of these in its mails' "since your last mail" (every one of them is public).
TOLD_TYPES = (ABSENCE_DECLARED, ABSENCE_STARTED, ABSENCE_ENDED, AUTOPILOT_ON, AUTOPILOT_OFF, SEAT_RESIGNED,
              SEAT_REPLACED, MAIL_NOT_ARRIVING, MAIL_ARRIVING)


class AbsenceDeclaredSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    absence = fields.String(required=True, validate=validate.Length(min=1, max=32))
    starts_at = fields.String(required=True)
    until = fields.String(required=True)
    reason = fields.String(required=True, allow_none=True, validate=validate.Length(max=MAX_REASON))
    reason_commitment = fields.String(required=True, allow_none=True, validate=validate.Regexp(r"^[0-9a-f]{64}$"))
    # allowance: what the absence holds of it from its declaration, and what is left then (null under the other
    # policies; absent from absences declared before declarations held days, which took theirs when they began)
    reserved_seconds = fields.Integer(allow_none=True, strict=True, validate=validate.Range(min=0))
    left_seconds = fields.Integer(allow_none=True, strict=True, validate=validate.Range(min=0))


class AbsenceStartedSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    absence = fields.String(required=True, validate=validate.Length(min=1, max=32))
    policy = fields.String(required=True, validate=validate.OneOf(POLICIES))
    clock_until = fields.String(required=True, allow_none=True)  # allowance: until when the seat's clock stops


class AbsenceEndedSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    absence = fields.String(required=True, validate=validate.Length(min=1, max=32))
    how = fields.String(required=True, validate=validate.OneOf(ENDINGS))
    stopped_seconds = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))


class SeatReasonSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    reason = fields.String(required=True, validate=validate.Length(max=MAX_REASON))


class BotReasonSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    bot = fields.String(required=True, validate=validate.Length(min=1, max=40))
    reason = fields.String(required=True, validate=validate.Length(max=MAX_BOT_REASON))


class AutopilotPlayedSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    action = fields.Dict(required=True)
    bot = fields.String(validate=validate.Length(min=1, max=60))  # the computer player that chose it; none: the default


class SeatReplacedSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    name = fields.String(required=True, validate=validate.Length(min=1, max=100))
    holder = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{64}$"))


class MailNotArrivingSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=MAX_MAIL_REASON))


class MailArrivingSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    how = fields.String(required=True, validate=validate.OneOf(ARRIVING_HOW))


SEAT_EVENT_TYPES = (
    EventType(ABSENCE_DECLARED, AbsenceDeclaredSchema,
              doc="A player will be away from starts_at until until (UTC); the reason only if they shared it, "
                  "else a keyed hash of it (reason_commitment) or nothing; under an allowance, the seconds of it "
                  "the absence holds from now (reserved_seconds) and those left (left_seconds)."),
    EventType(ABSENCE_STARTED, AbsenceStartedSchema,
              doc="A player's absence began; policy says what the game does (pause the clocks, run, or stop "
                  "the player's own clock until clock_until, within the allowance)."),
    EventType(ABSENCE_ENDED, AbsenceEndedSchema,
              doc="A player's absence ended: over, back early, cancelled before it began, or replaced; "
                  "stopped_seconds of the allowance were used."),
    EventType(AUTOPILOT_ON, SeatReasonSchema,
              doc="A seat went on autopilot (missed deadlines in a row, or a resignation): the scheduler "
                  "plays its default at every prompt."),
    EventType(AUTOPILOT_OFF, SeatReasonSchema, doc="A seat came off autopilot: its player is back."),
    EventType(AUTOPILOT_PLAYED, AutopilotPlayedSchema,
              doc="The scheduler played the default action for a seat on autopilot."),
    EventType(BOT_REASON, BotReasonSchema,
              doc="The computer player's one-line reason for the move the scheduler made for a seat (bot: its name "
                  "and version), in the same command; visible to the server only, so no player reads it before the "
                  "game ends."),
    EventType(SEAT_RESIGNED, SeatReasonSchema, doc="A player resigned; their seat follows the game's rule "
                                                   "for resignations (reason says which)."),
    EventType(SEAT_REPLACED, SeatReplacedSchema,
              doc="The organiser gave a seat to another player (name; holder: a salted hash of the address); "
                  "the old holder's links stop working."),
    EventType(MAIL_NOT_ARRIVING, MailNotArrivingSchema,
              doc="Mail to a seat's player comes back (a hard bounce, or a refusal at send time); reason: the "
                  "report's words, with every address cut out."),
    EventType(MAIL_ARRIVING, MailArrivingSchema,
              doc="Mail to a seat's player arrives again: how says who gave the address (player, organiser) or "
                  "that the mark was cleared."),
)


def day(moment: str) -> str:
    """``8 December`` (with the year when it is not this year's)."""
    parsed = datetime.fromisoformat(moment)
    text = f"{parsed.day} {parsed.strftime('%B')}"
    return text if parsed.year == datetime.now(parsed.tzinfo).year else f"{text} {parsed.year}"


def when(moment: str) -> str:
    parsed = datetime.fromisoformat(moment)
    return f"{day(moment)} {parsed.strftime('%H:%M')} UTC"


ONE = ("1 day", "1 hour", "less than an hour")  # lengths that take "is"


def span(seconds: int) -> str:
    """``5 days``, ``1 day and 7 hours``, ``3 hours``: a length to the hour."""
    days, rest = divmod(int(seconds), 86_400)
    hours = round(rest / 3600)
    if hours == 24:
        days, hours = days + 1, 0
    parts = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((days, "day"), (hours, "hour")) if n]
    return " and ".join(parts) or "less than an hour"


def left_words(seconds: int, of: str = "") -> str:
    """``4 days are left``, ``1 day is left``, ``none is left`` (``of``: words after the length, such as `` of your
    allowance``)."""
    if seconds <= 0:
        return f"none{of} is left"
    words = span(seconds)
    return f"{words}{of} {'is' if words in ONE else 'are'} left"


def held_words(payload: Mapping[str, Any]) -> str | None:
    """What a declared absence holds of its player's allowance and what is left, in the player's words; None: no
    allowance, or declared before declarations held days."""
    reserved, left = payload.get("reserved_seconds"), payload.get("left_seconds")
    if not isinstance(reserved, int) or not isinstance(left, int):
        return None
    if reserved == 0:
        return "your allowance of days away is used up, so your clock runs while you are away"
    return f"this absence holds {span(reserved)} of your allowance, and {left_words(left)}"


def describe(event: Event, names: Sequence[str], seat: int | None = None, own_reason: str | None = None) -> str:
    """One of these events in words; every one is public (a kept reason, and what an absence holds of its player's
    allowance, are read by its writer only: ``seat``, the reader)."""
    p = event.payload

    def name(s: int) -> str:
        return names[s] if 0 <= s < len(names) else f"seat {s}"

    if event.type == ABSENCE_DECLARED:
        reason = p.get("reason") or (own_reason if seat == p["seat"] else None)
        told = f" ({reason})" if reason else ""
        held = held_words(p) if seat == p["seat"] else None
        return (f"{name(p['seat'])} will be away from {when(p['starts_at'])} until {when(p['until'])}{told}"
                + (f"; {held}" if held else ""))
    if event.type == ABSENCE_STARTED:
        clock = {"pause": "; the game's clocks stop meanwhile",
                 "run": "; the deadlines run, and the default is played on time-out"}.get(p["policy"], "")
        if p["policy"] == "allowance":
            clock = (f"; their clock stops until {when(p['clock_until'])}" if p["clock_until"]
                     else "; their allowance of days away is used up, so their clock runs")
        return f"{name(p['seat'])} is away{clock}"
    if event.type == ABSENCE_ENDED:
        return {"over": f"{name(p['seat'])}'s absence is over",
                "back": f"{name(p['seat'])} is back",
                "cancelled": f"{name(p['seat'])} will not be away after all",
                "replaced": f"{name(p['seat'])}'s absence ends with the change of player"}[p["how"]]
    if event.type == AUTOPILOT_ON and str(p["reason"]).startswith(BOT_SEAT_REASON):
        return f"{name(p['seat'])} is played by the computer ({str(p['reason']).rsplit(' ', 1)[-1]})"
    if event.type == AUTOPILOT_ON:
        return f"{name(p['seat'])} is on autopilot ({p['reason']}): their moves are played for them at once"
    if event.type == AUTOPILOT_OFF:
        return f"{name(p['seat'])} is off autopilot ({p['reason']})"
    if event.type == AUTOPILOT_PLAYED:
        if p.get("bot"):  # a seat the computer plays from the start is not "on autopilot": it is the computer's
            mark = "" if re.fullmatch(r"Computer( \d+)? \(\w+\)", name(p["seat"])) else " (autopilot)"
            return f"the computer ({str(p['bot']).split()[0]}) played for {name(p['seat'])}{mark}"
        return f"the default was played for {name(p['seat'])} (autopilot)"
    if event.type == BOT_REASON:
        return f"the computer ({str(p['bot']).split()[0]})'s reason for {name(p['seat'])}'s move: {p['reason']}"
    if event.type == SEAT_RESIGNED:
        return f"{name(p['seat'])} resigned ({p['reason']})"
    if event.type == SEAT_REPLACED:
        return f"{name(p['seat'])}'s seat is now played by {p['name']}"
    if event.type == MAIL_NOT_ARRIVING:
        return f"{name(p['seat'])}'s mail is not arriving: {p['reason']}"
    if event.type == MAIL_ARRIVING:
        return f"{name(p['seat'])}'s mail is arriving again" + {
            "player": f": {name(p['seat'])} gave an address and confirmed it by the link mailed to it",
            "organiser": f": the organiser gave an address for {name(p['seat'])}"}.get(p["how"], "")
    return event.type


def is_seat_event(event: Event) -> bool:
    return event.type in TOLD_TYPES or event.type == AUTOPILOT_PLAYED
