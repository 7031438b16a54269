"""The ``pbem game`` commands that read and prove: the log, the replay, export and import, verify, audit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from cli.common import open_service, print_json as _print_json
from cli.progress import meter
from pbem.proof import witness
from pbem.service import Player

@click.command("log")
@click.argument("game_id")
@click.option("--as", "email", default=None, help="As this player may see it (default: public).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: one record per event.")
@click.pass_context
def game_log(ctx: click.Context, game_id: str, email: str | None, as_json: bool) -> None:
    """Show the event log in words, as a player or a spectator may read it.

    Example: pbem game log 3f9a1c22d0 --as alice@example.org
    """
    with open_service(ctx) as service:
        lines = service.log(game_id, email)
        if as_json:
            _print_json(lines)
            return
        for line in lines:
            mark = "  [undone]" if line["undone"] else ""
            click.echo(f"{line['seq']:>5}  {line['recorded_at'][:19]}  {line['actor']:<9} {line['text']}{mark}")


@click.command("replay")
@click.argument("game_id")
@click.option("--as", "email", default=None, help="As this player saw it at the time (default: a spectator).")
@click.option("--all", "everything", is_flag=True, help="Everything revealed (only once the game has ended).")
@click.option("--to", "at", type=int, default=None, help="The move to show (default: the last).")
@click.option("--with-undone", is_flag=True, help="Step through taken-back moves too.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def game_replay(ctx: click.Context, game_id: str, email: str | None, everything: bool, at: int | None,
                with_undone: bool, as_json: bool) -> None:
    """Show the game at one move as it was then: the moves up to it and the table.

    Example: pbem game replay 3f9a1c22d0 --as alice@example.org --to 40
    """
    if email and everything:
        raise click.UsageError("choose --as EMAIL or --all, not both")
    with open_service(ctx) as service:
        seat = service.seat_of(game_id, email) if email else None
        shown = service.replay(game_id, at, seat=seat, everything=everything, with_undone=with_undone)
        if as_json:
            _print_json(shown)
            return
        who = "everything revealed" if everything else f"as {shown['perspective']['name']} saw it" if email \
            else "as a spectator saw it"
        step = f"step {shown['step']} of {shown['steps']}" if shown["step"] else "a taken-back step"
        click.echo(f"{shown['title']} - game {game_id} - {shown['event']['where']}, {shown['event']['who']} - {who}")
        click.echo(f"{step}; event {shown['at']} of {shown['last']} on record")  # the number --to takes
        steps = [f"{label} {shown[key]}" for label, key in (("previous", "prev"), ("next", "next")) if shown[key]]
        if steps:
            click.echo("steps: " + ", ".join(steps))
        for line in shown["events"]:  # each with its event number (what --to takes) and the game's count, as the page
            back = line["undone_by"]
            mark = f"  [taken back by {back['who']} at {back['at'][:19]} ({back['where']})]" if back else ""
            pointer = ">" if line["seq"] == shown["at"] else " "
            click.echo(f"{pointer}{line['seq']:>5}  {line['where']:<22}  {line['recorded_at'][:19]}  {line['who']:<12} "
                       f"{line['text']}{mark}")
        if shown["waiting_for"]:
            click.echo("waiting for: " + ", ".join(f"{w['name']} ({w['text']})" for w in shown["waiting_for"]))
        if shown["outcome"]:
            click.echo("outcome: " + shown["outcome"].get("summary", ""))
        for name, view in shown["views"].items():
            click.echo(f"-- the table, {name} --")
            click.echo(json.dumps(view, indent=2, sort_keys=True, ensure_ascii=False))


@click.command("export")
@click.argument("game_id")
@click.option("--with-secrets", is_flag=True,
              help="Include the players' emails and the secret seed (to move a running game to another server).")
@click.pass_context
def game_export(ctx: click.Context, game_id: str, with_secrets: bool) -> None:
    """Write the game record (JSON lines, docs/record-format.md) to standard output.

    Example: pbem game export 3f9a1c22d0 > game.jsonl
    """
    with open_service(ctx) as service:
        for line in service.export(game_id, with_secrets=with_secrets):
            click.echo(line)


@click.command("import")
@click.argument("record", type=click.File("r", encoding="utf-8"))
@click.option("--player", "players", multiple=True, help="Email for each seat, in order (else from the record).")
@click.pass_context
def game_import(ctx: click.Context, record: Any, players: tuple[str, ...]) -> None:
    """Verify a game record and load it.

    Example: pbem game import game.jsonl
    """
    with open_service(ctx) as service:
        state = service.import_record(record, [Player.parse(p) for p in players])
        click.echo(f"imported game {state.game_id}: {state.seq} events, verified")


@click.command("verify")
@click.argument("game_id")
@click.option("--witness", "witness_files", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="A saved mail or receipt of the game: the log must hold the chain head it names. Repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def game_verify(ctx: click.Context, game_id: str, witness_files: tuple[str, ...], as_json: bool) -> None:
    """Check the hash chain; once the game has ended, every draw and every move too.

    With --witness, the log must also hold every chain head the players' saved mails name.
    Exits 1 and names the first bad event if a check fails.
    Example: pbem game verify 3f9a1c22d0 --witness ~/Mail/pbem/*.eml
    """
    files = [(name, Path(name).read_bytes()) for name in witness_files]
    found = witness.read(game_id, files)
    if files and not found:
        raise click.ClickException(f"no chain head of game {game_id} in {', '.join(witness_files)}: give mails "
                                   "or receipts of this game (they carry a line 'Witness: game ..., event ..., hash ...')")
    with open_service(ctx) as service:
        # a long game takes seconds: a bar on a terminal, or a count
        with meter(f"verifying {game_id}", lines=10, words_on_bar=False) as step:
            report = service.verify(game_id, found, progress=lambda done, total: step(
                done, total, f"verifying {game_id}: {done} of {total} commands checked"))
        if as_json:
            _print_json(report.to_json())
        else:
            for check in report.checks:
                click.echo(f"checked: {check}")
            click.echo("OK" if report.ok else f"FAILED at {report.failure}")
        if not report.ok:
            ctx.exit(1)


@click.command("audit")
@click.argument("game_id")
@click.argument("seq", type=int)
@click.pass_context
def game_audit(ctx: click.Context, game_id: str, seq: int) -> None:
    """Explain one event: who sent what through which channel, the states before and after, the checks.

    Example: pbem game audit 3f9a1c22d0 17
    """
    with open_service(ctx) as service:
        _print_json(service.audit(game_id, seq))


COMMANDS = (game_log, game_replay, game_export, game_import, game_verify, game_audit)
