"""Replay: the effective history after undo, the fold into state, and snapshots as a cache."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any, Callable, Generic, Iterable, Mapping, Sequence, TypeVar

from events.envelope import SALTED, Event
from events.rules import GameConfig, Rules, Seat
from events.schema import (ACTIONS_UNDONE, GAME_CREATED, GAME_ENDED, RANDOM_DRAWN,
                           EventTypeRegistry)
from events.snapshots import MadeFromData, SnapshotCodec
from events.store import CorruptLog as CorruptLog, EventStore, Snapshot  # the store raises it too: a row unread

S = TypeVar("S")
log = logging.getLogger(__name__)

KERNEL_STATE_VERSION = "4"  # 3: the game's data named by digest (events.snapshots); 4: causes_salted
SNAPSHOT_EVERY = 10


class GameNotFound(LookupError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


@dataclass(frozen=True)
class GameState(Generic[S]):
    """The kernel's state of one game: what every game has, around the rules' own state."""

    game_id: str
    game_type: str
    rules_version: str
    config: GameConfig
    seed_commitment: str
    seq: int               # the last event folded (raw seq, undone events included)
    last_hash: str
    rng_counter: int       # the next random draw's number
    game: S
    ended: bool = False
    seed: str | None = None                # revealed by pbem.GameEnded
    outcome: Mapping[str, Any] | None = None
    salted: bool = False                   # hidden payloads enter the chain through hiding commitments
    causes_salted: bool = False            # causes enter the chain in parts (``events.envelope.cause_form``)


def undone_seqs(events: Iterable[Event]) -> set[int]:
    """Seqs that ``pbem.ActionsUndone`` events took out of the effective history."""
    skipped: set[int] = set()
    for event in events:
        if event.type == ACTIONS_UNDONE:
            skipped.update(range(event.payload["from_seq"], event.payload["to_seq"] + 1))
    return skipped


def effective(events: Sequence[Event]) -> list[Event]:
    """The events that count: every event not inside an undone range."""
    skipped = undone_seqs(events)
    if not skipped:
        return list(events)
    return [e for e in events if e.seq not in skipped]


def config_from(created: Event, data_of: Callable[[str], Mapping[str, Any]] | None = None) -> GameConfig:
    """The game's configuration: its data inline (games created before ``events.gamedata``) or by its digest."""
    payload = created.payload
    if "data" in payload and payload["data"] is not None:
        data = payload["data"]
    elif data_of is None:
        raise LookupError(f"game {created.game_id} names its data by digest, and no store was given to read it")
    else:
        data = data_of(payload["data_digest"])
    return GameConfig(
        seats=tuple(Seat(i, s["name"]) for i, s in enumerate(payload["seats"])),
        options=payload["options"],
        data=data,
    )


