"""Undo beyond the horizon: a request the other players approve (or the organiser decides) by a deadline.

A player takes back their own last action alone while the kernel's horizon allows it
(``Kernel.undo``). Beyond it they ask: the request names their last move and everything
played after it, every other player answers (by the link in their mail, or on the web), and
no answer by the deadline counts as a refusal. The last approval, or the organiser's, appends
the undo in the same command. A move played while the request is open lapses it, so an undo
never takes back a move the players who approved had not seen. It is all on record as
``pbem.*`` events; the ``undo_requests`` and ``undo_answers`` tables are their read model.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

from events.envelope import ORGANISER, SCHEDULER, Event, NewEvent, seat_actor
from events.handling import (Cause, CommandResult, Hooks, StaleCommand, UndoRefused, group_commands, is_delivery,
                             undoable_commands)
from events.replay import GameState, effective
from events.schema import GAME_CREATED
from events.store import ConcurrencyError, Row, SQLiteEventStore
from pbem.table.delivery import UNDO_ANSWERED, UNDO_ANSWERS, UNDO_DECIDED, UNDO_REQUEST_CLOSED, UNDO_REQUESTED
from pbem.instance.times import utc
from pbem.errors import ServiceError

if TYPE_CHECKING:
    from events.handling import Kernel
    from pbem.instance.database import Store


class Table(Hooks, Protocol):
    """What undo requests use of the service (which passes itself): the store, the kernel, the game's state and
    seats, the default time to answer, and the hooks every command of the game goes through."""

    store: Store
    kernel: Kernel
    undo_request_hours: float

    def load(self, game_id: str, upto_seq: int | None = None) -> GameState[Any]: ...

    def players(self, game_id: str) -> list[dict[str, Any]]: ...


REQUESTS = "undo_requests"
ANSWERS = "undo_answers"
MAX_REASON = 300
RETRIES = 3


class UnknownRequest(ServiceError):
    """No such request in this game."""


class RequestClosed(ServiceError):
    """The request is closed already (approved, refused, expired or lapsed)."""


class AlreadyAnswered(ServiceError):
    """This player has answered the request already."""


class NotAsked(ServiceError):
    """This player is not one of those the request asks."""


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table(REQUESTS, {"game_id": str, "request": str, "seat": int, "from_seq": int, "to_seq": int,
                                  "reason": str, "due_at": str, "approvers": str, "requested_at": str,
                                  "requested_seq": int, "status": str, "closed_at": str, "closed_reason": str},
                       pk=("game_id", "request"), indexes=[("status", "due_at"), ("game_id", "status")])
    store.ensure_table(ANSWERS, {"game_id": str, "request": str, "seat": int, "answer": str, "answered_at": str},
                       pk=("game_id", "request", "seat"))


@dataclass(frozen=True)
class Request:
    """An undo request as the read model holds it."""

    game_id: str
    request: str
    seat: int
    from_seq: int
    to_seq: int
    reason: str
    due_at: str
    approvers: tuple[int, ...]
    requested_at: str
    status: str                       # open, or how it closed: approved, refused, expired, lapsed
    closed_reason: str | None
    answers: dict[int, str] = field(default_factory=dict)   # seat -> approve | refuse

    @property
    def open(self) -> bool:
        return self.status == "open"

    def waiting_for(self) -> list[int]:
        return [s for s in self.approvers if s not in self.answers]

    def to_json(self, names: Sequence[str]) -> dict[str, Any]:
        return {"request": self.request, "seat": self.seat, "name": names[self.seat], "from_seq": self.from_seq,
                "to_seq": self.to_seq, "reason": self.reason, "due_at": self.due_at,
                "requested_at": self.requested_at, "status": self.status, "closed_reason": self.closed_reason,
                "approvers": [{"seat": s, "name": names[s], "answer": self.answers.get(s)} for s in self.approvers]}


# ---- reading -----------------------------------------------------------------------------------

def _from_row(store: SQLiteEventStore, row: dict[str, Any]) -> Request:
    answers = {int(a["seat"]): str(a["answer"]) for a in store.query(
        f"SELECT seat, answer FROM {ANSWERS} WHERE game_id = ? AND request = ?", (row["game_id"], row["request"]))}
    return Request(str(row["game_id"]), str(row["request"]), int(row["seat"]), int(row["from_seq"]),
                   int(row["to_seq"]), str(row["reason"]), str(row["due_at"]), tuple(json.loads(row["approvers"])),
                   str(row["requested_at"]), str(row["status"]), row["closed_reason"], answers)


def from_event(event: Event) -> Request:
    """An open request as its ``pbem.UndoRequested`` event states it (before the read model holds it)."""
    p = event.payload
    return Request(event.game_id, p["request"], p["seat"], p["from_seq"], p["to_seq"], p["reason"], p["due_at"],
                   tuple(p["approvers"]), event.recorded_at, "open", None)


def find(store: SQLiteEventStore, game_id: str, request: str) -> Request | None:
    rows = store.query(f"SELECT * FROM {REQUESTS} WHERE game_id = ? AND request = ?", (game_id, request))
    return _from_row(store, rows[0]) if rows else None


def open_request(store: SQLiteEventStore, game_id: str) -> Request | None:
    """The game's open request, if any (there is at most one)."""
    rows = store.query(f"SELECT * FROM {REQUESTS} WHERE game_id = ? AND status = 'open'", (game_id,))
    return _from_row(store, rows[0]) if rows else None


