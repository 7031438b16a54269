"""Under an allowance, an absence holds its days from the moment it is declared: a later declaration gets only what
is left, a start stops the clock for what was held, and cancelling gives the days back. Ben (seat 1) in a game of
high die with an allowance of 14 days, on a fake clock; his turn is running (Ann passed)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from delivery import ANN, BEN
from events.envelope import NewEvent, seat_actor
from events.handling import Cause
from events.store import Row
from pbem.service import Service
from pbem.table import away
from pbem.table.delivery import DEADLINE_EXTENDED
from pbem.table.hooks import WithRows
from pbem.table.seat_events import ABSENCE_DECLARED, ABSENCE_ENDED, ABSENCE_STARTED
from test_away import Clock, clock, due_of, new_game, service, settings, tick  # noqa: F401  (fixtures)

pytestmark = pytest.mark.usefixtures("highdie_registered")
CLI = Cause("cli")
DAY = 86_400


def ben_away(service: Service, clock: Clock, first: int, back: int) -> dict[str, Any]:
    """Ben declares an absence from day ``first`` until day ``back`` (days after now); its declaration's payload."""
    result = service.declare_absence(service.store.query("SELECT game_id FROM games")[0]["game_id"], 1,
                                     (clock.now + timedelta(days=first)).isoformat(),
                                     (clock.now + timedelta(days=back)).isoformat(), cause=CLI, now=clock.now)
    assert [e.type for e in result.events] == [ABSENCE_DECLARED]  # planned: nothing starts yet
    return dict(result.events[0].payload)


def declared(clock: Clock, payload: dict[str, Any], first: int, back: int, reserved: float, left: float) -> None:
    assert payload == {"seat": 1, "absence": payload["absence"], "reason": None, "reason_commitment": None,
                       "starts_at": away.iso(clock.now + timedelta(days=first)),
                       "until": away.iso(clock.now + timedelta(days=back)),
                       "reserved_seconds": int(reserved * DAY), "left_seconds": int(left * DAY)}


def changes(service: Service, game: str, after: int) -> list[tuple[str, dict[str, Any]]]:
    """The absence and clock events recorded after seq ``after``, without the absences' ids."""
    return [(e.type, {k: v for k, v in e.payload.items() if k != "absence"}) for e in service.store.read(game, after)
            if e.type in (ABSENCE_STARTED, ABSENCE_ENDED, DEADLINE_EXTENDED)]


def started(t0: datetime, clock_until: float, due: datetime) -> list[tuple[str, dict[str, Any]]]:
    until = away.iso(t0 + timedelta(days=clock_until))
    return [(ABSENCE_STARTED, {"seat": 1, "policy": "allowance", "clock_until": until}),
            (DEADLINE_EXTENDED, {"seat": 1, "due_at": away.iso(due),
                                 "reason": f"Ben is away: their clock stops until {away.when(until)}"})]


def ended(how: str, stopped: float) -> list[tuple[str, dict[str, Any]]]:
    return [(ABSENCE_ENDED, {"seat": 1, "how": how, "stopped_seconds": int(stopped * DAY)})]


@pytest.fixture
def game(service: Service, clock: Clock) -> str:
    found = new_game(service, "allowance:14")
    service.act(found, ANN.email, "pass", cause=CLI)
    return found


def test_two_planned_absences_longer_than_the_allowance_the_second_holds_only_what_is_left(
        service: Service, clock: Clock, game: str) -> None:
    """Ben plans 10 days away (days 2 to 12), then 8 more (days 20 to 28): the first holds 10 of his 14 days, the
    second the 4 left, and when it begins his clock stops 4 days, not 8."""
    t0, due = clock.now, due_of(service, game, 1)
    declared(clock, ben_away(service, clock, 2, 12), 2, 12, reserved=10, left=4)
    declared(clock, ben_away(service, clock, 20, 28), 20, 28, reserved=4, left=0)
    assert away.used_seconds(service.store, game, 1) == 14 * DAY  # both held before either begins
    seq = service.store.last(game)[0]
    for day in (2, 12, 20, 28):
        assert tick(service, clock, t0 + timedelta(days=day)) == 1
    assert changes(service, game, seq) == (started(t0, 12, due + timedelta(days=10)) + ended("over", 10)
                                           + started(t0, 24, due + timedelta(days=14)) + ended("over", 4))
    assert due_of(service, game, 1) == due + timedelta(days=14)  # the allowance, to the second
    assert service.verify(game).ok


