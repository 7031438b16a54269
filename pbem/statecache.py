"""The states a process loaded lately, kept as a cache: used only while the store still ends where they end.

A state is immutable (every game's ``evolve`` returns a new one), so a state loaded for one page can serve
the next read of the same game, in the same request or a later one on the same connection, as long as
nothing was appended since: each use first asks the store for the stream's last seq and hash (one primary
key lookup) and takes the cached state only if both match. Another process's append, an undo, a damaged
or replaced record: any of them changes the last hash, and the state is loaded again. A cache, never
trusted: the store's expected-seq check still guards every write.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

from events.replay import GameState
from events.store import EventStore

KEPT = 16  # games whose latest state is kept per service (a page, its preview, the next request's)


class StateCache:
    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._states: OrderedDict[str, GameState[Any]] = OrderedDict()
        self._derived: dict[tuple[str, str], tuple[tuple[int, str], Any]] = {}

    def latest(self, store: EventStore, game_id: str, load: Callable[[], GameState[Any]]) -> GameState[Any]:
        """The game's state now: the cached one if the store still ends at its seq and hash, else ``load()``."""
        seq, last_hash = store.last(game_id)
        found = self._states.get(game_id)
        if found is not None and found.seq == seq and found.last_hash == last_hash:
            self._states.move_to_end(game_id)
            return found
        state = load()
        if state.seq == seq and state.last_hash == last_hash:  # not if the store moved on while it loaded
            self.keep(state)
        return state

    def keep(self, state: GameState[Any]) -> None:
        """Keep a state just made (a command's result): it serves only once the store ends at its seq and hash."""
        self._states[state.game_id] = state
        self._states.move_to_end(state.game_id)
        while len(self._states) > self.kept:
            self._states.popitem(last=False)

    def derived(self, state: GameState[Any], name: str, compute: Callable[[], Any]) -> Any:
        """What ``compute`` gives for this state (e.g. its last commands, read from the store), computed once per
        state: kept with the game's cached state and thrown away with it."""
        key = (state.game_id, name)
        found = self._derived.get(key)
        if found is not None and found[0] == (state.seq, state.last_hash):
            return found[1]
        value = compute()
        self._derived[key] = ((state.seq, state.last_hash), value)
        while len(self._derived) > 4 * self.kept:
            self._derived.pop(next(iter(self._derived)))
        return value

    def forget(self, game_id: str) -> None:
        self._states.pop(game_id, None)
