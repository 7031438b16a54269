"""What one seat may know of a game: the only thing a bot is given.

``knowledge_of`` is the one place where a bot's input is made from the game, and the one place where it asks
what a seat may read of an event (``pbem.proof.reading``, the project's one rule for every reader): every other module of ``pbem.bots`` and every game's ``bot.py`` read a
``Knowledge``, never a ``GameState`` or the rules' state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from events.envelope import Event, Visibility
from events.replay import effective
from events.schema import ACTIONS_UNDONE
from events.rules import Action, GameConfig, Rules
from pbem.proof.reading import Reader, reads_payload


@dataclass(frozen=True)
class SeenEvent:
    """One event of the game as a seat reads it: who may read it is public, its payload only if the seat may."""

    seq: int
    type: str
    actor: str
    visibility: Visibility
    payload: Mapping[str, Any] | None  # None: withheld from this seat

    @property
    def withheld(self) -> bool:
        return self.payload is None


@dataclass(frozen=True)
class Knowledge:
    """Everything a seat may know at a decision: the game's config, its log as the seat reads it, its view and its
    legal actions. Two games that look the same to the seat give equal ``Knowledge``.

    ``memo`` keeps what a game's sampler works out once per decision (it is not part of what the seat knows).
    """

    game_type: str
    rules_version: str
    seat: int
    config: GameConfig
    events: tuple[SeenEvent, ...]
    view: Mapping[str, Any]
    legal: tuple[Action, ...]
    memo: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def players(self) -> int:
        return len(self.config.seats)


def knowledge_of(rules: Rules[Any], rules_version: str, config: GameConfig, events: Sequence[Event], game: Any,
                 seat: int, before: Knowledge | None = None) -> Knowledge:
    """What ``seat`` may know of the game whose log is ``events`` and whose rules' state is ``game``.

    ``events`` is the whole stream as stored (undone events and the kernel's and the delivery layer's own are left
    out here); with ``before``, a knowledge of the same seat made from an earlier part of the same stream, only the
    events after it are read again (a bot playing a whole game offline asks at every move). The state itself is
    only used to ask the rules for the seat's view and legal actions.
    """
    fresh = [e for e in events if e.seq > before.events[-1].seq] if before is not None and before.events else []
    if before is not None and before.seat == seat and before.events and not any(
            e.type == ACTIONS_UNDONE for e in fresh):
        seen = before.events + tuple(_seen(e, seat) for e in fresh if not e.type.startswith("pbem."))
    else:
        seen = tuple(_seen(e, seat) for e in effective(events) if not e.type.startswith("pbem."))
    return Knowledge(game_type=rules.name, rules_version=rules_version, seat=seat, config=config, events=seen,
                     view=rules.view(game, seat), legal=tuple(rules.legal_actions(game, seat)))


def _seen(event: Event, seat: int) -> SeenEvent:
    # The one visibility question of pbem.bots, asked of the project's one rule. A bot decides only in a game still
    # going, so nothing has opened at an end; its seat reads the seat's events whoever held it before.
    payload = event.payload if reads_payload(Reader(seat=seat), event, ended=False) else None
    return SeenEvent(event.seq, event.type, event.actor, event.visibility, payload)
