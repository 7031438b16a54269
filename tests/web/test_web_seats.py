"""A seat's life on the web: away and back on the home page, resigning, the organiser's replacement, the API,
and the old holder's links refused after a replacement (nothing written)."""

from __future__ import annotations

from datetime import date, timedelta

from flask.testing import FlaskClient

from web.conftest import ANN, BEN, Game, seq_of, text

CY = "cy@example.org"


def home(game: Game, email: str) -> str:
    return game.links.make("home", game.service.player_id(email))


def test_a_player_declares_an_absence_and_comes_back_on_the_home_page(client: FlaskClient, game: Game) -> None:
    token = home(game, BEN.email)
    page = client.get(f"/home/{token}")
    assert "Record my absence" in text(page)
    csrf = game.links.csrf(token)
    first, back = date.today() + timedelta(days=1), date.today() + timedelta(days=8)
    done = client.post(f"/home/{token}/away", data={"csrf": csrf, "game": "all", "from": first.isoformat(),
                                                   "until": back.isoformat(), "reason": "skiing"})
    assert done.status_code == 200 and "Your absence is recorded" in text(done)
    assert "skiing, kept to yourself" in text(done)
    seq = game.seq()
    again = client.post(f"/home/{token}/away", data={"csrf": csrf, "game": game.id, "from": first.isoformat(),
                                                    "until": back.isoformat()})
    assert again.status_code == 400 and "already away" in text(again) and game.seq() == seq
    past = client.post(f"/home/{token}/away", data={"csrf": csrf, "game": "all", "from": "2001-01-01",
                                                   "until": "2001-01-05"})
    assert past.status_code == 400 and "past" in text(past) and game.seq() == seq
    forged = client.post(f"/home/{token}/away", data={"csrf": "nope", "game": "all", "from": first.isoformat(),
                                                     "until": back.isoformat()})
    assert forged.status_code == 403 and game.seq() == seq
    # Ann reads that Ben will be away, not why
    public = client.get(f"/api/games/{game.id}").get_json()
    assert any("Ben will be away" in line["text"] for line in public["log"])
    assert "skiing" not in str(public)
    back_page = client.post(f"/home/{token}/seat", data={"csrf": csrf, "game": game.id, "what": "back"})
    assert back_page.status_code == 200 and "Welcome back" in text(back_page)


def test_resigning_needs_the_box_ticked(client: FlaskClient, game: Game) -> None:
    token = home(game, BEN.email)
    csrf = game.links.csrf(token)
    seq = game.seq()
    unticked = client.post(f"/home/{token}/seat", data={"csrf": csrf, "game": game.id, "what": "resign"})
    assert unticked.status_code == 400 and "tick the box" in text(unticked) and game.seq() == seq
    other = client.post(f"/home/{token}/seat", data={"csrf": csrf, "game": "nosuchgame", "what": "resign",
                                                     "confirm": "yes"})
    assert other.status_code == 400 and game.seq() == seq
    done = client.post(f"/home/{token}/seat", data={"csrf": csrf, "game": game.id, "what": "resign",
                                                    "confirm": "yes"})
    assert done.status_code == 200 and "You resigned" in text(done) and "you resigned" in text(done)
    assert "You resigned from this game" in text(client.get(f"/play/{game.token(1)}"))


def test_the_organiser_replaces_a_player_and_the_old_links_are_refused(client: FlaskClient, game: Game) -> None:
    old_play, old_home = game.token(1), home(game, BEN.email)
    old_csrf = game.links.csrf(old_play)
    organise = game.links.make("organiser", game.id)
    page = client.get(f"/organise/{organise}")
    assert "Give a seat to another player" in text(page)
    csrf = game.links.csrf(organise)
    bad = client.post(f"/organise/{organise}/replace", data={"csrf": csrf, "seq": seq_of(text(page)), "seat": "1",
                                                             "email": "not an address"})
    assert bad.status_code == 400 and game.service.players(game.id)[1]["email"] == BEN.email
    stale = client.post(f"/organise/{organise}/replace", data={"csrf": csrf, "seq": "1", "seat": "1", "email": CY})
    assert stale.status_code == 409 and game.service.players(game.id)[1]["email"] == BEN.email
    done = client.post(f"/organise/{organise}/replace", data={"csrf": csrf, "seq": seq_of(text(page)), "seat": "1",
                                                              "email": CY, "name": "Cy"})
    assert done.status_code == 200 and "The seat is now Cy" in text(done)
    seq = game.seq()
    refused = client.get(f"/play/{old_play}")
    assert refused.status_code == 403 and "given to another player" in text(refused)
    acted = client.post(f"/play/{old_play}", data={"csrf": old_csrf, "seq": str(seq), "command": "pass"})
    assert acted.status_code == 403 and game.seq() == seq
    said = client.post(f"/api/play/{old_play}", json={"text": "pass"})
    assert said.status_code == 403 and said.get_json()["error"] == "seat_replaced" and game.seq() == seq
    assert game.id not in text(client.get(f"/home/{old_home}"))  # Ben's home page no longer lists it
    new_page = client.get(f"/play/{game.token(1)}")
    assert new_page.status_code == 200 and "Cy" in text(new_page)
    assert CY not in text(client.get(f"/play/{game.token(0)}")) and CY not in text(client.get(f"/games/{game.id}"))


