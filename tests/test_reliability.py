"""A player's record of deadlines (on time, late, missed, response time): kept with each command, equal to what
the log says, and shown on their home page (``pbem.table.reliability``)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Iterator

import pytest

from delivery import make_settings
from events.handling import Cause
from pbem.table import reliability
from pbem.scheduler import Jobs
from pbem.service import Player, Service
from pbem.web import create_app

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cy")]
CLI = Cause("cli")


@pytest.fixture
def settings(tmp_path: Path, database: str | None):  # type: ignore[no-untyped-def]
    return make_settings(tmp_path / "inst", turn_hours=10.0, interrupt_hours=2.0, reminders=[0.5])


@pytest.fixture
def service(settings) -> Iterator[Service]:  # type: ignore[no-untyped-def]
    s = Service.open(settings)
    yield s
    s.close()


def played(service: Service, settings, seed: int) -> str:  # type: ignore[no-untyped-def]
    """An Emerald game where players move at random, and now and then let the scheduler time them out."""
    game = service.create_game("emerald", PLAYERS, seed=f"rel-{seed}",  # a fixed id: the autopilot's moves are
                               game_id=f"{seed:010x}").after.game_id  # seeded by it
    pick = random.Random(seed)
    jobs = Jobs(settings, lambda: Service.open(settings))
    for _ in range(60):
        state = service.load(game)
        if state.ended:
            break
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        if pick.random() < 0.15:  # this player vanishes for a while: the deadline passes
            jobs.deadlines(datetime.now(timezone.utc) + timedelta(hours=11))
            continue
        service.act_as(game, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=CLI)
    return game


def test_the_kept_record_is_what_the_log_says(service: Service, settings) -> None:  # type: ignore[no-untyped-def]
    totals = reliability.Record()
    for seed in range(3):
        game = played(service, settings, seed)
        events = service.store.read(game)
        for seat, player in enumerate(PLAYERS):
            kept = service.store.query("SELECT * FROM reliability WHERE game_id = ? AND seat = ?", (game, seat))
            logged = reliability.from_log(events, seat)
            got = (kept[0]["on_time"], kept[0]["late"], kept[0]["missed"]) if kept else (0, 0, 0)
            assert got == (logged.on_time, logged.late, logged.missed), (seed, seat)
            if kept:
                assert kept[0]["response_seconds"] == pytest.approx(logged.response_seconds, abs=1e-3)
    for player in PLAYERS:
        record = reliability.of_player(service.store, player.email)
        totals.on_time += record.on_time
        totals.missed += record.missed
    assert totals.on_time > 20 and totals.missed > 2  # the games exercised both


def test_a_deadline_counts_once_however_many_actions_the_turn_has(service: Service) -> None:
    game = service.create_game("emerald", PLAYERS, seed="once").after.game_id
    pick = random.Random(5)
    for _ in range(30):
        state = service.load(game)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=CLI)
    events = service.store.read(game)
    for seat in range(3):
        set_count = sum(1 for e in events if e.type == "pbem.DeadlineSet" and e.payload["seat"] == seat)
        record = reliability.from_log(events, seat)
        assert record.on_time + record.late <= set_count and record.missed == 0
    assert sum(reliability.from_log(events, s).on_time for s in range(3)) >= 10


def test_the_home_page_shows_the_record_in_words(tmp_path: Path) -> None:
    app = create_app({"instance": tmp_path / "web", "secret_key": "k", "TESTING": True, "turn_hours": 10.0})
    service = Service.open(app.config["PBEM_SETTINGS"])
    try:
        game = service.create_game("emerald", PLAYERS, seed="home").after.game_id
        state = service.load(game)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game, seat, rules.legal_actions(state.game, seat)[0], cause=CLI)
        email = PLAYERS[seat].email
        token = app.extensions["pbem.links"].make("home", service.player_id(email))
        page = app.test_client().get(f"/home/{token}").get_data(as_text=True)
        assert "Your deadlines, over all your games: 1 on time, 0 missed; answers in 0 min on average." in page
        other = PLAYERS[(seat + 1) % 3].email
        token = app.extensions["pbem.links"].make("home", service.player_id(other))
        assert "no deadline met or missed yet" in app.test_client().get(f"/home/{token}").get_data(as_text=True)
    finally:
        service.close()


def test_the_record_reads_in_words() -> None:
    assert reliability.Record(12, 1, 2, 13 * 5.5 * 3600).words() == \
        "12 on time, 1 late, 2 missed; answers in 5 h 30 min on average"
    assert reliability.Record(0, 0, 3).words() == "0 on time, 3 missed"
    assert reliability.Record(2, 0, 0, 2 * 3 * 86400).words().endswith("answers in 3 d 0 h on average")
