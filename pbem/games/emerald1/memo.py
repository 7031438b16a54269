"""The lineage memo: parts of views and scores worked out for one state, for the states that follow it.

``evolve`` hands a state's memo on to the state it makes (``State.successor``), so one memo follows a game from
state to state, in one process, and holds the last value of each part with what that value was made from: the
containers of the state it was made for. A state shares every container an event did not write with the state
before it, and no container of a made state ever changes, so a part whose containers are still the same (or equal)
objects is still right. Each user checks that itself (``public``, ``view``, ``scoring``); a memo is only ever
consulted, never trusted.

Nothing is kept for a state ``decide`` is working on (its containers change in place), a state pickled for a
snapshot starts a memo of its own, and a copy made with ``State.clone`` (tests arrange positions on those) has
none until it is used.
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1.state import State


def memo_of(s: State) -> dict[Any, Any] | None:
    """The memo of ``s``'s lineage (made if it has none), or None for ``decide``'s working state."""
    d = s.__dict__
    found = d.get("_memo")
    if found is None:
        if d.get("_working"):
            return None
        found = d.setdefault("_memo", {})
    return found  # type: ignore[no-any-return]
