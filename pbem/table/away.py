"""Vacations: a player declares an absence (from, until, a reason), and the game's policy says what happens.

The policy is chosen when the game is created (game options ``vacation`` and ``vacation_days``, in
``pbem.GameCreated`` for all to read; ``pbem game new --vacation pause|run|allowance:DAYS``):

* ``pause``: the game's clocks stop while anyone is away (``pbem.GamePaused`` when the first absence
  begins, ``pbem.GameResumed`` and every running deadline moved on by the pause when the last ends);
* ``run``: the deadlines run, and a time-out plays the default (such time-outs do not count towards
  autopilot: the player said they would be away);
* ``allowance`` (the default, 14 days per player per game): the away player's own clock stops, up to
  what the absence holds of their allowance, then runs: their running deadline moves later by the time stopped
  (``pbem.DeadlineExtended``), a deadline set for them meanwhile is set that much later, and coming back
  early gives back what was not used.

Under an allowance an absence holds its days from the moment it is declared, not from when it begins: its length,
up to what the player's other absences in the game leave (what the ended ones stopped, what a running one holds
stopped, what the planned ones hold). So two absences planned at once cannot both count on the same days: the one
declared first keeps them, whichever begins first, and the later one holds only what is left. The declaration
records what it holds and what is left (``reserved_seconds``, ``left_seconds`` in ``pbem.AbsenceDeclared``; the
player reads both in its line and on their home page), and its row in ``absences`` the same. When it begins, the
clock stops for what it holds, never more than is left then; cancelling it before it begins gives all of it back,
coming back early what was not used. An absence declared before absences held their days has neither field: it
holds nothing while planned and takes what is left when it begins, as it did then.

Why in the event, and not only in the table: the days an absence holds are decided at its declaration, against the
absences recorded before it, and a decision is the event's to record (as ``clock_until`` and ``stopped_seconds``
are). Kept only in the table, the number would be lost to a record exported or checked elsewhere; worked out again
on reading, it would follow the rule of whichever code reads (a later change of the rule would rewrite what old
games say) and need every earlier absence to say one line ("this absence holds 5 days of your allowance, and 9 days
are left"). In the event, replay, the audit, the table and the words read one number; the fields are optional, so
records made before it still validate and read as before.

Every change of a clock is an event with its reason. The table is told in the log and in their next mails
("Bob will be away from ... until ..."); the reason only if the player shared it. A reason kept private
enters the log as a keyed hash (``HMAC-SHA256``, as private notes do); its words stay in the ``absences``
table, which only the player's own pages read.

Every write of an absence is checked and appended at one seq, exactly (``Kernel.record``'s ``expected_seq``),
the seq read before the rows it is checked against: a declaration (no overlap, the allowance left), coming back,
and the scheduler's starts and ends at their times (``tick``). So two declarations at once cannot both pass the
overlap check, and two workers cannot both start or end one absence: the write that comes second finds the seq
moved on; a player's is checked again on what came first (and, refused now, answered as the lost race it is),
the scheduler's is left to its next run. What a declaration holds is read at that seq too: two declarations at
once cannot both hold the same days.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Sequence
from zoneinfo import ZoneInfo

from events.envelope import SCHEDULER, Event, NewEvent, seat_actor
from events.handling import Cause, CommandResult, StaleCommand
from events.replay import GameState
from events.store import ConcurrencyError, Row, SQLiteEventStore
from pbem.table.delivery import DEADLINE_EXTENDED, DEADLINE_SET, GAME_PAUSED, GAME_RESUMED
from pbem.errors import ServiceError
from pbem.table.hooks import Host, WithRows
from pbem.instance.times import zone_of
from pbem.table.seat_events import ABSENCE_DECLARED, ABSENCE_ENDED, ABSENCE_STARTED, MAX_REASON, POLICIES, day, when


log = logging.getLogger(__name__)

TABLE = "absences"
COLUMNS = {"game_id": str, "absence": str, "seat": int, "starts_at": str, "until": str, "reason": str,
           "reason_key": str, "shared": int, "status": str, "policy": str, "started_at": str, "clock_until": str,
           "paused_game": int, "stopped_seconds": int, "ended_at": str, "reserved_seconds": int}
DEFAULT_DAYS = 14
MAX_DAYS = 60  # the longest absence one declaration covers


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table(TABLE, COLUMNS, pk=("game_id", "absence"),
                       indexes=[("status", "starts_at"), ("status", "until"), ("game_id", "seat")])


def clock_of(service: Host) -> datetime:
    """Now, by the kernel's clock (the one events are recorded by)."""
    return datetime.fromisoformat(service.kernel.clock()).astimezone(timezone.utc)


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


