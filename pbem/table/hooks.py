"""The service's hooks for one command, with rows of the command's own written in the same transaction."""

from __future__ import annotations

from typing import Any, Protocol, Sequence

from events.envelope import Event, NewEvent
from events.store import Row


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
