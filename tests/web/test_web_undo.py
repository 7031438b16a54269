"""Undo requests on the web: asking from the play page, answering through the mailed links, the organiser deciding."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from flask.testing import FlaskClient

from delivery import parse, text_of
from events.handling import Cause
from pbem.table.delivery import UNDO_REQUEST_CLOSED
from pbem.post.mail.outbox import message_of
from pbem.service import Player
from web.conftest import Game, csrf_of, seq_of, text
from web.test_web_links import expired, tampered

CAT = Player("cat@example.org", "Cat")


def bet(client: FlaskClient, game: Game, seat: int, points: int) -> None:
    token = game.token(seat)
    response = client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": f"bet {points}"})
    assert response.status_code == 200


def ann_asks(client: FlaskClient, game: Game) -> str:
    """Ann bets, Ben bets after her, and Ann asks on her play page to take it back; the request's id."""
    bet(client, game, 0, 3)
    bet(client, game, 1, 2)
    token = game.token(0)
    response = client.post(f"/play/{token}/undo-request", data={"csrf": game.links.csrf(token),
                                                                "reason": "I misread my hand"})
    assert response.status_code == 200 and "Your request was sent to the other players" in text(response)
    asked = game.service.undo_request(game.id)
    assert asked is not None
    return asked.request


def mailed_links(game: Game, address: str) -> dict[str, str]:
    game.worker_composes()
    """The approve and refuse links of the latest undo request mail to this address, as paths."""
    rows = game.service.store.query("SELECT * FROM outbox WHERE to_addr = ? AND kind = 'undo_request' "
                                    "ORDER BY created_at", (address,))
    body = text_of(parse(message_of(rows[-1])))
    found = dict(re.findall(r"^(Approve|Refuse): +http://127\.0\.0\.1:8000(\S+)$", body, re.M))
    assert set(found) == {"Approve", "Refuse"}, body
    return {k.lower(): v for k, v in found.items()}


def written(game: Game) -> tuple[int, int]:
    return game.seq(), game.outbox()


def test_the_play_page_offers_to_ask_only_when_undo_alone_is_too_late(client: FlaskClient, game: Game) -> None:
    bet(client, game, 0, 3)
    assert "Ask the other players" not in text(client.get(f"/play/{game.token(0)}"))  # Ann may still undo alone
    bet(client, game, 1, 2)
    token = game.token(0)  # one token for the page and the check: a link made a second later differs
    ann = text(client.get(f"/play/{token}"))
    assert "Ask the other players to take back your last move" in ann
    assert f'action="/play/{token}/undo-request"' in ann and 'name="reason"' in ann
    ben = text(client.get(f"/play/{game.token(1)}"))
    assert "Undo my last action" in ben and "Ask the other players" not in ben


def test_the_mailed_approve_link_shows_the_request_and_its_button_takes_the_moves_back(client: FlaskClient,
                                                                                      game: Game) -> None:
    ann_asks(client, game)
    links = mailed_links(game, "ben@example.org")
    assert links["approve"].endswith("?answer=approve") and links["refuse"].endswith("?answer=refuse")
    before = written(game)
    page = client.get(links["approve"])
    shown = text(page)
    assert page.status_code == 200 and "Ann asks to take back a move" in shown
    assert "I misread my hand" in shown and "Bet" in shown and "You followed the link to <strong>approve</strong>" in shown
    assert written(game) == before, "following a link changes nothing"
    path = links["approve"].split("?")[0]
    response = client.post(path, data={"csrf": csrf_of(shown), "seq": seq_of(shown), "answer": "approve"})
    done = text(response)
    assert response.status_code == 200 and "the moves were taken back" in done
    assert "This request is closed" in done
    assert game.service.load(game.id).game.scores == (0, 0) and game.turn() == 0
    assert "Ann, it is your move" in text(client.get(f"/play/{game.token(0)}"))
    mails = "SELECT kind, to_addr FROM outbox ORDER BY created_at"
    before_mails = game.service.store.query(mails)
    game.worker_composes()  # Ben saw it on the page; Ann, at the game a moment ago, is not mailed yet (docs/playing.md)
    assert game.service.store.query(mails) == before_mails
    game.service.write_owed_mail(datetime.now(timezone.utc) + timedelta(minutes=11))  # she left it waiting: one mail
    assert game.service.store.query(mails)[len(before_mails):] == [{"kind": "turn", "to_addr": "ann@example.org"}]


def test_the_refuse_link_keeps_the_moves_and_tells_the_asker(client: FlaskClient, game: Game) -> None:
    ann_asks(client, game)
    path = mailed_links(game, "ben@example.org")["refuse"].split("?")[0]
    page = text(client.get(path))
    response = client.post(path, data={"csrf": csrf_of(page), "seq": seq_of(page), "answer": "refuse"})
    assert response.status_code == 200 and "You refused" in text(response)
    assert game.service.load(game.id).game.scores == (3, 2)
    game.worker_composes()
    last = game.service.store.query("SELECT kind, to_addr FROM outbox ORDER BY created_at DESC LIMIT 1")[0]
    assert last == {"kind": "undo_closed", "to_addr": "ann@example.org"}
    assert "refused by Ben" in text_of(parse(message_of(game.service.store.query(
        "SELECT * FROM outbox WHERE kind = 'undo_closed'")[0])))


