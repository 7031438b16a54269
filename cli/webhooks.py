"""``pbem webhook``: a game's or a player's webhooks (``pbem.post.webhooks``): add, list, remove."""

from __future__ import annotations

from typing import Any

import click

from cli.common import load_settings, open_service, print_json
from events.handling import Cause
from pbem.post import webhooks


def _owner(game_id: str | None, email: str | None) -> tuple[str, str]:
    if bool(game_id) == bool(email):
        raise click.UsageError("give exactly one of --game GAME_ID or --player EMAIL")
    return ("game", str(game_id)) if game_id else ("player", str(email).strip().lower())


@click.group("webhook")
def webhook() -> None:
    """Webhooks: a game's public news, or a player's own, posted to Discord, Slack or a JSON endpoint."""


@webhook.command("add")
@click.argument("url")
@click.option("--game", "game_id", help="The game whose public news is posted (as its organiser).")
@click.option("--player", "email", help="The player (by address) whose own news is posted.")
@click.option("--kind", type=click.Choice(webhooks.KINDS), default=None,
              help="discord, slack or json. Default: guessed from the address (json for any other host).")
@click.pass_context
def webhook_add(ctx: click.Context, url: str, game_id: str | None, email: str | None, kind: str | None) -> None:
    """Add a webhook; prints its id and, for a json webhook, its signing secret (shown this once only).

    Example: pbem webhook add --game 3f9a1c22d0 https://discord.com/api/webhooks/123/abc
    """
    owner = _owner(game_id, email)
    policy = webhooks.Policy.of(load_settings(ctx))
    with open_service(ctx) as service:
        added = service.add_webhook(owner, url, kind, policy, cause=Cause("cli"))
        shown = added.webhook
        click.echo(f"webhook {shown['id']}: {webhooks.KIND_NAMES[shown['kind']]} at {shown['host']}")
        if added.secret:
            click.echo(f"signing secret (shown this once; keep it with the endpoint): {added.secret}")


@webhook.command("list")
@click.option("--game", "game_id", help="The game's webhooks.")
@click.option("--player", "email", help="The player's webhooks.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: a list of {id, kind, host, created_at, signed, "
                                                       "pending, failed, last_error}.")
@click.pass_context
def webhook_list(ctx: click.Context, game_id: str | None, email: str | None, as_json: bool) -> None:
    """List a game's or a player's webhooks in use: kind, host (never the address), posts waiting and failed.

    Example: pbem webhook list --player alice@example.org
    """
    owner = _owner(game_id, email)
    with open_service(ctx) as service:
        found: list[dict[str, Any]] = webhooks.owned(service.store, *owner)
        if as_json:
            print_json(found)
            return
        if not found:
            click.echo("no webhooks")
        for hook in found:
            trouble = f"  last error: {hook['last_error']}" if hook["failed"] else ""
            click.echo(f"{hook['id']}  {hook['kind']:<7} {hook['host']}  added {hook['created_at'][:16]}  "
                       f"{hook['pending']} waiting, {hook['failed']} failed{trouble}")


@webhook.command("remove")
@click.argument("webhook_id")
@click.option("--game", "game_id", help="The game the webhook belongs to.")
@click.option("--player", "email", help="The player the webhook belongs to.")
@click.pass_context
def webhook_remove(ctx: click.Context, webhook_id: str, game_id: str | None, email: str | None) -> None:
    """Stop a webhook: nothing more is posted to it (a game's removal is an event of the game).

    Example: pbem webhook remove --game 3f9a1c22d0 5c0e2a9b41d7
    """
    owner = _owner(game_id, email)
    with open_service(ctx) as service:
        service.remove_webhook(owner, webhook_id, cause=Cause("cli"))
        click.echo(f"webhook {webhook_id} removed")
