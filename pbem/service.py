"""The one entry point that changes anything: create a game, act, undo, import; and the reads over them."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping, Sequence

from events import audit
from events.envelope import Event, NewEvent, actor_seat, seat_actor
from events.handling import Cause, CommandResult, Kernel, StaleCommand, undoable_commands
from events.replay import CorruptLog, GameNotFound, GameState
from events.rules import Action, InvalidAction, Rules
from events.gamedata import data_row
from events.schema import GAME_CREATED, GAME_ENDED
from events.store import Row
from pbem import config as config_module
from pbem import deadlines, logbook, muster, owed_mail, records, reliability, reminders, talk
from pbem import replay as replay_module
from pbem import seatlife, undo_requests, webhooks
from pbem.delivery import (DELIVERY_EVENT_TYPES, GAME_PAUSED, GAME_RESUMED, STANDING_ANSWERS, STANDING_ORDER_SET,
                           waiting_for)
from pbem.database import Store, open_store
from pbem.errors import GameDamaged, NotFound, ServiceError
from pbem.games import all_games
from pbem.links import Links
from pbem.mail.addresses import check_address
from pbem.notify import Notifier
from pbem.statecache import StateCache
from pbem.tables import create_tables

@dataclass(frozen=True)
class Player:
    email: str
    name: str

    @classmethod
    def parse(cls, text: str) -> Player:
        """``alice@example.org`` or ``Alice Liddell <alice@example.org>``."""
        text = text.strip()
        match = re.fullmatch(r"(.*?)\s*<([^<>]+)>", text)
        name, email = (match.group(1).strip(), match.group(2).strip()) if match else ("", text)
        email = check_address(email)
        return cls(email, name or email.split("@")[0])


class Service:
    """pbem over one database (SQLite or PostgreSQL, ``pbem.database``): every change goes through here."""

    def __init__(self, store: Store, games: Mapping[str, Rules[Any]] | None = None, *,
                 notifier: Notifier | None = None, turn_hours: float = 72.0, interrupt_hours: float = 24.0,
                 reminders: Sequence[float] = (0.5, 0.9), undo_request_hours: float = 24.0) -> None:
        self.store = store
        self.kernel = Kernel(store, games if games is not None else all_games(),
                             extra_types=DELIVERY_EVENT_TYPES + talk.TALK_EVENT_TYPES + muster.MUSTER_EVENT_TYPES
                             + seatlife.SEAT_EVENT_TYPES + webhooks.EVENT_TYPES)
        self.notifier = notifier
        self.turn_hours = turn_hours
        self.interrupt_hours = interrupt_hours
        self.reminders = sorted(float(r) for r in reminders)
        self.undo_request_hours = undo_request_hours
        self.states = StateCache()  # the latest states loaded, each used only while the store ends where it does
        self.settings: config_module.Settings | None = None  # the instance's, when opened from them (``open``)
        self.defer_mail = False  # True: a command's mails are composed by the worker, not after it (``pbem.owed_mail``)
        self._owing: set[str] = set()  # games whose last command owes mails
        self.kernel.after_commit = self.committed
        create_tables(store)

    @classmethod
    def open(cls, settings: config_module.Settings, games: Mapping[str, Rules[Any]] | None = None) -> Service:
        """The service of an instance; mails are composed when the instance has a secret key."""
        store = open_store(settings)
        notifier = None
        if settings["secret_key"]:
            links = Links(settings.secret_keys, int(float(settings["link_days"]) * 86_400))
            notifier = Notifier(links, base_url=str(settings["base_url"]),
                                sender=str(settings["mail_from"]), reply_address=str(settings["reply_address"]),
                                timezone=str(settings["timezone"]))
        service = cls(store, games, notifier=notifier, turn_hours=float(settings["turn_hours"]),
                      interrupt_hours=float(settings["interrupt_hours"]), reminders=settings["reminders"],
                      undo_request_hours=float(settings["undo_request_hours"]))
        service.settings = settings
        return service

    def close(self) -> None:
        self.store.close()

    # ---- what every command adds, in its own transaction -----------------------------------

    def follow(self, before: GameState[Any] | None, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
        """A deadline for every seat newly prompted; the close of an undo request that a move overtook."""
        return (self.deadlines_for(before, after, events) + undo_requests.lapse(self, events)
                + seatlife.follow(self, after, events))

    def deadlines_for(self, before: GameState[Any] | None, after: GameState[Any],
                      events: list[Event]) -> list[NewEvent]:
        """A deadline for every seat newly prompted (its turn, or an out-of-turn decision)."""
        return seatlife.adjust(self.store, after.game_id, deadlines.issued(self, before, after, events))

    def rows(self, before: GameState[Any] | None, after: GameState[Any], events: list[Event],
             players: list[dict[str, Any]] | None = None) -> list[Row]:
        """The read models (games, deadlines, standing orders) and the mails the command causes."""
        self.states.keep(after)  # the next read of the game starts from here, if the store then ends here
        rules = self.kernel.rules(after)
        game_id = after.game_id
        values: dict[str, Any] = {"game_id": game_id, "game_type": after.game_type, "title": rules.title,
                                  "status": "ended" if after.ended else "running", "seats": len(after.config.seats),
                                  "last_seq": after.seq, "updated_at": events[-1].recorded_at}
        if events[0].type == GAME_CREATED:
            values["created_at"] = events[0].recorded_at
        for event in events:
            if event.type == GAME_PAUSED:
                values["paused_at"] = event.recorded_at
            elif event.type == GAME_RESUMED:
                values["paused_at"] = None
        players = self.players(game_id) if players is None else players
        rows = [Row("games", values, pk=("game_id",))] + reliability.rows(self.store, game_id, events, players)
        prompted = set(rules.prompts(after.game)) if not after.ended else set()
        for seat in range(len(after.config.seats)):
            if seat not in prompted:
                rows.append(Row("deadlines", {"game_id": game_id, "seat": seat}, delete=True))
        rows += deadlines.rows(self.store, self.reminders, game_id, after.seq, events)
        for event in events:
            p = event.payload
            if event.type == STANDING_ORDER_SET:
                rows.append(Row("standing_orders", {"game_id": game_id, "seat": p["seat"], "topic": p["topic"],
                                                    "answer": p["answer"]}, pk=("game_id", "seat", "topic")))
        rows += undo_requests.rows(game_id, events) + seatlife.rows(self, after, events)
        if self.notifier is not None and players:
            mails = self.notifier.for_command(self, before, after, events, players)
            if any(r.table == "mail_owed" for r in mails):
                self._owing.add(game_id)
            rows += mails
        return rows

    def committed(self, after: GameState[Any]) -> None:
        """Once a command is recorded: the mails it owes, composed now unless the worker composes them."""
        if after.game_id in self._owing:
            self._owing.discard(after.game_id)
            if not self.defer_mail:
                owed_mail.write(self, game_id=after.game_id, state=after)

    def write_owed_mail(self) -> int:
        """Compose every owed mail and put it in the outbox (the worker, before it sends); how many were."""
        return owed_mail.write(self)

    # ---- commands --------------------------------------------------------------------------

    def create_game(self, game_type: str, players: Sequence[Player], *, seed: str | None = None,
                    options: Mapping[str, Any] | None = None, data_override: Mapping[str, Any] | None = None,
                    cause: Cause = Cause("cli"), game_id: str | None = None,
                    organiser: str | None = None) -> CommandResult:
        emails = [p.email for p in players]
        if len(set(emails)) != len(emails):
            raise ServiceError("each player must have a different email address")

        service = self

        class WithSeats:
            def follow(self, before: Any, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
                return service.follow(before, after, events)

            def rows(self, before: Any, after: GameState[Any], events: list[Event]) -> list[Row]:
                table = [{"seat": i, "email": p.email, "name": p.name, "mail": 1} for i, p in enumerate(players)]
                seats = [Row("seats", {"game_id": after.game_id, **row}) for row in table]
                if organiser is not None:
                    seats.append(Row("games", {"game_id": after.game_id, "organiser": organiser}, pk=("game_id",)))
                seats += [Row("players", {"email": p.email, "player_id": player_id(p.email), "name": p.name},
                              pk=("email",)) for p in players]
                return seats + service.rows(before, after, events, table)

        return self.kernel.create(game_type, [p.name for p in players], options=options,
                                  data_override=data_override, seed=seed, game_id=game_id, cause=cause,
                                  hooks=WithSeats())

    def act(self, game_id: str, email: str, command: str | Action, *, cause: Cause,
            expected_seq: int | None = None) -> CommandResult:
        """Apply a text command or a structured action for the player with this email."""
        return self.act_as(game_id, self.seat_of(game_id, email), command, cause=cause, expected_seq=expected_seq)

    def parse(self, game_id: str, text: str) -> Action:
        state = self.load(game_id)
        return self.kernel.rules(state).parse(state.game, text)

    def act_as(self, game_id: str, seat: int, command: str | Action, *, cause: Cause,
               expected_seq: int | None = None) -> CommandResult:
        """Apply a text command or a structured action for a seat (a link names the seat, not the email)."""
        state = self.load(game_id)
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

    # ---- deadlines, pauses, standing orders --------------------------------------------------

    def apply_standing_orders(self, game_id: str, limit: int = 20) -> list[CommandResult]:
        """Answer out-of-turn prompts that a player's standing order covers, without a round trip."""
        done: list[CommandResult] = []
        orders = {(r["seat"], r["topic"]): r["answer"] for r in self.store.query(
            "SELECT seat, topic, answer FROM standing_orders WHERE game_id = ? AND answer != 'ask'", (game_id,))}
        if not orders:
            return done
        for _ in range(limit):
            state = self.load(game_id)
            if state.ended:
                break
            answer = None
            for seat, prompt in sorted(self.kernel.rules(state).prompts(state.game).items()):
                order = orders.get((seat, prompt.topic)) if prompt.topic else None
                choice = {"always": "use", "never": "decline"}.get(order or "")
                if choice and choice in prompt.answers:
                    answer = (seat, prompt.answers[choice], order)
                    break
            if answer is None:
                break
            seat, action, order = answer
            try:
                done.append(self.kernel.execute(game_id, seat, action, expected_seq=state.seq, hooks=self,
                                                cause=Cause("standing-order", {"order": order})))
            except StaleCommand:
                break  # another command came first; whoever wrote it applies the orders after it
        return done

    def set_standing_order(self, game_id: str, seat: int, topic: str, answer: str, *, cause: Cause,
                           expected_seq: int | None = None) -> CommandResult:
        """Record a standing answer (always / never / ask) to one kind of out-of-turn prompt.

        With ``expected_seq``, refused if a move or an undo came since (other records do not matter).
        """
        if answer not in STANDING_ANSWERS:
            raise ServiceError(f"a standing order is one of {', '.join(STANDING_ANSWERS)}, not {answer!r}")
        result = self.kernel.record(game_id, [NewEvent(STANDING_ORDER_SET, {"seat": seat, "topic": topic,
                                                                            "answer": answer})],
                                    actor=seat_actor(seat), cause=cause, hooks=self, expected_seq=expected_seq,
                                    exact=False, retries=3)
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

    def reminders_due(self, now: datetime) -> list[dict[str, Any]]:
        """Deadlines whose next reminder (a fraction of the time allowed) has come."""
        return deadlines.reminders_due(self.store, self.reminders, now)

    def remind(self, game_id: str, seat: int) -> None:
        """Remind this seat of its running deadline now: count it and write its mail (``pbem.reminders``)."""
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
        """A message to the table or to chosen players, or a note (``pbem.talk``)."""
        return talk.record(self, game_id, seat, said, cause=cause)

    # ---- a seat's life: away, autopilot, resigning, replacing (pbem/seatlife.py) -------------

    def declare_absence(self, game_id: str, seat: int, starts: Any, until: Any, reason: str = "",
                        share: bool = False, *, cause: Cause, now: datetime | None = None) -> CommandResult:
        """Declare an absence of the seat's player; the game's vacation policy says what it does."""
        return seatlife.away.declare(self, game_id, seat, starts, until, reason, share, cause=cause, now=now)

    def seat_command(self, game_id: str, seat: int, what: str, *, cause: Cause) -> CommandResult:
        """A player's ``back`` (from an absence), ``take-back`` (off autopilot) or ``resign``."""
        return seatlife.seat_command(self, game_id, seat, what, cause=cause)

    def replace(self, game_id: str, seat: int, player: Player, *, cause: Cause,
                expected_seq: int | None = None) -> CommandResult:
        """Give a seat to another player (``pbem.replacing``): the old holder's links stop working."""
        return seatlife.replacing.replace(self, game_id, seat, player, cause=cause, expected_seq=expected_seq)

    # ---- webhooks (pbem/webhooks.py) ----------------------------------------------------------

    def add_webhook(self, owner: tuple[str, str], url: str, kind: str | None, policy: webhooks.Policy,
                    **how: Any) -> webhooks.Added:
        """A webhook for ``("game", game_id)`` or ``("player", email)`` (``pbem.webhooks``)."""
        return webhooks.add(self, owner, url, kind, policy, **how)

    def remove_webhook(self, owner: tuple[str, str], webhook_id: str, **how: Any) -> CommandResult | None:
        return webhooks.remove(self, owner, webhook_id, **how)

    def undo(self, game_id: str, email: str, *, cause: Cause, expected_seq: int | None = None) -> CommandResult:
        seat = self.seat_of(game_id, email)
        return self.kernel.undo(game_id, seat, cause=cause, hooks=self, expected_seq=expected_seq)

    # ---- undo beyond the horizon: requests (pbem/undo_requests.py) ---------------------------

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

    # ---- reads -----------------------------------------------------------------------------

    def seat_of(self, game_id: str, email: str) -> int:
        if not self.store.last(game_id)[0]:  # a cheap existence check: no need to load the game
            raise ServiceError(f"there is no game {game_id!r}; `pbem game list` shows the games")
        rows = self.store.query("SELECT seat FROM seats WHERE game_id = ? AND email = ?",
                                (game_id, email.strip().lower()))
        if not rows:
            raise ServiceError(f"{email} is not playing in game {game_id}")
        return int(rows[0]["seat"])

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
        return self.store.query("SELECT game_id, game_type, title, status, seats, last_seq, created_at, "
                                "updated_at FROM games ORDER BY created_at, game_id")

    def players(self, game_id: str) -> list[dict[str, Any]]:
        return self.store.query("SELECT seat, email, name, mail FROM seats WHERE game_id = ? ORDER BY seat",
                                (game_id,))

    @staticmethod
    def player_id(email: str) -> str:
        return player_id(email)

    _GAMES_OF = ("FROM players p JOIN seats s ON s.email = p.email JOIN games g ON g.game_id = s.game_id "
                 "LEFT JOIN deadlines d ON d.game_id = s.game_id AND d.seat = s.seat WHERE p.player_id = ?")

    def games_of(self, pid: str, limit: int = -1, offset: int = 0) -> list[dict[str, Any]]:
        """The games of the player with this id: those waiting for them first (soonest deadline first), then the
        others, newest activity first; ``limit`` of them from ``offset`` (a page), or all."""
        return self.store.query(
            "SELECT g.game_id, g.title, g.status, g.last_seq, g.updated_at, s.seat, s.name, s.email, d.due_at, d.kind "
            f"{self._GAMES_OF} ORDER BY d.due_at IS NULL, d.due_at, g.updated_at DESC, g.game_id"
            + (" LIMIT ? OFFSET ?" if limit >= 0 else " LIMIT 1000000000 OFFSET ?"),  # no LIMIT -1 on PostgreSQL
            (pid, limit, offset) if limit >= 0 else (pid, offset))

    def count_games_of(self, pid: str) -> tuple[int, int]:
        """How many games the player has, and in how many a decision waits for them."""
        row = self.store.query(f"SELECT count(*) AS n, count(d.due_at) AS waiting {self._GAMES_OF}", (pid,))[0]
        return int(row["n"]), int(row["waiting"] or 0)

    def legal_texts(self, state: GameState[Any], seat: int, limit: int | None = None) -> list[str]:
        """The seat's legal commands as it would type them (the first ``limit`` of them)."""
        rules = self.kernel.rules(state)
        return [rules.format(state.game, a) for a in rules.legal_actions(state.game, seat)[:limit]]

    def deadline_of(self, game_id: str, seat: int) -> str | None:
        rows = self.store.query("SELECT due_at FROM deadlines WHERE game_id = ? AND seat = ?", (game_id, seat))
        return str(rows[0]["due_at"]) if rows else None

    def show(self, game_id: str, email: str | None = None) -> dict[str, Any]:
        """The game as one reader may see it: a player's private view, or the public one."""
        seat = self.seat_of(game_id, email) if email else None
        state = self.load(game_id)
        rules = self.kernel.rules(state)
        recent = (self.states.derived(state, "recent_commands", lambda: self.kernel.recent_commands(game_id, state.seq))
                  if seat is not None else [])
        undo_now, undo_why = undoable_commands(recent, seat) if seat is not None else ([], "")
        ask, ask_why = (undo_requests.requestable(self, state, seat, bool(undo_now))
                        if seat is not None else (None, ""))
        asked = undo_requests.open_request(self.store, game_id)
        names = [s.name for s in state.config.seats]
        return {
            **self.headline(state, seat),
            "rules_version": state.rules_version,
            "can_undo": bool(undo_now) if seat is not None else None,
            "undo_refused_because": (undo_why if not undo_now else None) if seat is not None else None,
            "can_request_undo": ask is not None if seat is not None else None,
            "undo_request_refused_because": (ask_why or None) if seat is not None else None,
            "undo_request": asked.to_json(names) if asked is not None else None,
            "seed_commitment": state.seed_commitment,
            "view": rules.view(state.game, seat),
        }

    def headline(self, state: GameState[Any], seat: int | None) -> dict[str, Any]:
        """What a receipt page says of the game at ``state``: where it stands and whom it waits for, not the board."""
        rules = self.kernel.rules(state)
        prompts = rules.prompts(state.game)
        names = [s.name for s in state.config.seats]
        return {
            "game_id": state.game_id, "game_type": state.game_type, "title": rules.title, "seq": state.seq,
            "status": "ended" if state.ended else "running", "seat": seat,
            "seats": [{"seat": s.index, "name": s.name} for s in state.config.seats],
            "waiting_for": waiting_for(prompts, names, seat),
            "your_prompt": prompts[seat].to_json() if seat is not None and seat in prompts else None,
            "outcome": state.outcome, "seed": state.seed,
        }

    def legal(self, game_id: str, email: str) -> list[dict[str, Any]]:
        """Every legal action of the player now: its text command and its structured form."""
        seat = self.seat_of(game_id, email)
        state = self.load(game_id)
        if state.ended:
            return []
        rules = self.kernel.rules(state)
        return [{"text": rules.format(state.game, a), "action": dict(a)}
                for a in rules.legal_actions(state.game, seat)]

    def log(self, game_id: str, email: str | None = None, after_seq: int = 0,
            upto_seq: int | None = None) -> list[dict[str, Any]]:
        """The events (all, or a window) as the reader may see them, each with a line in words (``pbem.logbook``)."""
        return logbook.log(self, game_id, self.seat_of(game_id, email) if email else None, after_seq, upto_seq)

    def last_acted(self, game_id: str, seat: int) -> int:
        """The seq of the last event this seat's own command recorded (0: none yet)."""
        return logbook.last_acted(self.store, game_id, seat)

    @staticmethod
    def describe_event(rules: Rules[Any], event: Event, seat: int | None, ended: bool, names: list[str]) -> str:
        """One event in words, as this reader may read it."""
        return logbook.describe_event(rules, event, seat, ended, names)

    def replay(self, game_id: str, at: int | None = None, *, seat: int | None = None, everything: bool = False,
               with_undone: bool = False) -> dict[str, Any]:
        """The game at move ``at`` as a seat, a spectator, or (after the end) everyone saw it (``pbem.replay``)."""
        try:
            if everything and not self.timeline_ended(game_id):
                raise ServiceError("everything is shown only once the game has ended; until then choose "
                                   "a player's view or the public one")
            return replay_module.replay(self.store, self.kernel, game_id, at, replay_module.Perspective(seat, everything),
                                        with_undone)
        except GameNotFound:
            raise NotFound(f"there is no game {game_id!r}; `pbem game list` shows the games") from None
        except LookupError as err:
            raise NotFound(str(err)) from None

    def timeline_ended(self, game_id: str) -> bool:
        return replay_module.timeline(self.store, self.kernel.replayer, game_id).states[-1].ended

    # ---- proof -----------------------------------------------------------------------------

    def verify(self, game_id: str, witnesses: Sequence[audit.Witness] = ()) -> audit.Verification:
        """Every check of ``events.audit.verify``, the delivery layer's own, and the chain heads players hold."""
        if not self.store.last(game_id)[0] or muster.is_muster(game_id):
            raise NotFound(f"there is no game {game_id!r}; `pbem game list` shows the games")
        return audit.verify(self.kernel.replayer, self.store.read(game_id), secret=self.kernel.seed(game_id),
                            witnesses=witnesses, command_check=seatlife.check_command)

    def audit(self, game_id: str, seq: int, *, reader: int | None = None, organiser: bool = True) -> dict[str, Any]:
        """One event explained (``events.audit.explain``) for the organiser, or for the player at ``reader``.

        A player may audit their own moves and public events; until the game ends they see
        only their own views, and of another player's move not what was typed or chosen.
        """
        state = self.load(game_id)
        events = self.store.read(game_id)
        if not 1 <= seq <= len(events):
            raise NotFound(f"there is no event {seq}; this game has events 1 to {len(events)}")
        target = events[seq - 1]
        ended = any(e.type == GAME_ENDED for e in events)
        own = reader is not None and target.cause.get("actor") == seat_actor(reader)
        if not organiser and not ended and not target.visibility.allows(reader):
            raise ServiceError("this event was hidden from you; you can audit your own moves and what was public "
                               "(the organiser can audit every event)")
        found = audit.explain(self.kernel.replayer, events, seq, self.kernel.seed(game_id))
        owner = target.visibility.seats[0] if target.visibility.kind == "seats" and target.visibility.seats else None
        found["described"] = self.describe_event(self.kernel.rules(state), target, owner, ended,
                                                 [s.name for s in state.config.seats])
        if organiser and target.type in talk.TALK_TYPES:
            talk.withhold(found, target, ended, [s.name for s in state.config.seats])
        if not organiser and not ended and not own:
            found["views"] = {"public": found["views"]["public"]}
            found["changes"] = {"public": found["changes"]["public"]}
            found["command"]["cause"] = {k: v for k, v in found["command"]["cause"].items()
                                         if k in ("via", "actor", "seat", "command")}
        seat = actor_seat(str(found["event"]["cause"].get("actor", "")))
        if seat is not None:
            found["player"] = self.store.query("SELECT seat, name FROM seats WHERE game_id = ? AND seat = ?",
                                               (game_id, seat))[0]
            if organiser:
                found["player"]["email"] = self.players(game_id)[seat]["email"]
        return found

    # ---- records (pbem/records.py) --------------------------------------------------------

    def export(self, game_id: str, *, with_secrets: bool = False) -> Iterable[str]:
        """The game record as JSON lines: a header, then every event (``docs/record-format.md``)."""
        state = self.load(game_id)
        return records.export(self.store, state, self.players(game_id) if with_secrets else None,
                              self.kernel.seed(game_id) if with_secrets else None)

    def import_record(self, lines: Iterable[str], players: Sequence[Player] = ()) -> GameState[Any]:
        """Load a record, verify it whole, and store it; nothing is stored if any check fails."""
        header, events = records.parse_record(lines)
        game_id = header["game_id"]
        if self.store.last(game_id)[0]:
            raise ServiceError(f"game {game_id} already exists here")
        data = list((header.get("data") or {}).values())  # each checked against its digest by parse_record
        for found in data:
            self.kernel.data.add(found)
        seed, seats = records.check(self.kernel.replayer, header, events)
        if not players:
            players = [Player(p["email"], p["name"]) for p in header.get("players", [])]
        if players and len(players) != len(seats):
            raise ServiceError(f"the record has {len(seats)} seats but {len(players)} players were given")
        if not players:
            players = [Player(f"seat{s['seat']}@import.invalid", s["name"]) for s in seats]
        state = self.kernel.replayer.fold(events)
        rows = self.rows(None, state, events)
        rows += [Row("seats", {"game_id": game_id, "seat": i, "email": p.email, "name": p.name, "mail": 1})
                 for i, p in enumerate(players)]
        rows.append(Row("game_secrets", {"game_id": game_id, "seed": seed}))
        rows += [data_row(d) for d in data]
        return self.kernel.import_events(events, rows)



def player_id(email: str) -> str:
    """A player's stable id (for their home page link), the same in every game."""
    return hashlib.sha256(f"pbem-player:{email.strip().lower()}".encode()).hexdigest()[:16]


__all__ = ["Service", "ServiceError", "Player", "StaleCommand", "InvalidAction"]
