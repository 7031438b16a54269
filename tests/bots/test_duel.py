"""The duel: seats rotated, each deal replayed for every rotation, win shares, intervals, time per move; and the
``pbem bot duel`` command over it."""

from __future__ import annotations

import json
from typing import Iterator

import pytest
from click.testing import CliRunner

from cli.main import cli
from pbem.bots.duel import duel, level_bot, percentile, wilson
from pbem.bots.play import Bot
from pbem.bots.table import Table
from tests.bots import highdie


@pytest.fixture(autouse=True)
def _highdie() -> Iterator[None]:
    highdie.register()
    yield
    highdie.unregister()


def test_every_listed_bot_plays_every_seat_of_every_deal() -> None:
    tables: list[tuple[Table, list[str]]] = []
    seated: list[str] = []

    def factory(level: str, table: Table) -> Bot:
        if not tables or tables[-1][0] is not table:
            tables.append((table, []))
        tables[-1][1].append(level)
        return level_bot(level.split("-")[0])

    result = duel("highdie", ["random-a", "random-b", "greedy-c"], 6, "rot", factory=factory)
    assert result.games == 6 and len(tables) == 6
    for g, (table, levels) in enumerate(tables):
        rotation = g % 3
        assert levels == [["random-a", "random-b", "greedy-c"][(t - rotation) % 3] for t in range(3)]
        seated.append(levels[0])
    assert seated == ["random-a", "greedy-c", "random-b"] * 2
    deal = [tuple(e.payload["order"] for e in t.events[:1]) for t, _ in tables]
    assert deal[0] == deal[1] == deal[2] and deal[3] == deal[4] == deal[5] and deal[0] != deal[3]


def test_win_shares_count_a_shared_win_as_a_fraction_and_add_up_to_one() -> None:
    result = duel("highdie", ["random", "random"], 8, "shares")
    assert abs(sum(result.win_share) - 1.0) < 1e-9
    assert all(lo <= share <= hi for share, (lo, hi) in zip(result.win_share, result.ci95))
    assert result.to_json()["seats"] == ["random", "random"]
    assert set(result.to_json()) >= {"seats", "win_share", "ci95", "ms_per_move", "games"}
    assert set(result.to_json()["ms_per_move"][0]) == {"p50", "p95"}


def test_greedy_beats_random_at_highdie() -> None:
    result = duel("highdie", ["greedy", "random"], 40, "strength")
    assert result.win_share[0] > 0.6 and result.ci95[0][0] > 0.45


def test_wilson_interval_and_percentiles() -> None:
    lo, hi = wilson(0.5, 100)
    assert round(lo, 3) == 0.404 and round(hi, 3) == 0.596
    lo, hi = wilson(1.0, 30)
    assert hi == 1.0 and round(lo, 3) == 0.886
    assert wilson(0.0, 0) == (0.0, 1.0)
    assert percentile([5, 1, 4, 2, 3], 0.5) == 3 and percentile(list(range(1, 101)), 0.95) == 95
    assert percentile([], 0.5) == 0.0


def test_a_level_that_is_none_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        level_bot("expert")
    with pytest.raises(ValueError, match="2 to 4 players"):
        duel("highdie", ["random"], 1, "x")


def test_the_command_prints_each_seat_or_json() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["bot", "duel", "highdie", "--seats", "greedy,random", "--games", "4", "--seed", "1"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "highdie: 4 games, 2 seats, search budget 1000 ms"
    assert lines[1].startswith("seat 1 greedy  wins ") and "95 % interval" in lines[1] and "p95" in lines[1]
    out = runner.invoke(cli, ["bot", "duel", "highdie", "--seats", "random,random", "--games", "2", "--seed", "1",
                              "--budget-ms", "50", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["seats"] == ["random", "random"] and data["games"] == 2 and data["budget_ms"] == 50
    assert len(data["win_share"]) == len(data["ci95"]) == len(data["ms_per_move"]) == 2


def test_the_command_refuses_an_unknown_level_or_game() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["bot", "duel", "highdie", "--seats", "random,wizard", "--games", "1", "--seed", "1"])
    assert out.exit_code == 2 and "wizard: the levels are random, greedy, search" in out.output
    out = runner.invoke(cli, ["bot", "duel", "chess", "--seats", "random,random", "--games", "1", "--seed", "1"])
    assert out.exit_code == 1 and "no game 'chess'" in out.output