def due(store: SQLiteEventStore, now: datetime) -> list[dict[str, Any]]:
    """Open requests whose deadline has passed: ``{game_id, request}``."""
    return store.query(f"SELECT game_id, request FROM {REQUESTS} WHERE status = 'open' AND due_at <= ? "
                       "ORDER BY due_at", (now.isoformat(timespec="seconds"),))


def requestable(service: Table, state: GameState[Any], seat: int,
                can_undo: bool | None = None) -> tuple[list[Event] | None, str]:
    """The seat's move a request would begin with, or None and why the seat may not ask now.

    ``can_undo``, if the caller knows it, saves reading the horizon again.
    """
    names = [s.name for s in state.config.seats]
    if state.ended:
        return None, "the game is over; nothing can be undone"
    if can_undo is None:
        can_undo = bool(undoable_commands(service.kernel.recent_commands(state.game_id, state.seq), seat)[0])
    if can_undo:
        return None, "you may take back your last action yourself: undo it, there is no need to ask"
    found = open_request(service.store, state.game_id)
    if found is not None:
        return None, (f"{names[found.seat]} has asked already to take back moves; one request at a time: wait "
                      f"for the answers (until {utc(found.due_at)})")
    command = service.kernel.last_command_of(state.game_id, seat, state.seq)
    if command is None:
        return None, "you have made no move that could be taken back"
    return command, ""


def choices(service: Table, state: GameState[Any], seat: int | None,
            recent: Callable[[], list[list[Event]]]) -> dict[str, Any]:
    """What the reader at ``seat`` may do about undo now: take back their last action alone (``can_undo``), or ask
    the others (``can_request_undo``), each with why not; and the game's open request, if any. ``recent`` gives the
    game's recent commands (the caller may have them cached)."""
    names = [s.name for s in state.config.seats]
    asked = open_request(service.store, state.game_id)
    found: dict[str, Any] = {"undo_request": asked.to_json(names) if asked is not None else None,
                             "can_undo": None, "undo_refused_because": None, "can_request_undo": None,
                             "undo_request_refused_because": None}
    if seat is not None:
        undo_now, undo_why = undoable_commands(recent(), seat)
        ask, ask_why = requestable(service, state, seat, bool(undo_now))
        found.update({"can_undo": bool(undo_now), "undo_refused_because": undo_why if not undo_now else None,
                      "can_request_undo": ask is not None, "undo_request_refused_because": ask_why or None})
    return found


def last_move_seq(service: Table, game_id: str, from_seq: int) -> int:
    """The last seq of the game's last move or undo at or after ``from_seq`` (records after it stay)."""
    commands = group_commands(effective(service.store.read(game_id, from_seq - 1)))
    return max(c[-1].seq for c in commands if not is_delivery(c))


# ---- commands ----------------------------------------------------------------------------------