def test_a_closed_request_shows_so_and_takes_no_second_answer(client: FlaskClient, game: Game) -> None:
    ann_asks(client, game)
    path = mailed_links(game, "ben@example.org")["approve"].split("?")[0]
    shown = text(client.get(path))
    csrf, seq = csrf_of(shown), seq_of(shown)
    assert client.post(path, data={"csrf": csrf, "seq": seq, "answer": "refuse"}).status_code == 200
    before = written(game)
    again = client.post(path, data={"csrf": csrf, "seq": seq, "answer": "approve"})
    assert again.status_code == 409 and "closed already: refused" in text(again)
    page = text(client.get(path))
    assert "This request is closed" in page and 'name="answer"' not in page
    assert written(game) == before


def test_answer_links_refuse_forgeries_other_seats_and_other_requests(client: FlaskClient, game: Game) -> None:
    request = ann_asks(client, game)
    token = game.links.undo(game.id, request, 1)
    csrf = game.links.csrf(token)
    before = written(game)
    refusals = {
        tampered(token): 403,
        token.replace(f".{request}.1.", f".{request}.0.", 1): 403,   # another seat, signature no longer fits
        game.links.undo(game.id, request, 0): 403,                   # the asker's own seat is not asked
        game.links.undo(game.id, "0123456789", 1): 404,              # a request that does not exist
        game.token(1): 403,                                          # a play link is no undo link
        expired(game.links, "undo", f"{game.id}.{request}.1"): 410,
    }
    for bad, status in refusals.items():
        assert client.get(f"/undo/{bad}").status_code == status, bad
        assert client.post(f"/undo/{bad}", data={"csrf": csrf, "answer": "approve"}).status_code == status, bad
    assert client.post(f"/undo/{token}", data={"answer": "approve"}).status_code == 403         # no CSRF
    assert client.post(f"/undo/{token}", data={"csrf": game.links.csrf(game.token(1)),
                                               "answer": "approve"}).status_code == 403      # another page's
    assert client.post(f"/undo/{token}", data={"csrf": csrf, "answer": "maybe"}).status_code == 400
    assert client.get(f"/undo/{token}/approve").status_code == 404
    assert written(game) == before


def test_a_second_answer_is_refused_and_the_page_says_who_is_awaited(client: FlaskClient, game: Game) -> None:
    service = game.service
    three = service.create_game("highdie", [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), CAT],
                                seed="three").after.game_id
    for seat in (0, 1, 2):
        service.act_as(three, seat, "bet 1", cause=Cause("cli"))
    request = service.request_undo(three, 0, "", cause=Cause("cli")).events[0].payload["request"]
    token = game.links.undo(three, request, 1)
    shown = text(client.get(f"/undo/{token}"))
    csrf = csrf_of(shown)
    first = client.post(f"/undo/{token}", data={"csrf": csrf, "seq": seq_of(shown), "answer": "approve"})
    assert first.status_code == 200 and "You approved. Still waiting for Cat." in text(first)
    seq = service.store.last(three)[0]
    second = client.post(f"/undo/{token}", data={"csrf": csrf, "seq": seq_of(shown), "answer": "refuse"})
    assert second.status_code == 409 and "answered this request already" in text(second)
    assert service.store.last(three)[0] == seq
    assert "Your answer: approve" in text(client.get(f"/undo/{token}"))
    cat_page = text(client.get(f"/play/{game.links.play(three, 2, seq)}"))
    assert "Ann asks to take back moves" in cat_page and "Answer the request" in cat_page
    assert "Ben: approve" in cat_page


def test_the_organiser_sees_the_request_and_decides_it(client: FlaskClient, game: Game) -> None:
    request = ann_asks(client, game)
    token = game.links.make("organiser", game.id)
    page = text(client.get(f"/organise/{token}"))
    assert "Ann asks to take back moves" in page and f'name="request" value="{request}"' in page
    assert 'value="undo-approve"' in page and 'value="undo-refuse"' in page
    response = client.post(f"/organise/{token}", data={"csrf": csrf_of(page), "seq": seq_of(page), "what": "undo-approve",
                                                       "request": request, "reason": "a slip"})
    assert response.status_code == 200 and "the moves were taken back" in text(response)
    decided = [e for e in game.service.store.read(game.id) if e.type.startswith("pbem.Undo")][-2:]
    assert [e.actor for e in decided] == ["organiser", "organiser"] and decided[0].cause["via"] == "link"
    assert decided[-1].type == UNDO_REQUEST_CLOSED and decided[-1].payload["result"] == "approved"
    before = written(game)
    again = client.post(f"/organise/{token}", data={"csrf": csrf_of(page), "seq": seq_of(text(response)),
                                                    "what": "undo-refuse", "request": request})
    assert again.status_code == 409 and "closed already" in text(again)
    stale = client.post(f"/organise/{token}", data={"csrf": csrf_of(page), "seq": seq_of(page), "what": "undo-refuse",
                                                    "request": request})
    assert stale.status_code == 409 and "moved on while you were deciding" in text(stale)
    assert written(game) == before
