"""``pbem mail``: the outbox, what was sent, what waits, what failed, what is being sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from cli.common import load_settings, open_service, print_json


@click.group()
def mail() -> None:
    """The outbox: what was sent, what waits, what failed."""


def _counts(found: dict[str, Any]) -> str:
    counts = found["counts"]
    line = ", ".join(f"{counts.get(k, 0)} {k}" for k in ("pending", "sent", "failed"))
    sending = sum(not c["lapsed"] for c in found["claims"])
    return line + (f" ({sending} being sent now)" if sending else "")


@mail.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {counts, trouble, claims}.")
@click.pass_context
def mail_status(ctx: click.Context, as_json: bool) -> None:
    """Count mails by status; list every failed or retrying one with its last error, and every one being sent.

    Example: pbem mail status
    """
    from pbem.post.mail.dispatch import status

    with open_service(ctx) as service:
        found = status(service.store)
        if as_json:
            print_json(found)
            return
        click.echo(_counts(found))
        for row in found["trouble"]:
            click.echo(f"{row['status']:<8} {row['to_addr']}  {row['subject']}  attempts {row['attempts']}  "
                       f"{'next ' + row['due_at'] if row['status'] == 'pending' else ''}  {row['last_error']}")
        for row in found["claims"]:
            if row["lapsed"]:
                click.echo(f"lapsed   {row['to_addr']}  {row['subject']}  claimed by {row['claimed_by']} until "
                           f"{row['claim_until']}: that sender stopped; the next run sends it again")
            else:
                click.echo(f"sending  {row['to_addr']}  {row['subject']}  by {row['claimed_by']} "
                           f"(claimed until {row['claim_until']})")


@mail.command("send")
@click.pass_context
def mail_send(ctx: click.Context) -> None:
    """Send every due mail now, in batches of 200 (what the scheduler does a batch at a time, every few seconds).

    Safe beside a running worker: each mail is claimed by one sender before it is sent.
    Example: pbem mail send
    """
    from pbem.instance.config import ConfigError
    from pbem.post.mail.dispatch import status
    from pbem.scheduler import Jobs

    try:
        Jobs(load_settings(ctx)).send_mail(every=True)
    except ConfigError as err:  # e.g. a dkim_key that cannot be read: nothing is sent unsigned
        raise click.ClickException(str(err)) from None
    with open_service(ctx) as service:
        click.echo(_counts(status(service.store)))


@mail.command("retry")
@click.pass_context
def mail_retry(ctx: click.Context) -> None:
    """Queue every failed mail again (after fixing the cause, e.g. the SMTP settings).

    Example: pbem mail retry
    """
    from pbem.post.mail.dispatch import retry_failed

    with open_service(ctx) as service:
        click.echo(f"{retry_failed(service.store)} mail(s) queued again")


@mail.command("dkim-key")
@click.option("--file", "path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the private key. Default: dkim/SELECTOR.pem in the instance folder.")
@click.pass_context
def mail_dkim_key(ctx: click.Context, path: Path | None) -> None:
    """Make a DKIM key to sign mails with, and print the DNS record to publish and the settings to add.

    For operators whose server sends directly; a provider that relays your mail signs it itself. A key file that
    exists is never overwritten. The selector and domain are the dkim_selector and dkim_domain settings (default:
    pbem, and the domain of mail_from).
    Example: pbem mail dkim-key
    """
    from pbem.instance.config import ConfigError
    from pbem.post.mail.dkim_signing import domain_of, make_key, txt_record

    settings = load_settings(ctx)
    selector, domain = str(settings["dkim_selector"]), domain_of(settings)
    target = path or settings.instance / "dkim" / f"{selector}.pem"
    try:
        value = make_key(target if target.is_absolute() else Path.cwd() / target)
    except ConfigError as err:
        raise click.ClickException(str(err)) from None
    shown = target.resolve()
    try:
        setting = shown.relative_to(settings.instance.resolve())
    except ValueError:
        setting = shown
    click.echo(f"private key written to {shown} (keep it secret; back it up)")
    click.echo("publish this DNS record:")
    click.echo(f"  {txt_record(selector, domain, value)}")
    click.echo("then add to pbem.toml:")
    click.echo(f'  dkim_key = "{setting}"')
    if not settings["dkim_domain"]:
        click.echo(f'  # signing domain: {domain} (from mail_from; set dkim_domain to change it)')
