"""The levels on Highdie (the kernel's small test game, given a bot in ``highdie``) and on the real games: what
each level chooses, and that the search keeps to its budget."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any, Iterator

import pytest

from events.rng import Rng
from events.rules import GameConfig, Seat
from kernelgame import RULES as HIGHDIE
from pbem.bots.knowledge import Knowledge
from pbem.bots.levels import GreedyBot, RandomBot
from pbem.bots.play import Choice, step
from pbem.bots.search import SearchBot
from pbem.bots.table import Table
from tests.bots import highdie
from tests.bots.positions import positions


@pytest.fixture(autouse=True)
def _highdie() -> Iterator[None]:
    highdie.register()
    yield
    highdie.unregister()


def _from(hands: list[list[int]], scores: list[int], deck: list[int], turn: int = 0) -> Table:
    """A Highdie game begun from a position (scores, hands, deck), as the kernel's positions begin one."""
    config = GameConfig(seats=tuple(Seat(i, f"p{i}") for i in range(len(hands))), options={"turns_each": 8},
                        data=HIGHDIE.load_data(None))
    table = Table.__new__(Table)
    table.rules, table.config, table.rng = HIGHDIE, config, Rng("levels")
    table.events, table.state, table._known = [], HIGHDIE.initial_state(config), {}
    table._record(HIGHDIE.setup_from(config, {"hands": hands, "scores": scores, "deck": deck, "turn": turn},
                                     table.rng), "system")
    return table


def _wins(table: Table, seat: int, choice: Choice) -> bool:
    after = step(HIGHDIE, table.state, seat, choice.action, Rng("check"))
    outcome = HIGHDIE.outcome(after)
    return outcome is not None and seat in outcome.winners


def test_random_picks_every_legal_move_about_as_often() -> None:
    table = _from([[3, 5], [1, 2]], [0, 0], [4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
    known = table.knowledge(0)
    counts = Counter(repr(RandomBot().choose(known, random.Random(n)).action) for n in range(700))
    assert len(counts) == len(known.legal) == 8
    assert all(55 <= c <= 120 for c in counts.values())
    choice = RandomBot().choose(known, random.Random(1))
    assert (choice.bot, choice.version, choice.reason) == ("random", "1", "picked at random among 8 legal moves")


@pytest.mark.parametrize("bot", [GreedyBot(), SearchBot(iterations=60)], ids=["greedy", "search"])
def test_a_move_that_wins_at_once_is_taken(bot: Any) -> None:
    # 22 points of 25: playing the 3 or the 5, or betting 3, wins now; a roll only wins on 3 or more.
    table = _from([[3, 5], [14, 15]], [22, 20], [1, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13])
    choice = bot.choose(table.knowledge(0), random.Random(4))
    assert choice.action in ({"kind": "play", "card": 3}, {"kind": "play", "card": 5}, {"kind": "bet", "points": 3})
    assert _wins(table, 0, choice)
    assert choice.bot == bot.name and choice.reason.split(":")[0] in ("play 3", "play 5", "bet 3")


def test_the_search_counts_the_next_player_s_contest_that_greedy_does_not_see() -> None:
    # Playing the 12 scores 12 (to 24) but lets the next player contest it (4+ on a die) for the points they need to
    # win at once. Greedy judges the position right after the play; the search also plays the contest out.
    table = _from([[12, 1], [2, 3]], [12, 19], [4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15])
    known = table.knowledge(0)
    twelve = {"kind": "play", "card": 12}
    assert GreedyBot().choose(known, random.Random(2)).action == twelve
    bot = SearchBot(iterations=400)
    bot.choose(known, random.Random(2))
    searched = {repr(a): mean for a, _, mean in bot.last["moves"]}
    first = SearchBot(iterations=0)
    first.choose(known, random.Random(2))
    judged = {repr(a): mean for a, _, mean in first.last["moves"]}  # each move's one-step judgement alone
    assert judged[repr(twelve)] > 0.55 and searched[repr(twelve)] < judged[repr(twelve)] - 0.2


def test_the_reason_says_how_often_the_move_won_in_the_sampled_games() -> None:
    table = _from([[3, 5], [1, 2]], [0, 0], [4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
    bot = SearchBot(iterations=50)
    choice = bot.choose(table.knowledge(0), random.Random(1))
    words, _, rest = choice.reason.partition(": won ")
    assert words == HIGHDIE.format(table.state, choice.action)
    assert rest.endswith(" sampled games") and " % of " in rest
    assert bot.last["iterations"] == 50 and bot.last["broken"] == 0
    assert choice.to_json() == {"action": dict(choice.action), "reason": choice.reason, "bot": "search",
                                "version": "1"}


def test_a_single_legal_move_is_played_without_searching() -> None:
    table = _from([[12, 1], [2, 3]], [0, 0], [4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15])
    table.act(0, {"kind": "play", "card": 12})  # the next player may contest it or accept: two moves
    table.act(1, {"kind": "accept"})
    known = table.knowledge(1)
    assert len(known.legal) > 1
    lone = Knowledge(known.game_type, known.rules_version, 1, known.config, known.events, known.view,
                     (known.legal[0],))
    bot = SearchBot(budget=5.0)
    began = time.perf_counter()
    choice = bot.choose(lone, random.Random(1))
    assert time.perf_counter() - began < 1.0
    assert choice.action == known.legal[0] and choice.reason == "the only legal move"


def test_the_same_knowledge_and_seed_give_the_same_search() -> None:
    table = _from([[3, 9], [1, 2]], [5, 7], [4, 6, 5, 8, 10, 11, 12, 13, 14, 15, 7])
    known = table.knowledge(0)
    first = SearchBot(iterations=80).choose(known, random.Random(8))
    again = SearchBot(iterations=80).choose(known, random.Random(8))
    assert first == again


@pytest.mark.parametrize("game", ["nanty", "emerald", "emerald1"])
def test_the_search_stops_on_time_in_every_game(game: str) -> None:
    # A loose bound (the p95 figure, on a quiet core, is measured by tests/bench/bench_bots.py): it catches a
    # search that does not look at the clock, not a busy machine.
    bot = SearchBot(budget=0.05)
    worst = 0.0
    for position in positions(game, 3, 4, every=25, until=150):
        known = position.knowledge()
        began = time.perf_counter()
        choice = bot.choose(known, random.Random(1))
        worst = max(worst, time.perf_counter() - began)
        assert choice.action in known.legal
    assert worst < 1.0
