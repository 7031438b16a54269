"""Table talk: messages to the table or to chosen players, private notes, and sealed notes, each an event.

* ``pbem.Said``: a message to everyone (public) or to chosen players (visible to them and its writer; the
  record shows that a message went to them, not what it said). It appears in the log, in the replay as its readers
  saw it, and in their mails when each chose (``pbem.post.talk_mail``: soon after, in the next turn mail, or in
  the digest).
* ``pbem.NoteSealed``: a note only its writer can read until the game ends, when every event is shown to
  everyone (a prediction, a bluff declared): its words are fixed in the log when written.
* ``pbem.NoteKept``: a private note to oneself. Its words never enter the log (which is shown whole at the
  end): the log holds a commitment to them (``HMAC-SHA256(key, words)`` with a random key), and the words
  and the key are kept in the ``notes`` table, which only the writer's pages read. The writer can show both
  to prove the note was written then and never changed.

Talk is the delivery layer's (``pbem.*`` types): it is no move, so it outdates no link and no page, and it sends
no turn mail. Nothing is said after the game has ended (the record is closed then).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any, Sequence

from marshmallow import Schema, fields, validate

from events.envelope import Event, NewEvent, Visibility, actor_seat, seat_actor
from events.handling import Cause, CommandResult
from events.rules import EventType, InvalidAction
from events.store import Row, SQLiteEventStore
from pbem.table.hooks import Host, WithRows


SAID = "pbem.Said"
NOTE_SEALED = "pbem.NoteSealed"
NOTE_KEPT = "pbem.NoteKept"
TALK_TYPES = (SAID, NOTE_SEALED, NOTE_KEPT)
MAX_WORDS = 1000  # characters of a message or a note
KEYWORDS = ("say", "tell", "note", "seal")  # how a line of a reply by mail starts when it is talk, not a move
KINDS = ("say", "note", "seal")  # a message, a private note, a sealed note


class SaidSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    to = fields.List(fields.Integer(strict=True), allow_none=True, required=True)  # None: the whole table
    text = fields.String(required=True, validate=validate.Length(min=1, max=MAX_WORDS))


class NoteSealedSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    text = fields.String(required=True, validate=validate.Length(min=1, max=MAX_WORDS))


class NoteKeptSchema(Schema):
    seat = fields.Integer(required=True, strict=True)
    commitment = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{64}$"))


TALK_EVENT_TYPES = (
    EventType(SAID, SaidSchema, doc="A player's message: to the whole table (to: null, public) or to the seats in "
                                   "to (visible to them and the writer)."),
    EventType(NOTE_SEALED, NoteSealedSchema, doc="A sealed note: visible to its writer only until the game ends."),
    EventType(NOTE_KEPT, NoteKeptSchema, doc="A private note: HMAC-SHA256 of its words with a key kept, with the "
                                            "words, in the notes table (its writer's pages read them)."),
)


@dataclass(frozen=True)
class Talk:
    """What a player wants to say: ``kind`` say | note | seal; ``to`` the seats (None: everyone)."""

    kind: str
    text: str
    to: tuple[int, ...] | None = None


def words(text: Any) -> str:
    """A message's words: one paragraph (line breaks become spaces), trimmed, 1 to ``MAX_WORDS`` characters."""
    found = " ".join(str(text or "").split())
    if not found:
        raise InvalidAction("the message is empty")
    if len(found) > MAX_WORDS:
        raise InvalidAction(f"a message has at most {MAX_WORDS} characters, this one {len(found)}")
    return found


def parse_line(line: str, names: Sequence[str], seat: int) -> Talk | None:
    """A reply's line as talk (``say ...``, ``tell Bob, Cy: ...``, ``note ...``, ``seal ...``), or None if it is
    not talk (a game command). Names are matched without regard to case.

    :raises InvalidAction: talk that cannot be sent (no words, an unknown name, a message to oneself).
    """
    head, _, rest = line.strip().partition(" ")
    keyword = head.lower()
    if keyword not in KEYWORDS:
        return None
    if keyword == "tell":  # tell Bob hello; tell Bob, Cy: hello (a colon after several names, or a name with spaces)
        who, colon, text = rest.partition(":")
        if not colon:
            who, _, text = rest.strip().partition(" ")
        if not who.strip():
            raise InvalidAction("write tell NAME MESSAGE (several names: tell Ann, Cy: MESSAGE)")
        return Talk("say", words(text), recipients([w for w in who.split(",")], names, seat))
    return Talk(keyword, words(rest))


