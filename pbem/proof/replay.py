"""Replay: step through a game's history as one reader saw it, fast, from states computed once.

A ``Timeline`` holds every event of a game and the state after each one, as the game
stood at that moment (``events.replay.live_states``). It is kept per process in a small
cache and extended with the new events when the game moves on, so stepping to any
move costs a lookup and a view, never a replay from the start.

Perspectives (``Perspective``): a player's (their private view at that moment, the log as
they could read it), a spectator's (the public view), and once the game has ended
everything, every hand and every hidden event revealed. Who may ask for which is the
caller's business (the web checks the link, the CLI is the operator's).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from events.envelope import Event, Visibility, actor_seat
from events.replay import GameNotFound, GameState, Replayer, live_states
from events.rules import Rules
from events.schema import ACTIONS_UNDONE
from pbem.errors import NotFound, ServiceError
from pbem.games.presentation import turn_label
from pbem.table.delivery import waiting_for
from pbem.proof import reading
from pbem.proof.logbook import describe_event
from pbem.table import replacing

if TYPE_CHECKING:
    from events.handling import Kernel
    from pbem.instance.database import Store

CACHED_GAMES = 8
WINDOW = 12        # events listed before the one shown


@dataclass(frozen=True)
class Perspective:
    """Whose eyes: ``seat`` (a player), neither (a spectator), or ``everything`` (after the end)."""

    seat: int | None = None
    everything: bool = False
    since: int = 0  # the seq the seat's player holds it from: the words before it were another player's

    @property
    def key(self) -> str:
        return "all" if self.everything else "public" if self.seat is None else f"{self.seat}.{self.since}"

    @property
    def reader(self) -> reading.Reader:
        return reading.Reader(seat=self.seat, since=self.since)


PUBLIC = Perspective()


@dataclass
class Timeline:
    """Every event of one game and the state after each; ``states[i]`` is the state at seq i+1."""

    events: list[Event]
    states: list[GameState[Any]]
    undone_by: dict[int, Event] = field(default_factory=dict)
    _turns: list[dict[str, int]] | None = None
    _texts: dict[str, list[str]] = field(default_factory=dict)
    _where: dict[int, str] = field(default_factory=dict)

    @property
    def last(self) -> int:
        return len(self.events)

    def extend(self, replayer: Replayer, new: list[Event]) -> None:
        self.states = live_states(replayer, new, self.states)
        self.events += new
        for event in new:
            if event.type == ACTIONS_UNDONE:
                for seq in range(event.payload["from_seq"], event.payload["to_seq"] + 1):
                    self.undone_by.setdefault(seq, event)
        self._turns = None

    def where(self, rules: Rules[Any], seq: int) -> str:
        """Where the game stood when event ``seq`` was recorded, as players count (``turn 5, action 1 of 2``,
        ``setup``): the game's own count at the start of its command; a game whose presentation gives none is
        counted in the replay's turns. Event numbers are the proof pages' (audit, verify), never these words."""
        found = self._where.get(seq)
        if found is None:
            first, _ = command_span(self.events, seq)
            if first <= 1:
                found = "the start"
            else:
                state = self.states[first - 2]
                found = turn_label(state.game_type, rules.view(state.game, None)) or ""
                if not found and not state.ended:
                    began = [t for t in self.turns(rules) if t["seq"] <= state.seq]
                    found = f"turn {len(began)}" if began else "the start"
                found = found or "the end"
            self._where[seq] = found
        return found

    def first_move(self, seq: int) -> int | None:
        """The last event of the first command after event ``seq`` in the effective history (None: nothing came
        after it yet): where the replay's list of turns goes for a turn that began at ``seq``, so the step it shows
        is one of that turn's, and says so in its own words."""
        following = next((e.seq for e in self.events[seq:] if e.seq not in self.undone_by), None)
        return None if following is None else command_span(self.events, following)[1]

    def turns(self, rules: Rules[Any]) -> list[dict[str, int]]:
        """Where each turn began in the effective history: ``[{turn, seq, seat}]``."""
        if self._turns is None:
            found: list[dict[str, int]] = []
            current: int | None = None
            for state, event, following in zip(self.states, self.events, self.events[1:] + [None]):
                mid_command = following is not None and event.command_id is not None \
                    and following.command_id == event.command_id
                if mid_command or state.seq in self.undone_by or state.ended:
                    continue  # only where a command ended, in the effective history, is anyone awaited
                turn = next((p.seat for p in rules.prompts(state.game).values() if p.kind == "turn"), None)
                if turn is not None and turn != current:
                    found.append({"turn": len(found) + 1, "seq": state.seq, "seat": turn})
                current = turn if turn is not None else current
            self._turns = found
        return self._turns

    def texts(self, rules: Rules[Any], perspective: Perspective) -> list[str]:
        """Every event in words as the perspective reads it; computed once per perspective."""
        found = self._texts.setdefault(perspective.key, [])
        if len(found) < self.last:
            names = [s.name for s in self.states[0].config.seats]
            for event in self.events[len(found):]:
                if perspective.everything and event.type not in reading.PRIVATE_WORDS:
                    event = replace(event, visibility=Visibility.public())  # the game's secrets, not people's words
                found.append(describe_event(rules, event, perspective.seat, perspective.everything, names,
                                            perspective.since))
        return found


