"""The organiser's page: pause, resume and extend through a signed link; GET changes nothing."""

from __future__ import annotations

from flask.testing import FlaskClient

from pbem.table.delivery import DEADLINE_EXTENDED, GAME_PAUSED, GAME_RESUMED
from web.conftest import Game, seq_of, text


def organiser(game: Game) -> str:
    return game.links.make("organiser", game.id)


def events(game: Game) -> list[str]:
    return [e.type for e in game.service.store.read(game.id)]


def test_the_organiser_pauses_resumes_and_extends_with_reasons(client: FlaskClient, game: Game) -> None:
    token = organiser(game)
    page = client.get(f"/organise/{token}")
    assert page.status_code == 200 and "Pause the game" in text(page) and "Ann" in text(page)
    csrf = game.links.csrf(token)
    before = len(events(game))
    paused = client.post(f"/organise/{token}", data={"csrf": csrf, "seq": seq_of(text(page)), "what": "pause",
                                                     "reason": "Ann travels"})
    assert paused.status_code == 200 and "The game is paused" in text(paused) and "Resume the game" in text(paused)
    found = game.service.store.read(game.id)[before:]
    assert [e.type for e in found] == [GAME_PAUSED] and found[0].payload["reason"] == "Ann travels"
    assert found[0].actor == "organiser" and found[0].cause["via"] == "link" and found[0].cause["link"]
    again = client.post(f"/organise/{token}", data={"csrf": csrf, "seq": seq_of(text(paused)), "what": "pause"})
    assert again.status_code == 409 and "already paused" in text(again)
    resumed = client.post(f"/organise/{token}", data={"csrf": csrf, "seq": seq_of(text(paused)), "what": "resume",
                                                      "reason": "back"})
    assert resumed.status_code == 200 and GAME_RESUMED in events(game)
    extended = client.post(f"/organise/{token}", data={"csrf": csrf, "seq": seq_of(text(resumed)), "what": "extend",
                                                       "hours": "12"})
    assert extended.status_code == 200 and "12 hours later" in text(extended)
    assert events(game)[-1] == DEADLINE_EXTENDED


def test_the_organiser_page_refuses_bad_links_and_bad_forms_and_writes_nothing(client: FlaskClient,
                                                                                game: Game) -> None:
    token = organiser(game)
    before = len(events(game))
    assert client.get(f"/organise/{game.token(0)}").status_code == 403  # a play link is no organiser link
    assert client.get(f"/organise/{token[:-3]}xyz").status_code == 403
    assert client.post(f"/organise/{token}", data={"what": "pause"}).status_code == 403  # no CSRF
    csrf = game.links.csrf(token)
    assert client.post(f"/organise/{token}", data={"csrf": csrf, "what": "explode"}).status_code == 400
    assert client.post(f"/organise/{token}", data={"csrf": csrf, "what": "extend", "hours": "soon"}).status_code == 400
    assert client.post(f"/organise/{token}", data={"csrf": csrf, "what": "extend", "hours": "-3"}).status_code == 400
    assert client.get(f"/organise/{game.links.make('organiser', 'nosuchgame')}").status_code == 404
    assert len(events(game)) == before