def recipients(chosen: Sequence[str], names: Sequence[str], seat: int) -> tuple[int, ...]:
    """The seats of the names or seat numbers chosen (none chosen: an error), never the writer's own."""
    by_name = {n.strip().lower(): i for i, n in enumerate(names)}
    found: set[int] = set()
    for raw in chosen:
        key = str(raw).strip().lower()
        if not key:
            continue
        if key in by_name:
            found.add(by_name[key])
        elif key.isdigit() and key.isascii() and int(key) < len(names):
            found.add(int(key))
        else:
            raise InvalidAction(f"no player called {str(raw).strip()!r} at this table; the players are "
                                + ", ".join(names))
    found.discard(seat)
    if not found:
        raise InvalidAction("choose who the message is for (not yourself): write note ... for a note to yourself")
    return tuple(sorted(found))


def record(service: Host, game_id: str, seat: int, talk: Talk, *, cause: Cause) -> CommandResult:
    """Append the talk as its own command (a delivery record: no link is outdated by it)."""
    state = service.load(game_id)
    if state.ended:
        raise InvalidAction("the game is over: its record is closed, so nothing more can be said in it")
    rows: list[Row] = []
    if talk.kind == "say":
        to = list(talk.to) if talk.to else None
        visibility = Visibility.public() if to is None else Visibility.to(seat, *to)
        draft = NewEvent(SAID, {"seat": seat, "to": to, "text": talk.text}, visibility)
    elif talk.kind == "seal":
        draft = NewEvent(NOTE_SEALED, {"seat": seat, "text": talk.text}, Visibility.to(seat))
    elif talk.kind == "note":
        key = secrets.token_hex(32)
        commitment = hmac.new(bytes.fromhex(key), talk.text.encode("utf-8"), hashlib.sha256).hexdigest()
        draft = NewEvent(NOTE_KEPT, {"seat": seat, "commitment": commitment}, Visibility.to(seat))
        rows.append(Row("notes", {"game_id": game_id, "commitment": commitment, "seat": seat, "text": talk.text,
                                  "key": key}, pk=("game_id", "commitment")))
    else:
        raise InvalidAction(f"unknown kind of talk {talk.kind!r}")
    return service.kernel.record(game_id, [draft], actor=seat_actor(seat), cause=cause, hooks=WithRows(service, rows))


    def rows(self, before: Any, after: Any, events: list[Event]) -> list[Row]:
        return self.service.rows(before, after, events) + self.extra


def is_talk(events: Sequence[Event]) -> bool:
    return bool(events) and all(e.type in TALK_TYPES for e in events)


def describe(event: Event, readable: bool, ended: bool, names: Sequence[str], note_text: str | None = None) -> str:
    """A talk event in words, for a reader who may read its words (``readable``: ``pbem.proof.reading``) or not."""
    p = event.payload

    def name(s: int | None) -> str:
        return names[s] if s is not None and 0 <= s < len(names) else "someone"

    writer = actor_seat(event.actor)  # the envelope's, public: the payload only where the reader may read it
    if event.type == SAID:
        to = p.get("to") if readable else list(event.visibility.seats)
        whom = "everyone" if to is None else " and ".join(name(s) for s in to if s != writer) or "nobody"
        if not readable:
            return f"{name(writer)} sent a private message to {whom}"
        return f"{name(writer)} to {whom}: \u201c{p['text']}\u201d"
    if event.type == NOTE_SEALED:
        if not readable:
            return f"{name(writer)} sealed a note (it is opened when the game ends)"
        return f"{name(writer)}'s sealed note{' (opened at the end)' if ended else ''}: \u201c{p['text']}\u201d"
    if event.type == NOTE_KEPT:
        who = name(writer)
        if note_text is not None:
            return f"{who}'s private note: \u201c{note_text}\u201d"
        return f"{who} wrote a private note"
    return event.type


def note_text(store: SQLiteEventStore, game_id: str, seat: int | None, event: Event) -> str | None:
    """A private note's words, for its writer only."""
    if event.type != NOTE_KEPT or seat is None or not event.payload or event.payload.get("seat") != seat:
        return None
    rows = store.query("SELECT text FROM notes WHERE game_id = ? AND commitment = ? AND seat = ?",
                       (game_id, event.payload["commitment"], seat))
    return str(rows[0]["text"]) if rows else None
