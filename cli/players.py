"""``pbem player``: a player as the server knows them (``pbem.post.profile``)."""

from __future__ import annotations

import click

from cli.common import open_service, print_json
from pbem.post import profile
from pbem.post.people import MAIL_MODES, TALK_MODES, MailSettingError, mail_settings, set_mail


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


@player.command("mail")
@click.argument("email")
@click.option("--decisions", type=click.Choice(MAIL_MODES), default=None,
              help="every: a mail for every decision (the default); daily: one digest a day.")
@click.option("--receipts", type=click.Choice(("on", "off")), default=None,
              help="on: a mail for every move, even one that ends the player's part.")
@click.option("--talk", type=click.Choice(TALK_MODES), default=None,
              help="When table talk comes: soon (one mail a few minutes after a burst of messages), turn (with "
                   "the next turn mail, the default) or digest (in the daily digest).")
@click.pass_context
def player_mail(ctx: click.Context, email: str, decisions: str | None, receipts: str | None,
                talk: str | None) -> None:
    """Set which mails a player gets, as they can on their games page; prints the settings (what is not given
    stays as it was).

    Example: pbem player mail ann@example.org --talk soon
    """
    with open_service(ctx) as service:
        now = mail_settings(service.store, email.strip().lower())
        try:
            chosen = set_mail(service.store, service.player_id(email.strip().lower()), decisions or now.mode,
                              receipts or ("on" if now.receipts else "off"), talk)
        except MailSettingError as err:
            raise click.ClickException(str(err)) from None
    click.echo(f"{email}: {chosen.words()}")
