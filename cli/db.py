"""``pbem db copy``: move an instance's database between SQLite and PostgreSQL (``pbem.instance.dbcopy``)."""

from __future__ import annotations

import click

from cli.common import load_settings
from cli.progress import meter, terminal
from events.store import ConcurrencyError, StoreUnavailable
from pbem.instance.config import ConfigError
from pbem.instance.database import open_address, open_store
from pbem.instance.dbcopy import CopyRefused, copy
from pbem.service import create_tables


@click.group("db")
def db() -> None:
    """The instance's database: copy it to another engine."""


@db.command("copy")
@click.option("--to", "target", required=True, metavar="ADDRESS",
              help="The empty database to copy into: postgresql://user:password@host/dbname, or a SQLite file path.")
@click.pass_context
def db_copy(ctx: click.Context, target: str) -> None:
    """Copy every game and table of the instance's database into an empty one; verify every game there.

    Stop the workers and web servers first (nothing may be written meanwhile), copy, then set
    `database` (pbem.toml or PBEM_DATABASE) to the new address and start them again
    (docs/operations.md). The target must be empty; the source is not changed.
    Example: pbem db copy --to postgresql://pbem:secret@db.example.org/pbem
    """
    settings = load_settings(ctx)
    try:
        source = open_store(settings)
        if target == settings.database_url or target == source.address:
            raise click.ClickException("the target is the instance's own database; give another one")
        into = open_address(target)
        try:
            with meter("copying") as step:  # a bar on a terminal, else a line per game and table
                report = copy(source, into, create_tables, progress=step)
        finally:
            into.close()
            source.close()
    except (CopyRefused, StoreUnavailable, ConfigError, ConcurrencyError) as err:
        raise click.ClickException(str(err)) from None
    for table in report.not_copied if terminal() else ():  # the bar showed it only in passing
        click.echo(f"table {table}: not on the target (made by another version?); not copied", err=True)
    click.echo(f"every game's chain verified on the target ({report.games} games)")
    click.echo(f"copied {report.games} games ({report.events} events) and "
               f"{sum(report.rows.values())} rows of {len(report.rows)} tables to {into.name}; "
               "set database to the new address to use it")


COMMANDS = (db,)
