"""``pbem bot``: computer players, offline (``pbem.bots``)."""

from __future__ import annotations

import click

from cli.common import print_json
from pbem.bots.duel import LEVELS, duel
from pbem.bots.games import NoBot


@click.group("bot")
def bot() -> None:
    """Computer players: play them against each other offline."""


@bot.command("duel")
@click.argument("game_type")
@click.option("--seats", required=True,
              help=f"One level per seat, in order, separated by commas: {', '.join(LEVELS)}.")
@click.option("--games", type=click.IntRange(min=1), required=True, help="How many games to play.")
@click.option("--seed", required=True, help="Seed of the deals (game g plays deal g // seats).")
@click.option("--budget-ms", type=click.IntRange(min=1), default=1000, show_default=True,
              help="The search's time per move, in milliseconds.")
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: seats, win_share, ci95, ms_per_move (p50, p95), games, unfinished.")
def bot_duel(game_type: str, seats: str, games: int, seed: str, budget_ms: int, as_json: bool) -> None:
    """Play GAMES games offline between bots, the seats rotated and each deal replayed for every rotation; print
    each seat's win share (a shared win counts 1/k), its 95 % interval, and milliseconds per move.

    Example: pbem bot duel emerald --seats search,random,random --games 30 --seed 1
    """
    levels = [s.strip() for s in seats.split(",") if s.strip()]
    unknown = [s for s in levels if s not in LEVELS]
    if unknown:
        raise click.BadParameter(f"{', '.join(unknown)}: the levels are {', '.join(LEVELS)}", param_hint="--seats")
    try:
        result = duel(game_type, levels, games, seed, budget_ms / 1000)
    except (NoBot, ValueError) as err:
        raise click.ClickException(str(err)) from None
    if as_json:
        print_json(result.to_json())
        return
    click.echo(f"{game_type}: {result.games} games, {len(levels)} seats, search budget {budget_ms} ms"
               + (f", {result.unfinished} unfinished (counted as shared)" if result.unfinished else ""))
    for i, level in enumerate(levels):
        lo, hi = result.ci95[i]
        ms = result.ms_per_move[i]
        click.echo(f"seat {i + 1} {level:<7} wins {100 * result.win_share[i]:5.1f} % "
                   f"(95 % interval {100 * lo:.1f}-{100 * hi:.1f} %), "
                   f"ms per move p50 {ms['p50']:.1f}, p95 {ms['p95']:.1f}")
