"""Vacations: a week away under each policy, on a fake clock; the table told; bad absences refused."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator

import pytest

from delivery import ANN, BEN, make_settings
from events.handling import Cause, StaleCommand
from pbem.table import away, seatlife
from pbem.table.autopilot import status
from pbem.table.delivery import DEADLINE_EXTENDED, DEADLINE_SET, GAME_PAUSED, GAME_RESUMED, TIMED_OUT
from pbem.table.seat_events import ABSENCE_DECLARED, ABSENCE_ENDED, ABSENCE_STARTED
from pbem.service import Service, ServiceError

pytestmark = pytest.mark.usefixtures("highdie_registered")
CLI = Cause("cli")
WEEK = timedelta(days=7)


class Clock:
    """The time the test says it is: the kernel records events at it, and the service is told it."""

    def __init__(self) -> None:
        self.now = datetime.now(timezone.utc).replace(microsecond=0)

    def __call__(self) -> str:
        return self.now.isoformat(timespec="seconds")


@pytest.fixture
def settings(tmp_path: Path, database: str | None) -> Any:
    return make_settings(tmp_path / "inst", turn_hours=10.0, interrupt_hours=2.0)


@pytest.fixture
def service(settings: Any) -> Iterator[Service]:
    s = Service.open(settings)
    yield s
    s.close()


@pytest.fixture
def clock(service: Service) -> Clock:
    found = Clock()
    service.kernel.clock = found
    return found


def new_game(service: Service, policy: str) -> str:
    options = seatlife.options(policy, None)
    return service.create_game("highdie", [ANN, BEN], seed="d1", options=options).after.game_id


def due_of(service: Service, game: str, seat: int) -> datetime:
    return datetime.fromisoformat(service.store.query("SELECT due_at FROM deadlines WHERE game_id = ? AND seat = ?",
                                                      (game, seat))[0]["due_at"])


def types(result: Any) -> list[str]:
    return [e.type for e in result.events]


def tick(service: Service, clock: Clock, at: datetime) -> int:
    clock.now = at
    return seatlife.tick(service, at)[0]


def test_a_week_away_under_pause_stops_the_game_clocks_exactly_that_week(service: Service, clock: Clock) -> None:
    game = new_game(service, "pause")
    ann_due = due_of(service, game, 0)
    start = clock.now + timedelta(days=1)
    declared = service.declare_absence(game, 1, start.isoformat(), (start + WEEK).isoformat(), "skiing",
                                       cause=CLI, now=clock.now)
    assert types(declared) == [ABSENCE_DECLARED]  # planned: it starts tomorrow
    assert tick(service, clock, start - timedelta(seconds=1)) == 0
    assert tick(service, clock, start) == 1
    [started] = [e for e in service.store.read(game) if e.type == GAME_PAUSED]
    assert started.payload["reason"].startswith("Ben is away until") and started.actor == "scheduler"
    assert tick(service, clock, start + timedelta(days=3)) == 0  # idempotent: nothing more while away
    assert not service.due_deadlines(ann_due + timedelta(days=2))  # paused: Ann's deadline does not run out
    assert tick(service, clock, start + WEEK) == 1
    events = service.store.read(game)
    ended = [e for e in events if e.type in (ABSENCE_ENDED, GAME_RESUMED, DEADLINE_EXTENDED)]
    assert [e.type for e in ended] == [ABSENCE_ENDED, GAME_RESUMED, DEADLINE_EXTENDED]
    assert ended[2].payload["reason"] == "the game was paused for 7.0 days while Ben was away"
    assert due_of(service, game, 0) == ann_due + WEEK  # the clock stopped for exactly the week
    assert service.verify(game).ok


def test_a_week_away_under_run_lets_the_deadlines_run_and_times_out(service: Service, clock: Clock) -> None:
    game = new_game(service, "run")
    service.act(game, ANN.email, "pass", cause=CLI)
    ben_due = due_of(service, game, 1)
    result = service.declare_absence(game, 1, clock.now.date().isoformat(), (clock.now + WEEK).isoformat(),
                                     cause=CLI, now=clock.now)
    assert types(result) == [ABSENCE_DECLARED, ABSENCE_STARTED]  # from today: at once
    assert due_of(service, game, 1) == ben_due  # nothing moved
    timed = service.time_out(game, 1, ben_due + timedelta(seconds=1))
    assert timed is not None and TIMED_OUT in types(timed)
    assert status(service.store, game, 1)["missed"] == 0  # away: no count towards autopilot
    assert tick(service, clock, clock.now + WEEK) == 1
    assert service.verify(game).ok


def test_a_week_away_under_an_allowance_stops_the_players_clock_up_to_it(service: Service, clock: Clock) -> None:
    game = new_game(service, "allowance:3")
    service.act(game, ANN.email, "pass", cause=CLI)
    ben_due = due_of(service, game, 1)
    result = service.declare_absence(game, 1, clock.now.isoformat(), (clock.now + WEEK).isoformat(),
                                     cause=CLI, now=clock.now)
    assert types(result) == [ABSENCE_DECLARED, ABSENCE_STARTED, DEADLINE_EXTENDED]
    assert result.events[1].payload["clock_until"] == (clock.now + timedelta(days=3)).isoformat()
    assert due_of(service, game, 1) == ben_due + timedelta(days=3)  # three days of allowance, not seven
    assert tick(service, clock, clock.now + WEEK) == 1
    [ended] = [e for e in service.store.read(game) if e.type == ABSENCE_ENDED]
    assert ended.payload == {**ended.payload, "how": "over", "stopped_seconds": 3 * 86_400}
    # the allowance is used up: a second absence stops nothing
    again = service.declare_absence(game, 1, clock.now.isoformat(), (clock.now + WEEK).isoformat(),
                                    cause=CLI, now=clock.now)
    assert types(again) == [ABSENCE_DECLARED, ABSENCE_STARTED] and again.events[1].payload["clock_until"] is None
    assert service.verify(game).ok


def test_back_early_gives_the_unused_days_back_and_new_deadlines_wait(service: Service, clock: Clock) -> None:
    game = new_game(service, "allowance:14")
    ben_away_from = clock.now
    service.declare_absence(game, 1, clock.now.isoformat(), (clock.now + WEEK).isoformat(), cause=CLI,
                            now=clock.now)
    result = service.act(game, ANN.email, "pass", cause=CLI)  # Ben's turn comes while his clock is stopped
    [set_] = [e for e in result.events if e.type == DEADLINE_SET]
    issued = datetime.fromisoformat(set_.recorded_at)
    stop_left = ben_away_from + WEEK - datetime.now(timezone.utc)
    assert abs(datetime.fromisoformat(set_.payload["due_at"]) - (issued + timedelta(hours=10) + stop_left)) \
        < timedelta(seconds=5)
    due = due_of(service, game, 1)
    clock.now = ben_away_from + timedelta(days=2)
    back = service.seat_command(game, 1, "back", cause=CLI)
    assert types(back) == [ABSENCE_ENDED, DEADLINE_EXTENDED]
    assert back.events[0].payload == {**back.events[0].payload, "how": "back", "stopped_seconds": 2 * 86_400}
    assert due_of(service, game, 1) == due - timedelta(days=5)
    assert away.used_seconds(service.store, game, 1) == 2 * 86_400
    assert service.verify(game).ok


def test_the_table_is_told_and_a_kept_reason_stays_with_its_player(service: Service, clock: Clock) -> None:
    game = new_game(service, "run")
    until = (clock.now + WEEK).date().isoformat()
    service.declare_absence(game, 1, clock.now.isoformat(), until, "my private surgery", cause=CLI, now=clock.now)
    ann_lines = " ".join(line["text"] for line in service.log(game, ANN.email))
    ben_lines = " ".join(line["text"] for line in service.log(game, BEN.email))
    public = " ".join(line["text"] for line in service.log(game))
    assert "Ben will be away from" in ann_lines and "surgery" not in ann_lines and "surgery" not in public
    assert "my private surgery" in ben_lines
    assert "surgery" not in str([e.payload for e in service.store.read(game)])
    service.act(game, ANN.email, "pass", cause=CLI)
    service.act(game, BEN.email, "pass", cause=CLI)  # Ann's next mail (her turn) tells her
    from pbem.post.mail.outbox import draft_of
    mails = service.store.query("SELECT * FROM outbox WHERE to_addr = ?", (ANN.email,))
    assert any("Ben will be away" in line for m in mails for line in draft_of(m)["context"]["since"])
    assert not any("surgery" in str(draft_of(m)) for m in mails)
    service.seat_command(game, 1, "back", cause=CLI)
    service.declare_absence(game, 1, clock.now.isoformat(), until, "at the seaside", True, cause=CLI, now=clock.now)
    assert "at the seaside" in " ".join(line["text"] for line in service.log(game, ANN.email))


@pytest.mark.parametrize("starts, until, message", [
    ("2020-01-01", "2020-01-08", "past"),
    ("+3", "+1", "end after it starts"),
    ("+1", "+90", "at most 60 days"),
    ("soon", "+3", "a day like"),
    ("+2", "+5", "already away"),
])
def test_bad_absences_are_refused_and_write_nothing(service: Service, clock: Clock, starts: str, until: str,
                                                    message: str) -> None:
    game = new_game(service, "pause")
    service.declare_absence(game, 1, (clock.now + timedelta(days=1)).isoformat(),
                            (clock.now + timedelta(days=4)).isoformat(), cause=CLI, now=clock.now)

    def day(text: str) -> str:
        return (clock.now.date() + timedelta(days=int(text))).isoformat() if text.startswith("+") else text

    before = service.store.last(game)
    rows = service.store.query("SELECT * FROM absences")
    with pytest.raises(ServiceError, match=message):
        service.declare_absence(game, 1, day(starts), day(until), cause=CLI, now=clock.now)
    assert service.store.last(game) == before and service.store.query("SELECT * FROM absences") == rows


def test_two_workers_never_both_start_an_absence(service: Service, clock: Clock, settings: Any) -> None:
    game = new_game(service, "pause")
    start = clock.now + timedelta(hours=1)
    service.declare_absence(game, 1, start.isoformat(), (start + WEEK).isoformat(), cause=CLI, now=clock.now)
    other = Service.open(settings)
    try:
        other.kernel.clock = clock
        clock.now = start
        found = away.due(other.store, start)  # the second worker finds it due ...
        assert len(found) == 1
        assert seatlife.tick(service, start)[0] == 1  # ... but the first starts it before it acts
        assert away.act(other, found[0], start) is None
        assert seatlife.tick(other, start)[0] == 0
    finally:
        other.close()
    assert [e.type for e in service.store.read(game)].count(ABSENCE_STARTED) == 1
    assert [e.type for e in service.store.read(game)].count(GAME_PAUSED) == 1


def test_away_back_and_resign_by_mail_and_a_replaced_players_reply_is_refused(service: Service,
                                                                             clock: Clock) -> None:
    from email.message import EmailMessage

    from delivery import CY, parse
    from pbem.post.mail.inbound import UnknownReply, process
    from pbem.post.mail.outbox import message_of
    game = new_game(service, "allowance:14")
    row = service.store.query("SELECT draft, message FROM outbox WHERE to_addr = ? ORDER BY created_at DESC LIMIT 1",
                              (ANN.email,))[0]
    original = parse(message_of(row))

    def reply(body: str, message_id: str) -> bytes:
        mail = EmailMessage()
        mail["From"], mail["To"], mail["Subject"] = "Ann <ann@example.org>", str(original["Reply-To"]), "Re: turn"
        mail["Message-ID"] = message_id
        mail.set_content(body)
        return bytes(mail)

    first, back = clock.now.date() + timedelta(days=3), clock.now.date() + timedelta(days=10)
    outcome = process(service, reply(f"away {first} {back} share a wedding\nbet 1\n", "<m1@x>"), "play@localhost")
    assert outcome.applied == [f"away {first} {back} share a wedding", "bet 1"] and outcome.error is None
    assert "a wedding" in " ".join(line["text"] for line in service.log(game, BEN.email))
    refused = process(service, reply(f"away {back} {first}", "<m2@x>"), "play@localhost")
    assert refused.applied == [] and "end after it starts" in str(refused.error)
    assert process(service, reply("back", "<m3@x>"), "play@localhost").applied == ["back"]
    assert process(service, reply("resign", "<m4@x>"), "play@localhost").applied == ["resign"]
    assert status(service.store, game, 0)["resigned"] == 1
    service.replace(game, 0, CY, cause=CLI)
    seq = service.store.last(game)
    with pytest.raises(UnknownReply, match="given to another player"):
        process(service, reply("say hello", "<m5@x>"), "play@localhost")
    assert service.store.last(game) == seq


def test_replacing_an_away_player_ends_the_absence_and_gives_the_clocks_back(service: Service, clock: Clock) -> None:
    from delivery import CY
    game = new_game(service, "pause")
    ann_due = due_of(service, game, 0)
    service.declare_absence(game, 1, clock.now.isoformat(), (clock.now + WEEK).isoformat(), "a secret",
                            cause=CLI, now=clock.now)
    assert service.store.query("SELECT paused_at FROM games WHERE game_id = ?", (game,))[0]["paused_at"]
    clock.now += timedelta(days=2)
    result = service.replace(game, 1, CY, cause=CLI)
    assert [e.type for e in result.events][:3] == ["pbem.SeatReplaced", ABSENCE_ENDED, GAME_RESUMED]
    assert result.events[1].payload["how"] == "replaced"
    assert due_of(service, game, 0) == ann_due + timedelta(days=2)
    assert not away.absences_of(service.store, game, 1)
    assert "a secret" not in " ".join(line["text"] for line in service.log(game, CY.email))
    assert seatlife.tick(service, clock.now + WEEK) == (0, 0)
    assert service.verify(game).ok


def test_overlapping_absences_under_pause_resume_when_the_last_ends(service: Service, clock: Clock) -> None:
    game = new_game(service, "pause")
    t0 = clock.now
    service.declare_absence(game, 1, t0.isoformat(), (t0 + timedelta(days=3)).isoformat(), cause=CLI, now=t0)
    service.declare_absence(game, 0, (t0 + timedelta(days=1)).isoformat(), (t0 + timedelta(days=5)).isoformat(),
                            cause=CLI, now=t0)
    ann_due = due_of(service, game, 0)
    assert tick(service, clock, t0 + timedelta(days=1)) == 1  # Ann goes too: the game is paused already
    assert tick(service, clock, t0 + timedelta(days=3)) == 1  # Ben is back, Ann is not: still paused
    assert service.store.query("SELECT paused_at FROM games WHERE game_id = ?", (game,))[0]["paused_at"]
    assert tick(service, clock, t0 + timedelta(days=5)) == 1  # the last is back: resumed, five days given back
    assert [e.type for e in service.store.read(game)].count(GAME_RESUMED) == 1
    assert due_of(service, game, 0) == ann_due + timedelta(days=5)
    assert service.verify(game).ok


def test_the_allowance_counts_a_running_absence_not_only_ended_ones(service: Service, clock: Clock) -> None:
    """Ben's 10-day absence is running, its clock stopped for all 10 days; should a second absence of his begin
    meanwhile (two absences recorded before the overlap was checked in the write), it stops his clock for the 4 days
    left of the 14, not 14 more."""
    game = new_game(service, "allowance:14")
    service.act(game, ANN.email, "pass", cause=CLI)
    ben_due = due_of(service, game, 1)
    service.declare_absence(game, 1, clock.now.isoformat(), (clock.now + timedelta(days=10)).isoformat(),
                            cause=CLI, now=clock.now)
    assert away.used_seconds(service.store, game, 1) == 10 * 86_400  # held by the running one
    second = {"absence": "second", "seat": 1, "until": away.iso(clock.now + timedelta(days=40))}
    drafts = away.start_drafts(service, service.load(game), second, clock.now)
    assert drafts[0].payload["clock_until"] == away.iso(clock.now + timedelta(days=4))
    assert datetime.fromisoformat(drafts[1].payload["due_at"]) == ben_due + timedelta(days=10 + 4)


def test_an_allowance_used_by_an_absence_cut_short_counts_what_it_stopped(service: Service, clock: Clock) -> None:
    game = new_game(service, "allowance:14")
    start = clock.now
    service.declare_absence(game, 1, start.isoformat(), (start + timedelta(days=10)).isoformat(), cause=CLI,
                            now=start)
    clock.now = start + timedelta(days=3)
    service.seat_command(game, 1, "back", cause=CLI)  # back after 3 days: 7 of the 10 held are given back
    assert away.used_seconds(service.store, game, 1) == 3 * 86_400
    later = service.declare_absence(game, 1, clock.now.isoformat(), (clock.now + timedelta(days=40)).isoformat(),
                                    cause=CLI, now=clock.now)
    assert later.events[1].payload["clock_until"] == away.iso(clock.now + timedelta(days=11))


def test_a_declaration_that_loses_the_race_is_checked_again_and_answered_as_a_lost_race(
        service: Service, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The overlap is checked at the seq the write appends at: an absence recorded between Ben's check and his
    append (another page of his, another server) makes his append fail, his declaration is checked again on what
    came first, and the overlap it finds is the lost race it is (StaleCommand: a 409 on the web)."""
    game = new_game(service, "allowance:14")
    days = (clock.now.isoformat(), (clock.now + timedelta(days=40)).isoformat())
    checked = away.check
    raced: list[str] = []

    def check_then_lose(*args: Any) -> None:
        checked(*args)
        if not raced:  # between this check and the append, the same absence comes in through another door
            raced.append("racing")
            monkeypatch.setattr(away, "check", checked)
            raced.append(service.declare_absence(game, 1, *days, cause=CLI, now=clock.now).events[0].type)
            monkeypatch.setattr(away, "check", check_then_lose)

    monkeypatch.setattr(away, "check", check_then_lose)
    with pytest.raises(StaleCommand):
        service.declare_absence(game, 1, *days, cause=CLI, now=clock.now)
    types_ = [e.type for e in service.store.read(game)]
    assert raced == ["racing", ABSENCE_DECLARED]
    assert types_.count(ABSENCE_DECLARED) == 1 and types_.count(ABSENCE_STARTED) == 1
    monkeypatch.setattr(away, "check", checked)
    with pytest.raises(ServiceError, match="already away"):  # asked again, plainly: a refusal on its merits
        service.declare_absence(game, 1, *days, cause=CLI, now=clock.now)


