"""Players who vanish: missed deadlines counted per seat, autopilot, coming back, and resigning.

* Every time-out of a seat counts one missed deadline in a row (not while the player is away: they said
  so); the seat's own move sets the count back to nought. After the number the game set
  (``autopilot_after``, default 3) the time-out's command also puts the seat on autopilot
  (``pbem.AutopilotOn``, told to the table), and the organiser, if the game has an address for one, is
  mailed to find a substitute.
* A seat on autopilot is answered at once (``tick``): the scheduler plays the move its game's computer player
  chooses from what the seat may know (``pbem.bots.pilot``, through the service), or the prompt's default in a
  game without one, recording ``pbem.AutopilotPlayed`` (with the bot's name and version) in the same command;
  verification checks that the seat was on autopilot then and that the move was legal, not that a bot would
  choose it again (``check_command``).
* The player comes back by acting, or by asking for their seat back (``take_back``): ``pbem.AutopilotOff``.
* A player may resign (``resign``): the seat follows the game's rule for resignations, the rules'
  optional ``resignation`` attribute. None of the built-in games' rulebooks lets a player leave (every
  seat scores, and in A Study in Emerald a side's weakest player decides its fate), so the rule is
  ``autopilot`` for all: the seat goes on autopilot for good, until the organiser gives it to another
  player (``pbem.table.replacing``). A resigned player cannot take it back by acting.

The read model is ``seat_status`` (missed in a row, autopilot, resigned, and ``since_seq``: the event that
gave the seat its current player), written with the events.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Protocol, Sequence

from events.envelope import SCHEDULER, Event, NewEvent, Visibility, actor_seat, seat_actor
from events.handling import Cause, CommandResult
from events.replay import GameState
from events.schema import GAME_CREATED, GAME_ENDED
from events.rules import IllegalAction
from events.store import Row, SQLiteEventStore
from pbem.table.delivery import TIMED_OUT, check_scheduled
from pbem.errors import ServiceError
from pbem.table.hooks import Host
from pbem.table.seat_events import (ABSENCE_ENDED, ABSENCE_STARTED, AUTOPILOT_OFF, AUTOPILOT_ON, AUTOPILOT_PLAYED,
                                    BOT_REASON, MAX_BOT_REASON, SEAT_REPLACED, SEAT_RESIGNED)


STATUS = "seat_status"
COLUMNS = {"game_id": str, "seat": int, "missed": int, "autopilot": int, "resigned": int, "since_seq": int,
           "away": int, "holder_salt": str}  # holder_salt: what the address of pbem.SeatReplaced was hashed with
DEFAULT_AFTER = 3


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table(STATUS, COLUMNS, pk=("game_id", "seat"), indexes=[("autopilot",)])


def status(store: SQLiteEventStore, game_id: str, seat: int) -> dict[str, int]:
    """A seat's status; a seat with no row yet is on time, not on autopilot, held since the start."""
    rows = store.query(f"SELECT missed, autopilot, resigned, since_seq, away FROM {STATUS} "
                       "WHERE game_id = ? AND seat = ?", (game_id, seat))
    found = rows[0] if rows else {}
    return {k: int(found.get(k) or 0) for k in ("missed", "autopilot", "resigned", "since_seq", "away")}


def piloted(store: SQLiteEventStore, game_id: str, events: Sequence[Event]) -> set[int]:
    """The seats on autopilot once these events (a command's, not yet written) are recorded: the scheduler plays
    their prompts at once, so they are not mailed "your turn" (``pbem.post.notify``)."""
    seats = {int(r["seat"]) for r in store.query(f"SELECT seat FROM {STATUS} WHERE game_id = ? AND autopilot = 1",
                                                 (game_id,))}
    for event in events:
        if event.type == AUTOPILOT_ON:
            seats.add(event.payload["seat"])
        elif event.type in (AUTOPILOT_OFF, SEAT_REPLACED):
            seats.discard(event.payload["seat"])
    return seats


