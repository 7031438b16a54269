"""Benchmark of the computer players (not a test): how fast the search samples and plays, and duels at small sizes.

Run: ``python tests/bench/bench_bots.py [--game G ...] [--players P] [--budget-ms B] [--moves M] [--duels N]``.

For each game it prints, over ``M`` search moves at seeded positions of a ``P``-player game:

* ``decide+evolve``: the mean cost of one action played in a sampled world (the rules' ``decide`` and the fold of its
  events), the unit of every playout;
* ``world``: the mean cost of drawing one sampled world from a seat's fold of the log;
* ``sampled games/s``: the search's iterations per second at a budget of ``B`` ms (each iteration one game walked in
  one sampled world down the tree, and the position reached evaluated);
* the search's time per move (p50, p95) against the budget: the goal is p95 at most 1.1 times the budget.

With ``--duels N`` it then plays, per game, N games of ``search,random,random``, ``search,greedy,greedy`` and
``greedy,random,random`` (``pbem bot duel``), and ``--ceiling`` adds the measurement-only cheating search (the same
search given the true state) against two random and two greedy seats. Duels take long: 1 s a search move.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.bots.duel import duel, level_bot, percentile
from pbem.bots.games import game_bot, rules_of
from pbem.bots.play import Bot, BotRng, by_kind, step
from pbem.bots.search import SearchBot
from pbem.bots.skeleton import Worlds
from pbem.bots.table import Table, config_for


def speed(game: str, players: int, budget: float, moves: int) -> dict[str, float]:
    rules = rules_of(game)
    table = Table(rules, config_for(rules, players), f"bench-{game}")
    pick = random.Random(1)
    bot = SearchBot(budget=budget)
    step_s: list[float] = []
    world_s: list[float] = []
    move_s: list[float] = []
    rates: list[float] = []
    searched = 0
    while searched < moves:
        seat = table.prompted()
        if seat is None:
            table = Table(rules, config_for(rules, players), f"bench-{game}-{searched}")
            continue
        known = table.knowledge(seat)
        if len(known.legal) > 1 and pick.random() < 0.3:
            skeleton = Worlds(game_bot(game).SKELETON).skeleton(known)
            chance = BotRng(pick)
            for _ in range(10):
                began = time.perf_counter()
                world = skeleton.world(pick)
                world_s.append(time.perf_counter() - began)
                for _ in range(5):
                    who = min(rules.prompts(world) or {-1: None})
                    if who < 0:
                        break
                    action = by_kind(pick, rules.legal_actions(world, who))
                    began = time.perf_counter()
                    world = step(rules, world, who, action, chance)
                    step_s.append(time.perf_counter() - began)
            began = time.perf_counter()
            choice = bot.choose(known, random.Random(searched))
            move_s.append(time.perf_counter() - began)
            rates.append(bot.last["iterations"] / max(bot.last["seconds"], 1e-9))
            searched += 1
            table.act(seat, choice.action)
        else:
            table.act(seat, by_kind(pick, list(known.legal)))
    return {"step_us": 1e6 * sum(step_s) / len(step_s), "world_us": 1e6 * sum(world_s) / len(world_s),
            "games_per_s": sum(rates) / len(rates), "p50_ms": 1000 * percentile(move_s, 0.5),
            "p95_ms": 1000 * percentile(move_s, 0.95)}


def duels(game: str, games: int, budget: float, ceiling: bool) -> None:
    matches = [["search", "random", "random"], ["search", "greedy", "greedy"], ["greedy", "random", "random"]]
    if ceiling:
        matches += [["cheat", "random", "random"], ["cheat", "greedy", "greedy"]]
    for seats in matches:
        def factory(level: str, table: Table) -> Bot:
            if level == "cheat":  # measurement only: the search given the true state
                return SearchBot(budget=budget, oracle=lambda known: table.state)
            return level_bot(level, budget)
        began = time.perf_counter()
        result = duel(game, seats, games, f"bench-{game}", budget, factory=factory)
        lo, hi = result.ci95[0]
        ms = result.ms_per_move[0]
        print(f"  {','.join(seats):<22} first seat wins {100 * result.win_share[0]:5.1f} % "
              f"(95 % {100 * lo:.0f}-{100 * hi:.0f} %, {games} games), ms per move p50 {ms['p50']:.0f} "
              f"p95 {ms['p95']:.0f}  [{time.perf_counter() - began:.0f} s]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="nanty, emerald, emerald1 (default: all three)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--budget-ms", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=20, help="search moves timed per game")
    parser.add_argument("--duels", type=int, default=0, help="games per duel (0: no duels)")
    parser.add_argument("--ceiling", action="store_true", help="also the cheating search, for the ceiling")
    args = parser.parse_args()
    budget = args.budget_ms / 1000
    for game in args.game or ["nanty", "emerald", "emerald1"]:
        found = speed(game, args.players, budget, args.moves)
        print(f"{game} ({args.players} players, budget {args.budget_ms} ms): decide+evolve {found['step_us']:.0f} µs, "
              f"world {found['world_us']:.0f} µs, {found['games_per_s']:.0f} sampled games/s, "
              f"move p50 {found['p50_ms']:.0f} ms, p95 {found['p95_ms']:.0f} ms "
              f"({found['p95_ms'] / args.budget_ms:.2f} x budget)", flush=True)
        if args.duels:
            duels(game, args.duels, budget, args.ceiling)


if __name__ == "__main__":
    main()