def test_cancelling_a_planned_absence_gives_its_days_to_the_next_declaration(
        service: Service, clock: Clock, game: str) -> None:
    """Ben plans days 2 to 12 (10 held) and 20 to 28 (the 4 left), then cancels the first: a third absence, days 30
    to 40, holds the 10 given back; the second keeps the 4 it held, and stops his clock only that long."""
    t0, due = clock.now, due_of(service, game, 1)
    ben_away(service, clock, 2, 12)
    ben_away(service, clock, 20, 28)
    seq = service.store.last(game)[0]
    cancelled = service.seat_command(game, 1, "back", cause=CLI)  # before it began: the next one is cancelled
    assert [(e.type, e.payload["how"], e.payload["stopped_seconds"]) for e in cancelled.events] == [
        (ABSENCE_ENDED, "cancelled", 0)]
    assert away.used_seconds(service.store, game, 1) == 4 * DAY
    declared(clock, ben_away(service, clock, 30, 40), 30, 40, reserved=10, left=0)
    for day in (20, 28, 30, 40):
        assert tick(service, clock, t0 + timedelta(days=day)) == 1
    assert changes(service, game, seq) == (ended("cancelled", 0) + started(t0, 24, due + timedelta(days=4))
                                           + ended("over", 4) + started(t0, 40, due + timedelta(days=14))
                                           + ended("over", 10))
    assert service.verify(game).ok


def test_an_absence_declared_first_keeps_its_days_though_a_later_declared_one_begins_before_it(
        service: Service, clock: Clock, game: str) -> None:
    """Ben plans days 10 to 20 (10 held), then days 2 to 8 (6 long, the 4 left held): the second begins first and
    stops his clock 4 days; the first, beginning after it, still stops it its 10 (the days went to who asked
    first, not to who began first)."""
    t0, due = clock.now, due_of(service, game, 1)
    declared(clock, ben_away(service, clock, 10, 20), 10, 20, reserved=10, left=4)
    declared(clock, ben_away(service, clock, 2, 8), 2, 8, reserved=4, left=0)
    seq = service.store.last(game)[0]
    for day in (2, 8, 10, 20):
        assert tick(service, clock, t0 + timedelta(days=day)) == 1
    assert changes(service, game, seq) == (started(t0, 6, due + timedelta(days=4)) + ended("over", 4)
                                           + started(t0, 20, due + timedelta(days=14)) + ended("over", 10))
    assert service.verify(game).ok


def test_coming_back_early_gives_back_what_a_running_absence_did_not_use(
        service: Service, clock: Clock, game: str) -> None:
    """Ben's absence of days 0 to 10 holds 10 days from its declaration; back on day 3, 3 are used and 11 left for
    his next declaration, which holds them all."""
    t0 = clock.now
    result = service.declare_absence(game, 1, t0.isoformat(), (t0 + timedelta(days=10)).isoformat(), cause=CLI,
                                     now=t0)
    assert [e.type for e in result.events] == [ABSENCE_DECLARED, ABSENCE_STARTED, DEADLINE_EXTENDED]
    assert (result.events[0].payload["reserved_seconds"], result.events[0].payload["left_seconds"]) == (10 * DAY,
                                                                                                        4 * DAY)
    clock.now = t0 + timedelta(days=3)
    service.seat_command(game, 1, "back", cause=CLI)
    assert away.allowance_left(service, game, 1) == 11 * DAY
    declared(clock, ben_away(service, clock, 5, 25), 5, 25, reserved=11, left=0)


def test_the_player_reads_what_the_absence_holds_and_the_others_do_not(
        service: Service, clock: Clock, game: str) -> None:
    ben_away(service, clock, 2, 12)
    ben_away(service, clock, 20, 28)
    ben = [line["text"] for line in service.log(game, BEN.email) if "will be away" in line["text"]]
    ann = [line["text"] for line in service.log(game, ANN.email) if "will be away" in line["text"]]
    assert [line.split("; ", 1)[1] for line in ben] == [
        "this absence holds 10 days of your allowance, and 4 days are left",
        "this absence holds 4 days of your allowance, and none is left"]
    assert ann and not any("allowance" in line for line in ann)