_cache: OrderedDict[tuple[str, str], Timeline] = OrderedDict()
_lock = threading.Lock()


def timeline(store: Store, replayer: Replayer, game_id: str) -> Timeline:
    """The game's timeline, from this process's cache when it has it, extended by any new events."""
    key = (store.name, game_id)
    with _lock:
        seq, head = store.last(game_id)
        if seq == 0:
            raise GameNotFound(game_id)
        found = _cache.get(key)
        if found is None or found.last > seq or (found.last == seq and found.events[-1].hash != head):
            found = Timeline([], [])  # not cached, or not this database's game any more
        if found.last < seq:
            new = store.read(game_id, found.last)
            if found.events and new[0].prev_hash != found.events[-1].hash:
                found, new = Timeline([], []), store.read(game_id)
            found.extend(replayer, new)
        _cache[key] = found
        _cache.move_to_end(key)
        while len(_cache) > CACHED_GAMES:
            _cache.popitem(last=False)
        return found


def command_span(events: list[Event], seq: int) -> tuple[int, int]:
    """The first and last seq of the command that appended event ``seq``."""
    command = events[seq - 1].command_id
    first = last = seq
    if command is not None:
        while first > 1 and events[first - 2].command_id == command:
            first -= 1
        while last < len(events) and events[last].command_id == command:
            last += 1
    return first, last


def actor_name(event: Event, names: list[str]) -> str:
    seat = actor_seat(event.actor)
    if seat is not None and 0 <= seat < len(names):
        return names[seat]
    return {"system": "the game", "scheduler": "the scheduler", "organiser": "the organiser"}.get(event.actor,
                                                                                                event.actor)