def test_coming_back_twice_at_once_ends_the_absence_once(service: Service, clock: Clock,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(service, "allowance:14")
    service.act(game, ANN.email, "pass", cause=CLI)
    due = due_of(service, game, 1)
    service.declare_absence(game, 1, clock.now.isoformat(), (clock.now + WEEK).isoformat(), cause=CLI,
                            now=clock.now)
    clock.now += timedelta(days=2)
    ended = away.end_drafts
    raced: list[int] = []

    def end_then_lose(*args: Any) -> Any:
        found = ended(*args)
        if not raced:  # between these drafts and their append, "back" comes in through another door
            raced.append(0)
            service.seat_command(game, 1, "back", cause=CLI)
        return found

    monkeypatch.setattr(away, "end_drafts", end_then_lose)
    with pytest.raises(StaleCommand):
        service.seat_command(game, 1, "back", cause=CLI)
    assert [e.type for e in service.store.read(game)].count(ABSENCE_ENDED) == 1
    assert due_of(service, game, 1) == due + timedelta(days=2)  # the clock given back once, not twice


@pytest.mark.parametrize("policy", ["allowance: 14", "allowance:14 days", "allowance:１４", "allowance:-1",
                                    "allowance:\t14"])
def test_an_allowance_is_digits_only(policy: str) -> None:
    with pytest.raises(ServiceError, match="whole number of days"):
        away.parse_policy(policy)
    assert away.parse_policy(" allowance:14 ") == {"vacation": "allowance", "vacation_days": 14}
