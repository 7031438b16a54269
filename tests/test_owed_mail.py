"""The mails a command owes: written with the command, composed after it (at once, or by the worker).

Two instances play the same seeded game of A Study in Emerald by the same moves: one composes each
command's mails as soon as it is recorded (the command line, the worker), the other leaves them to the
worker (a web page's move) and composes them only at the end, all at once. Every mail must say the same:
the same kind to the same player, the same "since your last mail", receipt, view and commands. Then: a
page's move answers with its mails owed, not composed; the worker composes and sends them; two processes
composing at once write each mail once; a crash between the command and the composition loses nothing (these
two on SQLite and on PostgreSQL).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from delivery import make_settings
from events.handling import Cause
from pbem.post import owed_mail
from pbem.post.mail.outbox import draft_of
from pbem.scheduler import Jobs
from pbem.service import Player, Service

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Alice", "Bob", "Carol")]
CLI = Cause("cli")


def outbox(service: Service, game_id: str) -> list[dict[str, Any]]:
    return service.store.query("SELECT * FROM outbox WHERE game_id = ? AND channel = 'mail' "
                               "ORDER BY created_at, id", (game_id,))


def said(row: dict[str, Any]) -> dict[str, Any]:
    """What a mail says, without what differs by instance and moment (signed links, ids, times)."""
    draft = draft_of(row)
    context = draft["context"]
    return {"to": draft["to"], "subject": draft["subject"].replace(context["game_id"], "ID"), "kind": context["kind"], "seat": context["seat"],
            "seq": context["seq"], "since": context["since"], "since_more": context["since_more"],
            "receipt": [(r["seq"], r["type"], r["text"]) for r in context["receipt"]], "view": context["view"], "commands": context["commands"],
            "prompt": context["prompt"], "first": draft["message_id"]
            == draft["thread_root"]}


def play(service: Service, moves: int, seed: int = 3) -> str:
    game_id = service.create_game("emerald", PLAYERS, seed="owed").after.game_id
    chooser = random.Random(seed)
    for _ in range(moves):
        waiting = sorted(w["seat"] for w in service.show(game_id)["waiting_for"])
        if not waiting:
            break
        legal = service.legal(game_id, PLAYERS[waiting[0]].email)
        choices = [e for e in legal if e["action"]["kind"] != "pass"] or legal
        service.act(game_id, PLAYERS[waiting[0]].email, chooser.choice(choices)["text"], cause=CLI)
    return game_id


def test_mails_composed_later_say_what_mails_composed_at_once_say(tmp_path: Path) -> None:
    now = Service.open(make_settings(tmp_path / "now"))
    later = Service.open(make_settings(tmp_path / "later"))
    later.defer_mail = True
    try:
        at_once = play(now, 30)
        deferred = play(later, 30)
        assert not outbox(later, deferred)[1:], "only the game's first mails (its creation's) may be composed"
        owed = owed_mail.pending(later, deferred)
        assert owed > 20 and owed_mail.pending(now, at_once) == 0
        assert later.write_owed_mail() == owed
        assert owed_mail.pending(later) == 0
        assert [said(r) for r in outbox(later, deferred)] == [said(r) for r in outbox(now, at_once)]
        assert later.write_owed_mail() == 0  # nothing twice
    finally:
        now.close()
        later.close()


def test_a_page_move_answers_with_its_mails_owed_and_the_worker_composes_and_sends_them(tmp_path: Path) -> None:
    from pbem.web import create_app
    from pbem.web.common import service as request_service
    settings = make_settings(tmp_path / "inst")
    app = create_app({"instance": tmp_path / "inst", "secret_key": settings["secret_key"], "TESTING": True})
    settings = app.config["PBEM_SETTINGS"]
    service = Service.open(settings)
    try:
        game_id = service.create_game("emerald", PLAYERS, seed="owed").after.game_id
        with app.test_request_context():
            web = request_service()
            assert web.defer_mail
            seat = sorted(w["seat"] for w in web.show(game_id)["waiting_for"])[0]
            text = web.legal(game_id, PLAYERS[seat].email)[0]["text"]
            before = len(outbox(service, game_id))
            web.act(game_id, PLAYERS[seat].email, text, cause=Cause("link"))
        assert len(outbox(service, game_id)) == before
        assert owed_mail.pending(service, game_id) >= 1
        Jobs(settings).send_mail()
        assert owed_mail.pending(service, game_id) == 0
        sent = service.store.query("SELECT kind, status FROM outbox WHERE game_id = ? AND created_at > ?",
                                   (game_id, outbox(service, game_id)[before - 1]["created_at"]))
        assert sent and all(r["status"] == "sent" for r in sent)
        assert len(list(Path(settings.mailbox).iterdir())) == len(outbox(service, game_id))
    finally:
        service.close()


def test_two_processes_composing_at_once_write_each_mail_once(tmp_path: Path, database: str | None) -> None:
    settings = make_settings(tmp_path / "inst")
    first, second = Service.open(settings), Service.open(settings)
    first.defer_mail = True
    try:
        game_id = play(first, 12)
        owed = owed_mail.pending(first, game_id)
        original = owed_mail._compose
        raced: list[int] = []

        def racing(service: Service, row: dict[str, Any], state: Any, told: int) -> Any:
            if not raced:  # the other process composes and writes everything while this one is at its first mail
                raced.append(-1)
                raced[0] = owed_mail.write(second)
            return original(service, row, state, told)

        owed_mail._compose = racing  # type: ignore[assignment]
        try:
            assert owed_mail.write(first) == 0  # its transaction finds the rows gone: it writes nothing
        finally:
            owed_mail._compose = original  # type: ignore[assignment]
        assert raced == [owed]
        kinds = [(r["seat"], draft_of(r)["context"]["seq"]) for r in outbox(first, game_id)]
        assert len(kinds) == len(set(kinds))
    finally:
        first.close()
        second.close()


def test_mails_owed_when_the_process_stopped_are_composed_by_the_worker(tmp_path: Path,
                                                                          database: str | None) -> None:
    settings = make_settings(tmp_path / "inst")
    service = Service.open(settings)
    try:
        service.defer_mail = True  # as if the process died right after recording the command
        game_id = play(service, 5)
        owed = owed_mail.pending(service, game_id)
        assert owed >= 5
        service.close()
        service = Service.open(settings)  # a new process: the command line's service composes at once, but
        assert owed_mail.pending(service, game_id) == owed  # what another process owed waits for the worker
        Jobs(settings).send_mail()
        assert owed_mail.pending(service, game_id) == 0
        assert all(r["status"] == "sent" for r in outbox(service, game_id))
    finally:
        service.close()
