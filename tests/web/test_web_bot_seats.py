"""Playing against the computer from the new-game page and the JSON API: the bot seats and the autopilot's level
chosen there are the game's, the muster invites only the people, and a bad choice writes nothing."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from events.handling import Cause
from pbem.instance.links import Links
from pbem.organising import muster, organisers
from pbem.service import Service
from web.conftest import csrf_of, text


def new_game_path(service: Service, links: Links) -> str:
    """The new-game page of Olive, whom the operator invited."""
    assert service.notifier is not None
    organisers.invite(service.store, service.notifier, "olive@example.org")
    return f"/new/{links.make('newgame', organisers.organiser_id('olive@example.org'))}"


def form(csrf: str, bots: list[str], **extra: Any) -> dict[str, Any]:
    rows = [("Ann", "ann@example.org")] + [("", "")] * 4
    return {"csrf": csrf, "game": "nanty", "turn_hours": "48", "interrupt_hours": "12", "name": "Olive",
            "player_name": [r[0] for r in rows], "player_email": [r[1] for r in rows],
            "bot": bots + [""] * (4 - len(bots)), **extra}


def accept_all(service: Service) -> str:
    """Every invitee accepts; the game starts: its id."""
    [listed] = muster.listing(service.store)
    found = muster.get(service.store, str(listed["muster_id"]))
    for place in found.invitations:
        found = muster.answer(service, found.muster_id, place.slot, place.invitation, "accept", cause=Cause("link"))
    assert found.game_id is not None
    return found.game_id


def counts(service: Service) -> tuple[int, int, int]:
    return tuple(int(service.store.query(f"SELECT count(*) AS n FROM {t}")[0]["n"])  # type: ignore[return-value]
                 for t in ("musters", "games", "outbox"))


def test_the_new_game_page_seats_the_computer_after_the_players(client: FlaskClient, service: Service,
                                                               links: Links) -> None:
    path = new_game_path(service, links)
    page = text(client.get(path))
    assert "Play against the computer" in page and page.count('name="bot"') == 4
    assert '<option value="greedy" selected>greedy (the default)</option>' in page
    created = client.post(path, data=form(csrf_of(page), ["search", "random"], autopilot_bot="random"))
    assert created.status_code == 303
    shown = text(client.get(created.headers["Location"]))
    assert "Played by the computer" in shown and "Computer (search), Computer (random)" in shown
    [listed] = muster.listing(service.store)
    assert [i.email for i in muster.get(service.store, str(listed["muster_id"])).invitations] == ["ann@example.org"]
    game = accept_all(service)
    options = service.store.read(game, 0, 1)[0].payload["options"]
    assert options["bots"] == {"1": "search", "2": "random"} and options["autopilot_bot"] == "random"
    assert [p["email"] for p in service.players(game)] == ["ann@example.org", "bot-1@bots.invalid",
                                                          "bot-2@bots.invalid"]
    assert not service.store.query("SELECT * FROM outbox WHERE to_addr LIKE ?", ("%.invalid",))
    organise = text(client.get(f"/organise/{links.make('organiser', game)}"))
    assert "computer (search)" in organise and "played by the computer at level random" in organise


def test_bad_computer_seats_on_the_page_give_the_form_back_and_write_nothing(client: FlaskClient,
                                                                            service: Service, links: Links) -> None:
    path = new_game_path(service, links)
    csrf = csrf_of(text(client.get(path)))
    before = counts(service)
    for data, words in ((form(csrf, ["clever"]), "must be one of random, greedy, search"),
                        (form(csrf, ["random"] * 4), "Nanty Narking is for 2 to 4 players, not 5"),
                        (form(csrf, ["random"], autopilot_bot="x"), "must be one of random, greedy, search"),
                        ({**form(csrf, ["random"]), "player_name": [""] * 5, "player_email": [""] * 5},
                         "at least one human player")):
        refused = client.post(path, data=data)
        assert refused.status_code == 400 and words in " ".join(text(refused).split()), words
    assert counts(service) == before


def api(client: FlaskClient, path: str, body: Any) -> Any:
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_the_api_creates_bot_seats(client: FlaskClient, service: Service, links: Links) -> None:
    path = "/api" + new_game_path(service, links)
    offer = client.get(path).get_json()
    assert offer["levels"] == ["random", "greedy", "search"]
    assert offer["defaults"]["autopilot_bot"] == "greedy" and offer["defaults"]["bots"] == []
    body = {"game": "emerald", "players": [{"name": "Ann", "email": "ann@example.org"}], "bots": ["search", "random"],
            "autopilot_bot": "search", "name": "Olive"}
    before = counts(service)
    for bad in ({**body, "bots": "search"}, {**body, "bots": ["clever"]}, {**body, "autopilot_bot": 3},
                {**body, "players": []}):
        assert api(client, path, bad).status_code == 400
    assert counts(service) == before
    created = api(client, path, body)
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["muster"]["options"]["bots"] == {"1": "search", "2": "random"}
    game = accept_all(service)
    assert [s.name for s in service.load(game).config.seats] == ["Ann", "Computer (search)", "Computer (random)"]
