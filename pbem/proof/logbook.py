"""The game's log in words, as one reader may read it: every event or a window of them, with undone ones marked."""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from typing import Any, Protocol, Sequence

from events.envelope import Event
from events.handling import Kernel
from events.rules import Rules
from events.replay import GameState, undone_seqs
from events.schema import ACTIONS_UNDONE, GAME_CREATED, GAME_ENDED, RANDOM_DRAWN
from events.store import SQLiteEventStore
from pbem.table import away, replacing, seat_events, talk
from pbem.proof import reading
from pbem.table.delivery import STANDING_ORDER_SET, WEBHOOK_TYPES, describe_delivery, describe_webhook

SEAT_TYPES = {t.name for t in seat_events.SEAT_EVENT_TYPES}


SEAT_WORD = re.compile(r"\b[Ss]eat (\d+)\b")  # the rules say "seat 2"; readers see the player's name



class Archive(Protocol):
    """What the log reads of the service (which passes itself): the store, the kernel, and a game's state."""

    store: SQLiteEventStore
    kernel: Kernel

    def load(self, game_id: str, upto_seq: int | None = None) -> GameState[Any]: ...


COMMAND_FIRST_READ = 8  # events read first beyond a window to find the rest of a command it cuts (most are short)
COMMAND_READ = 256  # the most read at once after that
WORDS_KEPT = 16_384  # lines in words kept per process: a move's mail, receipt and log window describe the same events


class Words:
    """The lines in words already written, by event and reader: an event's words never change (its hash names it,
    and its words depend only on it, the reader, whether the game has ended and the players' names)."""

    def __init__(self, size: int = WORDS_KEPT) -> None:
        self.size = size
        self.lines: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> str | None:
        with self.lock:
            found = self.lines.get(key)
            if found is not None:
                self.lines.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], text: str) -> None:
        with self.lock:
            self.lines[key] = text
            if len(self.lines) > self.size:
                self.lines.popitem(last=False)


WORDS = Words()


def log(service: Archive, game_id: str, seat: int | None, after_seq: int = 0,
        upto_seq: int | None = None, holder_since: int | None = None, *, email: str | None = None,
        organiser: bool = False) -> list[dict[str, Any]]:
    """The events (all, or those after ``after_seq`` up to ``upto_seq``) as the reader at ``seat`` (their address
    ``email``; or the organiser) may read them (``pbem.proof.reading``), with a line in words; undone events are
    marked (an undo marks only what it follows, so a window that runs to the end marks exactly what the whole log
    would), and so are lines that lists leave out (``left_out``: ``repeats``)."""
    state = service.load(game_id)
    rules = service.kernel.rules(state)
    events = service.store.read(game_id, after_seq, upto_seq)
    skipped = undone_seqs(events)
    if upto_seq is not None:  # an earlier page: undos recorded after it may take back some of its events
        for row in service.store.query("SELECT payload FROM events WHERE game_id = ? AND seq > ? AND type = ?",
                                       (game_id, upto_seq, ACTIONS_UNDONE)):
            undo = json.loads(row["payload"])
            skipped.update(range(undo["from_seq"], undo["to_seq"] + 1))
    names = [s.name for s in state.config.seats]
    # private words are their writer's, not the seat's: a player who took the seat over reads none of their
    # predecessor's (nor what was said to them)
    since = holder_since if holder_since is not None else (
        replacing.since_seq(service.store, game_id, seat) if seat is not None else 0)
    reader = reading.Reader(seat=seat, since=since, email=email, organiser=organiser)
    game = reading.Game(state.ended, service.kernel.seed(game_id) if state.salted or state.causes_salted else None,
                        state.salted, state.causes_salted)
    lines = reading.records(reader, events, game, whole_commands(service.store, game_id, events))
    for event, record in zip(events, lines):
        record["text"] = describe_event(rules, event, seat, state.ended, names, since)
        if event.type == talk.NOTE_KEPT and reading.reads_payload(reader, event, state.ended):
            mine = talk.note_text(service.store, game_id, seat, event)  # its words, kept apart from the log
            if mine is not None:
                record["text"] = talk.describe(event, True, state.ended, names, mine)
        if event.type == seat_events.ABSENCE_DECLARED and event.seq >= since and event.payload.get("seat") == seat:
            # the absent player reads the reason they kept, and what the absence holds of their allowance
            kept = away.reason_of(service.store, game_id, seat, event)
            record["text"] = seat_events.describe(event, names, seat, kept)
        record["undone"] = event.seq in skipped
        record["repeats"] = left_out(rules, event, seat, state.ended, since)
    return lines


