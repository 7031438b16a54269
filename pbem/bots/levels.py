"""The simple levels: ``random`` (any legal action) and ``greedy`` (the best position right after the action)."""

from __future__ import annotations

import random
from typing import Any

from events.rules import Rules
from pbem.bots.games import GameBot, game_bot, rules_of
from pbem.bots.knowledge import Knowledge
from pbem.bots.play import Bot, BotRng, Choice, outcome_values, share, step, words
from pbem.bots.skeleton import Skeleton, Worlds


class RandomBot(Bot):
    """Any legal action, each as likely as another."""

    name = "random"

    def choose(self, knowledge: Knowledge, rng: random.Random) -> Choice:
        action = knowledge.legal[rng.randrange(len(knowledge.legal))]
        return self.answer(action, f"picked at random among {len(knowledge.legal)} legal moves")


class WorldsBot(Bot):
    """A level that plays in sampled worlds: it keeps each seat's fold of the log from one decision to the next."""

    def __init__(self) -> None:
        self._worlds: dict[tuple[str, int], Worlds] = {}

    def skeleton(self, knowledge: Knowledge) -> Skeleton[Any]:
        key = (knowledge.game_type, knowledge.seat)
        if key not in self._worlds:
            self._worlds[key] = Worlds(game_bot(knowledge.game_type).SKELETON)
        return self._worlds[key].skeleton(knowledge)


class GreedyBot(WorldsBot):
    """The action whose position right after it the game's evaluation likes best for the seat, averaged over a
    few sampled worlds (what the action draws or rolls differs from world to world)."""

    name = "greedy"

    def __init__(self, samples: int = 3) -> None:
        super().__init__()
        self.samples = samples

    def choose(self, knowledge: Knowledge, rng: random.Random) -> Choice:
        legal = knowledge.legal
        if len(legal) == 1:
            return self.answer(legal[0], "the only legal move")
        rules = rules_of(knowledge.game_type)
        game = game_bot(knowledge.game_type)
        skeleton = self.skeleton(knowledge)
        worlds = [skeleton.world(rng) for _ in range(self.samples)]
        chance = BotRng(rng)
        seat = knowledge.seat
        best: list[int] = []
        top = -1.0
        for i, action in enumerate(legal):
            value = sum(_judge(rules, game, step(rules, w, seat, action, chance), seat, knowledge.players)
                        for w in worlds) / len(worlds)
            if value > top + 1e-12:
                top, best = value, [i]
            elif abs(value - top) <= 1e-12:
                best.append(i)
        action = legal[rng.choice(best)]
        return self.answer(action, f"{words(rules, worlds[0], action)}: the best position right after it "
                                   f"(about {share(top)} to win)")


def _judge(rules: Rules[Any], game: GameBot, state: Any, seat: int, players: int) -> float:
    """The seat's result if the game is over, else the game's evaluation of the position."""
    final = outcome_values(rules, state, players)
    return final[seat] if final is not None else game.evaluate(state, seat)