# ---- the game's policy ----------------------------------------------------------------------

def parse_policy(text: str) -> dict[str, Any]:
    """``pause``, ``run`` or ``allowance:DAYS`` as game options.

    :raises ServiceError: anything else.
    """
    kind, _, days = text.strip().lower().partition(":")
    if kind in ("pause", "run") and not days:
        return {"vacation": kind}
    if kind == "allowance":
        return {"vacation": "allowance", "vacation_days": check_days(days)}
    raise ServiceError(f"a vacation policy is pause, run or allowance:DAYS (e.g. allowance:14), not {text!r}")


def check_days(text: str) -> int:
    """An allowance's days: a whole number from 0 to 365.

    :raises ServiceError: anything else.
    """
    days = text  # digits only: " 14 " is refused as "x" is
    if not days.isascii() or not days.isdigit() or len(days) > 3 or not 0 <= int(days) <= 365:
        raise ServiceError(f"an allowance is a whole number of days from 0 to 365 (such as {DEFAULT_DAYS}), "
                           f"not {days!r}")
    return int(days)


def policy_of(options: Any) -> tuple[str, int]:
    """The game's policy and allowance in days (the default: an allowance of 14 days)."""
    options = options or {}
    policy = options.get("vacation", "allowance")
    days = options.get("vacation_days", DEFAULT_DAYS)
    if policy not in POLICIES:
        policy = "allowance"
    if not isinstance(days, int) or isinstance(days, bool) or days < 0:
        days = DEFAULT_DAYS
    return str(policy), int(days)


def policy_words(options: Any) -> str:
    policy, days = policy_of(options)
    return {"pause": "the game's clocks stop while anyone is away",
            "run": "the deadlines run while a player is away, and the default is played on time-out",
            "allowance": f"an away player's own clock stops, up to {days} days in this game"}[policy]


# ---- reading a declaration --------------------------------------------------------------------

