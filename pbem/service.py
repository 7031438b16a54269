"""The one entry point that changes anything: create a game, act, undo, import; and the reads over them."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Iterable, Mapping, Sequence

from events import audit
from events.envelope import Event, NewEvent
from events.handling import Cause, CommandResult, Kernel, StaleCommand
from events.replay import CorruptLog, GameNotFound, GameState
from events.rules import Action, InvalidAction, Rules
from events.store import Row
from pbem.bots import pilot
from pbem.errors import GameDamaged, NotFound, ServiceError
from pbem.games import all_games
from pbem.instance import config as config_module
from pbem.instance.database import Store, open_store
from pbem.instance.links import Links
from pbem.instance.players import Player, player_id
from pbem.instance.statecache import StateCache
from pbem.organising import muster, organisers, positions
from pbem.post import held, owed_mail, people, reminders, tables as post_tables, talk_mail, webhooks
from pbem.post.notify import Notifier
from pbem.proof import explain, logbook, records, replay as replay_module, shown
from pbem.table import botseats, deadlines, naming, orders, readmodels, seatlife, talk, undo_requests
from pbem.table.delivery import DELIVERY_EVENT_TYPES, WEBHOOK_EVENT_TYPES

_READY: set[str] = set()  # the databases whose tables this process made


def create_tables(store: Store) -> None:
    """Every table of the delivery layer (the events' own belong to the store), once per process and database."""
    if store.name not in _READY:
        with store.schema():  # in one transaction: one commit for a new database's every table
            readmodels.create_tables(store)
            post_tables.create_tables(store)
            muster.create_tables(store)
            organisers.create_tables(store)
        _READY.add(store.name)


class Service:
    """pbem over one database (SQLite or PostgreSQL, ``pbem.instance.database``): every change goes through here."""

    def __init__(self, store: Store, games: Mapping[str, Rules[Any]] | None = None, *,
                 notifier: Notifier | None = None, turn_hours: float = 72.0, interrupt_hours: float = 24.0,
                 reminders: Sequence[float] = (0.5, 0.9), undo_request_hours: float = 24.0) -> None:
        self.store = store
        self.kernel = Kernel(store, games if games is not None else all_games(),
                             extra_types=DELIVERY_EVENT_TYPES + talk.TALK_EVENT_TYPES + muster.MUSTER_EVENT_TYPES
                             + seatlife.SEAT_EVENT_TYPES + WEBHOOK_EVENT_TYPES)
        self.notifier = notifier
        self.turn_hours = turn_hours
        self.interrupt_hours = interrupt_hours
        self.reminders = sorted(float(r) for r in reminders)
        self.undo_request_hours = undo_request_hours
        self.states = StateCache()  # the latest states loaded, each used only while the store ends where it does
        self.pilot = pilot.autopilot_move  # a seat on autopilot is played by its game's bot (``pbem.bots.pilot``)
        self.settings: config_module.Settings | None = None  # the instance's, when opened from them (``open``)
        self.defer_mail = False  # True: a command's mails are composed by the worker, not after it (``pbem.post.owed_mail``)
        self._owing: set[str] = set()  # games whose last command owes mails
        self.kernel.after_commit = self.committed
        create_tables(store)

    @classmethod
    def open(cls, settings: config_module.Settings, games: Mapping[str, Rules[Any]] | None = None) -> Service:
        """The service of an instance; mails are composed when the instance has a secret key."""
        store = open_store(settings)
        notifier = None
        if settings["secret_key"]:
            notifier = Notifier.of(settings, Links(settings.secret_keys, int(float(settings["link_days"]) * 86_400)))
        service = cls(store, games, notifier=notifier, turn_hours=float(settings["turn_hours"]),
                      interrupt_hours=float(settings["interrupt_hours"]), reminders=settings["reminders"],
                      undo_request_hours=float(settings["undo_request_hours"]))
        service.settings = settings
        return service

    def close(self) -> None:
        self.store.close()

    def follow(self, before: GameState[Any] | None, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
        """What a command leads to: deadlines, an undo request lapsed, autopilot (``pbem.table.readmodels``)."""
        return readmodels.follow(self, before, after, events)

    def rows(self, before: GameState[Any] | None, after: GameState[Any], events: list[Event],
             players: list[dict[str, Any]] | None = None) -> list[Row]:
        """The read models the command changes and the mails it causes."""
        self.states.keep(after)  # the next read of the game starts from here, if the store then ends here
        players = self.players(after.game_id) if players is None else players
        rows = readmodels.rows(self, self.reminders, after, events, players)
        if self.notifier is not None and players:
            mails = self.notifier.for_command(self, before, after, events, players)
            if any(r.table == "mail_owed" for r in mails):
                self._owing.add(after.game_id)
            rows += mails
        return rows

    def committed(self, after: GameState[Any]) -> None:
        """Once a command is recorded: the mails it owes, composed now unless the worker composes them."""
        if after.game_id in self._owing:
            self._owing.discard(after.game_id)
            if not self.defer_mail:
                owed_mail.write(self, game_id=after.game_id, state=after)

    def write_owed_mail(self, now: datetime | None = None) -> int:
        """Compose every owed mail, then those held for players who left a decision waiting (``pbem.post.held``)
        and the talk mails due (``pbem.post.talk_mail``), and put them in the outbox (the worker, before it sends);
        how many were."""
        return owed_mail.write(self) + held.release(self, now) + talk_mail.release(self, now)

    def create_game(self, game_type: str, players: Sequence[Player], *, seed: str | None = None,
                    options: Mapping[str, Any] | None = None, data_override: Mapping[str, Any] | None = None,
                    cause: Cause = Cause("cli"), game_id: str | None = None,
                    organiser: str | None = None, position: Mapping[str, Any] | None = None,
                    title: str | None = None) -> CommandResult:
        """Create a game; ``title`` names it (``pbem.table.naming``: by default after the game and its players);
        ``position``: begun from it (checked by the game), not from a new deal; the ``bots`` option's seats come
        after ``players`` (``pbem.table.botseats``).

        :raises ServiceError: two players with one address, a name that is not one line of plain words, bad bots.
        """
        players = botseats.seated(players, options)
        emails = [p.email for p in players]
        if len(set(emails)) != len(emails):
            raise ServiceError("each player must have a different email address")
        rules = self.kernel.games.get(game_type)
        options = naming.named(self.store, game_type, title, rules.title if rules is not None else None,
                               [p.name for p in players], options)
        return self.kernel.create(game_type, [p.name for p in players], options=options,
                                  data_override=data_override, seed=seed, game_id=game_id, cause=cause,
                                  hooks=readmodels.WithSeats(self, players, organiser), position=position)

    def position(self, game_id: str, at: int | None = None) -> str:
        """The whole position after event ``at`` as TOML, every secret in it (``pbem.organising.positions``)."""
        return positions.written(self, game_id, at)

    def act(self, game_id: str, email: str, command: str | Action, *, cause: Cause,
            expected_seq: int | None = None) -> CommandResult:
        """Apply a text command or a structured action for the player with this email."""
        return self.act_as(game_id, self.seat_of(game_id, email), command, cause=cause, expected_seq=expected_seq)

    def act_as(self, game_id: str, seat: int, command: str | Action, *, cause: Cause,
               expected_seq: int | None = None) -> CommandResult:
        """Apply a text command or a structured action for a seat (a link names the seat, not the email)."""
        state = self.load(game_id)
        self.kernel.check_expected(game_id, expected_seq, state.seq)  # a lost race is stale before the text is read
        rules = self.kernel.rules(state)
        if isinstance(command, str):
            action = rules.parse(state.game, command)
            cause = Cause(cause.via, cause.detail, command)
        else:
            action = command
        seatlife.check_may_act(self.store, game_id, seat)
        result = self.kernel.execute(game_id, seat, action, cause=cause, expected_seq=expected_seq, hooks=self,
                                     state=state)
        self.apply_standing_orders(game_id)
        return result

    def apply_standing_orders(self, game_id: str, limit: int = 20) -> list[CommandResult]:
        """Answer out-of-turn prompts that a player's standing order covers, without a round trip."""
        return orders.apply(self, game_id, limit)

    def set_standing_order(self, game_id: str, seat: int, topic: str, answer: str, *, cause: Cause,
                           expected_seq: int | None = None) -> CommandResult:
        """Record a standing answer (always / never / ask) to one kind of out-of-turn prompt (``pbem.table.orders``)."""
        result = orders.set_order(self, game_id, seat, topic, answer, cause=cause, expected_seq=expected_seq)
        self.apply_standing_orders(game_id)
        return result

    def due_deadlines(self, now: datetime) -> list[dict[str, Any]]:
        return deadlines.due(self.store, now)

    def time_out(self, game_id: str, seat: int, now: datetime | None = None) -> CommandResult | None:
        """Play the prompt's default action for a seat whose deadline passed; None if it no longer applies."""
        result = deadlines.time_out(self, game_id, seat, now or datetime.now(timezone.utc))
        if result is not None:
            self.apply_standing_orders(game_id)
        return result

    def remind(self, game_id: str, seat: int) -> None:
        """Remind this seat of its running deadline now: count it and write its mail (``pbem.post.reminders``)."""
        if reminders.count_due(self.store, self.reminders, datetime.now(timezone.utc), game_id=game_id, seat=seat):
            reminders.write_owed(self)

    def remind_due(self, now: datetime) -> int:
        """Count every reminder due at ``now`` and mark its mail owed, in one statement; returns how many."""
        return reminders.count_due(self.store, self.reminders, now)

    def write_reminders(self) -> int:
        """Compose and queue the owed reminder mails (the games as they stand), ready to send."""
        return reminders.write_owed(self)

    def pause(self, game_id: str, reason: str, *, cause: Cause, expected_seq: int | None = None) -> CommandResult:
        """Pause a game; with ``expected_seq``, refused if anything was recorded since (so for resume, extend)."""
        return deadlines.pause(self, game_id, reason, cause=cause, expected_seq=expected_seq)

    def resume(self, game_id: str, reason: str, *, cause: Cause, expected_seq: int | None = None) -> CommandResult:
        """Resume a paused game; every running deadline moves on by the length of the pause."""
        return deadlines.resume(self, game_id, reason, cause=cause, expected_seq=expected_seq)

    def extend(self, game_id: str, hours: float, reason: str, *, cause: Cause, seat: int | None = None,
               expected_seq: int | None = None) -> CommandResult:
        """Move the deadlines of the game (or of one seat) later by some hours."""
        return deadlines.extend(self, game_id, hours, reason, cause=cause, seat=seat, expected_seq=expected_seq)

    def say(self, game_id: str, seat: int, said: talk.Talk, *, cause: Cause) -> CommandResult:
        """A message to the table or to chosen players, or a note (``pbem.table.talk``)."""
        return talk.record(self, game_id, seat, said, cause=cause)

    def declare_absence(self, game_id: str, seat: int, starts: Any, until: Any, reason: str = "",
                        share: bool = False, *, cause: Cause, now: datetime | None = None) -> CommandResult:
        """Declare an absence of the seat's player; the game's vacation policy says what it does."""
        return seatlife.away.declare(self, game_id, seat, starts, until, reason, share, cause=cause, now=now)

    def seat_command(self, game_id: str, seat: int, what: str, *, cause: Cause) -> CommandResult:
        """A player's ``back`` (from an absence), ``take-back`` (off autopilot) or ``resign``."""
        return seatlife.seat_command(self, game_id, seat, what, cause=cause)

    def replace(self, game_id: str, seat: int, player: Player, *, cause: Cause,
                expected_seq: int | None = None) -> CommandResult:
        """Give a seat to another player (``pbem.table.replacing``): the old holder's links stop working."""
        return seatlife.replacing.replace(self, game_id, seat, player, cause=cause, expected_seq=expected_seq)

    def add_webhook(self, owner: tuple[str, str], url: str, kind: str | None, policy: webhooks.Policy,
                    **how: Any) -> webhooks.Added:
        """A webhook for ``("game", game_id)`` or ``("player", email)`` (``pbem.post.webhooks``)."""
        return webhooks.add(self, owner, url, kind, policy, **how)

    def remove_webhook(self, owner: tuple[str, str], webhook_id: str, **how: Any) -> CommandResult | None:
        return webhooks.remove(self, owner, webhook_id, **how)

    def undo(self, game_id: str, email: str, *, cause: Cause, expected_seq: int | None = None) -> CommandResult:
        seat = self.seat_of(game_id, email)
        return self.kernel.undo(game_id, seat, cause=cause, hooks=self, expected_seq=expected_seq)

    def request_undo(self, game_id: str, seat: int, reason: str, *, cause: Cause,
                     expected_seq: int | None = None) -> CommandResult:
        """Ask the other players to agree to take back the seat's last move and everything after it."""
        return undo_requests.request_undo(self, game_id, seat, reason, cause=cause, expected_seq=expected_seq)

    def answer_undo(self, game_id: str, request: str, seat: int, answer: str, *, cause: Cause,
                    expected_seq: int | None = None) -> CommandResult:
        """An asked player approves or refuses; the last approval applies the undo in the same command."""
        return undo_requests.answer(self, game_id, request, seat, answer, cause=cause, expected_seq=expected_seq)

    def decide_undo(self, game_id: str, request: str, answer: str, reason: str, *, cause: Cause,
                    expected_seq: int | None = None) -> CommandResult:
        """The organiser approves or refuses an open request for the players."""
        return undo_requests.decide(self, game_id, request, answer, reason, cause=cause, expected_seq=expected_seq)

    def due_undo_requests(self, now: datetime) -> list[dict[str, Any]]:
        """Open requests past their deadline: ``{game_id, request}``."""
        return undo_requests.due(self.store, now)

    def expire_undo_request(self, game_id: str, request: str, now: datetime | None = None) -> CommandResult | None:
        """Close a request past its deadline as refused (expired); None if it no longer applies."""
        return undo_requests.expire(self, game_id, request, now or datetime.now(timezone.utc))

    def undo_request(self, game_id: str, request: str | None = None) -> undo_requests.Request | None:
        """One request of the game by id, or (without an id) the open one."""
        if request is None:
            return undo_requests.open_request(self.store, game_id)
        return undo_requests.find(self.store, game_id, request)

    def can_request_undo(self, game_id: str, seat: int) -> tuple[bool, str]:
        """Whether the seat may ask the others to take back its last move now, and if not, why."""
        command, why = undo_requests.requestable(self, self.load(game_id), seat)
        return command is not None, why

    def seat_of(self, game_id: str, email: str) -> int:
        """The seat of the player with this address; refused if there is no such game, or they do not play in it."""
        return readmodels.seat_of(self.store, game_id, email)

    def link_seat(self, game_id: str, seat: int, issued_seq: int) -> dict[str, Any]:
        """The seat a play link names, as the game stands now (``pbem.table.readmodels.link_seat``)."""
        return readmodels.link_seat(self, game_id, seat, issued_seq)

    def seat_view(self, game_id: str, seat: int) -> dict[str, Any]:
        """What a player's page or the API shows them now: the game, their prompt, legal actions and deadline."""
        return shown.seat_view(self, game_id, seat)

    def load(self, game_id: str, upto_seq: int | None = None) -> GameState[Any]:
        """The game's state; a record that no longer replays is refused as damaged, never half-shown."""
        if muster.is_muster(game_id):  # a muster's stream is no game: `pbem muster show` reads it
            raise NotFound(f"there is no game {game_id!r}; it is a game being mustered (`pbem muster show`)")
        try:
            if upto_seq is None:
                return self.states.latest(self.store, game_id, lambda: self.kernel.load(game_id),
                                          lambda cached: self.kernel.replayer.advance(self.store, cached))
            return self.kernel.load(game_id, upto_seq)
        except GameNotFound:
            raise ServiceError(f"there is no game {game_id!r}; `pbem game list` shows the games") from None
        except CorruptLog as err:
            raise GameDamaged(game_id, str(err)) from err

    def list_games(self) -> list[dict[str, Any]]:
        return readmodels.games(self.store)

    def players(self, game_id: str) -> list[dict[str, Any]]:
        return readmodels.players(self.store, game_id)

    @staticmethod
    def player_id(email: str) -> str:
        return player_id(email)

    def games_of(self, pid: str, limit: int = -1, offset: int = 0) -> list[dict[str, Any]]:
        """The player's games, those waiting for them first (``pbem.post.people.games_of``)."""
        return people.games_of(self.store, pid, limit, offset)

    def count_games_of(self, pid: str) -> tuple[int, int]:
        """How many games the player has, and in how many a decision waits for them."""
        return people.count_games_of(self.store, pid)

    def legal_texts(self, state: GameState[Any], seat: int, limit: int | None = None) -> list[str]:
        """The seat's legal commands as it would type them (the first ``limit`` of them)."""
        rules = self.kernel.rules(state)
        return [rules.format(state.game, a) for a in rules.legal_actions(state.game, seat)[:limit]]

    def deadline_of(self, game_id: str, seat: int) -> str | None:
        return deadlines.due_at(self.store, game_id, seat)

    def show(self, game_id: str, email: str | None = None) -> dict[str, Any]:
        """The game as one reader may see it: a player's private view, or the public one (``pbem.proof.shown``)."""
        return shown.show(self, game_id, self.seat_of(game_id, email) if email else None)

    def show_seat(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """The game as the reader at ``seat`` may see it (None: a spectator)."""
        return shown.show(self, game_id, seat)

    def headline(self, state: GameState[Any], seat: int | None) -> dict[str, Any]:
        """What a receipt page says of the game at ``state``: where it stands and whom it waits for, not the board."""
        return shown.headline(self, state, seat)

    def legal(self, game_id: str, email: str) -> list[dict[str, Any]]:
        """Every legal action of the player now: its text command and its structured form."""
        return shown.legal(self, game_id, self.seat_of(game_id, email))

    def log(self, game_id: str, email: str | None = None, after_seq: int = 0,
            upto_seq: int | None = None) -> list[dict[str, Any]]:
        """The events (all, or a window) as the reader may see them, each with a line in words (``pbem.proof.logbook``)."""
        return logbook.log(self, game_id, self.seat_of(game_id, email) if email else None, after_seq, upto_seq,
                           email=email)

    def last_acted(self, game_id: str, seat: int) -> int:
        """The seq of the last event this seat's own command recorded (0: none yet)."""
        return logbook.last_acted(self.store, game_id, seat)

    @staticmethod
    def describe_event(rules: Rules[Any], event: Event, seat: int | None, ended: bool, names: list[str]) -> str:
        """One event in words, as this reader may read it."""
        return logbook.describe_event(rules, event, seat, ended, names)

    def replay(self, game_id: str, at: int | None = None, *, seat: int | None = None, everything: bool = False,
               with_undone: bool = False) -> dict[str, Any]:
        """The game at move ``at`` as a seat, a spectator, or (after the end) everyone saw it (``pbem.proof.replay``)."""
        return replay_module.replay_for(self.store, self.kernel, game_id, at, seat, everything, with_undone)

    def timeline_ended(self, game_id: str) -> bool:
        return replay_module.timeline(self.store, self.kernel.replayer, game_id).states[-1].ended

    def verify(self, game_id: str, witnesses: Sequence[audit.Witness] = (),
               progress: audit.Progress | None = None) -> audit.Verification:
        """Every check of ``events.audit.verify``, the delivery layer's own, and the chain heads players hold;
        ``progress(done, total)`` as its commands are checked."""
        if not self.store.last(game_id)[0] or muster.is_muster(game_id):
            raise NotFound(f"there is no game {game_id!r}; `pbem game list` shows the games")
        try:
            secret: str | None = self.kernel.seed(game_id)
        except LookupError:  # the server's seed is gone: what it hid cannot be opened, and the report says where
            secret = None
        return audit.verify_stored(self.kernel.replayer, self.store, game_id, secret=secret,
                                   witnesses=witnesses, command_check=seatlife.check_command,
                                   **({"progress": progress} if progress else {}))

    def audit(self, game_id: str, seq: int, *, reader: int | None = None, organiser: bool = True,
              email: str | None = None) -> dict[str, Any]:
        """One event explained for the organiser, or for the player at ``reader`` (``pbem.proof.explain``)."""
        return explain.explain(self, game_id, seq, reader=reader, organiser=organiser, email=email)

    def export(self, game_id: str, *, with_secrets: bool = False) -> Iterable[str]:
        """The game record as JSON lines: a header, then every event (``docs/record-format.md``)."""
        state = self.load(game_id)
        return records.export(self.store, state, self.players(game_id) if with_secrets else None,
                              self.kernel.seed(game_id), with_secrets=with_secrets)

    def import_record(self, lines: Iterable[str], players: Sequence[Player] = ()) -> GameState[Any]:
        """Load a record, verify it whole, and store it; nothing is stored if any check fails."""
        return records.import_record(self, lines, players)


__all__ = ["Service", "ServiceError", "Player", "StaleCommand", "InvalidAction"]
