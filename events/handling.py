"""Command handling: load, decide, append in one transaction, with the expected-seq check."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Callable, Mapping, Protocol, Sequence

from marshmallow import ValidationError

from events.gamedata import DataSource, data_row
from events.envelope import (SALTED, SYSTEM, Event, NewEvent, Visibility, canonical_json, event_hash, is_hidden,
                             cause_form, payload_text_digest, seat_actor)
from events.replay import GameState, Replayer, effective, undone_seqs
from events.rng import ChanceNeeded, NoRandomness, Rng, new_seed, seed_commitment
from events.rules import Action, EventType, GameConfig, IllegalAction, InvalidAction, Rules, Seat
from events.schema import (ACTIONS_UNDONE, GAME_CREATED, GAME_ENDED, KERNEL_EVENT_TYPES, POSITION_GIVEN,
                           RANDOM_DRAWN, EventTypeRegistry)
from events.store import ConcurrencyError, EventStore, Row, stored_as


class StaleCommand(IllegalAction):
    """The command was issued against an older state of the game (e.g. an old link)."""

    def __init__(self, game_id: str, issued_seq: int, current_seq: int) -> None:
        super().__init__(
            f"this was issued at move {issued_seq}, but the game has moved on to move {current_seq}; "
            "look at the current state and act from there"
        )
        self.game_id = game_id
        self.issued_seq = issued_seq
        self.current_seq = current_seq


class UndoRefused(IllegalAction):
    """Undo is not allowed here without the other players' consent."""


@dataclass(frozen=True)
class Cause:
    """What carried a command: ``via`` is cli, link, mail, api, scheduler or import.

    ``detail`` holds the carrier's own facts (link id and issue time, Message-ID,
    ...); ``text`` is the command as the player typed it, if typed.
    """

    via: str
    detail: Mapping[str, Any] = field(default_factory=dict)
    text: str | None = None


@dataclass(frozen=True)
class CommandResult:
    before: GameState[Any] | None
    after: GameState[Any]
    events: list[Event]


