"""What each game keeps secret from a reader, for the leak test over every channel (``tests/test_leaks.py``).

Every registered game needs a probe here: ``PROBES[game_type](reader)`` makes one for a seat (None: the
spectator), which is then called with the state and the events appended since its last call, and gives what
the reader may not know now (cards in another hand, a deck, a face-down stack) as an object whose
``find(text, data=None)`` lists what of it a text names (and, for a JSON channel, what its data holds). A
new game without a probe fails the leak test.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

from events.envelope import Event
from events.replay import GameState
from tests.leaks import emerald, emerald1, nanty


class Secrets(Protocol):
    def find(self, text: str, data: Any = None) -> list[str]: ...


Probe = Callable[[GameState[Any], Sequence[Event]], Secrets]

PROBES: dict[str, Callable[[int | None], Probe]] = {"emerald": emerald.Probe, "emerald1": emerald1.Probe,
                                                   "nanty": nanty.Probe}