def whole_commands(store: SQLiteEventStore, game_id: str, events: Sequence[Event]) -> dict[str, list[Event]]:
    """The commands of ``events`` whole, the first's and the last's read beyond the window where they run over.

    A command's events are appended together, one after another, so its rest is read outwards from the window in
    chunks that grow (a few events first: most commands are short) until an event of another command is met."""
    found = reading.commands_of(events)
    if not events:
        return found
    first, last = events[0], events[-1]
    key = _command(first)
    lo, chunk = first.seq - 1, COMMAND_FIRST_READ
    while lo > 0:
        before = store.read(game_id, max(0, lo - chunk), lo)
        found[key] = [e for e in before if _command(e) == key] + found[key]
        if not before or _command(before[0]) != key:
            break
        lo, chunk = before[0].seq - 1, min(chunk * 4, COMMAND_READ)
    key = _command(last)
    hi, chunk = last.seq, COMMAND_FIRST_READ
    while True:
        after = store.read(game_id, hi, hi + chunk)
        found[key] = found[key] + [e for e in after if _command(e) == key]
        if len(after) < chunk or _command(after[-1]) != key:
            break
        hi, chunk = after[-1].seq, min(chunk * 4, COMMAND_READ)
    return found


def _command(event: Event) -> str:
    return str(event.cause.get("command", event.seq))


def last_acted(store: SQLiteEventStore, game_id: str, seat: int) -> int:
    """The seq of the last event this seat's own command recorded (0: none yet): the key read backwards from the
    newest event, so it stops at the seat's last move."""
    rows = store.query("SELECT seq FROM events WHERE game_id = ? AND actor = ? ORDER BY seq DESC LIMIT 1",
                       (game_id, f"seat:{seat}"))
    return int(rows[0]["seq"]) if rows else 0


def repeats(rules: Rules[Any], event: Event, seat: int | None, ended: bool) -> bool:
    """Whether the event's line, for this reader, only repeats another line of the same command: a draw is recorded
    for the drawer with its cards and for everyone with its count, and each reader should read it once. The rules
    say so (``repeats``, optional)."""
    if event.type.startswith("pbem."):
        return False
    found = getattr(rules, "repeats", None)
    return bool(found is not None and found(event, None if ended else seat))


def left_out(rules: Rules[Any], event: Event, seat: int | None, ended: bool, since: int = 0) -> bool:
    """Whether what is read as a list (the pages' logs, mails, webhooks, receipts' "what happened") leaves the
    event's line out for this reader: a line that repeats another (``repeats``), or another player's standing order
    (which only its owner reads: ``pbem.proof.reading``). What shows each event (the replay, an audit, the proof)
    keeps them."""
    if event.type in (STANDING_ORDER_SET, seat_events.BOT_REASON):  # a bot's reason: for the end, and the audit
        return not reading.reads_payload(reading.Reader(seat=seat, since=since), event, ended)
    return repeats(rules, event, seat, ended)


def describe_event(rules: Rules[Any], event: Event, seat: int | None, ended: bool, names: list[str],
                   since: int = 0) -> str:
    """One event in words, as the reader at ``seat`` (holding it since event ``since``) may read it."""
    if not event.hash:  # not yet sealed: nothing names it
        return _describe(rules, event, seat, ended, names, since)
    key = (event.game_id, event.seq, event.hash, seat, ended, tuple(names), since)
    text = WORDS.get(key)
    if text is None:
        text = _describe(rules, event, seat, ended, names, since)
        WORDS.put(key, text)
    return text


def _describe(rules: Rules[Any], event: Event, seat: int | None, ended: bool, names: list[str], since: int) -> str:
    payload = event.payload
    if event.type == GAME_CREATED:
        return f"game created for {', '.join(names)}; seed commitment {payload['seed_commitment'][:16]}..."
    if event.type == RANDOM_DRAWN:
        count = len(payload["draws"])
        return f"{count} random draw{'s' if count != 1 else ''}" + (
            ": " + json.dumps([d["result"] for d in payload["draws"]]) if ended else " (hidden until the end)")
    if event.type == ACTIONS_UNDONE:
        return undone_words(payload, names)
    if event.type == GAME_ENDED:
        return f"game over: {payload['outcome'].get('summary', '')}; seed revealed"
    readable = reading.reads_payload(reading.Reader(seat=seat, since=since), event, ended)
    if event.type in talk.TALK_TYPES:
        return talk.describe(event, readable, ended, names)
    if event.type == STANDING_ORDER_SET and not readable:
        writer = reading.writer_of(event)
        return f"{names[writer] if writer is not None and writer < len(names) else 'A player'} changed a setting of their own"
    if event.type == seat_events.BOT_REASON and not readable:
        return "the computer's reason for its move (hidden until the end)"
    if event.type in SEAT_TYPES:
        return seat_events.describe(event, names)
    if event.type in WEBHOOK_TYPES:
        return describe_webhook(event)
    if event.type.startswith("pbem."):
        return describe_delivery(event, names)
    return SEAT_WORD.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0],
                         rules.describe(event, None if ended else seat))



ASKED = "asked to take them back; "  # how an agreed undo's reason begins (``pbem.table.undo_requests``)


def undone_words(payload: dict[str, Any], names: list[str]) -> str:
    """An undo in words, without event numbers (those are the audit's): whose moves were taken back, and why."""
    who = names[payload["seat"]] if 0 <= payload["seat"] < len(names) else "a player"
    reason = str(payload.get("reason", ""))
    if reason == "undone by its player":
        return f"{who} took back their last move"
    if reason.startswith(ASKED):
        return f"moves taken back at {who}'s request, {reason[len(ASKED):]}"
    return f"moves taken back, from {who}'s last move on ({reason})"
