"""The ``search`` level: one information-set Monte Carlo tree search for every game, within a time budget.

Each iteration draws a world from the seat's knowledge (the game's sampler: other hands, decks and identities dealt
again among what the log leaves possible) and walks one tree of actions in it: the tree is shared by every world,
so a move is judged by what it does over all the worlds the seat cannot tell apart, not in one it would have to
guess (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012). At each step the player to act picks by UCB
among the actions legal in this world, counting how often each was available rather than how often its parent was
visited. A new action is followed by a short random playout, and the game's evaluation of the position reached
gives every seat its share; a finished game gives the true result. The root's actions start from a one-step look
(the ``greedy`` judgement), so a search cut very short still plays sensibly.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Callable, Sequence

from events.rules import Action, Rules
from pbem.bots.games import GameBot, game_bot, rules_of
from pbem.bots.knowledge import Knowledge
from pbem.bots.levels import WorldsBot
from pbem.bots.play import BotRng, Choice, by_kind, outcome_values, prompted, share, step, words

Oracle = Callable[[Knowledge], Any]

MAX_DEPTH = 60
PRIOR_WORLDS = 3  # the worlds the root's actions are first judged in
CANDIDATES = 3    # below the root, the new actions compared before one is added to the tree


def _key(action: Action) -> str:
    # A game's legal_actions builds a given action with its keys in the same order every time: its repr names it.
    return repr(action)


class Edge:
    __slots__ = ("action", "visits", "total", "avail", "child")

    def __init__(self, action: Action, visits: int = 0, total: float = 0.0) -> None:
        self.action = action
        self.visits = visits
        self.total = total
        self.avail = visits
        self.child: Node | None = None


class Node:
    __slots__ = ("edges", "visits")

    def __init__(self) -> None:
        self.edges: dict[str, Edge] = {}
        self.visits = 0


class SearchBot(WorldsBot):
    """Information-set Monte Carlo tree search within ``budget`` seconds (or exactly ``iterations`` iterations,
    which makes the move depend on the seed alone: for tests)."""

    name = "search"

    def __init__(self, budget: float = 1.0, iterations: int | None = None, *, exploration: float = 0.2,
                 playout: int = 0, reuse: int = 2, widening: float = 1.5, prior: int = 4,
                 oracle: Oracle | None = None) -> None:
        super().__init__()
        self.budget = budget
        self.iterations = iterations
        self.exploration = exploration
        self.playout = playout  # random actions after a new node, before the evaluation
        self.reuse = reuse      # iterations played in each sampled world
        self.widening = widening  # below the root, about widening * sqrt(visits) actions tried at a node
        self.prior = prior        # the visits a root action's first judgement counts for
        self.oracle = oracle  # measurement only: a world given instead of sampled (the cheating search)
        self.last: dict[str, Any] = {}  # the last search: iterations, broken worlds, seconds, each root move's
        # visits and mean result

    def choose(self, knowledge: Knowledge, rng: random.Random) -> Choice:
        start = time.perf_counter()
        legal = knowledge.legal
        if len(legal) == 1:
            self.last = {"iterations": 0, "broken": 0, "seconds": time.perf_counter() - start}
            return self.answer(legal[0], "the only legal move")
        run = _Run(self, knowledge, rng, start)
        edge, world = run.search()
        self.last = {"iterations": run.done, "broken": run.broken, "seconds": time.perf_counter() - start,
                     "moves": [(e.action, e.visits, e.total / max(1, e.visits)) for e in run.root.edges.values()]}
        mean = edge.total / max(1, edge.visits)
        return self.answer(edge.action, f"{words(run.rules, world, edge.action)}: won {share(mean)} of "
                                        f"{edge.visits} sampled games")


class _Run:
    """One search: its tree, its worlds, its clock."""

    def __init__(self, bot: SearchBot, knowledge: Knowledge, rng: random.Random, start: float) -> None:
        self.bot = bot
        self.knowledge = knowledge
        self.rng = rng
        self.chance = BotRng(rng)
        self.rules: Rules[Any] = rules_of(knowledge.game_type)
        self.game: GameBot = game_bot(knowledge.game_type)
        self.players = knowledge.players
        rules = self.rules
        self.to_act: Callable[[Any], int | None] = getattr(self.game, "to_act", None) or (
            lambda state: prompted(rules, state))
        self.deadline = start + bot.budget
        self.done = 0
        self.broken = 0
        self.root = Node()
        if bot.oracle is not None:
            truth = bot.oracle(knowledge)
            self.draw: Callable[[], Any] = lambda: truth
        else:
            skeleton = bot.skeleton(knowledge)
            self.draw = lambda: skeleton.world(rng)

    # --- the loop -------------------------------------------------------------------------

    def search(self) -> tuple[Edge, Any]:
        first = world = self.draw()
        self._priors(first)
        limit = self.bot.iterations
        check = 8
        while True:
            if limit is not None:
                if self.done >= limit:
                    break
            elif time.perf_counter() >= self.deadline or (self.done % check == 0 and self._settled()):
                break
            if self.done % self.bot.reuse == 0:
                world = self.draw()
            self._iterate(world)
            self.done += 1
        edges = [self.root.edges[_key(a)] for a in self.knowledge.legal if _key(a) in self.root.edges]
        best = max(edges, key=lambda e: (e.visits, e.total / max(1, e.visits)))
        return best, first

    def _settled(self) -> bool:
        """Whether the most tried move can no longer be overtaken in the time left, at the pace so far."""
        if self.done < 16:
            return False
        now = time.perf_counter()
        spent = now - (self.deadline - self.bot.budget)
        left = (self.deadline - now) * self.done / max(spent, 1e-6)
        visits = sorted((e.visits for e in self.root.edges.values()), reverse=True)
        return len(visits) > 1 and visits[0] - visits[1] > left

    def _priors(self, first: Any) -> None:
        """Every root action judged at once, as ``greedy`` judges it (its position right after, in a few sampled
        worlds), counted as ``prior`` visits: the iterations then have to show a better move, not stumble on one.
        In random order, for at most 40 % of the budget: the iterations try the others as new actions."""
        seat = self.knowledge.seat
        until = self.deadline - 0.6 * self.bot.budget
        worlds = [first] + [self.draw() for _ in range(PRIOR_WORLDS - 1)]
        order = list(self.knowledge.legal)
        self.rng.shuffle(order)
        weight = self.bot.prior
        for number, action in enumerate(order):
            if number >= 2 and self.bot.iterations is None and time.perf_counter() > until:
                break
            total = 0.0
            for world in worlds:
                try:
                    total += self._values(step(self.rules, world, seat, action, self.chance))[seat]
                except Exception:  # a world the rules refuse: the action still gets its turn in others
                    self.broken += 1
            self.root.edges[_key(action)] = Edge(action, weight, weight * total / len(worlds))

    # --- one iteration --------------------------------------------------------------------

    def _iterate(self, world: Any) -> None:
        rules = self.rules
        c = self.bot.exploration
        widening = self.bot.widening
        state = world
        node: Node | None = self.root
        path: list[tuple[Edge, int]] = []
        made: tuple[Node, str] | None = None
        values: Sequence[float] | None = None
        try:
            for _ in range(MAX_DEPTH):
                seat = self.to_act(state)
                if seat is None or node is None:
                    break
                legal = rules.legal_actions(state, seat)
                if not legal:
                    break
                edges = node.edges
                fresh: list[tuple[str, Action]] = []
                present: list[Edge] = []
                for action in legal:
                    key = _key(action)
                    edge = edges.get(key)
                    if edge is None:
                        fresh.append((key, action))
                    else:
                        edge.avail += 1
                        present.append(edge)
                # progressive widening below the root: a new action only when the node's tried ones have been
                # visited enough (about widening * sqrt(visits) of them), so iterations go deeper, not wider
                if fresh and (node is self.root or len(present) < 1 + int(widening * math.sqrt(node.visits))):
                    action, state, values = self._expand(state, seat, [a for _, a in fresh])
                    key = _key(action)
                    edge = edges[key] = Edge(action)
                    edge.avail = 1
                    made = (node, key)
                    path.append((edge, seat))
                    node = None
                    break
                edge = max(present, key=lambda e: e.total / e.visits + c * math.sqrt(math.log(e.avail) / e.visits))
                state = step(rules, state, seat, edge.action, self.chance)
                path.append((edge, seat))
                node.visits += 1
                if edge.child is None:
                    edge.child = Node()
                node = edge.child
            if values is None:
                values = self._playout(state)
        except Exception:  # a sampled world the rules cannot go on from (a sampler's slip): skip it
            self.broken += 1
            if made is not None:
                del made[0].edges[made[1]]
            return
        for edge, seat in path:
            edge.visits += 1
            edge.total += values[seat]

    def _expand(self, state: Any, seat: int, fresh: list[Action]) -> tuple[Action, Any, Sequence[float] | None]:
        """The new action to add to the tree: the best for the acting seat, judged at once, of a few drawn at
        random (each kind as likely): so the players in the tree first try sensible moves, not any move. Returns
        it, the state after it, and that state's values if they were worked out (no playout asked for)."""
        best: tuple[float, Action, Any, Sequence[float]] | None = None
        for _ in range(min(CANDIDATES, len(fresh))):
            action = by_kind(self.rng, fresh)
            fresh = [a for a in fresh if a is not action]
            after = step(self.rules, state, seat, action, self.chance)
            values = self._values(after)
            if best is None or values[seat] > best[0]:
                best = (values[seat], action, after, values)
        assert best is not None
        return best[1], best[2], (best[3] if self.bot.playout == 0 else None)

    def _playout(self, state: Any) -> Sequence[float]:
        rules = self.rules
        for _ in range(self.bot.playout):
            seat = self.to_act(state)
            if seat is None:
                break
            legal = rules.legal_actions(state, seat)
            if not legal:
                break
            state = step(rules, state, seat, by_kind(self.rng, legal), self.chance)
        return self._values(state)

    def _values(self, state: Any) -> Sequence[float]:
        final = outcome_values(self.rules, state, self.players)
        return final if final is not None else self.game.values(state)
