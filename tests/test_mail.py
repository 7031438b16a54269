"""Mails: written with the command that causes them, readable, threaded, private; sent with retries."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import time
from datetime import datetime
from pathlib import Path

import pytest

from pbem.post.mail.outbox import message_of
from delivery import ANN, BEN, Inbox, free_port, html_of, mails_to, parse, smtp_server, text_of
from events.handling import Cause
from events.rules import IllegalAction
from pbem.proof import witness
from pbem.post.mail.dispatch import dispatch, retry_failed, status
from pbem.post.mail.transport import FileTransport, SMTPTransport
from pbem.post.people import set_mail
from pbem.service import Service

pytestmark = pytest.mark.usefixtures("highdie_registered")
CLI = Cause("cli")


@pytest.fixture
def game(service: Service) -> str:
    return service.create_game("highdie", [ANN, BEN], seed="mail").after.game_id


def test_creating_a_game_mails_the_first_player_their_turn(service: Service, game: str) -> None:
    [first] = mails_to(service, ANN.email)
    assert first["kind"] == "turn" and first["status"] == "pending"
    assert mails_to(service, BEN.email) == []
    message = parse(message_of(first))
    assert message["Message-ID"] == f"<{game}.0.pbem@localhost>" and message["In-Reply-To"] is None
    text = text_of(message)
    assert "Ann, it is your turn." in text and "/play/" in text and "Deadline:" in text
    hand = service.load(game).game.hands[0]
    assert f"hand: {hand[0]}, {hand[1]}" in text


def test_a_move_that_ends_the_movers_part_mails_only_the_next_player(service: Service, game: str) -> None:
    service.act(game, ANN.email, "bet 2", cause=CLI)
    assert [m["kind"] for m in mails_to(service, ANN.email)] == ["turn"]  # she saw the result on the page
    [ben] = mails_to(service, BEN.email)
    assert ben["kind"] == "turn"
    text = text_of(parse(message_of(ben)))
    assert "Ann" in text and "Bet" in text


def test_the_receipt_folds_into_the_movers_next_mail_with_every_hash(service: Service, game: str) -> None:
    result = service.act(game, ANN.email, "bet 2", cause=CLI)
    service.act(game, BEN.email, "bet 1", cause=CLI)
    ann = mails_to(service, ANN.email)
    assert [m["kind"] for m in ann] == ["turn", "turn"]
    mail = parse(message_of(ann[-1]))
    assert mail["In-Reply-To"] == f"<{game}.0.pbem@localhost>" == mail["References"]
    text = text_of(mail)
    assert text.index("SINCE YOUR LAST MAIL") < text.index("WHAT TO DO") < text.index("RECORDED")
    for event in result.events:
        assert f"event {event.seq}  sha256 {event.hash}" in text and event.type not in text  # in words, not type names
    ben_mail = text_of(parse(message_of(mails_to(service, BEN.email)[-1])))
    assert "RECORDED" not in ben_mail  # Ben's own move is in Ann's mail as what he did, not as his receipt
    witnesses = witness.read(game, [("ann.eml", message_of(ann[-1]).encode())])
    assert {(e.seq, e.hash) for e in result.events} <= {(w.seq, w.hash) for w in witnesses}


def test_with_receipts_on_a_move_that_ends_the_movers_part_mails_a_receipt(service: Service, game: str) -> None:
    set_mail(service.store, service.player_id(ANN.email), "every", "on")
    result = service.act(game, ANN.email, "bet 2", cause=CLI)
    ann = mails_to(service, ANN.email)
    assert [m["kind"] for m in ann] == ["turn", "receipt"]
    receipt = parse(message_of(ann[-1]))
    assert receipt["Subject"] == f"[Highdie (test game) · {game}] Move recorded"
    for event in result.events:
        assert f"event {event.seq}" in text_of(receipt) and event.hash in text_of(receipt)
    service.act(game, BEN.email, "bet 1", cause=CLI)
    assert "RECORDED" not in text_of(parse(message_of(mails_to(service, ANN.email)[-1])))  # nothing new of hers


def test_a_reminder_says_what_is_due_and_when_in_its_subject(service: Service, game: str) -> None:
    service.remind(game, 0)
    reminder = mails_to(service, ANN.email)[-1]
    due = datetime.fromisoformat(str(service.deadline_of(game, 0)))
    assert reminder["subject"] == f"[Highdie (test game) · {game}] Reminder: your turn (due {due:%a %H:%M} UTC)"


def test_a_refused_move_writes_no_mail(service: Service, game: str) -> None:
    before = service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"]
    with pytest.raises(IllegalAction):
        service.act(game, BEN.email, "pass", cause=CLI)
    assert service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"] == before


def test_mails_keep_each_players_secrets_and_address_private(service: Service, game: str) -> None:
    service.act(game, ANN.email, "bet 1", cause=CLI)
    ann_hand = service.load(game).game.hands[0]
    [ben] = mails_to(service, BEN.email)
    message = parse(message_of(ben))
    body = text_of(message) + html_of(message)
    assert ANN.email not in body and ANN.email not in message_of(ben)
    assert f"hand: {ann_hand[0]}" not in text_of(message)
    assert str(ann_hand) not in body


def test_every_mail_has_a_text_and_an_html_part_and_the_headers_players_need(service: Service, game: str) -> None:
    message = parse(message_of(mails_to(service, ANN.email)[0]))
    assert message.get_content_type() == "multipart/alternative"
    html = html_of(message)
    assert "<script" not in html.lower() and "<table" in html and "style=" in html
    assert re.match(r"^play\+[A-Za-z0-9_.\-]+@localhost$", message["Reply-To"])
    assert len(message["Reply-To"].split("@")[0]) <= 64
    assert message["List-Unsubscribe"].startswith("<http://127.0.0.1:8000/unsubscribe/")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message["Auto-Submitted"] == "auto-generated"


def test_the_game_end_mail_gives_scores_and_how_they_were_reached(service: Service, game: str) -> None:
    for _ in range(40):
        state = service.load(game)
        if state.ended:
            break
        seat, prompt = next(iter(service.kernel.rules(state).prompts(state.game).items()))
        service.act_as(game, seat, "bet 3" if prompt.kind == "turn" else "accept", cause=CLI)
    ended = [m for m in mails_to(service, BEN.email) if m["kind"] == "ended"]
    assert len(ended) == 1
    winners = [n for i, n in enumerate(("Ann", "Ben")) if i in service.load(game).outcome["winners"]]
    assert ended[0]["subject"] == f"[Highdie (test game) · {game}] Game over: {' and '.join(winners)} " + \
        ("wins" if len(winners) == 1 else "win")
    text = text_of(parse(message_of(ended[0])))
    assert "FINAL SCORES" in text and "(winner)" in text and "mail" in text  # the seed "mail" is revealed
    assert "points" in text


def test_dispatch_to_a_real_smtp_server_sends_each_mail_once(service: Service, game: str) -> None:
    service.act(game, ANN.email, "bet 2", cause=CLI)
    service.act(game, BEN.email, "bet 2", cause=CLI)
    inbox, port = Inbox(), free_port()
    server = smtp_server(inbox, port)
    try:
        report = dispatch(service.store, SMTPTransport("127.0.0.1", port, "none"), "pbem <pbem@localhost>",
                          max_attempts=3, retry_seconds=1)
        again = dispatch(service.store, SMTPTransport("127.0.0.1", port, "none"), "pbem <pbem@localhost>",
                         max_attempts=3, retry_seconds=1)
    finally:
        server.stop()
    assert (report.sent, again.sent) == (3, 0)
    assert sorted(str(m["To"]) for m in inbox.messages) == ["Ann <ann@example.org>", "Ann <ann@example.org>",
                                                            "Ben <ben@example.org>"]
    ids = {r["message_id"] for r in service.store.query("SELECT message_id FROM outbox")}
    assert {str(m["Message-ID"]) for m in inbox.messages} == ids


def test_nothing_is_lost_while_the_smtp_server_is_down(service: Service, game: str) -> None:
    port = free_port()
    down = dispatch(service.store, SMTPTransport("127.0.0.1", port, "none", timeout=2), "pbem <pbem@localhost>",
                    max_attempts=5, retry_seconds=0.01)
    assert (down.sent, down.retried, down.failed) == (0, 1, 0)
    row = service.store.query("SELECT status, attempts, last_error FROM outbox")[0]
    assert row["status"] == "pending" and row["attempts"] == 1 and "Connection refused" in row["last_error"]
    assert status(service.store)["trouble"][0]["attempts"] == 1
    service.act(game, ANN.email, "bet 1", cause=CLI)  # more mail queues up meanwhile
    service.act(game, BEN.email, "bet 1", cause=CLI)
    inbox = Inbox()
    server = smtp_server(inbox, port)
    try:
        time.sleep(0.05)
        report = dispatch(service.store, SMTPTransport("127.0.0.1", port, "none"), "pbem <pbem@localhost>",
                          max_attempts=5, retry_seconds=0.01)
    finally:
        server.stop()
    assert report.sent == 3 and len(inbox.messages) == 3
    assert service.store.query("SELECT count(*) AS n FROM outbox WHERE status != 'sent'")[0]["n"] == 0
    attempts = service.store.query("SELECT ok FROM mail_attempts ORDER BY at")
    assert [a["ok"] for a in attempts].count(0) == 1


def test_a_permanent_refusal_fails_the_mail_for_the_operator_to_see(service: Service, game: str) -> None:
    inbox, port = Inbox(refuse=550), free_port()
    server = smtp_server(inbox, port)
    try:
        report = dispatch(service.store, SMTPTransport("127.0.0.1", port, "none"), "pbem <pbem@localhost>",
                          max_attempts=5, retry_seconds=1)
    finally:
        server.stop()
    assert report.failed == 1
    found = status(service.store)
    assert found["counts"] == {"failed": 1} and "550" in found["trouble"][0]["last_error"]
    assert retry_failed(service.store) == 1
    assert status(service.store)["counts"] == {"pending": 1}


def test_retries_back_off_exponentially_then_fail(service: Service, game: str) -> None:
    from datetime import datetime, timedelta, timezone
    port = free_port()
    moment = datetime.now(timezone.utc)
    dues = []
    for attempt in range(4):
        dispatch(service.store, SMTPTransport("127.0.0.1", port, "none", timeout=1), "pbem <pbem@localhost>",
                 max_attempts=4, retry_seconds=10, now=moment)
        row = service.store.query("SELECT status, due_at FROM outbox")[0]
        dues.append(row["due_at"])
        moment = datetime.fromisoformat(row["due_at"]) + timedelta(seconds=1)
    gaps = [(datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds() for a, b in zip(dues, dues[1:3])]
    assert gaps == [21, 41]  # tried 1 s after each due time; waits of 10, 20, 40 s
    assert service.store.query("SELECT status FROM outbox")[0]["status"] == "failed"


def test_the_file_mailbox_writes_whole_eml_files(service: Service, game: str, tmp_path: Path) -> None:
    box = tmp_path / "box"
    assert dispatch(service.store, FileTransport(box), "pbem <pbem@localhost>", max_attempts=2,
                    retry_seconds=1).sent == 1
    [path] = list(box.glob("*.eml"))
    assert "Ann, it is your turn." in text_of(parse(path.read_text()))
    assert not list(box.glob(".*"))


def test_a_process_killed_while_sending_loses_no_mail(service: Service, game: str, tmp_path: Path) -> None:
    """Kill -9 a dispatcher in the middle of a batch: every mail is then sent or pending, and goes out.

    The mail it was sending stays claimed by it until the claim's lease (here 1 s) runs out.
    """
    for _ in range(6):
        state = service.load(game)
        seat = next(iter(service.kernel.rules(state).prompts(state.game)))
        service.act_as(game, seat, "bet 1", cause=CLI)
    total = service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"]
    inbox, port = Inbox(), free_port()
    server = smtp_server(inbox, port)
    script = textwrap.dedent(f"""
        import time, smtplib
        from pbem.instance.database import open_address
        from pbem.post.mail.dispatch import dispatch
        from pbem.post.mail.transport import SMTPTransport
        class Slow(SMTPTransport):
            def send(self, *args):
                super().send(*args)
                time.sleep(0.3)
        store = open_address({service.store.address!r})
        dispatch(store, Slow("127.0.0.1", {port}, "none"), "pbem <pbem@localhost>", max_attempts=5, retry_seconds=0,
                 lease_seconds=1)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).parent.parent)
    try:
        deadline = time.time() + 30
        while len(inbox.messages) < 2 and time.time() < deadline:
            time.sleep(0.02)
        child.kill()
        child.wait(timeout=10)
        rows = service.store.query("SELECT status FROM outbox")
        assert len(rows) == total and {r["status"] for r in rows} <= {"sent", "pending"}
        assert 0 < sum(r["status"] == "pending" for r in rows) < total
        assert len(status(service.store)["claims"]) <= 1  # claimed one at a time: at most the one in flight
        time.sleep(1.1)  # the dead sender's lease runs out
        dispatch(service.store, SMTPTransport("127.0.0.1", port, "none"), "pbem <pbem@localhost>",
                 max_attempts=5, retry_seconds=0)
    finally:
        server.stop()
    assert service.store.query("SELECT count(*) AS n FROM outbox WHERE status = 'sent'")[0]["n"] == total
    received = {str(m["Message-ID"]) for m in inbox.messages}
    assert received == {r["message_id"] for r in service.store.query("SELECT message_id FROM outbox")}
    assert total <= len(inbox.messages) <= total + 1  # at most the one in flight is sent twice
