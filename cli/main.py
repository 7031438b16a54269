"""The ``pbem`` command: each command is a few lines over ``pbem.service``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from cli.bots import bot
from cli.common import (load_settings as _settings, open_service, print_json as _print_json, setup_logging as _logging,
                        stop_on_sigterm)
from cli.mail import mail
from cli.organisers import COMMANDS as ORGANISER_COMMANDS
from cli.players import player
from cli.positions import COMMANDS as POSITION_COMMANDS, read_position
from cli.proof import COMMANDS as PROOF_COMMANDS
from cli.db import COMMANDS as DB_COMMANDS
from cli.seats import COMMANDS as SEAT_COMMANDS, seat_lines, seat_options
from cli.talk import COMMANDS as TALK_COMMANDS
from cli.webhooks import webhook
from events.handling import Cause, UndoRefused
from pbem.instance import config
from pbem.table.delivery import UNDO_REQUEST_CLOSED
from pbem.games import all_games
from pbem.organising import organisers
from pbem.errors import ServiceError
from pbem.post import printed
from pbem.proof import takeback
from pbem.service import Player


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
        click.echo(f"{'created' if created else 'kept'} {path}; database {service.store.name}")


@cli.group()
def game() -> None:
    """Create, play, inspect and verify games."""


for _command in PROOF_COMMANDS + TALK_COMMANDS + SEAT_COMMANDS + POSITION_COMMANDS:
    game.add_command(_command)
for _command in DB_COMMANDS:
    cli.add_command(_command)


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
@click.option("--title", default=None,
              help="The game's name, as mail subjects give it (default: the game and its players, e.g. "
                   "'Emerald with Alice, Bob and Carol').")
@click.option("--seed", default=None, help="Secret seed (default: random). Only for tests and demos.")
@click.option("--option", "options", multiple=True,
              help="Game option KEY=VALUE: VALUE is a choice as the new-game page sends it (yes, no, ...) or its JSON.")
@click.option("--data", "data_file", type=click.File("r", encoding="utf-8"), default=None,
              help="A data override file (JSON) with corrected card or board values.")
@click.option("--position", "position_file", type=click.File("rb"), default=None,
              help="Begin from this position (TOML, as `pbem game position` writes it) instead of a new deal.")
@click.option("--organiser", default=None, help="The organiser's email: asked to find substitutes.")
@click.option("--vacation", default=None, help="What an absence does: pause, run or allowance:DAYS "
                                               "(default allowance:14).")
@click.option("--autopilot-after", type=int, default=None,
              help="Missed deadlines in a row that put a seat on autopilot (default 3; 0: never).")
@click.option("--autopilot-bot", default=None, metavar="LEVEL",
              help="The computer player that plays a seat on autopilot: random, greedy (the default) or search.")
@click.option("--bot", "bots", multiple=True, metavar="LEVEL",
              help="A seat played by the computer from the start (random, greedy or search); once per seat, after "
                   "the players.")
@click.pass_context
def game_new(ctx: click.Context, game_type: str, players: tuple[str, ...], title: str | None, seed: str | None,
             options: tuple[str, ...], data_file: Any, position_file: Any, organiser: str | None,
             vacation: str | None, autopilot_after: int | None, autopilot_bot: str | None,
             bots: tuple[str, ...]) -> None:
    """Create a game and print its id; with --position, begun from that position (checked by the game first);
    with --bot, a practice game against the computer.

    Example: pbem game new emerald --title 'Friday game' --player 'Alice <alice@example.org>' --player bob@example.org

    Example: pbem game new nanty --player 'Ann <ann@example.org>' --bot search --bot random
    """
    position = read_position(position_file) if position_file else None
    with open_service(ctx) as service:
        try:
            override = json.load(data_file) if data_file else None
        except json.JSONDecodeError as err:
            raise click.ClickException(f"{data_file.name} is not JSON: {err}") from None
        chosen = {**organisers.chosen_options(game_type, _key_value(options)),
                  **seat_options(vacation, autopilot_after, autopilot_bot, bots, len(players))}
        result = service.create_game(game_type, [Player.parse(p) for p in players], seed=seed,
                                     options=chosen, data_override=override, position=position, title=title,
                                     organiser=Player.parse(organiser).email if organiser else None)
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
                       f"{g['name'] or g['title']}")


@game.command("show")
@click.argument("game_id")
@click.option("--as", "email", default=None, help="Show this player's view, in words, as their mail shows it.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: what the words say, with the same numbers.")
@click.option("--raw", is_flag=True, help="For operators: print the game's raw view data instead of words.")
@click.pass_context
def game_show(ctx: click.Context, game_id: str, email: str | None, as_json: bool, raw: bool) -> None:
    """Show a game in words: the public table, or one player's view as their mail shows it.

    Example: pbem game show 3f9a1c22d0 --as alice@example.org
    """
    with open_service(ctx) as service:
        shown = service.show(game_id, email)
        if raw:
            if as_json:
                _print_json(shown)
            else:
                click.echo(json.dumps(shown["view"], indent=2, sort_keys=True, ensure_ascii=False))
            return
        try:
            words = printed.player_words(service, game_id, service.seat_of(game_id, email)) if email \
                else printed.public_words(service, game_id)
        except ServiceError as err:
            raise click.ClickException(str(err)) from None
        if as_json:  # the words' numbers (cards as commands take them), not the raw view: that is --raw
            _print_json({**{k: v for k, v in shown.items() if k != "view"}, **words})
            return
        where = f", {words['label']}" if words["label"] else ""
        click.echo(f"{words['name']} ({words['title']}{where}, {'over' if shown['status'] == 'ended' else 'running'})")
        click.echo("seats: " + ", ".join(f"{s['seat'] + 1}: {s['name']}" for s in shown["seats"]))  # from 1, as pages
        for line in seat_lines(service, game_id):  # the organiser, absences, autopilot
            click.echo(line)
        if shown["waiting_for"]:
            click.echo("waiting for: " + ", ".join(f"{w['name']} ({w['text']})" for w in shown["waiting_for"]))
        asked = shown["undo_request"]
        if asked:
            answers = ", ".join(f"{a['name']} {a['answer'] or 'no answer yet'}" for a in asked["approvers"])
            found = service.undo_request(game_id, asked["request"])
            assert found is not None
            taken = takeback.told(service, service.load(game_id), found, None)  # the game's count, as pages say it
            click.echo(f"undo request {asked['request']}: {asked['name']} asks to take back {taken.words()}, "
                       f"open until {asked['due_at']} UTC ({answers})")
        if shown["outcome"]:
            names = [s["name"] for s in shown["seats"]]
            winners = [names[int(w)] for w in shown["outcome"].get("winners", []) if 0 <= int(w) < len(names)]
            click.echo("won by: " + (" and ".join(winners) if winners else "nobody"))
        assumed = shown["view"].get("assumed") if isinstance(shown["view"], dict) else None
        if assumed and not email:  # a player's view says it in its own words
            click.echo(f"note: {len(assumed)} card and board values of this game are assumed, not printed in the "
                       "rulebook; owners of the game can correct them with --data")
        click.echo("")
        click.echo(words["text"].rstrip() if email else "\n".join(words["lines"]))


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
@click.option("--expected-seq", type=click.IntRange(min=0), default=None,
              help="Refuse if a move or an undo came after this event (the one you looked at).")
@click.pass_context
def game_undo(ctx: click.Context, game_id: str, email: str, ask: bool, reason: str,
              expected_seq: int | None) -> None:
    """Undo the player's own last action, if nobody acted since and it revealed nothing.

    Beyond that, --request asks every other player to agree (they answer by mail, on the web or
    with `pbem game undo-answer`); no answer by the deadline counts as a refusal.
    Example: pbem game undo 3f9a1c22d0 --as alice@example.org
    """
    with open_service(ctx) as service:
        seat = service.seat_of(game_id, email)
        if ask:
            result = service.request_undo(game_id, seat, reason, cause=Cause("cli"), expected_seq=expected_seq)
            asked = result.events[0].payload
            names = [s["name"] for s in service.show(game_id)["seats"]]
            found = service.undo_request(game_id, asked["request"])
            assert found is not None
            taken = takeback.told(service, service.load(game_id), found, seat)
            click.echo(f"asked {' and '.join(names[s] for s in asked['approvers'])} to take back "
                       f"{taken.words('your')}: request {asked['request']}, open until {asked['due_at']} UTC")
            return
        try:
            result = service.undo(game_id, email, cause=Cause("cli"), expected_seq=expected_seq)
        except UndoRefused as refused:
            hint = ""
            if service.can_request_undo(game_id, seat)[0]:
                hint = f"; `pbem game undo {game_id} --as {email} --request` asks the other players to agree"
            raise click.ClickException(f"{refused}{hint}") from None
        undo = result.events[0]
        where = takeback.count_of(service, service.load(game_id), undo.payload["from_seq"])
        click.echo(f"took back your last move ({where}); recorded as event {undo.seq}")


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


DEMO_PLAYERS = ("Alice <alice@example.org>", "Bob <bob@example.org>", "Carol <carol@example.org>")


@cli.command()
@click.option("--demo", is_flag=True,
              help="On an instance without games, first create a three-player demo game and print its links.")
@click.option("--game", "game_type", default="emerald", show_default=True, help="The game type of --demo.")
@click.option("--host", default=None, help="The address to listen on. Default: the host setting (127.0.0.1).")
@click.option("--port", type=int, default=None, help="The port to listen on. Default: the port setting (8000).")
@click.pass_context
def serve(ctx: click.Context, demo: bool, game_type: str, host: str | None, port: int | None) -> None:
    """Run the web pages, the scheduler and the mailbox in one process (the embedded defaults).

    Creates the instance on first run. Stop with Ctrl-C.
    Example: pbem serve --demo
    """
    from werkzeug.serving import make_server

    from pbem.scheduler import Jobs, SchedulerRunning, build, scheduler_lock
    from pbem.web import create_app
    from pbem.web.dev import notice
    from pbem.web.requestlog import PlainRequests

    config.init_instance(ctx.obj["instance"])
    configured = _settings(ctx)
    settings = config.serving(configured, host, port)
    if config.links_disagree(configured, settings):
        fix = " and ".join(f"{name} = {json.dumps(settings[name])}" for name in ("host", "port")
                           if settings[name] != configured[name])
        click.echo(f"warning: this process links to {settings.base_url}, but every other pbem command (worker, "
                   f"inbound, game new, game act, ...) links to {configured.base_url} from the settings: put "
                   f"{fix} (or base_url) in pbem.toml, or the PBEM_ variables, so that all agree", err=True)
    served = {k: settings[k] for k in ("host", "port", "base_url")}
    ctx.obj["overrides"] = served  # the demo's links, the scheduler's mails and the pages all use them
    _logging()
    if demo:
        with open_service(ctx) as service:
            fresh = not service.list_games()
        if fresh:
            ctx.invoke(demo_command, game_type=game_type)
        else:
            click.echo("the instance has games already: no new demo game (use `pbem demo` for another)")
    app = create_app({"instance": str(settings.instance), **served})
    stop_on_sigterm()
    try:
        with scheduler_lock(settings.instance, settings.database_url, wait=True) as lock:
            jobs = Jobs(settings)
            scheduler = build(settings, blocking=False, jobs=jobs, lock=lock)
            scheduler.start()
            server = make_server(str(settings["host"]), int(settings["port"]), app, threaded=True,
                                 request_handler=PlainRequests)
            click.echo(f"pbem serving {settings['base_url']} (listening on {settings['host']}:{settings['port']}); "
                       f"instance {settings.instance}")
            click.echo(notice(settings))
            try:
                server.serve_forever()
            except KeyboardInterrupt:
                pass
            finally:
                jobs.stopping.set()  # a mail batch ends after the mail being sent
                scheduler.shutdown(wait=True)
    except KeyboardInterrupt:
        pass  # stopped while it waited for the scheduler lock
    except SchedulerRunning as err:
        raise click.ClickException(f"{err}; stop it, or run only the web pages with gunicorn") from None
    click.echo("pbem stopped")


@cli.command()
@click.pass_context
def worker(ctx: click.Context) -> None:
    """Run the scheduler alone (production: the web pages run under gunicorn).

    Sends mails, reminds, times out, and reads the inbound Maildir if set. On SQLite, refuses to start if
    another scheduler runs for this instance; on PostgreSQL, waits and takes over when it stops.
    Example: pbem worker
    """
    from pbem.scheduler import Jobs, SchedulerRunning, build, scheduler_lock

    settings = _settings(ctx)
    _logging()
    stop_on_sigterm()
    try:
        with scheduler_lock(settings.instance, settings.database_url, wait=True) as lock:
            click.echo(f"pbem worker for {settings.instance}")
            jobs = Jobs(settings)
            scheduler = build(settings, blocking=True, jobs=jobs, lock=lock)
            try:
                scheduler.start()
            except KeyboardInterrupt:
                click.echo("pbem worker stopping: the mail being sent and the running jobs finish first")
                jobs.stopping.set()  # a mail batch ends after the mail being sent; the rest wait for the next start
                scheduler.shutdown(wait=True)  # before the lock is let go: no second worker overlaps a job
    except KeyboardInterrupt:
        pass  # stopped before it started (a worker waiting for the lock)
    except SchedulerRunning as err:
        raise click.ClickException(str(err)) from None
    click.echo("pbem worker stopped")


@cli.command()
@click.option("--maildir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Read every message of this Maildir (else one message from standard input).")
@click.option("--imap", "imap", is_flag=True, help="Read the new messages of the inbound_imap mailbox once (for cron).")
@click.pass_context
def inbound(ctx: click.Context, maildir: Path | None, imap: bool) -> None:
    """Apply a reply mail (RFC 822 on standard input, e.g. from a mail server's pipe), a Maildir, or an IMAP mailbox.

    Exits 1 when nothing could be applied (no valid game link, or every command refused: the reason is also
    mailed back to the player), so the mail server bounces it with the reason. A message read before (the same
    Message-ID) is not applied again and is no error: "already applied ... nothing done", exit 0.
    With --maildir or --imap, every message is read and counted; the exit is 0.
    Example: pbem inbound < reply.eml
    """
    from pbem.post.mail.inbound import UnknownReply, process, process_maildir

    settings = _settings(ctx)
    with open_service(ctx) as service:
        if imap:
            from pbem.post.mail.imap import TROUBLE, read_once
            try:
                click.echo(read_once(settings, service).summary())
            except config.ConfigError as err:
                raise click.ClickException(str(err)) from None
            except TROUBLE as err:
                raise click.ClickException(f"the inbound mailbox cannot be read: {type(err).__name__}: {err}") from None
            return
        if maildir is not None:
            click.echo(process_maildir(service, maildir).summary())
            return
        try:
            outcome = process(service, sys.stdin.buffer.read(), str(settings["reply_address"]))
        except UnknownReply as err:
            raise click.ClickException(str(err)) from None
        if outcome.refused:
            raise click.ClickException(outcome.summary())
        click.echo(outcome.summary())


cli.add_command(mail)
for _group in ORGANISER_COMMANDS:
    cli.add_command(_group)
cli.add_command(webhook)
cli.add_command(player)
cli.add_command(bot)


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
            click.echo(f"seat {event.payload['seat'] + 1}: due {event.payload['due_at']} UTC")


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

    Example: pbem game order 3f9a1c22d0 emerald.interrupt always --as alice@example.org
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
