"""``pbem game away | back | resign | take-back | replace``: a seat's life at the table (``pbem.table.seatlife``)."""

from __future__ import annotations

from typing import Any

import click

from cli.common import open_service
from events.handling import Cause
from pbem.table import botseats, seatlife
from pbem.table.autopilot import organiser_of
from pbem.table.seat_events import when
from pbem.service import Player, Service, ServiceError


def seat_options(vacation: str | None, autopilot_after: int | None, autopilot_bot: str | None = None,
                 bots: tuple[str, ...] = (), humans: int = 0) -> dict[str, Any]:
    """``pbem game new``'s ``--vacation``, ``--autopilot-after``, ``--autopilot-bot`` and ``--bot`` as game options."""
    try:
        return {**seatlife.options(vacation, autopilot_after, autopilot_bot),
                **botseats.options(None, bots, humans)}
    except ServiceError as err:
        raise click.BadParameter(str(err)) from None


def seat_lines(service: Service, game_id: str) -> list[str]:
    """``pbem game show``'s lines on the organiser, the policies, and who is away or on autopilot."""
    found = seatlife.seats_of(service, game_id)
    organiser = organiser_of(service.store, game_id)
    lines = [f"organiser: {organiser}" if organiser else
             "note: this game has no organiser address, so nobody is mailed to find a substitute for a seat on "
             "autopilot",
             f"vacations: {found['vacation_words']}; autopilot after "
             + (f"{found['autopilot_after']} missed deadlines in a row" if found["autopilot_after"] else "never")
             + f"; the autopilot's computer player: {found['autopilot_bot']}"]
    for seat in found["seats"]:
        for absence in seat["away"]:
            lines.append(f"{seat['name']} {'is' if absence['running'] else 'will be'} away from "
                         f"{when(absence['from'])} until {when(absence['until'])}")
        if seat["bot"]:
            lines.append(f"{seat['name']} is played by the computer ({seat['bot']})")
        elif seat["autopilot"]:
            lines.append(f"{seat['name']} is on autopilot" + (" (resigned)" if seat["resigned"] else ""))
    return lines


def _echo(result: Any) -> None:
    for event in result.events:
        click.echo(f"{event.seq}  {event.type}  {event.hash[:16]}")


@click.command("away")
@click.argument("game_id")
@click.argument("first_day")
@click.argument("back_day")
@click.option("--as", "email", required=True, help="The player who will be away.")
@click.option("--reason", default="", help="Why (kept to the player unless --share).")
@click.option("--share", is_flag=True, help="Tell the table the reason too.")
@click.pass_context
def game_away(ctx: click.Context, game_id: str, first_day: str, back_day: str, email: str, reason: str,
              share: bool) -> None:
    """Declare an absence from FIRST_DAY until BACK_DAY (days in the player's time zone); prints its events.

    Example: pbem game away 3f9a1c22d0 2026-12-01 2026-12-08 --as bob@example.org --reason skiing
    """
    with open_service(ctx) as service:
        seat = service.seat_of(game_id, email)
        _echo(service.declare_absence(game_id, seat, first_day, back_day, reason, share, cause=Cause("cli")))


def _seat_command(what: str, help_text: str) -> click.Command:
    @click.command(what, help=help_text)
    @click.argument("game_id")
    @click.option("--as", "email", required=True, help="The player.")
    @click.pass_context
    def command(ctx: click.Context, game_id: str, email: str) -> None:
        with open_service(ctx) as service:
            _echo(service.seat_command(game_id, service.seat_of(game_id, email), what, cause=Cause("cli")))
    return command


game_back = _seat_command("back", "End the player's absence now (or cancel the next one), and take their seat "
                                  "off autopilot.\n\nExample: pbem game back 3f9a1c22d0 --as bob@example.org")
game_take_back = _seat_command("take-back", "Take the player's seat off autopilot.\n\n"
                                            "Example: pbem game take-back 3f9a1c22d0 --as bob@example.org")
game_resign = _seat_command("resign", "Resign from the game: the seat goes on autopilot until the organiser "
                                      "gives it to another player.\n\n"
                                      "Example: pbem game resign 3f9a1c22d0 --as bob@example.org")


@click.command("replace")
@click.argument("game_id")
@click.argument("seat", type=int)
@click.argument("email")
@click.option("--name", default=None, help="The new player's name (default: the address before the @).")
@click.pass_context
def game_replace(ctx: click.Context, game_id: str, seat: int, email: str, name: str | None) -> None:
    """Give SEAT (its number from 1, as `pbem game show` lists it) to another player; their old links stop working.

    Example: pbem game replace 3f9a1c22d0 2 dora@example.org --name Dora
    """
    if seat < 1:
        raise click.ClickException(f"seats are numbered from 1, as `pbem game show` lists them; not {seat}")
    with open_service(ctx) as service:
        player = Player.parse(f"{name} <{email}>" if name else email)
        _echo(service.replace(game_id, seat - 1, player, cause=Cause("cli")))


COMMANDS = (game_away, game_back, game_take_back, game_resign, game_replace)
