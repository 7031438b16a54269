"""``pbem organiser invite`` and ``pbem muster list|show|cancel``: games asked for from the web (``pbem.organising.muster``)."""

from __future__ import annotations

import click

from cli.common import open_service, print_json
from events.handling import Cause
from pbem.organising import muster, organisers


@click.group("organiser")
def organiser() -> None:
    """Who may create games from the web."""


@organiser.command("invite")
@click.argument("email")
@click.pass_context
def organiser_invite(ctx: click.Context, email: str) -> None:
    """Let EMAIL create games from the web: mail them a new-game link, and print it.

    Example: pbem organiser invite olive@example.org
    """
    with open_service(ctx) as service:
        if service.notifier is None:
            raise click.ClickException("this instance has no secret_key to sign links with: run `pbem init`")
        click.echo(organisers.invite(service.store, service.notifier, email))


@click.group("muster")
def muster_group() -> None:
    """Games asked for from the web, waiting for their players to accept."""


@muster_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def muster_list(ctx: click.Context, as_json: bool) -> None:
    """List the musters, newest first.

    Example: pbem muster list
    """
    with open_service(ctx) as service:
        found = muster.listing(service.store)
        if as_json:
            print_json(found)
            return
        if not found:
            click.echo("no musters yet; organisers create them on the web (`pbem organiser invite EMAIL`)")
        for m in found:
            game = f"  game {m['game_id']}" if m["game_id"] else ""
            click.echo(f"{m['muster_id']}  {m['status']:<9} {m['accepted'] or 0} of {m['places']} accepted  "
                       f"{m['title']}{game}")


@muster_group.command("show")
@click.argument("muster_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def muster_show(ctx: click.Context, muster_id: str, as_json: bool) -> None:
    """Show a muster: its game, who accepted, declined or has not answered, and whether its record verifies.

    Example: pbem muster show muster-3f9a1c22d0
    """
    with open_service(ctx) as service:
        found = muster.get(service.store, muster_id)
        broken = muster.verify(service.store, muster_id)
        if as_json:
            print_json({**found.to_json(with_emails=True), "organiser_email": found.organiser,
                        "verified": broken is None, "problem": str(broken) if broken else None})
            return
        click.echo(f"{found.title} - {muster_id} - {found.status}" + (f" - game {found.game_id}" if found.game_id
                                                                        else ""))
        click.echo(f"organiser: {found.organiser_name} <{found.organiser}>")
        for i in found.invitations:
            click.echo(f"  {i.slot + 1}. {i.name} <{i.email}>: {muster.STATUS_WORDS[i.status]} "
                       f"(expires {i.expires_at})")
        click.echo("record: verified" if broken is None else f"record: BROKEN at {broken}")


@muster_group.command("cancel")
@click.argument("muster_id")
@click.option("--reason", default="", help="Why; told to everyone invited.")
@click.pass_context
def muster_cancel(ctx: click.Context, muster_id: str, reason: str) -> None:
    """Cancel a muster: everyone invited (and the organiser) is told; the invitations stop working.

    Example: pbem muster cancel muster-3f9a1c22d0 --reason 'not enough players this month'
    """
    with open_service(ctx) as service:
        muster.get(service.store, muster_id)
        found = muster.cancel(service, muster_id, reason.strip(), cause=Cause("cli"))
        click.echo(f"{found.muster_id} {found.status}")


COMMANDS = (organiser, muster_group)
