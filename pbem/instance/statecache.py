"""The states a process loaded lately, kept as a cache: used only while the store still ends where they end.

A state is immutable (every game's ``evolve`` returns a new one), so a state loaded for one page can serve
the next read of the same game, in the same request or a later one, as long as nothing was appended since:
each use first asks the store for the stream's last seq and hash (one primary key lookup) and takes the
cached state only if both match. When the store has moved on (another process's move, on a web server of
several workers), the cached state is carried forward instead of loaded again: the events after it are read
and folded onto it, exactly as a snapshot's tail is, if the first of them chains to the cached state's hash
and none undoes anything the cached state holds; otherwise (an undo reaching back, a damaged or replaced
record) the game is loaded again. A state more than ``ADVANCE_AT_MOST`` events behind is loaded again too: the
load starts from the newest snapshot, fewer than ``SNAPSHOT_EVERY`` events from the end, and reading and folding
a longer tail costs more than reading that snapshot (on a web server of five workers, a game's state is
typically some forty events behind by the time its next move reaches the same process). A cache, never trusted:
the store's expected-seq check still guards every write.

One cache serves every service of a process (the web app's pool shares one), so whichever of them
serves a game's next request finds its state; it is guarded by a lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable

from events.replay import GameState
from events.store import EventStore

# Carrying a 2nd-edition Emerald state forward over 16 events cost as much as loading it (a snapshot and a tail of
# about five events): 117 against 120 µs (docs/benchmarks.md, "Requests per second under gunicorn").
ADVANCE_AT_MOST = 16
KEPT = 16  # games whose latest state is kept by a service of its own (the CLI, the scheduler)
SHARED_KEPT = 256  # games kept by a process's shared cache (the web app)


class StateCache:
    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._states: OrderedDict[str, GameState[Any]] = OrderedDict()
        self._derived: dict[tuple[str, str], tuple[tuple[int, str], Any]] = {}
        self._lock = threading.Lock()
        self.loads = self.advances = self.hits = 0  # what served each use: counted for tests and benchmarks

    def latest(self, store: EventStore, game_id: str, load: Callable[[], GameState[Any]],
               advance: Callable[[GameState[Any]], GameState[Any] | None] | None = None) -> GameState[Any]:
        """The game's state now: the cached one if the store still ends at its seq and hash, the cached one
        carried forward by ``advance`` if that can, else ``load()``."""
        seq, last_hash = store.last(game_id)
        with self._lock:
            found = self._states.get(game_id)
            if found is not None and found.seq == seq and found.last_hash == last_hash:
                self._states.move_to_end(game_id)
                self.hits += 1
                return found
        state = None
        if found is not None and found.seq < seq <= found.seq + ADVANCE_AT_MOST and advance is not None:
            state = advance(found)
            if state is not None:
                self.advances += 1
        if state is None:
            state = load()
            self.loads += 1
        if state.seq == seq and state.last_hash == last_hash:  # not if the store moved on while it loaded
            self.keep(state)
        return state

    def keep(self, state: GameState[Any]) -> None:
        """Keep a state just made (a command's result): it serves only once the store ends at its seq and hash."""
        with self._lock:
            self._states[state.game_id] = state
            self._states.move_to_end(state.game_id)
            while len(self._states) > self.kept:
                self._states.popitem(last=False)

    def derived(self, state: GameState[Any], name: str, compute: Callable[[], Any]) -> Any:
        """What ``compute`` gives for this state (e.g. its last commands, read from the store), computed once per
        state: kept with the game's cached state and thrown away with it. Callers must not change it."""
        key = (state.game_id, name)
        with self._lock:
            found = self._derived.get(key)
        if found is not None and found[0] == (state.seq, state.last_hash):
            return found[1]
        value = compute()
        with self._lock:
            self._derived[key] = ((state.seq, state.last_hash), value)
            while len(self._derived) > 4 * self.kept:
                self._derived.pop(next(iter(self._derived)))
        return value

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._states.pop(game_id, None)