def after_misses(options: Any) -> int:
    """How many missed deadlines in a row put a seat on autopilot (the game's ``autopilot_after``); 0: never."""
    value = options.get("autopilot_after", DEFAULT_AFTER) if options else DEFAULT_AFTER
    return int(value) if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else DEFAULT_AFTER


def check_after(value: Any) -> int:
    """``--autopilot-after N``: a whole number from 0 (never) to 50."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 50:
        raise ServiceError(f"autopilot after must be a whole number of missed deadlines from 0 (never) to 50, "
                           f"not {value!r}")
    return value


# ---- the service's hooks: what every command adds ---------------------------------------------

def follow(store: SQLiteEventStore, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
    """A seat timed out once too often goes on autopilot; a seat on autopilot whose player acted comes off."""
    cause = events[0].cause
    drafts: list[NewEvent] = []
    seat = cause.get("seat")
    if not isinstance(seat, int) or "action" not in cause:
        return drafts
    held = status(store, after.game_id, seat)
    if cause.get("actor") == SCHEDULER and cause.get("via") == "scheduler" and "deadline" in cause:
        limit = after_misses(after.config.options)
        if limit and not held["autopilot"] and not held["away"] and held["missed"] + 1 >= limit:
            missed = held["missed"] + 1
            drafts.append(NewEvent(AUTOPILOT_ON, {"seat": seat, "reason": f"{missed} deadline{'s' if missed > 1 else ''} "
                                                                          "missed in a row"}, actor=SCHEDULER))
    elif (cause.get("actor") == seat_actor(seat) and cause.get("via") != "standing-order" and held["autopilot"]
          and not after.ended):  # the player's own move; a standing order answering for them is not their return
        drafts.append(NewEvent(AUTOPILOT_OFF, {"seat": seat, "reason": "their player is back and acted"}))
    return drafts


def rows(service: Host, after: GameState[Any], events: Sequence[Event]) -> list[Row]:
    """The ``seat_status`` rows the command changes, and the organiser's mail when a seat goes on autopilot."""
    game_id = after.game_id
    changed: dict[int, dict[str, Any]] = {}
    was: dict[int, dict[str, int]] = {}

    def row(seat: int) -> dict[str, Any]:
        if seat not in changed:
            was[seat] = status(service.store, game_id, seat)
            changed[seat] = {"game_id": game_id, "seat": seat, **was[seat]}
        return changed[seat]

    first = events[0]
    mover = actor_seat(first.actor)
    if (mover is not None and "action" in first.cause and first.cause.get("seat") == mover
            and first.cause.get("via") != "standing-order"):
        row(mover)["missed"] = 0
    mails: list[int] = []
    for event in events:
        p = event.payload
        if event.type == TIMED_OUT and not row(p["seat"])["away"]:
            row(p["seat"])["missed"] += 1
        elif event.type == AUTOPILOT_ON:
            row(p["seat"])["autopilot"] = 1
            mails.append(p["seat"])
        elif event.type == AUTOPILOT_OFF:
            row(p["seat"]).update(autopilot=0, missed=0)
        elif event.type == SEAT_RESIGNED:
            row(p["seat"])["resigned"] = 1
        elif event.type == SEAT_REPLACED:
            row(p["seat"]).update(autopilot=0, missed=0, resigned=0, away=0, since_seq=event.seq)
        elif event.type == ABSENCE_STARTED:
            row(p["seat"])["away"] = 1
        elif event.type == ABSENCE_ENDED and p["how"] != "cancelled":
            row(p["seat"])["away"] = 0
    # a row only where something changed: most moves leave the mover's status as it was (on time, no misses)
    found = [Row(STATUS, values, pk=("game_id", "seat")) for seat, values in changed.items()
             if any(values[k] != v for k, v in was[seat].items())]
    if service.notifier is not None and events[0].type != GAME_CREATED:  # a bot seat from the start wants nobody
        for seat in mails:
            found += service.notifier.substitute_wanted(service, after, seat, events)
    return found