class Hooks(Protocol):
    """What the delivery layer adds to a command, in the same transaction.

    ``follow`` returns more events (deadlines, notices: ``pbem.*`` types the rules never
    see), appended after the command's own; ``rows`` returns the rows the command causes
    (read models, outbox). Both see the state before and after and every event appended.
    """

    def follow(self, before: GameState[Any] | None, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
        ...

    def rows(self, before: GameState[Any] | None, after: GameState[Any], events: list[Event]) -> list[Row]:
        ...


def utcnow() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def new_game_id() -> str:
    return secrets.token_hex(5)


def group_commands(events: Sequence[Event]) -> list[list[Event]]:
    """Consecutive events appended by one command, in order."""
    groups: list[list[Event]] = []
    for event in events:
        if groups and groups[-1][0].command_id is not None and groups[-1][0].command_id == event.command_id:
            groups[-1].append(event)
        else:
            groups.append([event])
    return groups


def is_delivery(command: Sequence[Event]) -> bool:
    """A command of the delivery layer only (a deadline, a pause, a standing order): the rules see none of it."""
    return "action" not in command[0].cause and all(
        e.type.startswith("pbem.") and e.type not in (GAME_CREATED, RANDOM_DRAWN, GAME_ENDED, ACTIONS_UNDONE)
        for e in command)


def check_undo(command: list[Event], seat: int) -> str | None:
    """Why this seat may not undo this command on its own, or None if it may."""
    first = command[0]
    if first.type == GAME_CREATED:
        return "there is nothing of yours to undo: the game has just been set up"
    if first.cause.get("actor") != seat_actor(seat):
        return "the last action was not yours; undo is only for your own last actions, before anyone else acts"
    if any(e.type == RANDOM_DRAWN for e in command):
        return "that action used chance (a shuffle or a die roll); it cannot be taken back"
    if any(e.reveals for e in command):
        return "that action revealed hidden information; it cannot be taken back"
    return None


def undoable_commands(commands: Sequence[list[Event]], seat: int) -> tuple[list[list[Event]], str]:
    """The seat's own commands it may undo now, newest first, and why the next one back may not be."""
    found: list[list[Event]] = []
    for command in reversed(commands):
        reason = check_undo(command, seat)
        if reason is not None:
            return found, reason
        found.append(command)
    return found, "there is nothing earlier to undo"


def _lost(conflict: ConcurrencyError, last_try: bool, expected_seq: int | None) -> None:
    """A write another one overtook: try again on the new state, or after the last try refuse it.

    :raises StaleCommand: on the last try of a write bound to the seq a page showed.
    :raises ConcurrencyError: on the last try of a write bound to no seq.
    """
    if not last_try:
        return
    if expected_seq is not None:
        raise StaleCommand(conflict.game_id, expected_seq, conflict.actual_seq) from conflict
    raise conflict


_REGISTRIES: dict[tuple[int, ...], EventTypeRegistry] = {}


def _registry(games: tuple[Rules[Any], ...], extra_types: tuple[EventType, ...]) -> EventTypeRegistry:
    """The registry of the kernel's, the extra and the games' event types; built once per set of games."""
    key = tuple(id(x) for x in games + extra_types)
    if key not in _REGISTRIES:
        registry = EventTypeRegistry(list(KERNEL_EVENT_TYPES) + list(extra_types))
        for rules in games:
            for event_type in rules.event_types:
                registry.register(event_type)
        _REGISTRIES[key] = registry
    return _REGISTRIES[key]


class Kernel:
    """The one way anything is written: create a game, run a command, undo."""

    def __init__(self, store: EventStore, games: Mapping[str, Rules[Any]],
                 registry: EventTypeRegistry | None = None, clock: Callable[[], str] = utcnow,
                 extra_types: Sequence[EventType] = ()) -> None:
        self.store = store
        self.games = games
        if registry is None:
            registry = _registry(tuple(games.values()), tuple(extra_types))
        self.registry = registry
        self.data = DataSource(store.game_data)  # a game's data by its digest (``events.gamedata``)
        self.replayer = Replayer(games, registry, self.data)
        self.clock = clock
        self._seeds: dict[str, str] = {}  # a seed never changes once stored
        # called with the new state once a command is recorded: work that needs the command stored, not atomic with it
        self.after_commit: Callable[[GameState[Any]], None] | None = None

    # ---- reading ---------------------------------------------------------------------------

    def load(self, game_id: str, upto_seq: int | None = None) -> GameState[Any]:
        return self.replayer.load(self.store, game_id, upto_seq)

    def rules(self, state: GameState[Any]) -> Rules[Any]:
        return self.replayer.rules_for(state.game_type)

    def seed(self, game_id: str) -> str:
        seed = self._seeds.get(game_id) or self.store.seed(game_id)
        if seed is None:
            raise LookupError(f"no seed stored for game {game_id}")
        self._seeds[game_id] = seed
        return seed

    def recent_commands(self, game_id: str, last_seq: int, window: int = 16) -> list[list[Event]]:
        """The last effective moves, whole, read from a window at the end of the stream.

        Undos and the delivery layer's records (a deadline extended, a pause, a standing order,
        an undo request) are left out: they are not moves, so they neither count as someone
        acting since nor can be undone themselves. Enough for undo, which only ever looks at
        the latest commands of the game. Nothing after ``last_seq`` is read: a command another
        process appended since the state was loaded must not slip into a decision made on it.
        """
        start = max(0, last_seq - window)
        commands = [c for c in group_commands(effective(self.store.read(game_id, start, last_seq)))
                    if c[0].type != ACTIONS_UNDONE and not is_delivery(c)]
        if start > 0:
            commands = commands[1:]  # the first may have begun before the window
            if not commands:
                return self.recent_commands(game_id, last_seq, window * 4)
        return commands

    def last_command_of(self, game_id: str, seat: int, last_seq: int, window: int = 16) -> list[Event] | None:
        """The seat's last effective move: its own action, or one played for it (time-out, standing order).

        Read from a window at the end of the stream, widened until found or the start is reached.
        """
        while True:
            start = max(0, last_seq - window)
            commands = group_commands(effective(self.store.read(game_id, start, last_seq)))
            if start > 0:
                commands = commands[1:]  # the first may have begun before the window
            for command in reversed(commands):
                if command[0].cause.get("seat") == seat and "action" in command[0].cause:
                    return command
            if start == 0:
                return None
            window *= 4

    def moved_on(self, game_id: str, since_seq: int, current_seq: int | None = None) -> bool:
        """Whether anything but delivery records (a deadline, a pause, an undo request) came after ``since_seq``.

        A link issued at ``since_seq`` still fits the game after a pause or an answer to an
        undo request: the position it was issued for has not changed. A move, an undo or an
        event of the rules has changed it.
        """
        current = self.store.last(game_id)[0] if current_seq is None else current_seq
        if since_seq == current:
            return False
        if since_seq > current:
            return True
        return not all(is_delivery(c) for c in group_commands(self.store.read(game_id, since_seq, current)))

    # ---- writing ---------------------------------------------------------------------------

    def _salt_seed(self, before: GameState[Any] | None, game_id: str, drafts: Sequence[NewEvent],
                   seed: str | None) -> str | None:
        """The seed that salts the drafts' hidden payloads; None in a game recorded before salting."""
        if before is not None and not before.salted:
            return None
        if not any(is_hidden(d.visibility) for d in drafts):
            return seed
        return seed or self.seed(game_id)

    def _seal(self, game_id: str, seq: int, prev_hash: str, drafts: Sequence[NewEvent],
              actor: str, cause: Mapping[str, Any], salt_seed: str | None,
              cause_seed: str | None = None) -> list[Event]:
        """Number, validate and hash-chain the drafts of one command.

        A payload some reader may not see enters the hash through a commitment salted from
        ``salt_seed`` (``events.envelope.payload_digest``), so its hash gives nothing away; in a game with cause
        commitments the cause enters in parts salted from ``cause_seed`` (``events.envelope.cause_form``).
        """
        now = self.clock()
        sealed: list[Event] = []
        cause_json = canonical_json(cause)
        for draft in drafts:
            try:
                self.registry.validate(draft.type, draft.payload)
            except ValidationError as err:
                raise ValueError(f"the rules produced an invalid {draft.type} payload: {err.messages}") from err
            seq += 1
            version = self.registry.current_version(draft.type)
            event_actor = draft.actor or actor
            payload_json = canonical_json(draft.payload)
            digest = event_hash(
                game_id=game_id, seq=seq, type=draft.type, version=version,
                payload_digest=payload_text_digest(payload_json, draft.visibility, seq, salt_seed),
                actor=event_actor, visibility=draft.visibility.encode(), reveals=draft.reveals, recorded_at=now,
                cause=cause_form(cause, seq, cause_seed), prev_hash=prev_hash,
            )
            event = Event(game_id, seq, draft.type, version, draft.payload, event_actor, draft.visibility,
                          draft.reveals, now, cause, prev_hash, digest)
            stored_as(event, payload_json, cause_json)
            sealed.append(event)
            prev_hash = digest
        return sealed

    def _commit(self, before: GameState[Any] | None, game_id: str, drafts: list[NewEvent], actor: str,
                cause: Mapping[str, Any], rows: Sequence[Row], hooks: Hooks | None,
                seed: str | None, after: GameState[Any] | None = None) -> CommandResult:
        """Seal, fold, end the game if the rules say so, add the hooks' events and rows, append.

        ``after`` is given when folding the drafts onto ``before`` would not give it (an undo).
        """
        seq, prev_hash = (before.seq, before.last_hash) if before else (0, "0" * 64)
        cause_seed = (seed or self.seed(game_id)) if before is None or before.causes_salted else None
        events = self._seal(game_id, seq, prev_hash, drafts, actor, cause,
                            self._salt_seed(before, game_id, drafts, seed), cause_seed)
        if after is None:
            after = self.replayer.fold(events, before)
        else:
            after = replace(after, seq=events[-1].seq, last_hash=events[-1].hash)
        if not after.ended and seed is not None:
            rules = self.rules(after)
            outcome = rules.outcome(after.game)
            if outcome is not None:
                ended = self._seal(game_id, after.seq, after.last_hash,
                                   [NewEvent(GAME_ENDED, {"seed": seed, "outcome": outcome.to_json()},
                                             actor=SYSTEM)], actor, cause, None, cause_seed)
                after = self.replayer.fold(ended, after)
                events += ended
        extra = list(rows)
        if hooks is not None:
            followers = hooks.follow(before, after, events)
            if followers:
                followers = [replace(f, actor=f.actor or SYSTEM) for f in followers]
                sealed = self._seal(game_id, after.seq, after.last_hash, followers, actor, cause,
                                    self._salt_seed(after, game_id, followers, seed), cause_seed)
                after = self.replayer.fold(sealed, after)
                events += sealed
            extra += hooks.rows(before, after, events)
        self.store.append(game_id, seq, events, extra, self.replayer.snapshot_for(seq, after))
        if self.after_commit is not None:
            self.after_commit(after)
        return CommandResult(before, after, events)

    def record(self, game_id: str, drafts: list[NewEvent], *, actor: str, cause: Cause,
               hooks: Hooks | None = None, expected_seq: int | None = None, exact: bool = True,
               retries: int = 0) -> CommandResult:
        """Append events of the delivery layer (``pbem.*``: deadlines, pauses, standing orders) as a command.

        With ``expected_seq`` (the seq the writer was shown) the write is refused if the game
        moved on since: with ``exact``, if anything at all was recorded since; otherwise only if a
        move or an undo was (``moved_on``). The append expects the seq loaded here, so a write of
        another process in between is caught by the store, never slips by; it is appended again
        up to ``retries`` times (for drafts that hold whatever else was recorded, e.g. a standing
        order), each time checked again.

        :raises StaleCommand: the game moved on since ``expected_seq``, or a concurrent write won
            and no retry was left (when ``expected_seq`` is given).
        :raises ConcurrencyError: a concurrent write won and no ``expected_seq`` was given.
        """
        if not all(d.type.startswith("pbem.") for d in drafts):
            raise ValueError("record() appends pbem.* events only; game events come from decide()")
        for attempt in range(retries + 1):
            state = self.load(game_id)
            self.check_expected(game_id, expected_seq, state.seq, exact=exact)
            command = {"command": uuid.uuid4().hex, "actor": actor, "via": cause.via,
                       **({"text": cause.text} if cause.text is not None else {}), **cause.detail}
            try:
                return self._commit(state, game_id, drafts, actor, command, [], hooks, None)
            except ConcurrencyError as conflict:
                _lost(conflict, attempt == retries, expected_seq)
        raise AssertionError("unreachable")

    def check_expected(self, game_id: str, expected_seq: int | None, current_seq: int, *, exact: bool = False) -> None:
        """Refuse a write issued at ``expected_seq`` if the game moved on since (exactly: if anything came since).

        :raises StaleCommand: with both seqs, for the page that says so.
        """
        if expected_seq is None:
            return
        if expected_seq != current_seq if exact else self.moved_on(game_id, expected_seq, current_seq):
            raise StaleCommand(game_id, expected_seq, current_seq)

    def create(self, game_type: str, seats: Sequence[str], *, options: Mapping[str, Any] | None = None,
               data_override: Mapping[str, Any] | None = None, seed: str | None = None,
               game_id: str | None = None, cause: Cause = Cause("cli"),
               hooks: Hooks | None = None, position: Mapping[str, Any] | None = None) -> CommandResult:
        """Create a game: ``pbem.GameCreated``, the setup draws and the rules' setup events.

        The options recorded are the rules' ``options(chosen)`` where the game checks and completes them
        (``events.rules.RecordsOptions``). With ``position`` the game starts from it (``events.rules.FromPosition``):
        a server-only ``pbem.PositionGiven`` records it, and the rules' ``setup_from`` gives the first events.

        :raises InvalidAction: unknown game type, wrong number of seats, a bad option, a bad data override, or a
            position the game refuses (or a game that takes none).
        """
        rules = self.games.get(game_type)
        if rules is None:
            raise InvalidAction(f"unknown game type {game_type!r}; known: {', '.join(sorted(self.games))}")
        if not rules.min_seats <= len(seats) <= rules.max_seats:
            raise InvalidAction(f"{rules.title} needs {rules.min_seats} to {rules.max_seats} players, "
                                f"not {len(seats)}")
        data = rules.load_data(data_override)
        complete = getattr(rules, "options", None)
        chosen = dict(complete(dict(options or {})) if complete is not None else options or {})
        config = GameConfig(tuple(Seat(i, name) for i, name in enumerate(seats)), chosen, data)
        game_id = game_id or new_game_id()
        seed = seed or new_seed()
        rng = Rng(seed)
        given: list[NewEvent] = []
        if position is None:
            setup = rules.setup(config, rng)
        else:
            setup_from = getattr(rules, "setup_from", None)
            if setup_from is None:
                raise InvalidAction(f"{rules.title} cannot start from a position")
            setup = setup_from(config, position, rng)
            given = [NewEvent(POSITION_GIVEN, {"position": dict(position)}, Visibility.server(), actor=SYSTEM)]
        created = NewEvent(GAME_CREATED, {
            "game_type": game_type, "rules_version": rules.version,
            "seats": [{"name": s.name} for s in config.seats], "options": dict(config.options),
            "data_digest": self.data.add(data), "data_override": dict(data_override) if data_override else None,
            "seed_commitment": seed_commitment(seed), "payload_commitments": SALTED, "cause_commitments": SALTED,
            **({"from_position": True} if position is not None else {}),
        })
        drafts = [created] + given + self._draws(rng) + setup
        command = {"command": uuid.uuid4().hex, "actor": SYSTEM, "via": cause.via, **cause.detail}
        secret = Row("game_secrets", {"game_id": game_id, "seed": seed})
        return self._commit(None, game_id, drafts, SYSTEM, command, [secret, data_row(data)], hooks, seed)

    @staticmethod
    def _draws(rng: Rng) -> list[NewEvent]:
        if not rng.draws:
            return []
        return [NewEvent(RANDOM_DRAWN, {"draws": [d.to_json() for d in rng.draws]}, Visibility.server(),
                         actor=SYSTEM)]

    def execute(self, game_id: str, seat: int, action: Action, *, cause: Cause,
                expected_seq: int | None = None, actor: str | None = None,
                hooks: Hooks | None = None, retries: int = 3, state: GameState[Any] | None = None) -> CommandResult:
        """Decide ``action`` for ``seat`` and append its events.

        With ``expected_seq`` (the seq a link was issued at) a game that moved on
        refuses the command; without it a concurrent append is retried on the new state.
        ``state``, if the caller has just loaded it, saves loading it again.

        :raises StaleCommand: the game moved on since ``expected_seq``.
        :raises InvalidAction, IllegalAction, AmbiguousAction: from the rules.
        """
        if not isinstance(action, Mapping) or not isinstance(action.get("kind"), str):
            raise InvalidAction("an action is an object with a 'kind'")
        for attempt in range(retries + 1):
            if state is None or attempt > 0:
                state = self.load(game_id)
            self.check_expected(game_id, expected_seq, state.seq)
            if state.ended:
                raise IllegalAction("the game is over; nothing more can be played")
            rules = self.rules(state)
            prompts = rules.prompts(state.game)
            if seat not in prompts:
                waiting = ", ".join(state.config.seats[s].name for s in sorted(prompts)) or "nobody"
                raise IllegalAction(f"it is not your turn to act; waiting for {waiting}")
            seed = self.seed(game_id)
            rng = Rng(seed, state.rng_counter)
            produced = rules.decide(state.game, seat, dict(action), rng)
            who = actor or seat_actor(seat)
            command = {"command": uuid.uuid4().hex, "actor": who, "seat": seat, "via": cause.via,
                       "action": dict(action), **({"text": cause.text} if cause.text is not None else {}),
                       **cause.detail}
            try:
                return self._commit(state, game_id, self._draws(rng) + produced, who, command, [],
                                    hooks, seed)
            except ConcurrencyError as conflict:
                _lost(conflict, attempt == retries, expected_seq)
        raise AssertionError("unreachable")

    def preview(self, game_id: str, seat: int, action: Action) -> tuple[GameState[Any], list[NewEvent]] | None:
        """The state an action would lead to, without writing anything; None if it would draw on chance.

        :raises InvalidAction, IllegalAction, AmbiguousAction: as ``execute`` would.
        """
        state = self.load(game_id)
        if state.ended:
            raise IllegalAction("the game is over; nothing more can be played")
        rules = self.rules(state)
        if seat not in rules.prompts(state.game):
            raise IllegalAction("it is not your turn to act")
        try:
            produced = rules.decide(state.game, seat, dict(action), NoRandomness())
        except ChanceNeeded:
            return None
        events = self._seal(game_id, state.seq, state.last_hash, produced, seat_actor(seat), {"preview": True},
                            None)
        return self.replayer.fold(events, state), produced

    def undo(self, game_id: str, seat: int, *, cause: Cause, force: bool = False, actor: str | None = None,
             reason: str = "", hooks: Hooks | None = None, expected_seq: int | None = None,
             retries: int = 3) -> CommandResult:
        """Undo the last effective action.

        Without ``force``, only the seat's own last action, before anyone else acted and
        if it revealed nothing and drew nothing (the horizon). ``force`` (an approved
        request, or the organiser) undoes the last action whoever made it.

        With ``expected_seq`` (the seq of the page the undo was asked from) it is refused if
        any move or undo came since: the player asked to take back what they saw, not what
        landed meanwhile. The append expects the seq loaded here; should another write win
        the race, all is decided again on the new state (and refused if that was a move);
        without ``expected_seq`` the lost race raises ``ConcurrencyError``.

        :raises UndoRefused: beyond the horizon; the message says why.
        :raises StaleCommand: the game moved on since ``expected_seq``.
        """
        for attempt in range(retries + 1):
            state = self.load(game_id)
            self.check_expected(game_id, expected_seq, state.seq)
            if state.ended:
                raise UndoRefused("the game is over; nothing can be undone")
            last = self.recent_commands(game_id, state.seq)[-1]
            if force:
                if last[0].type == GAME_CREATED:
                    raise UndoRefused("there is nothing to undo: the game has just been set up")
            else:
                why = check_undo(last, seat)
                if why is not None:
                    raise UndoRefused(why)
            who = actor or seat_actor(seat)
            command = {"command": uuid.uuid4().hex, "actor": who, "seat": seat, "via": cause.via, **cause.detail}
            payload = {"from_seq": last[0].seq, "to_seq": last[-1].seq, "seat": seat,
                       "reason": reason or ("undone by its player" if not force else "undone by agreement")}
            restored = self.load(game_id, upto_seq=last[0].seq - 1)
            try:
                return self._commit(state, game_id, [NewEvent(ACTIONS_UNDONE, payload)], who, command, [], hooks,
                                    None, after=restored)
            except ConcurrencyError as conflict:
                if expected_seq is None:
                    raise  # without the page's seq, deciding again could take back what nobody asked to
                if attempt == retries:
                    raise StaleCommand(game_id, expected_seq, conflict.actual_seq) from conflict
        raise AssertionError("unreachable")

    def undo_range(self, game_id: str, from_seq: int, to_seq: int, *, seat: int, cause: Cause,
                   actor: str | None = None, reason: str = "", hooks: Hooks | None = None,
                   expected_seq: int | None = None, records_before: Sequence[NewEvent] = (),
                   records_after: Sequence[NewEvent] = ()) -> CommandResult:
        """Take back every effective command from ``from_seq`` to ``to_seq``, whoever made them (an agreed undo).

        ``from_seq`` must begin an effective command and ``to_seq`` end one, and only records of
        the delivery layer may follow ``to_seq``: an undo never takes a move out from under a
        later one. Delivery records inside the range (a pause, a standing order) stay in effect,
        so the range is cut around them: one ``pbem.ActionsUndone`` per stretch of moves. The
        state after is the state before ``from_seq``, its random counter included, so playing
        the same again draws the same dice and cards. ``records_before`` and ``records_after``
        are the delivery layer's events of the same command (the answer that completed an
        agreement, the close of the request), appended around the undo in one transaction.

        :raises UndoRefused: the game is over, or the range is not what is described above.
        :raises StaleCommand: the game moved on since ``expected_seq``.
        """
        state = self.load(game_id)
        self.check_expected(game_id, expected_seq, state.seq, exact=True)
        if state.ended:
            raise UndoRefused("the game is over; nothing can be undone")
        stretches = self._undo_stretches(game_id, from_seq, to_seq, state.seq)
        who = actor or seat_actor(seat)
        command = {"command": uuid.uuid4().hex, "actor": who, "seat": seat, "via": cause.via, **cause.detail}
        undone = [NewEvent(ACTIONS_UNDONE, {"from_seq": first, "to_seq": last, "seat": seat,
                                            "reason": reason or "undone by agreement"})
                  for first, last in stretches]
        restored = self.load(game_id, upto_seq=from_seq - 1)
        return self._commit(state, game_id, [*records_before, *undone, *records_after], who, command, [], hooks,
                            None, after=restored)

    def _undo_stretches(self, game_id: str, from_seq: int, to_seq: int, last_seq: int) -> list[tuple[int, int]]:
        """The seq ranges an undo of ``from_seq``..``to_seq`` takes out: its moves, around delivery records."""
        if not 1 < from_seq <= to_seq <= last_seq:
            raise UndoRefused(f"events {from_seq} to {to_seq} are not a range of this game's moves "
                              f"(it has events 1 to {last_seq}; event 1 and the setup cannot be undone)")
        tail = self.store.read(game_id, from_seq - 2, last_seq)
        if tail[0].command_id is not None and tail[0].command_id == tail[1].command_id:
            raise UndoRefused(f"event {from_seq} is in the middle of a command; undo takes back whole commands")
        if any(e.type == ACTIONS_UNDONE and e.payload["from_seq"] < from_seq for e in tail[1:]):
            raise UndoRefused(f"a later undo reaches back before event {from_seq}")
        skipped = undone_seqs(tail)
        if from_seq in skipped:
            raise UndoRefused(f"event {from_seq} is undone already")
        commands = group_commands([e for e in tail[1:] if e.seq not in skipped])
        if not any(c[-1].seq == to_seq for c in commands):
            raise UndoRefused(f"event {to_seq} does not end a command that counts; undo takes back whole commands")
        later = next((c for c in commands if c[0].seq > to_seq and not is_delivery(c)), None)
        if later is not None:
            raise UndoRefused(f"the game has moved on since: event {later[0].seq} came after event {to_seq}")
        stretches: list[tuple[int, int]] = []
        open_stretch = False
        for command in (c for c in commands if c[-1].seq <= to_seq):
            if is_delivery(command):
                open_stretch = False
            elif open_stretch:
                stretches[-1] = (stretches[-1][0], command[-1].seq)
            else:
                stretches.append((command[0].seq, command[-1].seq))
                open_stretch = True
        if not stretches:
            raise UndoRefused(f"events {from_seq} to {to_seq} hold no move to undo, only records")
        return stretches

    def import_events(self, events: Sequence[Event], rows: Sequence[Row] = ()) -> GameState[Any]:
        """Store a verified record's events as they are (same seqs and hashes)."""
        game_id = events[0].game_id
        state = self.replayer.fold(list(events))
        self.store.append(game_id, 0, list(events), list(rows))
        return state
