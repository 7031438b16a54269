"""What every level shares: a bot's answer, playing an action in a sampled world, and the bot's own chance."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from events.rng import Rng
from events.rules import Action, Rules
from pbem.bots.knowledge import Knowledge
from pbem.bots.skeleton import as_event


@dataclass(frozen=True)
class Choice:
    """A bot's move: one of the seat's legal actions, why in one line of words, and which bot chose it."""

    action: Action
    reason: str
    bot: str
    version: str

    def to_json(self) -> dict[str, Any]:
        return {"action": dict(self.action), "reason": self.reason, "bot": self.bot, "version": self.version}


class Bot:
    """A level of computer player: ``choose`` one of ``knowledge.legal`` from the knowledge and ``rng`` alone."""

    name = ""
    version = "1"

    def choose(self, knowledge: Knowledge, rng: random.Random) -> Choice:
        raise NotImplementedError

    def answer(self, action: Action, reason: str) -> Choice:
        return Choice(dict(action), reason, self.name, self.version)


class BotRng(Rng):
    """The bot's own chance inside the worlds it plays out: an ``Rng`` drawn from its seeded generator, recording
    nothing (a game's secret seed is never the bot's to use, and a sampled world's dice are its own)."""

    def __init__(self, rnd: random.Random) -> None:
        super().__init__("", 0)
        self._rnd = rnd

    def _draw(self, op: str, args: list[Any]) -> Any:
        self.counter += 1
        if op == "randint":
            return self._rnd.randint(int(args[0]), int(args[1]))
        if op == "shuffle":
            items = list(args)
            self._rnd.shuffle(items)
            return items
        raise ValueError(f"unknown random operation {op!r}")


def step(rules: Rules[Any], state: Any, seat: int, action: Action, rng: Rng) -> Any:
    """The state after ``seat`` plays ``action`` in a (sampled) world: the rules decide, and fold their events."""
    for number, new in enumerate(rules.decide(state, seat, action, rng)):
        state = rules.evolve(state, as_event(number, new.type, new.payload))
    return state


def words(rules: Rules[Any], world: Any, action: Action) -> str:
    """The action as the game's own text command (what a player would type), else its kind."""
    try:
        return rules.format(world, action)
    except Exception:  # a reason line must never stop a move
        return str(action.get("kind", "move"))


def kind_of(action: Mapping[str, Any]) -> str:
    return str(action.get("kind", ""))


def by_kind(rnd: random.Random, legal: Sequence[Action]) -> Action:
    """A random action, each kind of action as likely as another (else a kind with many variants, such as the
    discards of every subset of a hand, would crowd out the rest)."""
    kinds: dict[str, list[Action]] = {}
    for a in legal:
        kinds.setdefault(kind_of(a), []).append(a)
    group = kinds[rnd.choice(sorted(kinds))]
    return group[rnd.randrange(len(group))]


def share(value: float) -> str:
    return f"{round(100 * max(0.0, min(1.0, value)))} %"


def prompted(rules: Rules[Any], state: Any) -> int | None:
    prompts = rules.prompts(state)
    return min(prompts) if prompts else None


def outcome_values(rules: Rules[Any], state: Any, players: int) -> tuple[float, ...] | None:
    """Each seat's share of a finished game (a shared win counts 1/k), or None if it is not finished."""
    outcome = rules.outcome(state)
    if outcome is None:
        return None
    won = tuple(outcome.winners)
    return tuple((1.0 / len(won) if i in won else 0.0) for i in range(players))