def organiser_of(store: SQLiteEventStore, game_id: str) -> str | None:
    rows = store.query("SELECT organiser FROM games WHERE game_id = ?", (game_id,))
    return str(rows[0]["organiser"]) if rows and rows[0]["organiser"] else None


def check_may_act(store: SQLiteEventStore, game_id: str, seat: int) -> None:
    """Refuse a move of a player who resigned: their seat waits for another player.

    :raises IllegalAction: the seat's player resigned.
    """
    if status(store, game_id, seat)["resigned"]:
        raise IllegalAction("you resigned from this game: your seat is on autopilot until the organiser gives it "
                            "to another player")


# ---- autopilot: the scheduler answers at once ---------------------------------------------------

def due(store: SQLiteEventStore) -> list[dict[str, Any]]:
    """Prompted seats on autopilot in running, unpaused games (by the index on ``autopilot``)."""
    return store.query(
        f"SELECT d.game_id, d.seat FROM {STATUS} a JOIN deadlines d ON d.game_id = a.game_id AND d.seat = a.seat "
        "JOIN games g ON g.game_id = d.game_id WHERE a.autopilot = 1 AND g.status = 'running' "
        "AND g.paused_at IS NULL ORDER BY d.due_at")


class PilotMove(NamedTuple):
    """The move for a seat on autopilot: the action, the bot that chose it ("greedy 1"; None: the prompt's default)
    and the bot's one-line reason (None with the default)."""

    action: dict[str, Any]
    bot: str | None = None
    reason: str | None = None


class Piloted(Host, Protocol):
    """The service as the autopilot uses it: a ``Host`` that also gives the move for a seat on autopilot."""

    # (store, rules, state, seat, the prompt's default) -> its move (``pbem.bots.pilot``, which sits above this floor:
    # the service hands it over)
    pilot: Callable[..., PilotMove]


