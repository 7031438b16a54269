"""Players hold witnesses of the log: what someone with the database can rewrite, their saved mails catch.

Each tampering here keeps the hash chain whole (the forger recomputes every hash, holding the seed),
so the chain alone says OK where it can: the chain heads in Ann's saved mails do not.
"""

from __future__ import annotations

import json
from email import policy
from email.parser import BytesParser
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Iterator

import pytest
from click.testing import CliRunner
from flask import Flask

from cli.main import cli
from delivery import ANN, BEN
from events.envelope import Event, recompute_hash
from events.handling import Cause
from pbem.proof import witness
from pbem.table.delivery import TIMED_OUT
from pbem.post.mail.render import build
from pbem.service import Service
from pbem.web import create_app
from pbem.post.mail.outbox import draft_of

pytestmark = pytest.mark.usefixtures("highdie_registered")
SEED = "witnessed"


@pytest.fixture
def app(tmp_path: Path, highdie_registered: None, database: str | None) -> Flask:
    return create_app({"instance": tmp_path / "inst", "secret_key": "witness-key", "TESTING": True})


@pytest.fixture
def service(app: Flask) -> Iterator[Service]:
    svc = Service.open(app.config["PBEM_SETTINGS"])
    yield svc
    svc.close()


@pytest.fixture
def game(service: Service) -> str:
    game_id = service.create_game("highdie", [ANN, BEN], seed=SEED).after.game_id
    for bet in ("bet 1", "bet 1"):
        seat = int(service.show(game_id)["waiting_for"][0]["seat"])
        service.act_as(game_id, seat, bet, cause=Cause("cli"))
    return game_id


def saved_mails(service: Service, address: str) -> list[tuple[str, bytes]]:
    """Every mail to a player as their client saves it (.eml)."""
    rows = service.store.query("SELECT id, draft FROM outbox WHERE to_addr = ? ORDER BY created_at", (address,))
    return [(f"{row['id']}.eml", build(draft_of(row)).encode("utf-8")) for row in rows]


def rewrite(service: Service, game_id: str, change: Callable[[list[Event]], list[Event]]) -> None:
    """Replace the game's log by ``change(log)``, rehashed from the start: a forger's best effort."""
    events, chained, prev = change(service.store.read(game_id)), [], "0" * 64
    for seq, event in enumerate(events, start=1):
        event = replace(event, seq=seq, prev_hash=prev)
        event = replace(event, hash=recompute_hash(event, SEED, SEED))
        chained.append(event)
        prev = event.hash
    with service.store.transaction() as conn:
        conn.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
        conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
        for e in chained:
            conn.execute("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", (
                e.game_id, e.seq, e.type, e.version, json.dumps(e.payload), e.actor, e.visibility.encode(),
                int(e.reveals), e.recorded_at, json.dumps(e.cause), e.prev_hash, e.hash))


def test_every_mail_names_the_chain_head_in_a_header_and_in_its_text(service: Service, game: str) -> None:
    mails = saved_mails(service, ANN.email)
    heads = witness.read(game, mails)
    assert mails and len({h.source for h in heads}) == len(mails)  # every mail names one
    assert all(service.store.read(game, h.seq - 1, h.seq)[0].hash == h.hash for h in heads)
    message = BytesParser(policy=policy.default).parsebytes(mails[-1][1])
    head = max((h for h in heads if h.source == mails[-1][0]), key=lambda h: h.seq)
    assert message["X-Pbem-Witness"] == f"game={game}; event={head.seq}; hash={head.hash}"
    assert f"Witness: game {game}, event {head.seq}, hash {head.hash}" in message.get_body(("plain",)).get_content()


def test_an_untouched_game_verifies_with_every_witness(service: Service, game: str) -> None:
    found = witness.read(game, saved_mails(service, ANN.email) + saved_mails(service, BEN.email))
    report = service.verify(game, found)
    assert report.ok, report.failure
    assert any(f"{len(found)} chain heads players received" in c for c in report.checks)


def test_a_log_cut_short_fails_at_the_first_head_a_player_received_beyond_it(service: Service, game: str) -> None:
    found = witness.read(game, saved_mails(service, ANN.email))
    last = max(w.seq for w in found)
    rewrite(service, game, lambda log: log[:last - 1])
    assert service.verify(game).ok  # the chain alone cannot tell a shorter game
    report = service.verify(game, found)
    assert report.failure is not None and report.failure.seq == last
    assert "the log ends at" in report.failure.problem


def test_a_rewritten_arrival_of_a_move_fails_at_the_next_head_a_player_received(service: Service,
                                                                                game: str) -> None:
    found = witness.read(game, saved_mails(service, ANN.email))
    moved = next(e for e in service.store.read(game) if e.cause.get("via") == "cli" and "action" in e.cause)

    def via_mail_a_day_earlier(log: list[Event]) -> list[Event]:
        earlier = (datetime.fromisoformat(moved.recorded_at) - timedelta(days=1)).isoformat()
        return [replace(e, cause={**e.cause, "via": "mail"}, recorded_at=earlier) if e.command_id == moved.command_id
                else e for e in log]

    rewrite(service, game, via_mail_a_day_earlier)
    assert service.verify(game).ok  # how and when a move arrived is not something the rules can check
    report = service.verify(game, found)
    first_after = min(w.seq for w in found if w.seq >= moved.seq)
    assert report.failure is not None and report.failure.seq == first_after
    assert "rewritten" in report.failure.problem