def moment(value: Any, zone: str, what: str) -> datetime:
    """A day (``2026-12-01``: its start in the player's zone) or an ISO time, as an aware datetime.

    :raises ServiceError: neither.
    """
    text = str(value or "").strip()
    try:
        if len(text) == 10:
            return datetime.combine(date.fromisoformat(text), time(0), ZoneInfo(zone))
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ServiceError(f"the {what} must be a day like 2026-12-01, not {text!r}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=ZoneInfo(zone))


def reason_words(value: Any) -> str:
    text = " ".join(str(value or "").split())
    if len(text) > MAX_REASON:
        raise ServiceError(f"a reason has at most {MAX_REASON} characters, this one {len(text)}")
    return text


def absences_of(store: SQLiteEventStore, game_id: str, seat: int | None = None,
                live: bool = True) -> list[dict[str, Any]]:
    """A game's absences (of one seat), planned and running ones only unless ``live`` is false."""
    where = " AND status IN ('planned', 'active')" if live else ""
    rows = store.query(f"SELECT * FROM {TABLE} WHERE game_id = ?{where} ORDER BY starts_at", (game_id,))
    return [r for r in rows if seat is None or int(r["seat"]) == seat]


def used_seconds(store: SQLiteEventStore, game_id: str, seat: int, but: str | None = None) -> int:
    """The seat's allowance taken in this game: what its ended absences stopped, what a running one holds stopped
    (until its ``clock_until``; coming back early gives the rest back), and what a planned one reserved when it was
    declared (cancelling it gives that back), every absence but ``but``."""
    used = 0
    for row in store.query(f"SELECT absence, status, started_at, clock_until, stopped_seconds, reserved_seconds "
                           f"FROM {TABLE} WHERE game_id = ? AND seat = ?", (game_id, seat)):
        if row["absence"] == but:
            continue
        if row["status"] == "ended":
            used += int(row["stopped_seconds"] or 0)
        elif row["status"] == "planned":
            used += int(row["reserved_seconds"] or 0)  # none: declared before declarations reserved (as then)
        elif row["clock_until"] and row["started_at"]:
            held = datetime.fromisoformat(row["clock_until"]) - datetime.fromisoformat(row["started_at"])
            used += max(0, int(held.total_seconds()))
    return used


def reservation(service: Host, state: GameState[Any], seat: int, first: datetime,
                until: datetime) -> tuple[int | None, int | None]:
    """What an absence from ``first`` until ``until`` reserves of the seat's allowance when declared, and what is
    left of it then, in seconds: its length, up to what every other absence of the seat (ended, running, planned)
    leaves; (None, None) under the other policies."""
    policy, days = policy_of(state.config.options)
    if policy != "allowance":
        return None, None
    left = max(0, days * 86_400 - used_seconds(service.store, state.game_id, seat))
    reserved = max(0, min(int((until - first).total_seconds()), left))
    return reserved, left - reserved


def held_seconds(absence: dict[str, Any]) -> int | None:
    """What a planned or running absence holds of its player's allowance; None: none under its game's policy, or
    planned before declarations held days."""
    if absence["status"] == "planned":
        return None if absence["reserved_seconds"] is None else int(absence["reserved_seconds"])
    if absence["policy"] != "allowance":
        return None
    if not absence["clock_until"]:
        return 0
    held = datetime.fromisoformat(absence["clock_until"]) - datetime.fromisoformat(absence["started_at"])
    return max(0, int(held.total_seconds()))


def allowance_left(service: Host, game_id: str, seat: int) -> int | None:
    """The seconds left of the seat's allowance, every absence of theirs counted; None: the game has no allowance."""
    policy, days = policy_of(service.load(game_id).config.options)
    if policy != "allowance":
        return None
    return max(0, days * 86_400 - used_seconds(service.store, game_id, seat))


def check(service: Host, game_id: str, seat: int, starts: datetime, until: datetime, now: datetime) -> None:
    """Refuse an absence the game cannot take: over, in the past, backwards, too long, or overlapping."""
    state = service.load(game_id)
    if state.ended:
        raise ServiceError(f"game {game_id} is over: there is nothing to be away from")
    today = now.astimezone(starts.tzinfo).replace(hour=0, minute=0, second=0, microsecond=0)
    if until <= starts:
        raise ServiceError("the absence must end after it starts (give the day you leave, then the day you are back)")
    if starts < today:
        raise ServiceError("the absence starts in the past: give today or a later day")
    if until <= now:
        raise ServiceError("the absence is over already: give a day you will be back that is still to come")
    if until - max(starts, now) > timedelta(days=MAX_DAYS):
        raise ServiceError(f"an absence is at most {MAX_DAYS} days; declare a longer one in parts, or ask the "
                           "organiser to find a substitute")
    for other in absences_of(service.store, game_id, seat):
        if iso(starts) < other["until"] and other["starts_at"] < iso(until):
            raise ServiceError(f"you are already away from {when(other['starts_at'])} until {when(other['until'])} "
                               "in this game; say you are back first, or choose other days")


TRIES = 8  # a declaration that lost the race to another write is checked and written again, this many times in all


def declare(service: Host, game_id: str, seat: int, starts: Any, until: Any, reason: Any = "",
            share: bool = False, *, cause: Cause, now: datetime | None = None) -> CommandResult:
    """Declare an absence (days in the player's zone, or ISO times); it begins at once if it starts now.

    The checks (no overlap with another of the seat's absences) and what the start does to the clocks (the
    allowance left) are read at one seq, and the write appends exactly at that seq, as a move does: a
    declaration that loses the race to any other write is checked again on what that write recorded, so two
    declarations at once never both pass the same check.

    :raises ServiceError: a bad, past, too long or overlapping absence: nothing is written.
    :raises StaleCommand: it lost the race, and what came first refuses it now (or it lost every time, ``TRIES``):
        nothing is written, and the player reads what came first.
    """
    now = now or clock_of(service)
    email = next(str(p["email"]) for p in service.players(game_id) if int(p["seat"]) == seat)
    zone = zone_of(service.store, email, service.notifier.timezone if service.notifier else "UTC")
    begin, end = moment(starts, zone, "first day away"), moment(until, zone, "day you are back")
    words = reason_words(reason)
    absence = secrets.token_hex(6)
    key = secrets.token_hex(32) if words and not share else None
    commitment = hmac.new(bytes.fromhex(key), words.encode(), hashlib.sha256).hexdigest() if key else None
    issued = 0
    for attempt in range(TRIES):
        seq = service.store.last(game_id)[0]  # first the seq, then the rows: every write of them moves the seq
        try:
            check(service, game_id, seat, begin, end, now)
        except ServiceError:
            if attempt == 0:
                raise
            raise StaleCommand(game_id, issued, seq) from None  # it passed, and lost the race to what came first
        issued = issued or seq
        first = max(begin, now.replace(microsecond=0))
        state = service.load(game_id)
        reserved, left = reservation(service, state, seat, first, end)  # read at this seq, as the check was
        drafts = [NewEvent(ABSENCE_DECLARED, {"seat": seat, "absence": absence, "starts_at": iso(first),
                                              "until": iso(end), "reason": words if share and words else None,
                                              "reason_commitment": commitment, "reserved_seconds": reserved,
                                              "left_seconds": left})]
        row = {"game_id": game_id, "absence": absence, "seat": seat, "starts_at": iso(first), "until": iso(end),
               "reason": words or None, "reason_key": key, "shared": int(bool(share and words)),
               "status": "planned", "stopped_seconds": 0, "reserved_seconds": reserved}
        if first <= now:
            drafts += start_drafts(service, state, {**row, "started_at": iso(now)}, now)
        try:
            return service.kernel.record(game_id, drafts, actor=seat_actor(seat), cause=cause, expected_seq=seq,
                                         hooks=WithRows(service, [Row(TABLE, row, pk=("game_id", "absence"))],
                                                        first=True))
        except StaleCommand:  # another write came first: check again on what it recorded
            if attempt == TRIES - 1:
                raise
    raise AssertionError("unreachable")


def back(service: Host, game_id: str, seat: int, *, cause: Cause, now: datetime | None = None) -> CommandResult:
    """The player is back: their running absence ends now, or (none running) their next one is cancelled.

    :raises ServiceError: no absence to end.
    :raises StaleCommand: it lost the race to other writes every time (``TRIES``).
    """
    now = now or clock_of(service)
    issued = 0
    for attempt in range(TRIES):  # read and written at one seq, as a declaration: two at once end it once
        seq = service.store.last(game_id)[0]
        mine = absences_of(service.store, game_id, seat)
        if not mine and attempt > 0:
            raise StaleCommand(game_id, issued, seq)  # ended by what came first: the lost race it is
        if not mine:
            raise ServiceError("you have no absence declared in this game")
        issued = issued or seq
        running = [a for a in mine if a["status"] == "active"]
        found = running[0] if running else mine[0]
        drafts = end_drafts(service, service.load(game_id), found, now, "back" if running else "cancelled")
        try:
            return service.kernel.record(game_id, drafts, actor=seat_actor(seat), cause=cause, hooks=service,
                                         expected_seq=seq)
        except StaleCommand:
            if attempt == TRIES - 1:
                raise
    raise AssertionError("unreachable")


# ---- the clocks ----------------------------------------------------------------------------

def _deadline_rows(store: SQLiteEventStore, game_id: str, seat: int | None = None) -> list[dict[str, Any]]:
    rows = store.query("SELECT seat, due_at FROM deadlines WHERE game_id = ? ORDER BY seat", (game_id,))
    return [r for r in rows if seat is None or int(r["seat"]) == seat]


def _moved(due_at: str, by: timedelta) -> str:
    return iso(datetime.fromisoformat(due_at) + by)


def start_drafts(service: Host, state: GameState[Any], absence: dict[str, Any], now: datetime) -> list[NewEvent]:
    """The events that begin an absence now: the start, and what the policy does to the clocks."""
    game_id, seat = state.game_id, int(absence["seat"])
    policy, days = policy_of(state.config.options)
    name = state.config.seats[seat].name
    clock_until = None
    clocks: list[NewEvent] = []
    if policy == "pause":
        paused = service.store.query("SELECT paused_at FROM games WHERE game_id = ?", (game_id,))
        if not (paused and paused[0]["paused_at"]):
            clocks.append(NewEvent(GAME_PAUSED, {"reason": f"{name} is away until {day(absence['until'])}"}))
    elif policy == "allowance":
        left = days * 86_400 - used_seconds(service.store, game_id, seat, but=absence["absence"])
        stop = int(min((datetime.fromisoformat(absence["until"]) - now).total_seconds(), left))
        reserved = absence.get("reserved_seconds")
        if reserved is not None:  # what it reserved when declared, never more than is left now
            stop = min(stop, int(reserved))
        if stop > 0:
            clock_until = iso(now + timedelta(seconds=stop))
            for row in _deadline_rows(service.store, game_id, seat):
                clocks.append(NewEvent(DEADLINE_EXTENDED, {
                    "seat": seat, "due_at": _moved(row["due_at"], timedelta(seconds=stop)),
                    "reason": f"{name} is away: their clock stops until {when(clock_until)}"}))
    return [NewEvent(ABSENCE_STARTED, {"seat": seat, "absence": absence["absence"], "policy": policy,
                                       "clock_until": clock_until})] + clocks


def end_drafts(service: Host, state: GameState[Any], absence: dict[str, Any], now: datetime,
               how: str) -> list[NewEvent]:
    """The events that end (or cancel) an absence now, and give the clocks back."""
    game_id, seat = state.game_id, int(absence["seat"])
    name = state.config.seats[seat].name
    if absence["status"] == "planned":
        return [NewEvent(ABSENCE_ENDED, {"seat": seat, "absence": absence["absence"], "how": "cancelled",
                                         "stopped_seconds": 0})]
    stopped = 0
    clocks: list[NewEvent] = []
    if absence["clock_until"]:
        clock_until = datetime.fromisoformat(absence["clock_until"])
        started = datetime.fromisoformat(absence["started_at"])
        stopped = int(max(0.0, (min(now, clock_until) - started).total_seconds()))
        if now < clock_until:  # back early: the clock runs again from now
            for row in _deadline_rows(service.store, game_id, seat):
                clocks.append(NewEvent(DEADLINE_EXTENDED, {
                    "seat": seat, "due_at": _moved(row["due_at"], now - clock_until),
                    "reason": f"{name} is back: their clock runs again"}))
    if absence["policy"] == "pause":
        clocks += _resume(service, game_id, absence, name, now)
    return [NewEvent(ABSENCE_ENDED, {"seat": seat, "absence": absence["absence"], "how": how,
                                     "stopped_seconds": stopped})] + clocks


def _resume(service: Host, game_id: str, absence: dict[str, Any], name: str, now: datetime) -> list[NewEvent]:
    """Resume the game an absence paused, once nobody else is away (and only a pause an absence made: the
    last of overlapping absences to end resumes the pause the first made)."""
    others = [a for a in absences_of(service.store, game_id) if a["status"] == "active"
              and a["absence"] != absence["absence"]]
    game = service.store.query("SELECT paused_at FROM games WHERE game_id = ?", (game_id,))[0]
    if others:  # the last to come back resumes it: hand the pause on
        return []
    ours = service.store.query(f"SELECT 1 FROM {TABLE} WHERE game_id = ? AND paused_game = 1 AND started_at = ?",
                               (game_id, game["paused_at"])) if game["paused_at"] else []
    if not ours:
        return []  # resumed meanwhile, or the organiser's pause: theirs to end
    paused = now - datetime.fromisoformat(game["paused_at"])
    drafts = [NewEvent(GAME_RESUMED, {"reason": f"{name} is back"})]
    for row in _deadline_rows(service.store, game_id):
        drafts.append(NewEvent(DEADLINE_EXTENDED, {
            "seat": row["seat"], "due_at": _moved(row["due_at"], paused),
            "reason": f"the game was paused for {_span(paused)} while {name} was away"}))
    return drafts


def _span(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:.1f} hours" if hours < 48 else f"{hours / 24:.1f} days"


def adjust(store: SQLiteEventStore, game_id: str, drafts: list[NewEvent], now: datetime | None = None
           ) -> list[NewEvent]:
    """Deadlines set for a player whose clock is stopped start when it runs again (the allowance policy)."""
    if not any(d.type == DEADLINE_SET for d in drafts):
        return drafts
    now = now or datetime.now(timezone.utc)
    stopped = {int(a["seat"]): datetime.fromisoformat(a["clock_until"]) for a in absences_of(store, game_id)
               if a["status"] == "active" and a["clock_until"]}
    found = []
    for draft in drafts:
        seat = draft.payload.get("seat") if draft.type == DEADLINE_SET else None
        if isinstance(seat, int) and seat in stopped and stopped[seat] > now:
            payload = {**draft.payload, "due_at": _moved(draft.payload["due_at"], stopped[seat] - now),
                       "reason": f"{draft.payload['reason']}; the clock starts when they are back, "
                                 f"{when(iso(stopped[seat]))}"}
            draft = NewEvent(draft.type, payload, draft.visibility, draft.reveals, draft.actor)
        found.append(draft)
    return found


# ---- the read model ------------------------------------------------------------------------

def rows(game_id: str, events: Sequence[Event]) -> list[Row]:
    """The ``absences`` rows a command's events start or end."""
    found: list[Row] = []
    paused = any(e.type == GAME_PAUSED for e in events)
    for event in events:
        p = event.payload
        key = {"game_id": game_id, "absence": p.get("absence")}
        if event.type == ABSENCE_STARTED:
            found.append(Row(TABLE, {**key, "status": "active", "policy": p["policy"], "started_at": event.recorded_at,
                                     "clock_until": p["clock_until"], "paused_game": int(paused)},
                             pk=("game_id", "absence")))
        elif event.type == ABSENCE_ENDED:
            found.append(Row(TABLE, {**key, "status": "ended", "ended_at": event.recorded_at,
                                     "stopped_seconds": p["stopped_seconds"]}, pk=("game_id", "absence")))
    return found


# ---- the scheduler ---------------------------------------------------------------------------

def due(store: SQLiteEventStore, now: datetime) -> list[dict[str, Any]]:
    """Absences to start or to end now (indexed by status and time), in running games."""
    moment_ = iso(now)
    return store.query(
        f"SELECT a.* FROM {TABLE} a JOIN games g ON g.game_id = a.game_id WHERE g.status = 'running' AND "
        "((a.status = 'planned' AND a.starts_at <= ?) OR (a.status = 'active' AND a.until <= ?)) "
        "ORDER BY a.game_id, a.starts_at", (moment_, moment_))


def act(service: Host, absence: dict[str, Any], now: datetime) -> CommandResult | None:
    """Start or end one absence found due, if it still is: exactly at the seq it was found at."""
    game_id = str(absence["game_id"])
    seq = service.store.last(game_id)[0]  # first the seq, then the row: a later start or end moves the seq
    rows = service.store.query(f"SELECT * FROM {TABLE} WHERE game_id = ? AND absence = ?",
                               (game_id, absence["absence"]))
    if not rows:
        return None
    found = rows[0]
    state = service.load(game_id)
    if state.ended or state.seq != seq:
        return None  # moved on since: the next run looks again
    if found["status"] == "planned" and found["starts_at"] <= iso(now):
        drafts = start_drafts(service, state, {**found, "started_at": iso(now)}, now)
    elif found["status"] == "active" and found["until"] <= iso(now):
        drafts = end_drafts(service, state, found, now, "over")
    else:
        return None
    return service.kernel.record(game_id, drafts, actor=SCHEDULER,
                                 cause=Cause("scheduler", {"absence": found["absence"]}),
                                 hooks=service, expected_seq=seq)


def tick(service: Host, now: datetime) -> int:
    """Start and end every absence due now; returns how many changed. Safe to run on several workers."""
    done = 0
    for absence in due(service.store, now):
        try:
            if act(service, absence, now):
                done += 1
        except (StaleCommand, ConcurrencyError) as err:  # another worker (or player) came first
            log.info("absence %s of game %s left to the next run: %s", absence["absence"], absence["game_id"], err)
    return done


def reason_of(store: SQLiteEventStore, game_id: str, seat: int | None, event: Event) -> str | None:
    """A kept reason's words, for the absent player only."""
    if event.type != ABSENCE_DECLARED or seat is None or event.payload.get("seat") != seat:
        return None
    rows = store.query(f"SELECT reason FROM {TABLE} WHERE game_id = ? AND absence = ? AND seat = ?",
                       (game_id, event.payload["absence"], seat))
    return str(rows[0]["reason"]) if rows and rows[0]["reason"] else None
