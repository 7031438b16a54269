"""What the table's capabilities use of the service (``Host``), which passes itself: they never import it.

Also the service's hooks for one command (``Hooks``), and ``WithRows``: those hooks with rows of the command's
own, written in the same transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Protocol, Sequence

from events.envelope import Event, NewEvent
from events.handling import Cause, CommandResult, Kernel
from events.replay import GameState
from events.store import Row, SQLiteEventStore


class Hooks(Protocol):
    def follow(self, before: Any, after: Any, events: list[Event]) -> list[NewEvent]: ...

    def rows(self, before: Any, after: Any, events: list[Event]) -> list[Row]: ...


class WithRows:
    """``hooks`` (the service's: deadlines, mails, read models) and ``extra`` rows (a note's words, a webhook's
    address, an absence), all in the command's transaction; ``first``: the extra rows are written before the
    service's."""

    def __init__(self, hooks: Hooks, extra: Sequence[Row], *, first: bool = False) -> None:
        self.hooks, self.extra, self.first = hooks, list(extra), first

    def follow(self, before: Any, after: Any, events: list[Event]) -> list[NewEvent]:
        return self.hooks.follow(before, after, events)

    def rows(self, before: Any, after: Any, events: list[Event]) -> list[Row]:
        mine = self.hooks.rows(before, after, events)
        return self.extra + mine if self.first else mine + self.extra


class TableMail(Protocol):
    """The mails of a seat's life, which the service's notifier composes (``pbem.post.notify``)."""

    timezone: str  # the zone of players who chose none

    def substitute_wanted(self, service: Any, state: GameState[Any], seat: int,
                          events: Sequence[Event]) -> list[Row]: ...

    def seat_replaced(self, service: Any, state: GameState[Any], seat: int, old: Mapping[str, Any],
                      new: Mapping[str, Any], since: int) -> list[Row]: ...


class Host(Hooks, Protocol):
    """The service as the table's capabilities use it: the store, the kernel, the game's state and seats, the mails
    of a seat's life, and the commands they lead to (standing orders answered, an absence declared by reply)."""

    store: SQLiteEventStore
    kernel: Kernel

    @property
    def notifier(self) -> TableMail | None: ...

    def load(self, game_id: str, upto_seq: int | None = None) -> GameState[Any]: ...

    def players(self, game_id: str) -> list[dict[str, Any]]: ...

    def player_id(self, email: str) -> str: ...

    def apply_standing_orders(self, game_id: str, limit: int = 20) -> list[CommandResult]: ...

    def declare_absence(self, game_id: str, seat: int, starts: Any, until: Any, reason: str = "",
                        share: bool = False, *, cause: Cause, now: datetime | None = None) -> CommandResult: ...