def request_undo(service: Table, game_id: str, seat: int, reason: str, *, cause: Cause,
                 expected_seq: int | None = None) -> CommandResult:
    """Ask every other player to agree to take back the seat's last move and all played after it.

    :raises UndoRefused: the seat may undo alone, has no move to take back, the game is over,
        or a request is open already.
    :raises StaleCommand: a move or an undo came since ``expected_seq`` (the seq of the page asked from).
    """
    reason = " ".join(reason.split())
    if len(reason) > MAX_REASON:
        raise ServiceError(f"a reason has at most {MAX_REASON} characters")
    for attempt in range(RETRIES + 1):
        state = service.load(game_id)
        service.kernel.check_expected(game_id, expected_seq, state.seq)
        command, why = requestable(service, state, seat)
        if command is None:
            raise UndoRefused(why)
        hours = float(state.config.options.get("undo_request_hours", service.undo_request_hours))
        due_at = datetime.now(timezone.utc) + timedelta(hours=hours)
        payload = {"request": uuid.uuid4().hex[:10], "seat": seat, "from_seq": command[0].seq,
                   "to_seq": last_move_seq(service, game_id, command[0].seq), "reason": reason,
                   "due_at": due_at.isoformat(timespec="seconds"),
                   "approvers": [s.index for s in state.config.seats if s.index != seat]}
        try:
            # the request is made of this state: appended only if nothing at all came since
            return service.kernel.record(game_id, [NewEvent(UNDO_REQUESTED, payload)], actor=seat_actor(seat),
                                         cause=cause, hooks=service, expected_seq=state.seq)
        except StaleCommand:
            if attempt == RETRIES:
                raise
    raise AssertionError("unreachable")


def _open(service: Table, game_id: str, request: str) -> Request:
    found = find(service.store, game_id, request)
    if found is None:
        raise UnknownRequest(f"game {game_id} has no undo request {request!r}")
    if not found.open:
        raise RequestClosed(f"this request is closed already: {found.status}, {found.closed_reason}")
    return found


def _names(service: Table, game_id: str) -> list[str]:
    return [str(p["name"]) for p in service.players(game_id)]


def _close(found: Request, result: str, reason: str) -> NewEvent:
    return NewEvent(UNDO_REQUEST_CLOSED, {"request": found.request, "seat": found.seat, "result": result,
                                          "reason": reason})


def answer(service: Table, game_id: str, request: str, seat: int, choice: str, *, cause: Cause,
           expected_seq: int | None = None) -> CommandResult:
    """One asked player's answer. A refusal closes the request; the last approval applies the undo.

    With ``expected_seq`` (the seq of the page answered on) it is refused if a move or an undo
    came since; other answers meanwhile do not matter.

    :raises UnknownRequest, RequestClosed, AlreadyAnswered, NotAsked: nothing is written.
    :raises StaleCommand: the game moved on since ``expected_seq``.
    """
    if choice not in UNDO_ANSWERS:
        raise ServiceError(f"an answer is approve or refuse, not {choice!r}")
    for attempt in range(RETRIES + 1):
        seq = service.store.last(game_id)[0]  # first: a command after it makes the append below fail, not slip by
        service.kernel.check_expected(game_id, expected_seq, seq)
        found = _open(service, game_id, request)
        names = _names(service, game_id)
        if seat not in found.approvers:
            raise NotAsked("you are not one of the players this request asks")
        if seat in found.answers:
            raise AlreadyAnswered(f"you have answered this request already: you chose to {found.answers[seat]} it")
        who = seat_actor(seat)
        answered = NewEvent(UNDO_ANSWERED, {"request": request, "seat": seat, "answer": choice}, actor=who)
        try:
            if choice == "refuse":
                return service.kernel.record(game_id, [answered, _close(found, "refused", f"refused by {names[seat]}")],
                                             actor=who, cause=cause, hooks=service, expected_seq=seq)
            if [s for s in found.waiting_for() if s != seat]:
                return service.kernel.record(game_id, [answered], actor=who, cause=cause, hooks=service,
                                             expected_seq=seq)
            everyone = " and ".join(names[s] for s in found.approvers)
            return _apply(service, found, [answered], f"approved by {everyone}", actor=who, cause=cause,
                          expected_seq=seq)
        except (StaleCommand, ConcurrencyError):
            if attempt == RETRIES:
                raise
    raise AssertionError("unreachable")


