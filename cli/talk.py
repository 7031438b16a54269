"""``pbem game say``: table talk from the command line (``pbem.table.talk``)."""

from __future__ import annotations

import click

from cli.common import open_service
from events.handling import Cause
from pbem.table import talk


@click.command("say")
@click.argument("game_id")
@click.argument("text")
@click.option("--as", "email", required=True, help="The player who writes.")
@click.option("--to", "to", multiple=True, help="A player it is for (repeat for several); none: everyone.")
@click.option("--note", "kind", flag_value="note", help="A private note to oneself instead of a message.")
@click.option("--seal", "kind", flag_value="seal", help="A sealed note, read by everyone when the game ends.")
@click.pass_context
def game_say(ctx: click.Context, game_id: str, text: str, email: str, to: tuple[str, ...], kind: str | None) -> None:
    """Say something at the table, to some players, or write a private or a sealed note; prints its event.

    Example: pbem game say 3f9a1c22d0 --as alice@example.org --to Bob 'Meet me in Paris'
    """
    with open_service(ctx) as service:
        seat = service.seat_of(game_id, email)
        names = [s["name"] for s in service.show(game_id)["seats"]]
        kind = kind or "say"
        recipients = talk.recipients(list(to), names, seat) if to and kind == "say" else None
        result = service.say(game_id, seat, talk.Talk(kind, talk.words(text), recipients), cause=Cause("cli"))
        for event in result.events:
            click.echo(f"{event.seq}  {event.type}  {event.hash[:16]}")


COMMANDS = (game_say,)
