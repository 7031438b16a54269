"""``pbem game position``: a game's whole position at one event, as a TOML file (``pbem.organising.positions``)."""

from __future__ import annotations

from typing import Any

import click

from cli.common import open_service
from pbem.errors import ServiceError
from pbem.organising import positions


@click.command("position")
@click.argument("game_id")
@click.option("--at", "at", type=click.IntRange(min=1), default=None,
              help="The event after which to take the position (default: the last).")
@click.option("--out", "out", type=click.File("w", encoding="utf-8", lazy=True), default="-",
              help="The file to write (default: standard output).")
@click.pass_context
def game_position(ctx: click.Context, game_id: str, at: int | None, out: Any) -> None:
    """Write the game's whole position after event N as TOML, for `pbem game new --position`.

    For the organiser or the operator only: the position holds every secret of the game at that moment (every
    hand and deck, the identities), as the organiser's audit sees it.
    Example: pbem game position 3f9a1c22d0 --at 40 --out disputed.toml
    """
    with open_service(ctx) as service:
        text = service.position(game_id, at)
    out.write(text)
    if out.name != "<stdout>":
        click.echo(f"wrote the position of game {game_id} to {out.name}", err=True)


def read_position(file: Any) -> dict[str, Any]:
    """A position file given to `pbem game new --position` (TOML, or the same structure as JSON)."""
    raw = file.read()
    try:
        return positions.parse(raw)
    except ServiceError as err:
        raise click.ClickException(f"{file.name}: {err}") from None


COMMANDS = (game_position,)