class Replayer:
    """Folds events into ``GameState`` for the games it knows, upcasting old payloads on the way."""

    def __init__(self, games: Mapping[str, Rules[Any]], registry: EventTypeRegistry,
                 data_of: Callable[[str], Mapping[str, Any]] | None = None) -> None:
        self.games = games
        self.registry = registry
        self.data_of = data_of  # a game's data by its digest (``events.gamedata``)
        self.codec = SnapshotCodec(data_of)

    def rules_for(self, game_type: str) -> Rules[Any]:
        try:
            return self.games[game_type]
        except KeyError:
            raise LookupError(f"unknown game type {game_type!r}") from None

    def start(self, created: Event) -> GameState[Any]:
        """The state a game begins in, from its ``pbem.GameCreated``.

        :raises CorruptLog: the first event is another, or lacks what every game is created with (its game type,
            seats, data), or names a game type this server does not know.
        """
        try:
            if created.seq != 1 or created.type != GAME_CREATED:
                raise ValueError(f"the game's first event is event {created.seq}, a {created.type}, "
                                 f"where event 1, its {GAME_CREATED}, should be")
            game_type = created.payload["game_type"]
            if not isinstance(game_type, str):
                raise TypeError(f"its game type is {game_type!r}, not a name")
            config = config_from(created, self.data_of)  # its data missing or altered: LookupError
            rules_version = created.payload["rules_version"]
            commitment = created.payload["seed_commitment"]
            rules = self.rules_for(game_type)  # a type this server does not know cannot be replayed here either
            game = rules.initial_state(config)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, LookupError) as err:
            raise CorruptLog(created.game_id, created.seq, err) from err
        return GameState(
            game_id=created.game_id, game_type=rules.name, rules_version=rules_version,
            config=config, seed_commitment=commitment, seq=created.seq,
            last_hash=created.hash, rng_counter=0, game=game,
            salted=created.payload.get("payload_commitments") == SALTED,
            causes_salted=created.payload.get("cause_commitments") == SALTED,
        )

    def fold(self, events: Sequence[Event], state: GameState[Any] | None = None) -> GameState[Any]:
        """Fold a stream (or a tail onto ``state``), skipping undone events.

        The rules' state is threaded through a local variable and the ``GameState`` is
        rebuilt only at kernel events and at the end: replay is the hot path of every load.
        """
        events = list(events)
        if state is None:
            if not events:
                raise ValueError("no events to fold")
            state, events = self.start(events[0]), events[1:]
        if not events:
            return state
        skipped = undone_seqs(events)
        evolve = self.rules_for(state.game_type).evolve
        upcast = self.registry.upcast
        game = state.game
        event = events[0]
        try:
            for event in events:
                if event.seq in skipped:
                    continue
                event = upcast(event)
                kind = event.type
                if kind == RANDOM_DRAWN:
                    state = replace(state, rng_counter=event.payload["draws"][-1]["n"] + 1)
                elif kind == GAME_ENDED:
                    state = replace(state, ended=True, seed=event.payload["seed"], outcome=event.payload["outcome"])
                elif not kind.startswith("pbem."):  # the kernel's and the delivery layer's own events
                    game = evolve(game, event)
        except (KeyError, TypeError, ValueError, IndexError, LookupError, AttributeError) as err:
            # evolve never validates: a payload no honest append wrote breaks it somewhere
            raise CorruptLog(event.game_id, event.seq, err) from err
        # seq and hash name the stream position, undone events included
        return replace(state, game=game, seq=events[-1].seq, last_hash=events[-1].hash)

    # ---- snapshots -------------------------------------------------------------------------

    def made_from_data(self, game_type: str) -> tuple[MadeFromData, ...]:
        """The objects a game makes from its data alone (its catalog), which its snapshots name by the data."""
        return tuple(getattr(self.rules_for(game_type), "made_from_data", ()))

    def snapshot_key(self, game_type: str) -> str:
        return f"{game_type}/{self.rules_for(game_type).version}/k{KERNEL_STATE_VERSION}"

    def load(self, store: EventStore, game_id: str, upto_seq: int | None = None) -> GameState[Any]:
        """The state after ``upto_seq`` (default: now), from the newest usable snapshot plus the tail.

        A snapshot is only a cache: one made by other code (its key names the game type,
        rules version and kernel state version), one that cannot be read, or one made
        stale by a later undo reaching back before it, is passed over.
        """
        for snapshot in store.snapshots(game_id, upto_seq):
            game_type = snapshot.key.split("/")[0]
            if game_type not in self.games or snapshot.key != self.snapshot_key(game_type):
                continue
            tail = store.read(game_id, snapshot.seq, upto_seq)
            if any(e.type == ACTIONS_UNDONE and e.payload["from_seq"] <= snapshot.seq for e in tail):
                continue
            try:
                base = self.codec.loads(snapshot.state, self.made_from_data(game_type))
            except Exception:  # a cache: a bad entry is skipped, never trusted
                log.warning("unreadable snapshot of %s at %s, replaying instead", game_id, snapshot.seq)
                continue
            return self.fold(tail, base)
        events = store.read(game_id, 0, upto_seq)
        if not events:
            raise GameNotFound(game_id)
        return self.fold(events)

    def advance(self, store: EventStore, state: GameState[Any], upto_seq: int | None = None) -> GameState[Any] | None:
        """``state`` carried forward to the stream's end (or to ``upto_seq``) by folding the events after it, as a
        snapshot's tail is; ``None`` when that would not give the loaded state: the first of them does not chain to
        ``state``'s hash, or one undoes events ``state`` already holds."""
        tail = store.read(state.game_id, state.seq, upto_seq)
        if not tail or tail[0].prev_hash != state.last_hash:
            return None
        if any(e.type == ACTIONS_UNDONE and e.payload["from_seq"] <= state.seq for e in tail):
            return None
        return self.fold(tail, state)

    def snapshot_for(self, before_seq: int, state: GameState[Any]) -> Snapshot | None:
        """A snapshot to write with the command, when it crossed a multiple of ``SNAPSHOT_EVERY``."""
        if state.seq // SNAPSHOT_EVERY == before_seq // SNAPSHOT_EVERY:
            return None
        try:
            blob = self.codec.dumps(state, self.made_from_data(state.game_type))
        except Exception:
            log.warning("state of %s cannot be pickled; no snapshot", state.game_id)
            return None
        return Snapshot(state.game_id, state.seq, self.snapshot_key(state.game_type), blob)


def live_states(replayer: Replayer, events: Sequence[Event],
                states: Sequence[GameState[Any]] = ()) -> list[GameState[Any]]:
    """The state after every event as the game stood at that moment: ``result[i]`` is the state at seq i+1.

    One pass over the stream (or over the events after ``states``, to extend a list made
    earlier): an event is folded onto the state before it, and an undo goes back to the
    state before the first event it took back, as ``Kernel.undo`` did when it was made.
    So the state at any seq is the one ``load(upto_seq=seq)`` gives, without replaying
    from the start for each seq; with one exception: inside an agreed undo that takes out
    several ranges (around a pause, say), every one of its events shows the state the undo
    goes back to, where a fold up to the first would show a position that never existed
    (the first range gone, the later ones still there).
    """
    found = list(states)
    undoing: str | None = None  # the command whose undo has already gone back (one undo may take out several ranges)
    for event in events:
        if event.seq != len(found) + 1:  # a row removed or moved by hand: no honest append leaves a gap
            raise CorruptLog(event.game_id, len(found) + 1, ValueError(
                f"the stream holds event {event.seq} where event {len(found) + 1} should be"))
        if not found:
            found.append(replayer.fold([event]))
        elif event.type == ACTIONS_UNDONE:
            # the ranges of one undo lie after its first, with only delivery records between them
            again = undoing is not None and undoing == event.command_id
            restored = found[-1] if again else found[event.payload["from_seq"] - 2]
            found.append(replace(restored, seq=event.seq, last_hash=event.hash))
            undoing = event.command_id
        else:
            found.append(replayer.fold([event], found[-1]))
    return found