def test_an_event_slipped_in_before_a_received_head_is_caught(service: Service, game: str) -> None:
    found = witness.read(game, saved_mails(service, ANN.email))
    last = max(w.seq for w in found)
    pause = next(e for e in service.store.read(game) if e.seq == 2)

    def with_a_pause(log: list[Event]) -> list[Event]:
        slipped = replace(log[-1], type="pbem.GamePaused", payload={"reason": "slipped in"}, cause={
            "command": "f" * 32, "actor": "organiser", "via": "cli"}, actor="organiser",
            visibility=pause.visibility, reveals=False)
        return log[:last - 1] + [slipped] + log[last - 1:]

    rewrite(service, game, with_a_pause)
    assert service.verify(game).ok
    report = service.verify(game, found)
    assert report.failure is not None and report.failure.seq == last


def test_nothing_may_follow_the_end_of_the_game(service: Service, game: str) -> None:
    while not service.load(game).ended:
        seat = int(service.show(game)["waiting_for"][0]["seat"])
        service.act_as(game, seat, service.legal(game, [ANN, BEN][seat].email)[0]["action"], cause=Cause("cli"))
    ended = service.store.last(game)[0]
    rewrite(service, game, lambda log: log + [replace(log[-1], type="pbem.GamePaused", payload={"reason": "after"},
                                                      actor="organiser")])
    report = service.verify(game)
    assert report.failure is not None and report.failure.seq == ended + 1
    assert "after the end of the game" in report.failure.problem


def test_a_move_passed_off_as_the_schedulers_without_a_time_out_is_caught(service: Service, game: str) -> None:
    moved = next(e for e in service.store.read(game) if e.cause.get("via") == "cli" and "action" in e.cause)
    rewrite(service, game, lambda log: [
        replace(e, cause={**e.cause, "actor": "scheduler", "via": "scheduler"}) if e.command_id == moved.command_id
        else e for e in log])
    report = service.verify(game)
    assert report.failure is not None and report.failure.seq == moved.seq
    assert "without the time-out" in report.failure.problem


def test_an_honest_time_out_verifies(service: Service, game: str) -> None:
    seat = int(service.show(game)["waiting_for"][0]["seat"])
    later = datetime.now(timezone.utc) + timedelta(days=30)
    assert service.time_out(game, seat, now=later) is not None
    assert any(e.type == TIMED_OUT for e in service.store.read(game))
    assert service.verify(game).ok


def test_a_payload_that_breaks_its_schema_fails_verification_and_no_page_answers_500(
        service: Service, game: str, app: Flask) -> None:
    target = next(e for e in service.store.read(game) if e.type == "dice.Bet")
    rewrite(service, game, lambda log: [replace(e, payload={k: v for k, v in e.payload.items() if k != "points"})
                                        if e.seq == target.seq else e for e in log])
    report = service.verify(game)
    assert report.failure is not None and report.failure.seq == target.seq
    assert "not a valid dice.Bet" in report.failure.problem and "points" in report.failure.problem
    client = app.test_client()
    for url in (f"/games/{game}", f"/api/games/{game}", f"/games/{game}/replay"):
        response = client.get(url)
        assert response.status_code == 503 and "cannot be replayed" in response.get_data(as_text=True), url
    page = client.get(f"/games/{game}/verify")
    assert page.status_code == 200 and f"Verification failed at event {target.seq}" in page.get_data(as_text=True)
    instance = ["--instance", str(app.config["PBEM_SETTINGS"].instance)]
    checked = CliRunner().invoke(cli, [*instance, "game", "verify", game])
    assert checked.exit_code == 1 and f"FAILED at event {target.seq}: its payload is not a valid dice.Bet" in checked.output
    for command in (["game", "show", game], ["game", "replay", game], ["game", "log", game]):
        shown = CliRunner().invoke(cli, [*instance, *command])
        assert shown.exit_code == 1 and "cannot be replayed" in shown.output and "Traceback" not in shown.output


def test_the_cli_and_the_verify_page_take_saved_mails(service: Service, game: str, app: Flask,
                                                      tmp_path: Path) -> None:
    mails = saved_mails(service, ANN.email)
    paths = []
    for name, raw in mails:
        (tmp_path / name).write_bytes(raw)
        paths.append(str(tmp_path / name))
    instance = ["--instance", str(app.config["PBEM_SETTINGS"].instance)]
    ok = CliRunner().invoke(cli, [*instance, "game", "verify", game, *sum((["--witness", p] for p in paths), [])])
    assert ok.exit_code == 0 and "chain heads players received" in ok.output and ok.output.rstrip().endswith("OK")
    stranger = tmp_path / "other.txt"
    stranger.write_text("no witness here")
    refused = CliRunner().invoke(cli, [*instance, "game", "verify", game, "--witness", str(stranger)])
    assert refused.exit_code == 1 and "no chain head of game" in refused.output

    found = witness.read(game, mails)
    last = max(w.seq for w in found)
    rewrite(service, game, lambda log: log[:last - 1])
    failed = CliRunner().invoke(cli, [*instance, "game", "verify", game, "--witness", paths[-1]])
    assert failed.exit_code == 1 and f"FAILED at event {last}" in failed.output

    client = app.test_client()
    lines = "\n".join(f"Witness: game {game}, event {w.seq}, hash {w.hash}" for w in found)
    page = client.post(f"/games/{game}/verify", data={"pasted": lines})
    assert page.status_code == 200 and f"Verification failed at event {last}" in page.get_data(as_text=True)
    uploaded = client.post(f"/games/{game}/verify", content_type="multipart/form-data",
                           data={"witness": [(open(p, "rb"), Path(p).name) for p in paths[:1]]})
    assert uploaded.status_code == 200
    assert client.post(f"/games/{game}/verify", data={"pasted": "nothing"}).status_code == 400