def test_the_api_declares_absences_takes_seats_back_and_replaces(client: FlaskClient, game: Game) -> None:
    token = game.token(1)
    first, back = date.today() + timedelta(days=2), date.today() + timedelta(days=5)
    made = client.post(f"/api/play/{token}/away", json={"from": first.isoformat(), "until": back.isoformat(),
                                                        "reason": "family", "share": True})
    assert made.status_code == 200 and made.get_json()["receipt"][0]["type"] == "pbem.AbsenceDeclared"
    seats = client.get(f"/api/play/{token}/seats").get_json()
    assert seats["vacation"] == "allowance" and seats["vacation_days"] == 14 and seats["autopilot_after"] == 3
    assert seats["seats"][1]["away"][0]["reason"] == "family" and seats["yours"][0]["shared"] is True
    seq = game.seq()
    assert client.post(f"/api/play/{token}/away", json={"from": "soon", "until": "later"}).status_code == 400
    assert client.post(f"/api/play/{token}/away", json={"from": 3}).status_code == 400
    assert client.post(f"/api/play/{token}/seat", json={"what": "explode"}).status_code == 400
    assert client.post(f"/api/play/{token}/seat", json={"what": "take-back"}).status_code == 400
    assert client.post(f"/api/play/{token}/seat", data="what=back").status_code == 415
    assert game.seq() == seq
    assert client.post(f"/api/play/{token}/seat", json={"what": "back"}).status_code == 200
    organise = game.links.make("organiser", game.id)
    assert client.post(f"/api/organise/{organise}/replace", json={"seat": "1", "email": CY}).status_code == 400
    assert client.post(f"/api/organise/{organise}/replace", json={"seat": 0, "email": BEN.email}).status_code == 400
    replaced = client.post(f"/api/organise/{organise}/replace", json={"seat": 0, "email": CY, "name": "Cy",
                                                                      "seq": game.seq()})
    assert replaced.status_code == 200 and replaced.get_json()["receipt"][0]["type"] == "pbem.SeatReplaced"
    assert ANN.email not in [p["email"] for p in game.service.players(game.id)]


def test_the_home_page_says_what_an_absence_holds_of_the_allowance_and_what_is_left(client: FlaskClient,
                                                                                    game: Game) -> None:
    """The game's allowance is 14 days: a week away holds 7 of them from the moment it is declared."""
    token = home(game, BEN.email)
    csrf = game.links.csrf(token)
    first, back = date.today() + timedelta(days=3), date.today() + timedelta(days=10)
    done = client.post(f"/home/{token}/away", data={"csrf": csrf, "game": game.id, "from": first.isoformat(),
                                                   "until": back.isoformat()})
    assert done.status_code == 200
    assert ("Your absence is recorded in your game; the other players are told. In this game, this absence holds "
            "7 days of your allowance, and 7 days are left.") in text(done)
    assert "holding 7 days of your allowance; 7 days of your allowance in this game are left" in text(done)
    later = client.post(f"/home/{token}/away", data={"csrf": csrf, "game": game.id,
                                                    "from": (back + timedelta(days=1)).isoformat(),
                                                    "until": (back + timedelta(days=21)).isoformat()})
    assert "In this game, this absence holds 7 days of your allowance, and none is left." in text(later)
    assert "none of your allowance in this game is left" in text(later)
