"""``pbem player``: a player as the server knows them (``pbem.post.profile``)."""

from __future__ import annotations

import click

from cli.common import open_service, print_json
from pbem.post import profile


@click.group("player")
def player() -> None:
    """A player: their games, settings, record and mail."""


@player.command("show")
@click.argument("email")
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: {email, name, player_id, games, settings, reliability, mail}.")
@click.pass_context
def player_show(ctx: click.Context, email: str, as_json: bool) -> None:
    """Show a player's games (title, seat, status), settings (time zone, mail mode), reliability, and whether their
    mail arrives (mail.status: ok, bouncing or unreachable, with the last delivery reports).

    Example: pbem player show ann@example.org
    """
    with open_service(ctx) as service:
        zone = str(service.settings["timezone"]) if service.settings else "UTC"
        found = profile.show(service.store, email, zone)
    if as_json:
        print_json(found)
        return
    for line in profile.lines(found):
        click.echo(line)
