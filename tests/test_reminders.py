"""Reminders are counted at the tick in one statement, and their mails written (composed as the game stands)
before sending."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Iterator

import pytest

from delivery import ANN, BEN, html_of, make_settings, parse, text_of
from events.handling import Cause
from pbem.post.mail.outbox import message_of
from pbem.scheduler import Jobs
from pbem.service import Player, Service

pytestmark = pytest.mark.usefixtures("highdie_registered")
CLI = Cause("cli")


@pytest.fixture
def settings(tmp_path: Path, database: str | None):  # type: ignore[no-untyped-def]
    return make_settings(tmp_path / "inst", turn_hours=10.0, interrupt_hours=2.0, reminders=[0.5, 0.9])


@pytest.fixture
def service(settings) -> Iterator[Service]:  # type: ignore[no-untyped-def]
    s = Service.open(settings)
    yield s
    s.close()


def later(hours: float) -> datetime:
    return datetime.now(timezone.utc) + timedelta(hours=hours)


def reminder_mails(service: Service) -> list[dict]:  # type: ignore[type-arg]
    return service.store.query("SELECT * FROM outbox WHERE kind = 'reminder' ORDER BY created_at")


def owed(service: Service) -> list[tuple[str, int]]:
    return [(r["game_id"], r["seat"]) for r in service.store.query("SELECT game_id, seat FROM deadlines WHERE owed = 1")]


def test_the_tick_only_counts_and_the_mail_is_written_before_sending(service: Service) -> None:
    game = service.create_game("highdie", [ANN, BEN], seed="r1").after.game_id
    assert service.remind_due(later(6)) == 1
    row = service.store.query("SELECT reminders_sent, owed FROM deadlines WHERE game_id = ?", (game,))[0]
    assert row == {"reminders_sent": 1, "owed": 1} and reminder_mails(service) == []  # nothing composed yet
    assert service.write_reminders() == 1
    [mail] = reminder_mails(service)
    assert mail["status"] == "pending" and owed(service) == []
    message = parse(message_of(mail))
    assert message["Subject"].startswith(f"[Highdie (test game) · {game}] Reminder: your turn (due ")
    assert "a reminder: your move is still awaited." in text_of(message) and "WHAT TO DO" in text_of(message)
    assert "Open the game and act" in html_of(message)
    assert service.write_reminders() == 0  # written once


def test_a_reminder_owed_for_a_decision_already_taken_is_not_written(service: Service) -> None:
    game = service.create_game("highdie", [ANN, BEN], seed="r2").after.game_id
    service.remind_due(later(6))
    service.act(game, ANN.email, "bet 2", cause=CLI)  # Ann moves before the worker writes her reminder
    assert owed(service) == []                        # her deadline row is gone, and what it owed with it
    assert service.write_reminders() == 0 and reminder_mails(service) == []


def test_each_due_deadline_is_reminded_once_a_tick_even_when_both_times_have_passed(service: Service) -> None:
    games = [service.create_game("highdie", [ANN, BEN], seed=f"r{n}").after.game_id for n in range(7)]
    assert service.remind_due(later(9.5)) == 7               # both fractions (0.5 and 0.9) have passed
    sent = service.store.query("SELECT game_id, reminders_sent FROM deadlines ORDER BY game_id")
    assert sent == [{"game_id": g, "reminders_sent": 1} for g in sorted(games)]
    assert service.remind_due(later(9.5)) == 7 and service.remind_due(later(9.5)) == 0  # the second, then none
    assert service.write_reminders() == 7  # one mail for what is owed, however many ticks counted


def test_a_seat_with_mails_off_is_counted_but_not_mailed(service: Service) -> None:
    game = service.create_game("highdie", [ANN, BEN], seed="off").after.game_id
    with service.store.transaction() as conn:
        conn.execute("UPDATE seats SET mail = 0 WHERE game_id = ? AND seat = 0", (game,))
    assert service.remind_due(later(6)) == 1 and service.write_reminders() == 0
    assert reminder_mails(service) == [] and owed(service) == []


def test_a_reminder_now_needs_a_running_deadline(service: Service) -> None:
    game = service.create_game("highdie", [ANN, BEN], seed="now").after.game_id
    service.remind(game, 1)  # Ben has no deadline: nothing is counted or written
    assert owed(service) == [] and reminder_mails(service) == []
    service.remind(game, 0)  # counted and written at once
    assert owed(service) == [] and len(reminder_mails(service)) == 1


def test_one_game_that_cannot_be_written_does_not_hold_the_others_back(
        service: Service, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    first, second = (service.create_game("highdie", [ANN, BEN], seed=f"f{n}").after.game_id for n in range(2))
    service.remind_due(later(6))
    real = service.load

    def load(game_id, upto_seq=None):  # type: ignore[no-untyped-def]
        if game_id == first:
            raise RuntimeError("disk on fire")
        return real(game_id, upto_seq)

    monkeypatch.setattr(service, "load", load)
    assert service.write_reminders() == 1
    assert "could not be written" in caplog.text  # logged for the operator (expected here)
    caplog.clear()
    assert [m["game_id"] for m in reminder_mails(service)] == [second] and owed(service) == []


def test_the_worker_reminds_and_sends_with_the_board(settings, service: Service) -> None:  # type: ignore[no-untyped-def]
    game = service.create_game("emerald", [Player("a@example.org", "Ann"), Player("b@example.org", "Ben")],
                               seed="worker").after.game_id
    jobs = Jobs(settings)
    jobs.deadlines(later(6))
    jobs.send_mail()
    [row] = reminder_mails(service)
    assert row["status"] == "sent"
    text = text_of(parse((settings.mailbox / f"{row['id']}.eml").read_text()))
    assert f"game {game}" in text and "THE TABLE, AS YOU SEE IT" in text and "YOUR HAND" in text


@pytest.mark.parametrize("fractions", [[0.5, 0.9], [0.25, 0.5, 0.75], [0.8], []])
def test_the_next_reminder_time_counted_in_sql_is_the_one_python_computes(fractions: list[float]) -> None:
    import sqlite3

    from pbem.table.deadlines import NO_REMINDER, remind_at, remind_at_sql
    conn = sqlite3.connect(":memory:")
    from events.store import SQLiteEventStore
    expression, params = remind_at_sql(fractions, SQLiteEventStore)
    issued, due = "2026-11-23T10:17:43.250911+00:00", "2026-11-26T10:17:43+00:00"
    for sent in range(len(fractions) + 1):
        [(got,)] = conn.execute(f"SELECT {expression} FROM (SELECT ? AS issued_at, ? AS due_at, ? AS reminders_sent)",
                                [*params, issued, due, sent])
        want = remind_at(issued, due, fractions, sent + 1)
        if want == NO_REMINDER:
            assert got == NO_REMINDER
        else:
            assert abs(datetime.fromisoformat(got) - datetime.fromisoformat(want)) <= timedelta(seconds=1), (sent, got)


def test_the_tick_reads_what_is_due_by_its_index_never_every_running_game(service: Service) -> None:
    from pbem.post import reminders
    if service.store.engine != "sqlite":
        pytest.skip("reads SQLite's query plan")
    plan = " ".join(str(r[-1]) for r in service.store.conn.execute(
        "EXPLAIN QUERY PLAN UPDATE deadlines SET owed = 1 WHERE remind_at <= ? AND due_at > ? AND "
        + reminders._RUNNING, ("x", "x")))
    assert "USING INDEX idx_deadlines_remind_at" in plan and "SCAN" not in plan, plan


def test_the_next_reminder_time_counted_in_postgresql_is_the_one_python_computes(pg_database: str) -> None:
    from events.pgstore import PostgresEventStore
    from pbem.table.deadlines import NO_REMINDER, remind_at, remind_at_sql
    store = PostgresEventStore(pg_database)
    issued, due = "2026-11-23T10:17:43.250911+00:00", "2026-11-26T10:17:43+00:00"
    try:
        for fractions in ([0.5, 0.9], [0.25, 0.5, 0.75], [0.8], []):
            expression, params = remind_at_sql(fractions, store)
            for sent in range(len(fractions) + 1):
                [row] = store.query(f"SELECT {expression} AS got FROM (SELECT CAST(? AS TEXT) AS issued_at, "
                                    "CAST(? AS TEXT) AS due_at, CAST(? AS BIGINT) AS reminders_sent) t",
                                    [*params, issued, due, sent])
                want = remind_at(issued, due, fractions, sent + 1)
                assert row["got"] == want if want == NO_REMINDER else \
                    abs(datetime.fromisoformat(row["got"]) - datetime.fromisoformat(want)) <= timedelta(seconds=1)
    finally:
        store.close()
