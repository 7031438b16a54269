"""Every write from the web is bound to the move its page showed, and every number is read one way.

A form carries the move the page was made at (``seq``); a write the game moved on from is a
409 with the game as it is now, and a write that lost a race to another is the same 409, never a
500. Numbers are ASCII digits only: ``str.isdigit()`` takes "²" and "⑦", which ``int()`` refuses.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

from events.handling import Cause
from events.store import ConcurrencyError, SQLiteEventStore
from pbem.table.delivery import GAME_PAUSED, STANDING_ORDER_SET
from web.conftest import Game, csrf_of, seq_of, text


def written(game: Game) -> tuple[int, int]:
    return game.seq(), game.outbox()


def post(client: FlaskClient, path: str, **form: Any) -> Any:
    return client.post(path, data=form)


# ---- numbers ----------------------------------------------------------------------------------

ODD = ["²", "⑦", "٣", "１２", "1e3", "-1", "½", " 1 2", "0x10", "9" * 10, "99999999999999999999999", "\x00", "١",
       " 7 ", "7 ", " 7", "\t7", "7\n", " "]


@pytest.mark.parametrize("value", ODD)
def test_a_number_that_is_not_plain_ascii_digits_is_a_400_everywhere(client: FlaskClient, game: Game,
                                                                     value: str) -> None:
    token, organiser = game.token(0), game.links.make("organiser", game.id)
    before = written(game)
    asked = quote(value, safe="")  # a raw tab or newline would be dropped from the URL before it is sent
    pages = [f"/games/{game.id}/replay?at={asked}", f"/games/{game.id}/replay?turn={asked}",
             f"/games/{game.id}/replay?as={asked}", f"/play/{token}/replay?at={asked}",
             f"/organise/{organiser}/audit?seq={asked}"]
    for path in pages:
        response = client.get(path, query_string=None)
        assert response.status_code == 400, (path, response.status_code)
        assert "must be" in text(response)
    for path in (f"/play/{token}/audit/{value}", f"/organise/{organiser}/audit/{value}"):
        response = client.get(path)
        assert response.status_code in (400, 404), (path, response.status_code)  # "/" or NUL may not route
    for path, form in ((f"/play/{token}", {"text": "bet 1"}), (f"/play/{token}/undo", {}),
                       (f"/organise/{organiser}", {"what": "pause"})):
        response = post(client, path, csrf=game.links.csrf(token if "play" in path else organiser), seq=value, **form)
        assert response.status_code == 400 and "seq must be" in text(response), path
    response = post(client, f"/organise/{organiser}", csrf=game.links.csrf(organiser), seq=str(game.seq()),
                    what="extend", hours=value)
    assert response.status_code == 400, value
    assert written(game) == before


def test_plain_numbers_still_work(client: FlaskClient, game: Game) -> None:
    organiser = game.links.make("organiser", game.id)
    assert client.get(f"/games/{game.id}/replay?at=2").status_code == 200
    assert client.get(f"/organise/{organiser}/audit/2").status_code == 200
    assert client.get(f"/organise/{organiser}/audit?seq=2").status_code == 200
    assert client.get(f"/organise/{organiser}/audit?seq=").status_code == 400  # none given: the form asks again
    assert client.get(f"/play/{game.token(0)}/audit/0002").status_code in (200, 403)


def test_a_number_with_spaces_around_it_is_refused_in_the_same_words_as_any_other(client: FlaskClient,
                                                                                  game: Game) -> None:
    """The docs say digits only: " 7 " is no more a number than "x" (it was read as 7 once, by a strip)."""
    organiser = game.links.make("organiser", game.id)
    for path in (f"/games/{game.id}/replay?at={{}}", f"/organise/{organiser}/audit?seq={{}}"):
        spaced, word = client.get(path.format(quote(" 7 "))), client.get(path.format("x"))
        assert spaced.status_code == word.status_code == 400
        assert text(spaced) == text(word) and "must be a step number, like 12" in text(spaced)
    before = written(game)
    forms = [post(client, f"/organise/{organiser}", csrf=game.links.csrf(organiser), seq=str(game.seq()),
                  what="extend", hours=hours) for hours in (" 7 ", "x")]
    assert [f.status_code for f in forms] == [400, 400] and text(forms[0]) == text(forms[1])
    assert "hours must be the extension in hours" in text(forms[0]) and written(game) == before


# ---- the JSON API takes JSON, and only as application/json ------------------------------------

@pytest.mark.parametrize("content_type", ["application/json-patch+json", "application/merge-patch+json",
                                          "text/json", "application/json; charset=latin-1",
                                          "application/json; boundary=x", "application/jsonx", "text/plain"])
def test_the_api_refuses_other_json_types_with_415_and_writes_nothing(client: FlaskClient, game: Game,
                                                                      content_type: str) -> None:
    before = written(game)
    response = client.post(f"/api/play/{game.token(0)}", data='{"text": "bet 1"}', content_type=content_type)
    assert response.status_code == 415 and response.json["error"] == "unsupported_media_type"
    assert written(game) == before


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON; Charset=UTF-8"])
def test_the_api_takes_application_json_with_or_without_utf8(client: FlaskClient, game: Game,
                                                            content_type: str) -> None:
    response = client.post(f"/api/play/{game.token(0)}", data='{"text": "bet 1"}', content_type=content_type)
    assert response.status_code == 200, response.json


# ---- forms carry the move their page showed ---------------------------------------------------

def test_every_form_that_writes_carries_the_move_of_its_page(client: FlaskClient, game: Game) -> None:
    client.post(f"/play/{game.token(0)}", data={"csrf": game.links.csrf(game.token(0)), "text": "play 14"})
    ben = text(client.get(f"/play/{game.token(1)}"))
    assert ben.count(f'name="seq" value="{game.seq()}"') == ben.count('name="csrf"') >= 2  # the choices, the order
    organiser = text(client.get(f"/organise/{game.links.make('organiser', game.id)}"))
    assert organiser.count(f'type="hidden" name="seq" value="{game.seq()}"') == organiser.count('name="csrf"')


def test_an_undo_from_a_page_the_game_moved_on_from_is_a_409(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    done = client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": "bet 2"})
    token = game.token(0)  # one token for the page and its form: a link made a second later differs, and so its CSRF
    page = text(client.get(f"/play/{token}"))
    assert "Undo my last action" in page
    game.service.undo(game.id, "ann@example.org", cause=Cause("cli"))  # taken back from another tab
    game.service.act_as(game.id, 0, "bet 3", cause=Cause("cli"))        # and played again
    before = written(game)
    response = client.post(f"/play/{token}/undo", data={"csrf": csrf_of(page), "seq": seq_of(page)})
    assert done.status_code == 200 and response.status_code == 409 and "moved on" in text(response)
    assert "Open the current page" in text(response) and written(game) == before


def test_an_undo_still_goes_after_a_pause_but_not_twice(client: FlaskClient, game: Game) -> None:
    """A pause is no move: the undo the page offered still fits. The same form a second time does not."""
    token = game.token(0)
    client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": "bet 2"})
    token = game.token(0)
    page = text(client.get(f"/play/{token}"))
    game.service.pause(game.id, "a break", cause=Cause("cli"))
    form = {"csrf": csrf_of(page), "seq": seq_of(page)}
    assert client.post(f"/play/{token}/undo", data=form).status_code == 200
    before = written(game)
    again = client.post(f"/play/{token}/undo", data=form)
    assert again.status_code == 409 and written(game) == before


def test_a_standing_order_is_bound_to_moves_not_to_other_records(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": "play 14"})  # Ben may contest
    ben = game.token(1)
    page = text(client.get(f"/play/{ben}"))
    game.service.extend(game.id, 2, "more time", cause=Cause("cli"))
    form = {"csrf": csrf_of(page), "seq": seq_of(page), "topic": "highdie.contest", "answer": "ask"}
    response = client.post(f"/play/{ben}/orders", data=form)
    assert response.status_code == 200 and game.service.store.read(game.id)[-1].type == STANDING_ORDER_SET
    game.service.act_as(game.id, 1, "accept", cause=Cause("cli"))
    before = written(game)
    assert client.post(f"/play/{ben}/orders", data=form).status_code == 409
    assert written(game) == before


def test_an_organiser_form_is_bound_to_everything_recorded(client: FlaskClient, game: Game) -> None:
    token = game.links.make("organiser", game.id)
    page = text(client.get(f"/organise/{token}"))
    game.service.extend(game.id, 2, "more time", cause=Cause("cli"))  # the deadlines the page listed changed
    before = written(game)
    response = client.post(f"/organise/{token}", data={"csrf": csrf_of(page), "seq": seq_of(page),
                                                       "what": "extend", "hours": "24"})
    assert response.status_code == 409 and "moved on while you were deciding" in text(response)
    assert f'name="seq" value="{game.seq()}"' in text(response), "the current page, to act from"
    assert written(game) == before
    missing = client.post(f"/organise/{token}", data={"csrf": csrf_of(page), "what": "pause"})
    assert missing.status_code == 400 and "open the page again" in text(missing)
    paused = client.post(f"/organise/{token}", data={"csrf": csrf_of(page), "seq": seq_of(text(response)),
                                                     "what": "pause"})
    assert paused.status_code == 200 and game.service.store.read(game.id)[-1].type == GAME_PAUSED


# ---- a lost race is a 409, never a 500 ---------------------------------------------------------

def test_every_write_that_loses_a_race_is_a_409(client: FlaskClient, game: Game) -> None:
    game.service.set_standing_order(game.id, 1, "highdie.contest", "ask", cause=Cause("cli"))
    game.service.act_as(game.id, 0, "bet 2", cause=Cause("cli"))  # Ann may take it back; Ben is to move
    ann, ben, organiser = game.token(0), game.token(1), game.links.make("organiser", game.id)
    seq = str(game.seq())
    writes = [
        (f"/play/{ben}", {"csrf": game.links.csrf(ben), "seq": seq, "text": "bet 1"}),
        (f"/play/{ann}/undo", {"csrf": game.links.csrf(ann), "seq": seq}),
        (f"/play/{ben}/orders", {"csrf": game.links.csrf(ben), "seq": seq, "topic": "highdie.contest",
                                 "answer": "never"}),
        (f"/organise/{organiser}", {"csrf": game.links.csrf(organiser), "seq": seq, "what": "pause"}),
        (f"/organise/{organiser}", {"csrf": game.links.csrf(organiser), "seq": seq, "what": "extend",
                                    "hours": "3"}),
    ]
    before = written(game)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(game.service.store), "append", _lose)
        answers = [client.post(path, data=form) for path, form in writes]
        api = client.post(f"/api/play/{ben}", json={"text": "bet 1"})
    assert [r.status_code for r in answers] == [409] * len(writes), [text(r)[:300] for r in answers]
    assert all("moved on" in text(r) for r in answers)
    assert api.status_code == 409 and api.json["error"] == "stale" and api.json["current_url"]
    assert written(game) == before


def test_an_undo_answer_that_loses_every_race_is_a_409(client: FlaskClient, game: Game) -> None:
    for seat, points in ((0, 3), (1, 2)):
        game.service.act_as(game.id, seat, f"bet {points}", cause=Cause("cli"))
    request = game.service.request_undo(game.id, 0, "", cause=Cause("cli")).events[0].payload["request"]
    token = game.links.undo(game.id, request, 1)
    page = text(client.get(f"/undo/{token}"))
    before = written(game)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(game.service.store), "append", _lose)
        response = client.post(f"/undo/{token}", data={"csrf": csrf_of(page), "seq": seq_of(page),
                                                       "answer": "approve"})
    assert response.status_code == 409 and "moved on while you were deciding" in text(response)
    assert "Approve: take these moves back" in text(response) and written(game) == before


def _lose(self: SQLiteEventStore, game_id: str, expected_seq: int, *args: Any, **kwargs: Any) -> None:
    raise ConcurrencyError(game_id, expected_seq, expected_seq + 1)