def decide(service: Table, game_id: str, request: str, choice: str, reason: str, *, cause: Cause,
           expected_seq: int | None = None) -> CommandResult:
    """The organiser decides an open request for the players: approve applies the undo, refuse closes it.

    :raises StaleCommand: a move or an undo came since ``expected_seq`` (as for ``answer``).
    """
    if choice not in UNDO_ANSWERS:
        raise ServiceError(f"a decision is approve or refuse, not {choice!r}")
    reason = " ".join(reason.split())[:MAX_REASON]
    for attempt in range(RETRIES + 1):
        seq = service.store.last(game_id)[0]  # before the read model: see ``answer``
        service.kernel.check_expected(game_id, expected_seq, seq)
        found = _open(service, game_id, request)
        decided = NewEvent(UNDO_DECIDED, {"request": request, "answer": choice, "reason": reason}, actor=ORGANISER)
        why = f"{'approved' if choice == 'approve' else 'refused'} by the organiser" + (f": {reason}" if reason else "")
        try:
            if choice == "refuse":
                return service.kernel.record(game_id, [decided, _close(found, "refused", why)], actor=ORGANISER,
                                             cause=cause, hooks=service, expected_seq=seq)
            return _apply(service, found, [decided], why, actor=ORGANISER, cause=cause, expected_seq=seq)
        except (StaleCommand, ConcurrencyError):
            if attempt == RETRIES:
                raise
    raise AssertionError("unreachable")


def _apply(service: Table, found: Request, records: list[NewEvent], why: str, *, actor: str, cause: Cause,
           expected_seq: int) -> CommandResult:
    """The approved undo, with the answer before it and the close after it, in one command.

    Should the kernel refuse the undo (the game moved on in a way the request did not
    foresee), the request lapses instead, the answer still on record.
    """
    try:
        return service.kernel.undo_range(
            found.game_id, found.from_seq, found.to_seq, seat=found.seat, cause=cause, actor=actor,
            reason=f"asked to take them back; {why}", hooks=service, expected_seq=expected_seq,
            records_before=records, records_after=[_close(found, "approved", why)])
    except UndoRefused as refused:
        return service.kernel.record(found.game_id, [*records, _close(found, "lapsed", str(refused))], actor=actor,
                                     cause=cause, hooks=service, expected_seq=expected_seq)


def expire(service: Table, game_id: str, request: str, now: datetime) -> CommandResult | None:
    """Close a request nobody finished answering by its deadline: no answer counts as a refusal.

    None if it is closed already or not yet due (the scheduler's list may be a moment old).
    """
    seq = service.store.last(game_id)[0]  # before the read model: see ``answer``
    found = find(service.store, game_id, request)
    if found is None or not found.open or found.due_at > now.isoformat(timespec="seconds"):
        return None
    names = _names(service, game_id)
    silent = " and ".join(names[s] for s in found.waiting_for())
    close = _close(found, "expired", f"no answer from {silent} by {utc(found.due_at)}")
    return service.kernel.record(game_id, [close], actor=SCHEDULER, cause=Cause("scheduler", {"undo_request": request}),
                                 hooks=service, expected_seq=seq)


# ---- what every command adds -------------------------------------------------------------------

def lapse(service: Table, events: Sequence[Event]) -> list[NewEvent]:
    """The close of the open request when a move (or an undo) lands while it waits for answers.

    The players who approved saw the game as it was when they were asked; a move since would be
    taken back without their say, so the request lapses in the move's own command.
    """
    if events[0].type == GAME_CREATED or is_delivery(events) or any(e.type == UNDO_REQUEST_CLOSED for e in events):
        return []
    found = open_request(service.store, events[0].game_id)
    if found is None:
        return []
    return [_close(found, "lapsed", "the game moved on before everyone had answered; ask again if it still matters")]


def rows(game_id: str, events: Sequence[Event]) -> list[Row]:
    """The read model of the requests and answers in these events."""
    found: list[Row] = []
    for event in events:
        p = event.payload
        key = {"game_id": game_id, "request": p.get("request")}
        if event.type == UNDO_REQUESTED:
            found.append(Row(REQUESTS, {**key, "seat": p["seat"], "from_seq": p["from_seq"], "to_seq": p["to_seq"],
                                        "reason": p["reason"], "due_at": p["due_at"], "approvers": list(p["approvers"]),
                                        "requested_at": event.recorded_at, "requested_seq": event.seq,
                                        "status": "open", "closed_at": None, "closed_reason": None},
                             pk=("game_id", "request")))
        elif event.type == UNDO_ANSWERED:
            found.append(Row(ANSWERS, {**key, "seat": p["seat"], "answer": p["answer"],
                                       "answered_at": event.recorded_at}, pk=("game_id", "request", "seat")))
        elif event.type == UNDO_REQUEST_CLOSED:
            found.append(Row(REQUESTS, {**key, "status": p["result"], "closed_at": event.recorded_at,
                                        "closed_reason": p["reason"]}, pk=("game_id", "request")))
    return found