def test_an_absence_declared_before_absences_held_days_takes_its_share_when_it_begins(
        service: Service, clock: Clock, game: str) -> None:
    """A record written before declarations held days (no reserved_seconds, no left_seconds; its row none either)
    replays and verifies, holds nothing while planned, and stops the clock, when it begins, for what is left then:
    as it did when it was written."""
    t0, due = clock.now, due_of(service, game, 1)
    old = {"seat": 1, "absence": "0ld0ld0ld0ld", "starts_at": away.iso(t0 + timedelta(days=2)),
           "until": away.iso(t0 + timedelta(days=12)), "reason": None, "reason_commitment": None}
    row = {"game_id": game, "absence": old["absence"], "seat": 1, "starts_at": old["starts_at"],
           "until": old["until"], "reason": None, "reason_key": None, "shared": 0, "status": "planned",
           "stopped_seconds": 0}
    service.kernel.record(game, [NewEvent(ABSENCE_DECLARED, old)], actor=seat_actor(1), cause=CLI,
                          hooks=WithRows(service, [Row(away.TABLE, row, pk=("game_id", "absence"))], first=True))
    assert away.used_seconds(service.store, game, 1) == 0  # held nothing while planned, as then
    [line] = [line["text"] for line in service.log(game, BEN.email) if "will be away" in line["text"]]
    assert "allowance" not in line
    seq = service.store.last(game)[0]
    assert tick(service, clock, t0 + timedelta(days=2)) == 1
    assert changes(service, game, seq) == started(t0, 12, due + timedelta(days=10))
    declared(clock, ben_away(service, clock, 20, 30), 20, 30, reserved=4, left=0)  # 10 held by the running one
    assert service.verify(game).ok
    assert service.load(game).seq == service.store.last(game)[0]


def test_an_absence_stops_the_clock_for_what_it_held_though_days_were_given_back_meanwhile(
        service: Service, clock: Clock, game: str) -> None:
    """Ben plans days 2 to 12 (10 held) and 20 to 28 (the 4 left), then cancels the first: the second, beginning,
    stops his clock the 4 days it held, not 8; the 10 given back stay his for a later declaration."""
    t0, due = clock.now, due_of(service, game, 1)
    ben_away(service, clock, 2, 12)
    ben_away(service, clock, 20, 28)
    service.seat_command(game, 1, "back", cause=CLI)
    seq = service.store.last(game)[0]
    assert tick(service, clock, t0 + timedelta(days=20)) == 1
    assert changes(service, game, seq) == started(t0, 24, due + timedelta(days=4))
    assert away.allowance_left(service, game, 1) == 10 * DAY


def test_a_declaration_that_loses_the_race_holds_only_what_the_one_before_it_left(
        service: Service, clock: Clock, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the reading of what Ben's days 20 to 30 would hold (10: all he has) and its append, days 2 to 12 come in
    through another door and hold 10: his append finds the seq moved on, and, read again on what came first, his
    absence holds the 4 left."""
    reserve = away.reservation
    raced: list[dict[str, Any]] = []

    def reserve_then_lose(*args: Any) -> tuple[int | None, int | None]:
        found = reserve(*args)
        if not raced:
            assert found == (10 * DAY, 4 * DAY)  # what it would hold at the seq it first read
            monkeypatch.setattr(away, "reservation", reserve)
            raced.append(ben_away(service, clock, 2, 12))
            monkeypatch.setattr(away, "reservation", reserve_then_lose)
        return found

    monkeypatch.setattr(away, "reservation", reserve_then_lose)
    second = ben_away(service, clock, 20, 30)
    declared(clock, raced[0], 2, 12, reserved=10, left=4)
    declared(clock, second, 20, 30, reserved=4, left=0)
    assert [e.type for e in service.store.read(game)].count(ABSENCE_DECLARED) == 2
    assert away.used_seconds(service.store, game, 1) == 14 * DAY
