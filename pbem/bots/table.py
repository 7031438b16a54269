"""A game played offline, with the rules alone: no store, no mail, the events kept as the kernel records them.

The duel plays its games here, and the tests build their positions here. The events carry what the kernel's
would (number, type, payload, actor, visibility), so a seat's knowledge is made from them exactly as the service
makes it from the stored log.
"""

from __future__ import annotations

from typing import Any, Mapping

from events.envelope import Event, NewEvent, seat_actor
from events.rng import Rng
from events.rules import Action, GameConfig, Rules, Seat
from pbem.bots.knowledge import Knowledge, knowledge_of


def config_for(rules: Rules[Any], players: int, options: Mapping[str, Any] | None = None) -> GameConfig:
    """A game's config with the game's own data and its options completed as the kernel records them."""
    chosen = dict(options or {})
    complete = getattr(rules, "options", None)
    if callable(complete):
        chosen = complete(chosen)
    return GameConfig(seats=tuple(Seat(i, f"Player {i + 1}") for i in range(players)), options=chosen,
                      data=rules.load_data(None))


class Table:
    """One game: its config, its events so far and the rules' state after them, and the game's own chance."""

    def __init__(self, rules: Rules[Any], config: GameConfig, seed: str) -> None:
        self.rules = rules
        self.config = config
        self.rng = Rng(seed)
        self.events: list[Event] = []
        self.state = rules.initial_state(config)
        self._record(rules.setup(config, self.rng), "system")
        self._known: dict[int, Knowledge] = {}

    def _record(self, made: list[NewEvent], actor: str) -> None:
        state = self.state
        for new in made:
            event = Event("offline", len(self.events) + 1, new.type, 1, new.payload, new.actor or actor,
                          new.visibility, new.reveals, "", {}, "", "")
            self.events.append(event)
            state = self.rules.evolve(state, event)
        self.state = state

    @property
    def over(self) -> bool:
        return self.rules.outcome(self.state) is not None or not self.rules.prompts(self.state)

    def prompted(self) -> int | None:
        """The seat that must act now (the lowest, if several may), or None once the game is over."""
        prompts = self.rules.prompts(self.state)
        return min(prompts) if prompts else None

    def act(self, seat: int, action: Action) -> list[Event]:
        """Decide and record one action (the rules refuse an illegal one, as the kernel would)."""
        first = len(self.events)
        self._record(self.rules.decide(self.state, seat, action, self.rng), seat_actor(seat))
        return self.events[first:]

    def knowledge(self, seat: int) -> Knowledge:
        """What ``seat`` may know now (carried on from its previous knowledge, read once per event)."""
        known = knowledge_of(self.rules, self.rules.version, self.config, self.events, self.state, seat,
                             before=self._known.get(seat))
        self._known[seat] = known
        return known

    def winners(self) -> tuple[int, ...]:
        outcome = self.rules.outcome(self.state)
        return tuple(outcome.winners) if outcome is not None else ()
