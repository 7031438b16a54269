"""Players who vanish: missed deadlines, autopilot, the organiser asked, replacement, resignation."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator

import pytest

from delivery import ANN, BEN, CY, Inbox, free_port, mails_to, make_settings, parse, smtp_server, text_of
from events.handling import Cause
from events.rules import IllegalAction
from pbem.table import seatlife
from pbem.table.autopilot import status
from pbem.table.delivery import TIMED_OUT
from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.outbox import draft_of
from pbem.post.mail.transport import SMTPTransport
from pbem.post.people import set_mail
from pbem.table.seat_events import AUTOPILOT_OFF, AUTOPILOT_ON, AUTOPILOT_PLAYED, SEAT_REPLACED, SEAT_RESIGNED
from pbem.service import Player, Service, ServiceError

pytestmark = pytest.mark.usefixtures("highdie_registered")
CLI = Cause("cli")
ORG = "org@example.org"
DORA = Player("dora@example.org", "Dora")


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    s = Service.open(make_settings(tmp_path / "inst", turn_hours=10.0, interrupt_hours=2.0))
    yield s
    s.close()


@pytest.fixture
def game(service: Service) -> str:
    return service.create_game("highdie", [ANN, BEN], seed="d1", organiser=ORG,
                               options={"autopilot_after": 3}).after.game_id


def due_of(service: Service, game: str, seat: int) -> datetime:
    return datetime.fromisoformat(service.store.query("SELECT due_at FROM deadlines WHERE game_id = ? AND seat = ?",
                                                      (game, seat))[0]["due_at"])


def run_out(service: Service, game: str, seat: int) -> Any:
    return service.time_out(game, seat, due_of(service, game, seat) + timedelta(seconds=1))


def types(result: Any) -> list[str]:
    return [e.type for e in result.events]


def test_three_missed_deadlines_put_the_seat_on_autopilot_and_mail_the_organiser(service: Service, game: str) -> None:
    for missed in (1, 2):
        assert AUTOPILOT_ON not in types(run_out(service, game, 0))
        assert status(service.store, game, 0)["missed"] == missed
        service.act(game, BEN.email, "pass", cause=CLI)
    third = run_out(service, game, 0)
    assert types(third)[-1] == AUTOPILOT_ON and TIMED_OUT in types(third)
    on = third.events[-1]
    assert on.payload == {"seat": 0, "reason": "3 deadlines missed in a row"} and on.visibility.kind == "public"
    assert status(service.store, game, 0)["autopilot"] == 1
    [asked] = service.store.query("SELECT * FROM outbox WHERE to_addr = ?", (ORG,))
    assert asked["kind"] == "substitute" and "Ann is on autopilot" in asked["subject"]

    # the table is told in its next mail, and the log says it
    service.act(game, BEN.email, "pass", cause=CLI)
    assert any("Ann is on autopilot" in line["text"] for line in service.log(game, BEN.email))

    # every later prompt of Ann's is answered at once by the scheduler, as a time-out would
    changed, played = seatlife.tick(service, datetime.now(timezone.utc))
    assert played == 1 and service.load(game).game.turn == 1
    [auto] = [e for e in service.store.read(game) if e.type == AUTOPILOT_PLAYED]
    move = [e for e in service.store.read(game) if e.command_id == auto.command_id][0]
    assert move.actor == "scheduler" and move.cause["via"] == "autopilot" and auto.payload["action"] == {"kind": "pass"}
    assert seatlife.tick(service, datetime.now(timezone.utc)) == (0, 0)  # nothing more to do: idempotent
    assert service.verify(game).ok

    # the mails went out through a real SMTP server, the organiser's among them
    inbox, port = Inbox(), free_port()
    server = smtp_server(inbox, port)
    try:
        dispatch(service.store, SMTPTransport("127.0.0.1", port, "none"), "pbem <pbem@localhost>", max_attempts=2,
                 retry_seconds=1)
    finally:
        server.stop()
    [mail] = [m for m in inbox.messages if str(m["To"]) == ORG]
    assert "pbem game replace" in text_of(mail) and "/organise/" in text_of(mail)


def test_the_player_comes_back_by_acting_or_by_asking(service: Service, game: str) -> None:
    for _ in range(3):
        run_out(service, game, 0)
        service.act(game, BEN.email, "pass", cause=CLI)
    assert status(service.store, game, 0)["autopilot"] == 1
    result = service.act(game, ANN.email, "pass", cause=CLI)  # before the scheduler's next run
    assert types(result)[-1] == AUTOPILOT_OFF or AUTOPILOT_OFF in types(result)
    assert status(service.store, game, 0) == {**status(service.store, game, 0), "autopilot": 0, "missed": 0}
    with pytest.raises(ServiceError, match="not on autopilot"):
        service.seat_command(game, 0, "take-back", cause=CLI)
    for _ in range(3):
        service.act(game, BEN.email, "pass", cause=CLI)
        run_out(service, game, 0)
    assert status(service.store, game, 0)["autopilot"] == 1
    assert types(service.seat_command(game, 0, "take-back", cause=CLI)) == [AUTOPILOT_OFF]
    assert service.verify(game).ok


def turn_mails(service: Service, game: str, email: str) -> int:
    return len([m for m in mails_to(service, email) if m["game_id"] == game and m["kind"] == "turn"])


def test_a_seat_on_autopilot_is_not_mailed_its_turn_until_its_player_is_back(service: Service, game: str) -> None:
    for _ in range(2):
        run_out(service, game, 0)
        service.act(game, BEN.email, "pass", cause=CLI)
    before = turn_mails(service, game, ANN.email)
    third = run_out(service, game, 0)  # on autopilot now
    assert AUTOPILOT_ON in types(third)
    service.act(game, BEN.email, "pass", cause=CLI)  # Ann's turn: the scheduler plays it, no "your turn" for her
    assert service.kernel.rules(service.load(game)).prompts(service.load(game).game).keys() == {0}
    assert turn_mails(service, game, ANN.email) == before
    assert seatlife.tick(service, datetime.now(timezone.utc)) == (0, 1)
    service.act(game, BEN.email, "pass", cause=CLI)
    assert turn_mails(service, game, ANN.email) == before
    assert types(service.seat_command(game, 0, "take-back", cause=CLI)) == [AUTOPILOT_OFF]
    assert turn_mails(service, game, ANN.email) == before + 1  # back, and it is her turn: she is told at once
    service.act(game, ANN.email, "pass", cause=CLI)
    service.act(game, BEN.email, "pass", cause=CLI)  # and her next turn too
    assert turn_mails(service, game, ANN.email) == before + 2
    assert turn_mails(service, game, BEN.email) > 0


def test_a_daily_digest_leaves_out_a_game_whose_seat_is_on_autopilot(service: Service, game: str) -> None:
    other = service.create_game("highdie", [ANN, BEN], seed="d2").after.game_id  # Ann's turn here too
    set_mail(service.store, service.player_id(ANN.email), "daily", "off")
    for _ in range(3):
        run_out(service, game, 0)
        service.act(game, BEN.email, "pass", cause=CLI)
    assert status(service.store, game, 0)["autopilot"] == 1  # and her turn again, not yet played by the scheduler
    assert service.store.query("SELECT seat FROM deadlines WHERE game_id = ? AND seat = 0", (game,))
    player = service.store.query("SELECT * FROM players WHERE email = ?", (ANN.email,))[0]
    [mail] = [r for r in service.notifier.digest(service, player, datetime.now(timezone.utc)) if r.table == "outbox"]
    assert mail.values["subject"].startswith("[pbem] Your move in 1 game ")
    listed = [g["game_id"] for g in draft_of(mail.values)["context"]["games"]]
    assert listed == [other]
    service.seat_command(game, 0, "take-back", cause=CLI)  # back: the game is hers to play again
    [mail] = [r for r in service.notifier.digest(service, player, datetime.now(timezone.utc)) if r.table == "outbox"]
    assert mail.values["subject"].startswith("[pbem] Your move in 2 games ")


def test_a_tampered_autopilot_move_fails_verification(service: Service, game: str) -> None:
    from events.envelope import SCHEDULER
    from pbem.table.autopilot import _WithAutopilot
    state = service.load(game)  # Ann is not on autopilot: a scheduler's move for her is not honest
    service.kernel.execute(game, 0, {"kind": "pass"}, expected_seq=state.seq, actor=SCHEDULER, retries=0,
                           cause=Cause("autopilot", {}), hooks=_WithAutopilot(service, 0, {"kind": "pass"}))
    report = service.verify(game)
    assert report.failure is not None and "not on autopilot" in report.failure.problem


def test_the_organiser_replaces_a_player_and_the_old_links_stop_working(service: Service, game: str) -> None:
    notifier = service.notifier
    assert notifier is not None
    from pbem.table import talk
    service.say(game, 0, talk.Talk("note", "my secret plan"), cause=CLI)  # Ann's own, not the seat's
    assert "my secret plan" in " ".join(line["text"] for line in service.log(game, ANN.email))
    old_play = notifier.links.play(game, 0, service.load(game).seq)
    result = service.replace(game, 0, DORA, cause=CLI)
    [event] = [e for e in result.events if e.type == SEAT_REPLACED]
    assert event.payload["name"] == "Dora" and DORA.email not in str(event.payload)
    assert service.players(game)[0]["email"] == DORA.email and service.seat_of(game, DORA.email) == 0
    with pytest.raises(ServiceError, match="not playing"):
        service.seat_of(game, ANN.email)
    welcome = service.store.query("SELECT * FROM outbox WHERE to_addr = ? AND kind = 'welcome'", (DORA.email,))
    told = service.store.query("SELECT * FROM outbox WHERE to_addr = ? AND kind = 'seat_given'", (ANN.email,))
    assert len(welcome) == 1 and len(told) == 1
    from pbem.post.mail.outbox import message_of
    text = text_of(parse(message_of(welcome[0])))
    hand = sorted(service.load(game).game.hands[0])
    assert "THE SEAT'S HISTORY" in text and str(hand[0]) in text and "Ann wrote a private note" in text
    assert "my secret plan" not in text
    assert "my secret plan" not in " ".join(line["text"] for line in service.log(game, DORA.email))
    ben_hand = sorted(service.load(game).game.hands[1])
    assert "Ben's hand" not in text and f"hand {ben_hand}" not in text
    old_text = text_of(parse(message_of(told[0])))
    assert "Dora" in old_text and "/play/" not in old_text and str(hand) not in old_text
    from pbem.table.replacing import link_refusal
    claims = notifier.links.read_play(old_play)
    assert link_refusal(service.store, game, 0, claims.seq) is not None
    new_play = notifier.links.read_play(notifier.links.play(game, 0, service.load(game).seq))
    assert link_refusal(service.store, game, 0, new_play.seq) is None
    with pytest.raises(ServiceError, match="already plays"):
        service.replace(game, 1, DORA, cause=CLI)
    with pytest.raises(ServiceError, match="seats 0 to 1"):
        service.replace(game, 5, CY, cause=CLI)
    service.act(game, DORA.email, "pass", cause=CLI)
    assert service.verify(game).ok


def test_a_player_resigns_and_the_seat_plays_on_by_autopilot(service: Service, game: str) -> None:
    result = service.seat_command(game, 1, "resign", cause=CLI)
    assert types(result) == [SEAT_RESIGNED, AUTOPILOT_ON]
    with pytest.raises(ServiceError, match="already"):
        service.seat_command(game, 1, "resign", cause=CLI)
    with pytest.raises(ServiceError, match="resigned"):
        service.seat_command(game, 1, "take-back", cause=CLI)
    service.act(game, ANN.email, "pass", cause=CLI)
    assert seatlife.tick(service, datetime.now(timezone.utc))[1] == 1
    with pytest.raises(IllegalAction, match="resigned"):
        service.act(game, ANN.email, "pass", cause=CLI) and service.act(game, BEN.email, "pass", cause=CLI)
    assert service.store.query("SELECT kind FROM outbox WHERE to_addr = ?", (ORG,))[0]["kind"] == "substitute"
    service.replace(game, 1, CY, cause=CLI)  # the organiser finds a substitute: Cy plays on
    assert status(service.store, game, 1)["autopilot"] == 0
    assert service.verify(game).ok


def test_a_game_without_an_organiser_mails_nobody_for_a_substitute(service: Service) -> None:
    game = service.create_game("highdie", [ANN, BEN], seed="d1").after.game_id
    service.seat_command(game, 1, "resign", cause=CLI)
    assert not service.store.query("SELECT 1 FROM outbox WHERE kind = 'substitute'")
