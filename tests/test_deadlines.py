"""Deadlines, reminders, time-outs, pauses and standing orders keep a slow game moving."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Iterator

import pytest

from delivery import ANN, BEN, make_settings
from events.handling import Cause
from pbem.table.delivery import DEADLINE_EXTENDED, DEADLINE_SET, GAME_PAUSED, GAME_RESUMED, TIMED_OUT
from pbem.scheduler import Jobs, SchedulerRunning, scheduler_lock
from pbem.service import Service, ServiceError

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


@pytest.fixture
def game(service: Service) -> str:
    return service.create_game("highdie", [ANN, BEN], seed="d1").after.game_id  # deals Ann a 15


def deadline(service: Service, game: str, seat: int) -> dict:  # type: ignore[type-arg]
    return service.store.query("SELECT * FROM deadlines WHERE game_id = ? AND seat = ?", (game, seat))[0]


def test_a_prompted_seat_gets_a_deadline_event_and_row(service: Service, game: str) -> None:
    [event] = [e for e in service.store.read(game) if e.type == DEADLINE_SET]
    assert event.payload["seat"] == 0 and event.payload["kind"] == "turn" and event.actor == "system"
    due = datetime.fromisoformat(event.payload["due_at"])
    assert timedelta(hours=9.9) < due - datetime.fromisoformat(event.recorded_at) <= timedelta(hours=10)
    assert deadline(service, game, 0)["due_at"] == event.payload["due_at"]
    service.act(game, ANN.email, "bet 1", cause=CLI)
    assert service.store.query("SELECT seat FROM deadlines WHERE game_id = ?", (game,)) == [{"seat": 1}]


def test_an_out_of_turn_prompt_gets_the_shorter_interrupt_deadline(service: Service, game: str) -> None:
    high = [c for c in service.load(game).game.hands[0] if c >= 10]
    result = service.act(game, ANN.email, f"play {high[0]}", cause=CLI)
    [event] = [e for e in result.events if e.type == DEADLINE_SET]
    assert event.payload == {**event.payload, "seat": 1, "kind": "interrupt"}
    due = datetime.fromisoformat(event.payload["due_at"]) - datetime.fromisoformat(event.recorded_at)
    assert timedelta(hours=1.9) < due <= timedelta(hours=2)


def test_reminders_come_at_half_time_and_near_the_end_once_each(service: Service, game: str) -> None:
    row = deadline(service, game, 0)
    issued, due = datetime.fromisoformat(row["issued_at"]), datetime.fromisoformat(row["due_at"])
    jobs = Jobs(service_settings(service), lambda: service_copy(service))
    jobs.deadlines(issued + timedelta(hours=4))
    assert deadline(service, game, 0)["reminders_sent"] == 0
    jobs.deadlines(issued + timedelta(hours=5, minutes=1))
    jobs.deadlines(issued + timedelta(hours=5, minutes=2))
    assert deadline(service, game, 0)["reminders_sent"] == 1
    jobs.deadlines(due - timedelta(minutes=30))
    assert deadline(service, game, 0)["reminders_sent"] == 2
    kinds = [r["kind"] for r in service.store.query("SELECT kind FROM outbox WHERE to_addr = ? ORDER BY created_at", (ANN.email,))]
    assert kinds == ["turn", "reminder", "reminder"]


def test_a_passed_deadline_plays_the_default_for_the_seat(service: Service, game: str) -> None:
    due = datetime.fromisoformat(deadline(service, game, 0)["due_at"])
    jobs = Jobs(service_settings(service), lambda: service_copy(service))
    jobs.deadlines(due - timedelta(seconds=1))
    assert service.load(game).game.turn == 0
    jobs.deadlines(due + timedelta(seconds=1))
    state = service.load(game)
    assert state.game.turn == 1 and state.game.turns_taken == 1
    events = service.store.read(game)
    timed = [e for e in events if e.type == TIMED_OUT]
    assert len(timed) == 1 and timed[0].payload["action"] == {"kind": "pass"}
    command = [e for e in events if e.command_id == timed[0].command_id]
    assert {e.actor for e in command if not e.type.startswith("pbem.")} == {"scheduler"}
    assert command[0].cause["via"] == "scheduler"
    kinds = [r["kind"] for r in service.store.query("SELECT kind FROM outbox WHERE to_addr = ? ORDER BY created_at", (ANN.email,))]
    assert kinds[-1] == "timeout"
    jobs.deadlines(due + timedelta(seconds=2))  # runs again: nothing more happens to Ann
    assert [e.payload["seat"] for e in service.store.read(game) if e.type == TIMED_OUT].count(0) == 1


def test_a_paused_game_neither_reminds_nor_times_out_and_resuming_extends(service: Service, game: str) -> None:
    due = datetime.fromisoformat(deadline(service, game, 0)["due_at"])
    service.pause(game, "Ann is travelling", cause=CLI)
    with pytest.raises(ServiceError, match="already paused"):
        service.pause(game, "again", cause=CLI)
    Jobs(service_settings(service), lambda: service_copy(service)).deadlines(due + timedelta(days=3))
    assert service.load(game).game.turn == 0 and deadline(service, game, 0)["reminders_sent"] == 0
    result = service.resume(game, "back home", cause=CLI)
    assert [e.type for e in result.events] == [GAME_RESUMED, DEADLINE_EXTENDED]
    assert datetime.fromisoformat(deadline(service, game, 0)["due_at"]) >= due
    assert [e.type for e in service.store.read(game) if e.type in (GAME_PAUSED, GAME_RESUMED)] == [
        GAME_PAUSED, GAME_RESUMED]
    with pytest.raises(ServiceError, match="not paused"):
        service.resume(game, "again", cause=CLI)


def test_deadlines_and_pauses_count_by_the_clock_events_are_recorded_at(service: Service, game: str) -> None:
    later = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=30)
    service.kernel.clock = lambda: later.isoformat(timespec="seconds")  # as the scheduler's tick at that time
    result = service.act(game, ANN.email, "bet 1", cause=CLI)
    [event] = [e for e in result.events if e.type == DEADLINE_SET]
    assert event.payload["due_at"] == (later + timedelta(hours=10)).isoformat(timespec="seconds")
    service.pause(game, "Ben is travelling", cause=CLI)
    later += timedelta(days=2)
    resumed = service.resume(game, "back home", cause=CLI)
    assert resumed.events[-1].payload["due_at"] == (later + timedelta(hours=10)).isoformat(timespec="seconds")
    assert resumed.events[-1].payload["reason"] == "the game was paused for 2.0 days"


def test_the_organiser_extends_a_deadline_on_record(service: Service, game: str) -> None:
    due = datetime.fromisoformat(deadline(service, game, 0)["due_at"])
    result = service.extend(game, 24, "holiday", cause=CLI)
    [event] = result.events
    assert event.type == DEADLINE_EXTENDED and event.actor == "organiser" and event.payload["reason"] == "holiday"
    assert datetime.fromisoformat(deadline(service, game, 0)["due_at"]) == due + timedelta(hours=24)
    with pytest.raises(ServiceError, match="no running deadline"):
        service.extend(game, 1, "x", cause=CLI, seat=1)


def test_a_standing_order_answers_an_interrupt_without_a_round_trip(service: Service, game: str) -> None:
    service.set_standing_order(game, 1, "highdie.contest", "never", cause=CLI)
    high = [c for c in service.load(game).game.hands[0] if c >= 10]
    service.act(game, ANN.email, f"play {high[0]}", cause=CLI)
    state = service.load(game)
    assert state.game.contest is None and state.game.scores[0] == high[0]
    answered = [e for e in service.store.read(game) if e.type == "dice.Contested"]
    assert answered[0].cause["via"] == "standing-order" and answered[0].actor == "seat:1"
    with pytest.raises(ServiceError, match="standing order"):
        service.set_standing_order(game, 1, "highdie.contest", "sometimes", cause=CLI)


def test_only_one_scheduler_runs_per_instance(tmp_path: Path) -> None:
    with scheduler_lock(tmp_path):
        with pytest.raises(SchedulerRunning, match="already running"):
            with scheduler_lock(tmp_path):
                pass
    with scheduler_lock(tmp_path):  # released: the next one may start
        pass


def service_settings(service: Service):  # type: ignore[no-untyped-def]
    return make_settings(service.settings.instance, turn_hours=10.0, interrupt_hours=2.0, reminders=[0.5, 0.9])


def service_copy(service: Service) -> Service:
    return Service.open(service_settings(service))


def test_reminders_are_found_by_an_index_of_when_they_are_due(service: Service, game: str) -> None:
    row = deadline(service, game, 0)
    issued, due = datetime.fromisoformat(row["issued_at"]), datetime.fromisoformat(row["due_at"])
    assert datetime.fromisoformat(row["remind_at"]) == (issued + (due - issued) * 0.5).replace(microsecond=0)
    if service.store.engine != "sqlite":
        pytest.skip("reads SQLite's query plan")
    plan = " ".join(str(r[-1]) for r in service.store.conn.execute(
        "EXPLAIN QUERY PLAN SELECT d.* FROM deadlines d JOIN games g ON g.game_id = d.game_id "
        "WHERE d.remind_at <= ? AND d.due_at > ? AND g.status = 'running' AND g.paused_at IS NULL "
        "ORDER BY d.remind_at", ("x", "x")))
    assert "USING INDEX" in plan and "remind_at" in plan and "SCAN d" not in plan


def test_a_deadline_written_before_remind_at_existed_still_gets_its_reminders(service: Service, game: str) -> None:
    with service.store.transaction() as conn:
        conn.execute("UPDATE deadlines SET remind_at = NULL")
    row = deadline(service, game, 0)
    issued = datetime.fromisoformat(row["issued_at"])
    jobs = Jobs(service_settings(service), lambda: service_copy(service))
    jobs.deadlines(issued + timedelta(hours=5, minutes=1))
    assert deadline(service, game, 0)["reminders_sent"] == 1
    due = datetime.fromisoformat(row["due_at"])
    # the next one, near the end (counted in SQL, to the millisecond: within a second of the exact time)
    following = datetime.fromisoformat(deadline(service, game, 0)["remind_at"])
    assert abs(following - (issued + (due - issued) * 0.9).replace(microsecond=0)) <= timedelta(seconds=1)


def test_extending_a_deadline_moves_its_next_reminder(service: Service, game: str) -> None:
    before = deadline(service, game, 0)
    service.extend(game, 10, "a long week", cause=CLI)
    after = deadline(service, game, 0)
    assert datetime.fromisoformat(after["remind_at"]) - datetime.fromisoformat(before["remind_at"]) == timedelta(hours=5)
