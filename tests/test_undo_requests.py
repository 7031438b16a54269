"""Undo beyond the horizon: a request every other player approves, or one refuses, or nobody answers in time."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from delivery import ANN, BEN, make_settings, mails_to, own_database
from events.audit import verify
from events.handling import Cause, CommandResult, UndoRefused
from events.replay import effective
from events.schema import ACTIONS_UNDONE
from pbem.table.delivery import DEADLINE_SET, UNDO_ANSWERED, UNDO_DECIDED, UNDO_REQUEST_CLOSED, UNDO_REQUESTED
from pbem.instance.times import utc
from pbem.scheduler import Jobs
from pbem.service import Player, Service, ServiceError
from pbem.table.undo_requests import AlreadyAnswered, NotAsked, RequestClosed, UnknownRequest

pytestmark = pytest.mark.usefixtures("highdie_registered")
CLI = Cause("cli")
CAT = Player("cat@example.org", "Cat")


@pytest.fixture
def game(service: Service) -> str:
    return service.create_game("highdie", [ANN, BEN, CAT], seed="asking").after.game_id


def types(result: CommandResult) -> list[str]:
    return [e.type for e in result.events]


def written(service: Service, game: str) -> tuple[int, int]:
    """The number of events and of mails: a refusal changes neither."""
    return service.store.last(game)[0], int(service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"])


def ann_asks(service: Service, game: str, opening: str = "bet 3") -> tuple[CommandResult, CommandResult]:
    """Ann plays, Ben and Cat play after her (so she may no longer undo alone), and Ann asks to take it back."""
    ann = service.act(game, ANN.email, opening, cause=CLI)
    service.act(game, BEN.email, "bet 2", cause=CLI)
    service.act(game, CAT.email, "bet 1", cause=CLI)
    return ann, service.request_undo(game, 0, "I meant to pass", cause=CLI)


def test_asking_is_refused_while_the_player_may_undo_alone_or_has_nothing_to_undo(service: Service,
                                                                                   game: str) -> None:
    before = written(service, game)
    with pytest.raises(UndoRefused, match="no move that could be taken back"):
        service.request_undo(game, 0, "", cause=CLI)
    service.act(game, ANN.email, "bet 3", cause=CLI)
    assert service.show(game, ANN.email)["can_request_undo"] is False
    with pytest.raises(UndoRefused, match="undo it, there is no need to ask"):
        service.request_undo(game, 0, "", cause=CLI)
    assert written(service, game)[0] == before[0] + 3  # only the bet and its deadline


def test_a_request_asks_every_other_player_with_a_deadline(service: Service, game: str) -> None:
    ann, asked = ann_asks(service, game)
    [event] = asked.events
    payload = event.payload
    assert event.type == UNDO_REQUESTED and event.actor == "seat:0"
    assert payload["from_seq"] == ann.events[0].seq and payload["to_seq"] == event.seq - 1
    assert payload["approvers"] == [1, 2] and payload["reason"] == "I meant to pass"
    due = datetime.fromisoformat(payload["due_at"]) - datetime.fromisoformat(event.recorded_at)
    assert timedelta(hours=23.9) < due <= timedelta(hours=24)
    shown = service.show(game, ANN.email)
    assert shown["undo_request"]["request"] == payload["request"] and shown["can_request_undo"] is False
    assert "one request at a time" in shown["undo_request_refused_because"]
    assert [a["answer"] for a in shown["undo_request"]["approvers"]] == [None, None]
    assert service.show(game)["undo_request"]["name"] == "Ann"  # spectators see it too: it is in the public log


def test_approved_by_all_it_takes_everything_back_in_one_command_and_the_log_keeps_it(service: Service,
                                                                                      game: str) -> None:
    ann, asked = ann_asks(service, game)
    request = asked.events[0].payload["request"]
    position = service.load(game, ann.events[0].seq - 1)
    first = service.answer_undo(game, request, 1, "approve", cause=CLI)
    assert types(first) == [UNDO_ANSWERED] and first.events[0].actor == "seat:1"
    assert service.load(game).game.scores == (3, 2, 1)
    last = service.answer_undo(game, request, 2, "approve", cause=CLI)
    assert types(last) == [UNDO_ANSWERED, ACTIONS_UNDONE, UNDO_REQUEST_CLOSED, DEADLINE_SET]
    undone, closed = last.events[1].payload, last.events[2].payload
    assert (undone["from_seq"], undone["to_seq"], undone["seat"]) == (ann.events[0].seq, asked.events[0].seq - 1, 0)
    assert closed == {"request": request, "seat": 0, "result": "approved", "reason": "approved by Ben and Cat"}
    assert service.load(game).game == position.game
    assert service.show(game)["waiting_for"][0]["name"] == "Ann"
    log = service.log(game)
    assert len(log) == last.events[-1].seq, "nothing is deleted"
    assert [line["undone"] for line in log if line["seq"] == ann.events[0].seq] == [True]
    row = service.store.query("SELECT status, closed_reason FROM undo_requests WHERE request = ?", (request,))[0]
    assert row == {"status": "approved", "closed_reason": "approved by Ben and Cat"}
    assert service.show(game)["undo_request"] is None


def test_one_refusal_closes_it_and_nothing_is_taken_back(service: Service, game: str) -> None:
    _, asked = ann_asks(service, game)
    request = asked.events[0].payload["request"]
    service.answer_undo(game, request, 1, "approve", cause=CLI)
    state = service.load(game)
    refused = service.answer_undo(game, request, 2, "refuse", cause=CLI)
    assert types(refused) == [UNDO_ANSWERED, UNDO_REQUEST_CLOSED]
    assert refused.events[1].payload["result"] == "refused" and refused.events[1].payload["reason"] == "refused by Cat"
    assert service.load(game).game == state.game
    assert service.store.query("SELECT status FROM undo_requests")[0]["status"] == "refused"
    assert [m["kind"] for m in mails_to(service, ANN.email)][-1] == "undo_closed"
    assert [m["kind"] for m in mails_to(service, BEN.email)][-1] == "undo_closed"
    assert [m["kind"] for m in mails_to(service, CAT.email)][-1] == "undo_request"  # Cat refused: she knows
    assert service.show(game, ANN.email)["can_request_undo"] is True  # she may ask again


def test_no_answer_by_the_deadline_refuses_it(service: Service, game: str) -> None:
    _, asked = ann_asks(service, game)
    payload = asked.events[0].payload
    service.answer_undo(game, payload["request"], 1, "approve", cause=CLI)
    state = service.load(game)
    settings = make_settings(service.settings.instance)
    jobs = Jobs(settings, lambda: Service.open(settings))
    due = datetime.fromisoformat(payload["due_at"])
    jobs.undo_requests(due - timedelta(seconds=1))
    assert service.undo_request(game, payload["request"]).open  # type: ignore[union-attr]
    jobs.undo_requests(due + timedelta(seconds=1))
    closed = service.store.read(game)[-1]
    assert closed.type == UNDO_REQUEST_CLOSED and closed.actor == "scheduler"
    assert closed.payload["result"] == "expired" and "no answer from Cat" in closed.payload["reason"]
    assert closed.cause["via"] == "scheduler"
    assert service.load(game).game == state.game
    jobs.undo_requests(due + timedelta(seconds=2))  # runs again: nothing more
    assert service.store.read(game)[-1] == closed
    with pytest.raises(RequestClosed, match="expired"):
        service.answer_undo(game, payload["request"], 2, "approve", cause=CLI)


def test_a_move_played_while_it_is_open_lapses_it_in_the_same_command(service: Service, game: str) -> None:
    _, asked = ann_asks(service, game)
    request = asked.events[0].payload["request"]
    service.answer_undo(game, request, 1, "approve", cause=CLI)
    moved = service.act(game, ANN.email, "bet 1", cause=CLI)
    closed = [e for e in moved.events if e.type == UNDO_REQUEST_CLOSED]
    assert len(closed) == 1 and closed[0].payload["result"] == "lapsed"
    assert closed[0].command_id == moved.events[0].command_id
    before = written(service, game)
    with pytest.raises(RequestClosed, match="lapsed"):
        service.answer_undo(game, request, 2, "approve", cause=CLI)
    assert written(service, game) == before
    assert service.load(game).game.scores == (4, 2, 1), "nothing is taken back"
    assert [m["kind"] for m in mails_to(service, ANN.email)][-1] == "undo_closed"


def test_a_pause_does_not_lapse_it_and_stays_in_effect_after_the_undo(service: Service, game: str) -> None:
    ann, asked = ann_asks(service, game)
    request = asked.events[0].payload["request"]
    service.pause(game, "holiday", cause=CLI)
    service.answer_undo(game, request, 1, "approve", cause=CLI)
    service.answer_undo(game, request, 2, "approve", cause=CLI)
    assert service.store.query("SELECT paused_at FROM games")[0]["paused_at"] is not None
    assert service.load(game).game.scores == (0, 0, 0)


def test_the_organiser_decides_for_the_players(service: Service, game: str) -> None:
    ann, asked = ann_asks(service, game)
    request = asked.events[0].payload["request"]
    approved = service.decide_undo(game, request, "approve", "a misclick, say both", cause=CLI)
    assert types(approved)[:3] == [UNDO_DECIDED, ACTIONS_UNDONE, UNDO_REQUEST_CLOSED]
    assert {e.actor for e in approved.events[:3]} == {"organiser"}
    assert approved.events[2].payload["reason"] == "approved by the organiser: a misclick, say both"
    assert service.load(game).game.scores == (0, 0, 0)
    service.act(game, ANN.email, "pass", cause=CLI)
    service.act(game, BEN.email, "bet 1", cause=CLI)
    again = service.request_undo(game, 0, "", cause=CLI).events[0].payload["request"]
    refused = service.decide_undo(game, again, "refuse", "", cause=CLI)
    assert types(refused) == [UNDO_DECIDED, UNDO_REQUEST_CLOSED]
    assert refused.events[1].payload["reason"] == "refused by the organiser"
    assert service.load(game).game.scores == (0, 1, 0)
    with pytest.raises(RequestClosed):
        service.decide_undo(game, again, "approve", "", cause=CLI)


def test_wrong_answers_are_refused_plainly_and_write_nothing(service: Service, game: str) -> None:
    _, asked = ann_asks(service, game)
    request = asked.events[0].payload["request"]
    service.answer_undo(game, request, 1, "approve", cause=CLI)
    before = written(service, game)
    refusals: list[tuple[Any, Any, str]] = [
        (AlreadyAnswered, lambda: service.answer_undo(game, request, 1, "refuse", cause=CLI), "answered"),
        (NotAsked, lambda: service.answer_undo(game, request, 0, "approve", cause=CLI), "not one of"),
        (UnknownRequest, lambda: service.answer_undo(game, "0000000000", 2, "approve", cause=CLI), "no undo request"),
        (ServiceError, lambda: service.answer_undo(game, request, 2, "maybe", cause=CLI), "approve or refuse"),
        (UndoRefused, lambda: service.request_undo(game, 1, "", cause=CLI), "one request at a time"),
    ]
    for error, attempt, message in refusals:
        with pytest.raises(error, match=message):
            attempt()
    assert written(service, game) == before


def test_undo_by_agreement_then_redo_rolls_the_same_die(service: Service, game: str) -> None:
    roll, asked = ann_asks(service, game, opening="roll")
    request = asked.events[0].payload["request"]
    face = next(e.payload["face"] for e in roll.events if e.type == "dice.Rolled")
    service.answer_undo(game, request, 1, "approve", cause=CLI)
    service.answer_undo(game, request, 2, "approve", cause=CLI)
    again = service.act(game, ANN.email, "roll", cause=CLI)
    assert next(e.payload["face"] for e in again.events if e.type == "dice.Rolled") == face
    assert again.events[0].payload == roll.events[0].payload  # the same pbem.RandomDrawn


def test_undo_by_agreement_then_redo_draws_the_same_cards(service: Service) -> None:
    players = [Player.parse(p) for p in ("Ann <ann@example.org>", "Ben <ben@example.org>", "Cat <cat@example.org>")]
    game = service.create_game("emerald", players, seed="undo-emerald").after.game_id
    while True:
        seat = service.show(game)["waiting_for"][0]["seat"]
        texts = [entry["text"] for entry in service.legal(game, players[seat].email)]
        text = next((t for t in texts if t.startswith("discard")), texts[0])
        drew = service.act(game, players[seat].email, text, cause=CLI)
        if any(e.type == "emerald.CardsDrawn" for e in drew.events):
            break
    with pytest.raises(UndoRefused, match="revealed"):
        service.undo(game, players[seat].email, cause=CLI)
    request = service.request_undo(game, seat, "wrong card", cause=CLI).events[0].payload
    assert request["from_seq"] == drew.events[0].seq and request["to_seq"] == drew.events[-1].seq
    for other in request["approvers"]:
        service.answer_undo(game, request["request"], other, "approve", cause=CLI)
    again = service.act(game, players[seat].email, text, cause=CLI)
    cards = [e.payload for e in drew.events if e.type == "emerald.CardsDrawn"]
    assert cards and [e.payload for e in again.events if e.type == "emerald.CardsDrawn"] == cards


def test_a_finished_game_with_requests_of_every_ending_verifies(service: Service, game: str) -> None:
    _, asked = ann_asks(service, game)
    request = asked.events[0].payload["request"]
    service.answer_undo(game, request, 1, "approve", cause=CLI)
    service.answer_undo(game, request, 2, "approve", cause=CLI)
    service.act(game, ANN.email, "roll", cause=CLI)
    service.act(game, BEN.email, "bet 1", cause=CLI)
    service.act(game, CAT.email, "bet 1", cause=CLI)
    refused = service.request_undo(game, 0, "", cause=CLI).events[0].payload["request"]
    service.answer_undo(game, refused, 2, "refuse", cause=CLI)
    service.request_undo(game, 0, "", cause=CLI)
    while service.show(game)["status"] == "running":  # plays on: the open request lapses
        seat = service.show(game)["waiting_for"][0]["seat"]
        service.act(game, [ANN, BEN, CAT][seat].email, "bet 3", cause=CLI)
    events = service.store.read(game)
    results = [e.payload["result"] for e in events if e.type == UNDO_REQUEST_CLOSED]
    assert results == ["approved", "refused", "lapsed"]
    report = verify(service.kernel.replayer, events)
    assert report.ok, report.failure
    assert len(effective(events)) < len(events)


def test_the_read_model_comes_back_with_an_imported_record(service: Service, game: str, tmp_path: Path) -> None:
    _, asked = ann_asks(service, game)
    service.answer_undo(game, asked.events[0].payload["request"], 1, "refuse", cause=CLI)
    record = list(service.export(game, with_secrets=True))
    other = Service.open(make_settings(tmp_path / "other", **own_database()))
    try:
        other.import_record(record)
        assert other.store.query("SELECT status FROM undo_requests") == [{"status": "refused"}]
        assert other.store.query("SELECT seat, answer FROM undo_answers") == [{"seat": 1, "answer": "refuse"}]
    finally:
        other.close()


def test_a_players_own_undo_while_it_is_open_lapses_it(service: Service, game: str) -> None:
    service.act(game, ANN.email, "bet 3", cause=CLI)
    service.act(game, BEN.email, "bet 2", cause=CLI)
    service.request_undo(game, 0, "", cause=CLI)
    undone = service.undo(game, BEN.email, cause=CLI)  # Ben's move is still within his own horizon
    assert [e.payload["result"] for e in undone.events if e.type == UNDO_REQUEST_CLOSED] == ["lapsed"]
    assert service.load(game).game.scores == (3, 0, 0)


def test_the_mails_say_who_asks_what_would_go_and_until_when_and_how_it_ended(service: Service, game: str) -> None:
    from delivery import html_of, parse, text_of
    from pbem.post.mail.outbox import message_of
    _, asked = ann_asks(service, game)
    payload = asked.events[0].payload
    assert [m["kind"] for m in mails_to(service, ANN.email)][-1] != "undo_request"  # the asker is not asked
    [mail] = [m for m in mails_to(service, CAT.email) if m["kind"] == "undo_request"]
    message = parse(message_of(mail))
    assert message["Subject"].endswith("Take back a move? Your answer is asked")
    body = text_of(message)
    assert "Ann asks to take back a move" in body and '"I meant to pass"' in body
    # in the game's count (highdie has no words for it: the replay's turns), each move in words, no event numbers
    assert "Ann asks to take back their last move (turn 1) and the 2 moves played after it" in body
    assert "    Turn 1: Bet {'points': 3, 'seat': 0}" in body and "    Turn 3: Bet {'points': 1, 'seat': 2}" in body
    assert "before that move (turn 1)" in body and f"events {payload['from_seq']}" not in body
    assert f"No answer by {utc(payload['due_at'])} counts as a refusal" in body and "Ben is asked too" in body
    token = re.search(r"/undo/([^?\s]+)\?answer=approve", body)[1]  # type: ignore[index]
    claims = service.notifier.links.read_undo(token)  # type: ignore[union-attr]
    assert (claims.game_id, claims.request, claims.seat) == (game, payload["request"], 2)
    assert f"/undo/{token}?answer=refuse" in body
    assert f'href="http://127.0.0.1:8000/undo/{token}?answer=approve"' in html_of(message)
    service.answer_undo(game, payload["request"], 1, "approve", cause=CLI)
    service.answer_undo(game, payload["request"], 2, "approve", cause=CLI)
    [undone] = [m for m in mails_to(service, BEN.email) if m["kind"] == "undone"]
    assert "moves were taken back, at Ann's request (approved by Ben and Cat)" in text_of(parse(message_of(undone)))
    assert [m["kind"] for m in mails_to(service, ANN.email)][-1] == "turn"


def test_the_last_two_approvals_racing_take_the_moves_back_exactly_once(service: Service, game: str) -> None:
    import threading
    _, asked = ann_asks(service, game)
    request = asked.events[0].payload["request"]
    settings = make_settings(service.settings.instance)
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def approve(seat: int) -> None:
        own = Service.open(settings)  # each its own connection, as two web processes would have
        try:
            barrier.wait()
            own.answer_undo(game, request, seat, "approve", cause=CLI)
        except BaseException as err:  # noqa: BLE001 - reported below
            failures.append(err)
        finally:
            own.close()

    threads = [threading.Thread(target=approve, args=(seat,)) for seat in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    events = service.store.read(game)
    assert [e.type for e in events].count(ACTIONS_UNDONE) == 1
    assert [e.payload["result"] for e in events if e.type == UNDO_REQUEST_CLOSED] == ["approved"]
    assert service.load(game).game.scores == (0, 0, 0)
