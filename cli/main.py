"""The ``pbem`` command: each command is a few lines over ``pbem.service``."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import click

from events.handling import Cause, UndoRefused
from events.rules import ActionError
from events.store import ConcurrencyError
from pbem import config
from pbem.delivery import UNDO_REQUEST_CLOSED
from pbem.games import all_games
from pbem.service import Player, Service, ServiceError


def _print_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False))


@contextmanager
def open_service(ctx: click.Context) -> Iterator[Service]:
    """The service for the chosen instance; library errors become one clear line and exit 1."""
    instance: Path = ctx.obj["instance"]
    try:
        settings = config.load(instance)
    except config.ConfigError as err:
        raise click.ClickException(str(err)) from None
    service = Service.open(settings)
    try:
        yield service
    except (ServiceError, ActionError, ConcurrencyError, LookupError) as err:
        raise click.ClickException(str(err)) from None
    finally:
        service.close()


@click.group()
@click.option("--instance", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Instance folder (config and database). Default: $PBEM_INSTANCE, else ./instance.")
@click.version_option(package_name="pbem")
@click.pass_context
def cli(ctx: click.Context, instance: Path | None) -> None:
    """pbem: play slow board games by email.

    Example: pbem game new emerald --player alice@example.org --player bob@example.org
    """
    ctx.obj = {"instance": config.instance_path(instance)}


@cli.command()
@click.pass_context
def init(ctx: click.Context) -> None:
    """Create the instance folder, its config file with a random secret key, and the database.

    Example: pbem --instance ./instance init
    """
    path, created = config.init_instance(ctx.obj["instance"])
    with open_service(ctx) as service:
        click.echo(f"{'created' if created else 'kept'} {path}; database {service.store.path}")


@cli.group()
def game() -> None:
    """Create, play, inspect and verify games."""


def _key_value(values: tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--option")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


@game.command("new")
@click.argument("game_type")
@click.option("--player", "players", multiple=True, required=True,
              help="A player's email, or 'Name <email>'; once per seat, in seat order.")
@click.option("--seed", default=None, help="Secret seed (default: random). Only for tests and demos.")
@click.option("--option", "options", multiple=True, help="Game option KEY=VALUE (VALUE read as JSON if it can be).")
@click.option("--data", "data_file", type=click.File("r", encoding="utf-8"), default=None,
              help="A data override file (JSON) with corrected card or board values.")
@click.pass_context
def game_new(ctx: click.Context, game_type: str, players: tuple[str, ...], seed: str | None,
             options: tuple[str, ...], data_file: Any) -> None:
    """Create a game and print its id.

    Example: pbem game new emerald --player 'Alice <alice@example.org>' --player bob@example.org
    """
    with open_service(ctx) as service:
        try:
            override = json.load(data_file) if data_file else None
        except json.JSONDecodeError as err:
            raise click.ClickException(f"{data_file.name} is not JSON: {err}") from None
        result = service.create_game(game_type, [Player.parse(p) for p in players], seed=seed,
                                     options=_key_value(options), data_override=override)
        click.echo(result.after.game_id)


@game.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def game_list(ctx: click.Context, as_json: bool) -> None:
    """List the games.

    Example: pbem game list --json
    """
    with open_service(ctx) as service:
        games = service.list_games()
        if as_json:
            _print_json(games)
            return
        if not games:
            click.echo("no games yet; create one with `pbem game new TYPE --player EMAIL ...`")
        for g in games:
            click.echo(f"{g['game_id']}  {g['game_type']:<10} {g['status']:<8} {g['seats']} players  "
                       f"move {g['last_seq']}  {g['title']}")


@game.command("show")
@click.argument("game_id")
@click.option("--as", "email", default=None, help="Show the private view of this player.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def game_show(ctx: click.Context, game_id: str, email: str | None, as_json: bool) -> None:
    """Show a game: the public view, or one player's private view.

    Example: pbem game show 3f9a1c22d0 --as alice@example.org
    """
    with open_service(ctx) as service:
        shown = service.show(game_id, email)
        if as_json:
            _print_json(shown)
            return
        click.echo(f"{shown['title']} - game {game_id} - move {shown['seq']} - {shown['status']}")
        click.echo("seats: " + ", ".join(f"{s['seat']}: {s['name']}" for s in shown["seats"]))
        if shown["waiting_for"]:
            click.echo("waiting for: " + ", ".join(f"{w['name']} ({w['text']})" for w in shown["waiting_for"]))
        asked = shown["undo_request"]
        if asked:
            answers = ", ".join(f"{a['name']} {a['answer'] or 'no answer yet'}" for a in asked["approvers"])
            click.echo(f"undo request {asked['request']}: {asked['name']} asks to take back events "
                       f"{asked['from_seq']}-{asked['to_seq']}, open until {asked['due_at']} UTC ({answers})")
        if shown["outcome"]:
            click.echo("outcome: " + json.dumps(shown["outcome"], sort_keys=True))
        assumed = shown["view"].get("assumed") if isinstance(shown["view"], dict) else None
        if assumed:
            click.echo(f"note: {len(assumed)} card and board values of this game are assumed, not printed in the "
                       "rulebook (listed under 'assumed'); owners of the game can correct them with --data")
        click.echo(json.dumps(shown["view"], indent=2, sort_keys=True, ensure_ascii=False))


@game.command("legal")
@click.argument("game_id")
@click.option("--as", "email", required=True, help="The player.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: [{text, action}].")
@click.pass_context
def game_legal(ctx: click.Context, game_id: str, email: str, as_json: bool) -> None:
    """List a player's legal actions now, as the text commands `act` accepts.

    Example: pbem game legal 3f9a1c22d0 --as alice@example.org
    """
    with open_service(ctx) as service:
        actions = service.legal(game_id, email)
        if as_json:
            _print_json(actions)
            return
        if not actions:
            click.echo("nothing to do now")
        for action in actions:
            click.echo(action["text"])


@game.command("act")
@click.argument("game_id")
@click.argument("command")
@click.option("--as", "email", required=True, help="The player acting.")
@click.pass_context
def game_act(ctx: click.Context, game_id: str, command: str, email: str) -> None:
    """Play a text command for a player, and print the events it recorded.

    Example: pbem game act 3f9a1c22d0 --as alice@example.org 'claim London using 7'
    """
    with open_service(ctx) as service:
        result = service.act(game_id, email, command, cause=Cause("cli"))
        for event in result.events:
            click.echo(f"{event.seq}  {event.type}  {event.hash[:16]}")


@game.command("undo")
@click.argument("game_id")
@click.option("--as", "email", required=True, help="The player undoing their last action.")
@click.option("--request", "ask", is_flag=True,
              help="Beyond the horizon: ask the other players to agree to take back your last move.")
@click.option("--reason", default="", help="With --request: why, for the other players and the record.")
@click.pass_context
def game_undo(ctx: click.Context, game_id: str, email: str, ask: bool, reason: str) -> None:
    """Undo the player's own last action, if nobody acted since and it revealed nothing.

    Beyond that, --request asks every other player to agree (they answer by mail, on the web or
    with `pbem game undo-answer`); no answer by the deadline counts as a refusal.
    Example: pbem game undo 3f9a1c22d0 --as alice@example.org
    """
    with open_service(ctx) as service:
        seat = service.seat_of(game_id, email)
        if ask:
            result = service.request_undo(game_id, seat, reason, cause=Cause("cli"))
            asked = result.events[0].payload
            names = [s["name"] for s in service.show(game_id)["seats"]]
            click.echo(f"asked {' and '.join(names[s] for s in asked['approvers'])} to take back events "
                       f"{asked['from_seq']}-{asked['to_seq']}: request {asked['request']}, "
                       f"open until {asked['due_at']} UTC")
            return
        try:
            result = service.undo(game_id, email, cause=Cause("cli"))
        except UndoRefused as refused:
            hint = ""
            if service.can_request_undo(game_id, seat)[0]:
                hint = f"; `pbem game undo {game_id} --as {email} --request` asks the other players to agree"
            raise click.ClickException(f"{refused}{hint}") from None
        undo = result.events[0]
        click.echo(f"undid events {undo.payload['from_seq']}-{undo.payload['to_seq']} (recorded as event {undo.seq})")


@game.command("undo-answer")
@click.argument("game_id")
@click.argument("request")
@click.argument("answer", type=click.Choice(["approve", "refuse"]))
@click.option("--as", "email", default=None, help="The asked player answering.")
@click.option("--organiser", is_flag=True, help="Decide for the players, as the organiser.")
@click.option("--reason", default="", help="With --organiser: why, for the players and the record.")
@click.pass_context
def game_undo_answer(ctx: click.Context, game_id: str, request: str, answer: str, email: str | None,
                     organiser: bool, reason: str) -> None:
    """Answer an undo request as one of the asked players, or decide it as the organiser.

    The request id is in `pbem game show ID` and in the players' mails.
    Example: pbem game undo-answer 3f9a1c22d0 5be2c0a1d4 approve --as bob@example.org
    """
    if organiser == (email is not None):
        raise click.UsageError("give exactly one of --as EMAIL (a player's answer) or --organiser (a decision)")
    with open_service(ctx) as service:
        if organiser:
            result = service.decide_undo(game_id, request, answer, reason, cause=Cause("cli"))
        else:
            seat = service.seat_of(game_id, str(email))
            result = service.answer_undo(game_id, request, seat, answer, cause=Cause("cli"))
        closed = next((e.payload for e in result.events if e.type == UNDO_REQUEST_CLOSED), None)
        if closed is None:
            waiting = service.undo_request(game_id, request)
            names = [s["name"] for s in service.show(game_id)["seats"]]
            click.echo(f"answered {answer}; still waiting for "
                       f"{' and '.join(names[s] for s in waiting.waiting_for()) if waiting else 'nobody'}")
        else:
            click.echo(f"request {request} closed, {closed['result']}: {closed['reason']}")
        for event in result.events:
            click.echo(f"{event.seq}  {event.type}  {event.hash[:16]}")


@game.command("log")
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


@game.command("replay")
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
        click.echo(f"{shown['title']} - game {game_id} - move {shown['at']} of {shown['last']} - {who}")
        steps = [f"{label} {shown[key]}" for label, key in (("previous", "prev"), ("next", "next")) if shown[key]]
        if steps:
            click.echo("steps: " + ", ".join(steps))
        for line in shown["events"]:
            mark = "" if not line["undone_by"] else \
                f"  [undone by {line['undone_by']['who']} at {line['undone_by']['at'][:19]} (move {line['undone_by']['seq']})]"
            pointer = ">" if line["seq"] == shown["at"] else " "
            click.echo(f"{pointer}{line['seq']:>5}  {line['recorded_at'][:19]}  {line['who']:<12} {line['text']}{mark}")
        if shown["waiting_for"]:
            click.echo("waiting for: " + ", ".join(f"{w['name']} ({w['text']})" for w in shown["waiting_for"]))
        if shown["outcome"]:
            click.echo("outcome: " + shown["outcome"].get("summary", ""))
        for name, view in shown["views"].items():
            click.echo(f"-- the table, {name} --")
            click.echo(json.dumps(view, indent=2, sort_keys=True, ensure_ascii=False))


@game.command("export")
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


@game.command("import")
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


@game.command("verify")
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def game_verify(ctx: click.Context, game_id: str, as_json: bool) -> None:
    """Check the hash chain; once the game has ended, every draw and every move too.

    Exits 1 and names the first bad event if a check fails.
    Example: pbem game verify 3f9a1c22d0
    """
    with open_service(ctx) as service:
        report = service.verify(game_id)
        if as_json:
            _print_json(report.to_json())
        else:
            for check in report.checks:
                click.echo(f"checked: {check}")
            click.echo("OK" if report.ok else f"FAILED at {report.failure}")
        if not report.ok:
            ctx.exit(1)


@game.command("audit")
@click.argument("game_id")
@click.argument("seq", type=int)
@click.pass_context
def game_audit(ctx: click.Context, game_id: str, seq: int) -> None:
    """Explain one event: who sent what through which channel, the states before and after, the checks.

    Example: pbem game audit 3f9a1c22d0 17
    """
    with open_service(ctx) as service:
        _print_json(service.audit(game_id, seq))


DEMO_PLAYERS = ("Alice <alice@example.org>", "Bob <bob@example.org>", "Carol <carol@example.org>")


def _settings(ctx: click.Context) -> config.Settings:
    try:
        return config.load(ctx.obj["instance"])
    except config.ConfigError as err:
        raise click.ClickException(str(err)) from None


def _logging() -> None:
    import logging
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # its every run is noise; pbem logs what it did


@cli.command()
@click.option("--demo", is_flag=True,
              help="On an instance without games, first create a three-player demo game and print its links.")
@click.option("--game", "game_type", default="emerald", show_default=True, help="The game type of --demo.")
@click.pass_context
def serve(ctx: click.Context, demo: bool, game_type: str) -> None:
    """Run the web pages, the scheduler and the mailbox in one process (the embedded defaults).

    Creates the instance on first run. Stop with Ctrl-C.
    Example: pbem serve --demo
    """
    from werkzeug.serving import make_server

    from pbem.scheduler import SchedulerRunning, build, scheduler_lock
    from pbem.web import create_app

    config.init_instance(ctx.obj["instance"])
    settings = _settings(ctx)
    _logging()
    if demo:
        with open_service(ctx) as service:
            fresh = not service.list_games()
        if fresh:
            ctx.invoke(demo_command, game_type=game_type)
        else:
            click.echo("the instance has games already: no new demo game (use `pbem demo` for another)")
    app = create_app({"instance": str(settings.instance)})
    try:
        with scheduler_lock(settings.instance):
            scheduler = build(settings, blocking=False)
            scheduler.start()
            server = make_server(str(settings["host"]), int(settings["port"]), app, threaded=True)
            click.echo(f"pbem serving {settings['base_url']} (listening on {settings['host']}:{settings['port']}); "
                       f"instance {settings.instance}" + (f"; mails at {settings['base_url']}/dev/mail"
                                                          if settings.dev else ""))
            try:
                server.serve_forever()
            except KeyboardInterrupt:
                pass
            finally:
                scheduler.shutdown(wait=True)
    except SchedulerRunning as err:
        raise click.ClickException(f"{err}; stop it, or run only the web pages with gunicorn") from None


@cli.command()
@click.pass_context
def worker(ctx: click.Context) -> None:
    """Run the scheduler alone (production: the web pages run under gunicorn).

    Sends mails, reminds, times out, and reads the inbound Maildir if set. Refuses to start if
    another scheduler runs for this instance. Example: pbem worker
    """
    from pbem.scheduler import SchedulerRunning, build, scheduler_lock

    settings = _settings(ctx)
    _logging()
    try:
        with scheduler_lock(settings.instance):
            click.echo(f"pbem worker for {settings.instance}")
            try:
                build(settings, blocking=True).start()
            except KeyboardInterrupt:
                pass
    except SchedulerRunning as err:
        raise click.ClickException(str(err)) from None


@cli.command()
@click.option("--maildir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Read every message of this Maildir (else one message from standard input).")
@click.pass_context
def inbound(ctx: click.Context, maildir: Path | None) -> None:
    """Apply a reply mail (RFC 822 on standard input, e.g. from a mail server's pipe), or a Maildir.

    Exits 1 if the message carries no game link, so the mail server bounces it with the reason.
    Example: pbem inbound < reply.eml
    """
    from pbem.mail.inbound import UnknownReply, process, process_maildir

    settings = _settings(ctx)
    with open_service(ctx) as service:
        if maildir is not None:
            click.echo(f"{process_maildir(service, maildir)} messages read")
            return
        try:
            outcome = process(service, sys.stdin.buffer.read(), str(settings["reply_address"]))
        except UnknownReply as err:
            raise click.ClickException(str(err)) from None
        click.echo(f"applied {len(outcome.applied)} command(s)" + (f"; error: {outcome.error}" if outcome.error else ""))


@cli.group()
def mail() -> None:
    """The outbox: what was sent, what waits, what failed."""


@mail.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {counts, trouble}.")
@click.pass_context
def mail_status(ctx: click.Context, as_json: bool) -> None:
    """Count mails by status and list every failed or retrying one with its last error.

    Example: pbem mail status
    """
    from pbem.mail.dispatch import status

    with open_service(ctx) as service:
        found = status(service.store)
        if as_json:
            _print_json(found)
            return
        counts = found["counts"]
        click.echo(", ".join(f"{counts.get(k, 0)} {k}" for k in ("pending", "sent", "failed")))
        for row in found["trouble"]:
            click.echo(f"{row['status']:<8} {row['to_addr']}  {row['subject']}  attempts {row['attempts']}  "
                       f"{'next ' + row['due_at'] if row['status'] == 'pending' else ''}  {row['last_error']}")


@mail.command("send")
@click.pass_context
def mail_send(ctx: click.Context) -> None:
    """Send the due mails now, once (what the scheduler does every few seconds).

    Example: pbem mail send
    """
    from pbem.scheduler import Jobs

    Jobs(_settings(ctx)).send_mail()
    with open_service(ctx) as service:
        from pbem.mail.dispatch import status
        counts = status(service.store)["counts"]
        click.echo(", ".join(f"{counts.get(k, 0)} {k}" for k in ("pending", "sent", "failed")))


@mail.command("retry")
@click.pass_context
def mail_retry(ctx: click.Context) -> None:
    """Queue every failed mail again (after fixing the cause, e.g. the SMTP settings).

    Example: pbem mail retry
    """
    from pbem.mail.dispatch import retry_failed

    with open_service(ctx) as service:
        click.echo(f"{retry_failed(service.store)} mail(s) queued again")


@cli.command("demo")
@click.option("--game", "game_type", default="emerald", show_default=True, help="The game type to demonstrate.")
@click.pass_context
def demo_command(ctx: click.Context, game_type: str) -> None:
    """Set up the instance if needed, create a three-player demo game, and show how to play it.

    Example: pbem demo
    """
    config.init_instance(ctx.obj["instance"])
    with open_service(ctx) as service:
        players = [Player.parse(p) for p in DEMO_PLAYERS]
        result = service.create_game(game_type, players)
        game_id = result.after.game_id
        shown = service.show(game_id)
        waiting = shown["waiting_for"][0] if shown["waiting_for"] else None
        who = players[waiting["seat"]].email if waiting else players[0].email
        click.echo(f"Created {shown['title']} game {game_id} for Alice, Bob and Carol "
                   f"(instance {ctx.obj['instance']}).")
        if waiting:
            click.echo(f"Waiting for {waiting['name']}: {waiting['text']}")
        click.echo("\nTry:")
        click.echo(f"  pbem game show {game_id} --as {who}")
        click.echo(f"  pbem game legal {game_id} --as {who}")
        click.echo(f"  pbem game act {game_id} --as {who} 'COMMAND'")
        click.echo(f"  pbem game log {game_id}")
        if service.notifier is not None and waiting:
            click.echo(f"or on the web (with `pbem serve` running): "
                       f"{service.notifier.play_url(game_id, waiting['seat'], result.after.seq)}")


@game.command("pause")
@click.argument("game_id")
@click.option("--reason", default="paused by the organiser", show_default=True, help="Why, for the record.")
@click.pass_context
def game_pause(ctx: click.Context, game_id: str, reason: str) -> None:
    """Pause a game: no reminders and no time-outs until it is resumed.

    Example: pbem game pause 3f9a1c22d0 --reason 'Carol is travelling'
    """
    with open_service(ctx) as service:
        service.pause(game_id, reason, cause=Cause("cli"))
        click.echo(f"game {game_id} paused")


@game.command("resume")
@click.argument("game_id")
@click.option("--reason", default="resumed by the organiser", show_default=True, help="Why, for the record.")
@click.pass_context
def game_resume(ctx: click.Context, game_id: str, reason: str) -> None:
    """Resume a paused game; every running deadline moves on by the length of the pause.

    Example: pbem game resume 3f9a1c22d0
    """
    with open_service(ctx) as service:
        service.resume(game_id, reason, cause=Cause("cli"))
        click.echo(f"game {game_id} resumed")


@game.command("extend")
@click.argument("game_id")
@click.option("--hours", type=float, required=True, help="How many hours later.")
@click.option("--as", "email", default=None, help="Only this player's deadline (default: every running one).")
@click.option("--reason", default="", help="Why, for the record and the players.")
@click.pass_context
def game_extend(ctx: click.Context, game_id: str, hours: float, email: str | None, reason: str) -> None:
    """Move deadlines later.

    Example: pbem game extend 3f9a1c22d0 --hours 24 --reason 'holiday'
    """
    with open_service(ctx) as service:
        seat = service.seat_of(game_id, email) if email else None
        result = service.extend(game_id, hours, reason, cause=Cause("cli"), seat=seat)
        for event in result.events:
            click.echo(f"seat {event.payload['seat']}: due {event.payload['due_at']} UTC")


@game.command("organiser-link")
@click.argument("game_id")
@click.pass_context
def game_organiser_link(ctx: click.Context, game_id: str) -> None:
    """Print the signed link to the game's organiser page (pause, resume, extend); give it to the organiser.

    Example: pbem game organiser-link 3f9a1c22d0
    """
    with open_service(ctx) as service:
        service.load(game_id)
        if service.notifier is None:
            raise click.ClickException("the instance has no secret_key to sign links with; run `pbem init`")
        click.echo(service.notifier.organiser_url(game_id))


@game.command("order")
@click.argument("game_id")
@click.argument("topic")
@click.argument("answer", type=click.Choice(["always", "never", "ask"]))
@click.option("--as", "email", required=True, help="The player.")
@click.pass_context
def game_order(ctx: click.Context, game_id: str, topic: str, answer: str, email: str) -> None:
    """Set a standing order: how to answer one kind of out-of-turn prompt without being asked.

    Example: pbem game order 3f9a1c22d0 emerald.sherlock always --as alice@example.org
    """
    with open_service(ctx) as service:
        seat = service.seat_of(game_id, email)
        service.set_standing_order(game_id, seat, topic, answer, cause=Cause("cli"))
        click.echo(f"standing order for {topic}: {answer}")


@cli.command("games")
def games_available() -> None:
    """List the game types this pbem can run.

    Example: pbem games
    """
    for name, rules in sorted(all_games().items()):
        click.echo(f"{name:<10} {rules.title} ({rules.min_seats}-{rules.max_seats} players)")


def main() -> None:
    cli(prog_name="pbem")


if __name__ == "__main__":
    sys.exit(main())