def replay(store: Store, kernel: Kernel, game_id: str, at: int | None = None,
           perspective: Perspective = PUBLIC, with_undone: bool = False) -> dict[str, Any]:
    """The game at move ``at`` (default: the last) as ``perspective`` saw it, with the steps around it.

    Steps go through the effective history (taken-back events are skipped) unless
    ``with_undone``; ``at`` may name any event, taken back or not.

    :raises LookupError: no such step (an event of the record).
    """
    line = timeline(store, kernel.replayer, game_id)
    at = line.last if at is None else at
    if not 1 <= at <= line.last:
        raise LookupError(f"there is no step {at}; this game's record has steps 1 to {line.last}")
    state = line.states[at - 1]
    rules = kernel.rules(state)
    names = [s.name for s in state.config.seats]
    texts = line.texts(rules, perspective)
    ended_now = line.states[-1].ended
    steps = [e.seq for e in line.events if with_undone or e.seq not in line.undone_by]
    commands = reading.commands_of(line.events)

    def entry(event: Event) -> dict[str, Any]:
        undo = line.undone_by.get(event.seq)
        command = commands.get(str(event.cause.get("command", event.seq)), [event])
        words = reading.reads_words(perspective.reader, command, perspective.everything)
        return {
            "seq": event.seq, "type": event.type, "actor": event.actor, "who": actor_name(event, names),
            "where": line.where(rules, event.seq),
            "recorded_at": event.recorded_at, "via": event.cause.get("via") if words else None,
            "text": texts[event.seq - 1],
            "undone_by": None if undo is None else {
                "seq": undo.seq, "who": actor_name(undo, names), "at": undo.recorded_at,
                "where": line.where(rules, undo.seq),
                "reason": undo.payload.get("reason", "")},
        }

    first, last = command_span(line.events, at)
    prompts = rules.prompts(state.game) if not state.ended and at == last else {}  # mid-command, nobody is asked
    if perspective.everything:
        views = {"public": rules.view(state.game, None), **{n: rules.view(state.game, i) for i, n in enumerate(names)}}
    else:
        views = {"public" if perspective.seat is None else names[perspective.seat]:
                 rules.view(state.game, perspective.seat)}
    earlier = [s for s in steps if s < at]
    later = [s for s in steps if s > at]
    return {
        "game_id": game_id, "game_type": state.game_type, "title": rules.title, "ended": ended_now,
        "seats": [{"seat": i, "name": n} for i, n in enumerate(names)],
        "perspective": {"key": perspective.key, "seat": perspective.seat, "everything": perspective.everything,
                        "name": names[perspective.seat] if perspective.seat is not None else None},
        "at": at, "last": line.last, "with_undone": with_undone,
        "step": steps.index(at) + 1 if at in steps else None, "steps": len(steps),
        "first_step": steps[0], "prev": earlier[-1] if earlier else None, "next": later[0] if later else None,
        "last_step": steps[-1],
        "event": entry(line.events[at - 1]),
        "command": {"first_seq": first, "last_seq": last},
        "events": [entry(e) for e in line.events[max(0, at - 1 - WINDOW):at]],
        "turns": [{**t, "name": names[t["seat"]], "words": turn_words(state.game_type, rules, line.states[t["seq"] - 1]),
                   "step": line.first_move(t["seq"])}
                  for t in line.turns(rules)],
        # the turn the step's command began in: the one its own words (``where``) name
        "turn_at": max((t["seq"] for t in line.turns(rules) if t["seq"] < first), default=None),
        "waiting_for": waiting_for(prompts, names, perspective.seat, perspective.everything),
        "outcome": state.outcome if state.ended else None,
        "seed": state.seed if state.ended else None,
        "views": views,
    }


def turn_words(game_type: str, rules: Rules[Any], state: GameState[Any]) -> str | None:
    """A turn as the game counts it (``turn 5``, ``setup``), for the replay's menu; None if the game does not say."""
    label = turn_label(game_type, rules.view(state.game, None))
    return label.split(",")[0].strip() if label else None


def replay_for(store: Store, kernel: Kernel, game_id: str, at: int | None, seat: int | None, everything: bool,
               with_undone: bool) -> dict[str, Any]:
    """``replay`` for a reader at ``seat``, the spectator, or (only once the game has ended) everything.

    :raises ServiceError: everything asked for before the end. :raises NotFound: no such game or move.
    """
    try:
        if everything and not timeline(store, kernel.replayer, game_id).states[-1].ended:
            raise ServiceError("everything is shown only once the game has ended; until then choose "
                               "a player's view or the public one")
        since = replacing.since_seq(store, game_id, seat) if seat is not None else 0
        return replay(store, kernel, game_id, at, Perspective(seat, everything, since), with_undone)
    except GameNotFound:
        raise NotFound(f"there is no game {game_id!r}; `pbem game list` shows the games") from None
    except LookupError as err:
        raise NotFound(str(err)) from None