class _WithAutopilot:
    """The service's hooks, with the ``pbem.AutopilotPlayed`` that says why the scheduler moved (and which computer
    player chose the move, if one did), and the bot's reason in a ``pbem.BotReason`` only the server reads until the
    game ends (not in the public record, nor in the cause, which players read)."""

    def __init__(self, service: Host, seat: int, action: dict[str, Any], bot: str | None = None,
                 reason: str | None = None) -> None:
        self.service, self.seat, self.action, self.bot, self.reason = service, seat, action, bot, reason

    def follow(self, before: Any, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
        if after.ended:  # nothing is recorded after a game's end: the move that ended it goes without its record
            return self.service.follow(before, after, events)
        played: dict[str, Any] = {"seat": self.seat, "action": self.action}
        if self.bot is not None:
            played["bot"] = self.bot
        drafts = [NewEvent(AUTOPILOT_PLAYED, played, actor=SCHEDULER)]
        if self.bot is not None and self.reason is not None:
            drafts.append(NewEvent(BOT_REASON, {"seat": self.seat, "bot": self.bot,
                                                "reason": self.reason[:MAX_BOT_REASON]},
                                   Visibility.server(), actor=SCHEDULER))
        return drafts + self.service.follow(before, after, events)

    def rows(self, before: Any, after: GameState[Any], events: list[Event]) -> list[Row]:
        return self.service.rows(before, after, events)


def play_for(service: Piloted, game_id: str, seat: int) -> CommandResult | None:
    """Play for a seat on autopilot: the move its game's computer player chooses from what the seat may know
    (``service.pilot``), or the prompt's default in a game without one; None if autopilot no longer applies.

    The state is loaded first and the seat's status read after it, and the append expects the state's seq
    with no retry: if the player came back (or another worker played) meanwhile, the append fails, so two
    workers never both play, and nobody plays for a player who is back.
    """
    state = service.load(game_id)
    if state.ended or not status(service.store, game_id, seat)["autopilot"]:
        return None
    prompt = service.kernel.rules(state).prompts(state.game).get(seat)
    if prompt is None or prompt.default is None:
        return None
    rules = service.kernel.rules(state)
    move = PilotMove(*service.pilot(service.store, rules, state, seat, prompt.default))
    return service.kernel.execute(game_id, seat, move.action, expected_seq=state.seq, actor=SCHEDULER, retries=0,
                                  state=state, cause=Cause("autopilot", {}),
                                  hooks=_WithAutopilot(service, seat, move.action, move.bot, move.reason))


# ---- coming back, resigning ----------------------------------------------------------------

def take_back(service: Host, game_id: str, seat: int, *, cause: Cause) -> CommandResult:
    """The player asks for their seat back: off autopilot (not after resigning)."""
    held = status(service.store, game_id, seat)
    if held["resigned"]:
        raise ServiceError("you resigned from this game; the organiser can give the seat to another player")
    if not held["autopilot"]:
        raise ServiceError("your seat is not on autopilot: it is yours already")
    return service.kernel.record(game_id, [NewEvent(AUTOPILOT_OFF, {"seat": seat, "reason": "their player took the "
                                                                                           "seat back"})],
                                 actor=seat_actor(seat), cause=cause, hooks=service)


def resign(service: Host, game_id: str, seat: int, *, cause: Cause) -> CommandResult:
    """Resign from a game: the seat follows the game's rule for resignations (autopilot for every built-in game).

    :raises ServiceError: the game is over, or the player resigned already.
    """
    state = service.load(game_id)
    if state.ended:
        raise ServiceError("the game is over: there is nothing to resign from")
    held = status(service.store, game_id, seat)
    if held["resigned"]:
        raise ServiceError("you have resigned from this game already")
    rule = getattr(service.kernel.rules(state), "resignation", "autopilot")
    if rule != "autopilot":
        raise ServiceError(f"this game's rule for resignations ({rule}) is not supported here")
    drafts = [NewEvent(SEAT_RESIGNED, {"seat": seat, "reason": "the seat is on autopilot until the organiser "
                                                               "gives it to another player"})]
    if not held["autopilot"]:
        drafts.append(NewEvent(AUTOPILOT_ON, {"seat": seat, "reason": "resigned"}))
    return service.kernel.record(game_id, drafts, actor=seat_actor(seat), cause=cause, hooks=service)


# ---- verification ----------------------------------------------------------------------------

def check_command(history: Sequence[Event], command: Sequence[Event]) -> str | None:
    """Why a command cannot be honest, or None: an autopilot move must be for a seat on autopilot then, with
    its ``pbem.AutopilotPlayed`` naming that seat and action (but for the move that ended the game: nothing is
    recorded after the end); any other scheduler move is a time-out (``pbem.table.delivery.check_scheduled``)."""
    first = command[0]
    played = [e for e in command if e.type == AUTOPILOT_PLAYED]
    reasons = [e for e in command if e.type == BOT_REASON]
    if first.cause.get("via") != "autopilot" and not played:
        if reasons:
            return "a computer player's reason recorded without the autopilot's move"
        return check_scheduled(history, command)
    ends = any(e.type == GAME_ENDED for e in command)  # the move that ended the game has no record after the end
    if first.cause.get("actor") != SCHEDULER or "action" not in first.cause or len(played) != (0 if ends else 1):
        return "an autopilot move without its record, or a record without the scheduler's move"
    seat = first.cause.get("seat")
    if played and (played[0].payload["seat"] != seat
                   or dict(played[0].payload["action"]) != dict(first.cause["action"])):
        return "the autopilot record names another player or another action than the move the scheduler made"
    if len(reasons) > len(played) or (reasons and (
            reasons[0].payload["seat"] != seat or reasons[0].payload["bot"] != played[0].payload.get("bot")
            or reasons[0].visibility.kind != "server")):
        return "a computer player's reason that is not the one of the scheduler's move, or not kept from the players"
    on = False
    for event in history:
        if event.type == AUTOPILOT_ON and event.payload["seat"] == seat:
            on = True
        elif event.type in (AUTOPILOT_OFF, SEAT_REPLACED) and event.payload["seat"] == seat:
            on = False
    if not on:
        return "the scheduler played for a seat that was not on autopilot"
    return None
