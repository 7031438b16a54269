"""The pages a player reads on a phone, as the server writes them: the decision first, the conversation panel, the
time zones people can find, and the organiser's pages pointing to the game."""

from __future__ import annotations

import html
import random
import re
from datetime import datetime, timezone
from typing import Any

import pytest
from flask.testing import FlaskClient

from events.handling import Cause
from pbem.instance.links import Links
from pbem.organising import muster
from pbem.service import Player, Service
from pbem.table.talk import Talk
from pbem.web import zones
from web.conftest import ANN, BEN, Game, csrf_of, text
from web.test_web_muster import PLAYERS as INVITED, Post, form, new_game_page

THREE = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cy")]


def nanty_at_a_card(service: Service) -> tuple[str, int]:
    """Nanty Narking, eleven seeded random moves in: the player to act may place a building in Chelsea, and nothing
    else there."""
    game_id = service.create_game("nanty", THREE, seed="phone").after.game_id
    pick = random.Random(4)
    for _ in range(11):
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("cli"))
    return game_id, int(service.show(game_id)["waiting_for"][0]["seat"])


def play_page(client: FlaskClient, links: Links, service: Service, game_id: str, seat: int, query: str = "") -> str:
    return html.unescape(text(client.get(f"/play/{links.play(game_id, seat, service.store.last(game_id)[0])}{query}")))


def test_the_decision_comes_first_then_the_board_then_the_rest_folded(client: FlaskClient, service: Service,
                                                                     links: Links) -> None:
    game_id, seat = nanty_at_a_card(service)
    service.say(game_id, (seat + 1) % 3, Talk("say", "Your move."), cause=Cause("cli"))  # news since their turn
    page = play_page(client, links, service, game_id, seat)
    order = [page.index(marker) for marker in ('href="#choices"', 'id="prompt-h"', 'id="board-h"', "<svg",
                                               'id="since-h"', 'id="log-h"')]
    assert order == sorted(order)
    heading = page.split('<h2 id="prompt-h">')[1].split("</h2>")[0]
    assert heading.startswith("Your move: ") and "Your turn" not in heading  # said once
    since = page[page.index('id="since-h"'):page.index("</section>", page.index('id="since-h"'))]
    assert "<details" in since                                  # what happened is one tap away, not in the way
    assert '<code class="cmd">' not in page                     # the commands are the preview's to show


def test_a_click_that_leaves_one_choice_selects_it(client: FlaskClient, service: Service, links: Links) -> None:
    game_id, seat = nanty_at_a_card(service)
    page = play_page(client, links, service, game_id, seat, "?on=area:chelsea")
    focused = page[page.index('<fieldset class="group focus">'):page.index("Show all your choices")]
    assert re.findall(r'<input type="radio" name="choice" value="([^"]+)" checked>', focused) == ["build Chelsea"]
    everything = play_page(client, links, service, game_id, seat)
    assert " checked>" not in everything.split('id="choices"')[1].split("</form>")[0]  # two choices: none chosen


def test_the_conversation_panel_is_newest_first_with_who_to_whom_and_the_new_ones_marked(
        client: FlaskClient, service: Service, links: Links) -> None:
    game_id, seat = nanty_at_a_card(service)
    names = [p.name for p in THREE]
    other, third = (seat + 1) % 3, (seat + 2) % 3
    service.say(game_id, seat, Talk("say", "Morning, all."), cause=Cause("cli"))
    service.say(game_id, other, Talk("say", "Chelsea is mine.", (seat,)), cause=Cause("cli"))
    service.say(game_id, other, Talk("say", "Not a word to them.", (third,)), cause=Cause("cli"))
    page = play_page(client, links, service, game_id, seat)
    panel = page[page.index('id="talk-h"'):page.index("Write to the table")]
    lines = re.findall(r"<li( class=\"new\")?>.*?<br>(.*?)</li>", panel, re.S)
    assert lines == [
        (' class="new"', f"{names[other]} sent a private message to {names[third]}"),
        (' class="new"', f"{names[other]} to {names[seat]}: \u201cChelsea is mine.\u201d"),
        ("", f"{names[seat]} to everyone: \u201cMorning, all.\u201d"),
    ]
    assert "Table talk <span class=\"new-mark\">(2 new)</span>" in page and "Table talk (2 new)" in page
    assert "Not a word to them" not in page

    service.say(game_id, seat, Talk("say", "Fine."), cause=Cause("cli"))  # answering reads the rest
    page = play_page(client, links, service, game_id, seat)
    assert 'class="new"' not in page[page.index('id="talk-h"'):page.index("Write to the table")]


def test_times_on_a_players_pages_are_in_their_zone_and_the_footer_says_which(client: FlaskClient,
                                                                               game: Game) -> None:
    home = f"/home/{game.links.make('home', game.service.player_id(ANN.email))}"
    page = text(client.get(home))
    assert "times are in UTC" in page
    done = client.post(f"{home}/timezone", data={"csrf": csrf_of(page), "timezone": "", "browser_zone": "Asia/Tokyo"})
    assert done.status_code == 200 and "Your time zone is now Asia/Tokyo." in text(done)
    assert "times are in your time zone, Asia/Tokyo (deadlines also in UTC)" in text(done)
    play = html.unescape(text(client.get(f"/play/{game.token(0)}")))
    assert "times are in your time zone, Asia/Tokyo" in play and "(Asia/Tokyo) — " in play
    assert "When (UTC)" not in play                                       # the log reads in the zone too
    public = text(client.get(f"/games/{game.id}"))
    assert "times are in UTC" in public and "When (UTC)" in public        # a spectator's page keeps the record's


def test_the_zones_are_offered_by_place_common_ones_first_with_their_offsets() -> None:
    january = datetime(2026, 1, 15, 12, tzinfo=timezone.utc)
    groups = zones.choices("Europe/Berlin", january)
    assert [g["label"] for g in groups][:4] == ["Common time zones", "Europe", "The Americas", "Asia"]
    common = {z["value"]: z["words"] for z in groups[0]["zones"]}
    assert common["Europe/Berlin"] == "Berlin, Europe \u2014 UTC+01:00"
    assert common["America/New_York"] == "New York, The Americas \u2014 UTC\u221205:00"
    assert common["Asia/Kolkata"] == "Kolkata, Asia \u2014 UTC+05:30" and common["UTC"] == "UTC (no zone)"
    every = [z["value"] for g in groups for z in g["zones"]]
    assert not {"Factory", "localtime", "posixrules", "Etc/GMT+3", "US/Eastern"} & set(every)
    assert [z["value"] for g in groups for z in g["zones"] if z["selected"]] == ["Europe/Berlin"]  # once, up top
    assert zones.place("America/Argentina/Buenos_Aires") == "Buenos Aires (Argentina)"
    assert zones.offset("Europe/Berlin", datetime(2026, 7, 1, tzinfo=timezone.utc)) == "UTC+02:00"
    legacy = zones.choices("US/Eastern", january)
    assert legacy[0]["zones"][0] == {"value": "US/Eastern", "words": "Eastern, US \u2014 UTC\u221205:00",
                                     "selected": True}


def test_the_home_page_lists_the_zones_grouped_and_allows_only_its_own_script(client: FlaskClient,
                                                                              game: Game) -> None:
    mover = (ANN, BEN)[game.turn()]
    response = client.get(f"/home/{game.links.make('home', game.service.player_id(mover.email))}")
    page = text(response)
    assert '<optgroup label="Common time zones">' in page and '<optgroup label="Europe">' in page
    assert f"<script>{zones.BROWSER_ZONE_SCRIPT}</script>" in page
    assert f"script-src '{zones.SCRIPT_HASH}'" in response.headers["Content-Security-Policy"]
    assert page.count("<script") == 1 and '<button type="submit" name="browser_zone" id="tz-browser" value="" hidden>' in page
    table = page[page.index("<table"):page.index("</table>")]
    assert 'class="grid stack"' in table and 'class="button" href="/play/' in table  # "Act now": a block on a phone


@pytest.fixture
def post(service: Service) -> Any:
    found = Post(service)
    yield found
    found.server.stop()


def test_the_new_game_page_offers_the_flagship_first_and_as_many_rows_as_the_game_seats(
        client: FlaskClient, service: Service, post: Post) -> None:
    page = html.unescape(text(client.get(new_game_page(client, service, post))))
    radios = re.findall(r'<input type="radio" name="game" value="(\w+)"( checked)?>', page)
    assert radios[0] == ("emerald", " checked") and [k for k, c in radios if c] == ["emerald"]
    assert page.count('name="player_name"') == 5
    assert 'form:has(input[name=game][value="nanty"]:checked) .seat-5 { display: none; }' in page
    assert 'name="random_seats"' in page


def test_random_seating_seats_the_players_in_the_order_drawn(client: FlaskClient, service: Service, post: Post,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    class Reversing:
        def shuffle(self, items: list[Any]) -> None:
            items.reverse()
    monkeypatch.setattr("pbem.web.newgame.secrets.SystemRandom", Reversing)
    path = new_game_page(client, service, post)
    created = client.post(path, data=form(csrf_of(text(client.get(path))), random_seats="on"))
    assert created.status_code == 303
    found = muster.listing(service.store)[0]
    assert [i.name for i in muster.get(service.store, found["muster_id"]).invitations] == [n for n, _ in
                                                                                          reversed(INVITED)]


def test_the_muster_page_of_a_started_game_links_to_it_and_says_it_started(client: FlaskClient, service: Service,
                                                                           post: Post, links: Links) -> None:
    path = new_game_page(client, service, post)
    created = client.post(path, data=form(csrf_of(text(client.get(path)))))
    muster_page = created.headers["Location"]
    assert "The invitations are on their way" in text(client.get(muster_page))
    found = muster.listing(service.store)[0]
    for slot, (_, email) in enumerate(INVITED):
        invitation = muster.get(service.store, found["muster_id"]).invitations[slot]
        muster.answer(service, found["muster_id"], slot, invitation.invitation, "accept", cause=Cause("cli"))
    page = html.unescape(text(client.get(muster_page)))
    game_id = muster.listing(service.store)[0]["game_id"]
    assert "The invitations are on their way" not in page
    assert "Everyone has accepted already, so the game has started" in page
    assert f'<a href="/games/{game_id}">See the game</a>' in page and "Organise the game" in page
    organiser = text(client.get(f"/organise/{links.make('organiser', game_id)}"))
    assert f'<a href="/games/{game_id}">See the board</a>' in organiser


def test_the_sign_up_page_names_the_operators_command(client: FlaskClient) -> None:
    page = html.unescape(text(client.get("/new")))
    assert "pbem organiser invite" in page and "you@example.org" in page
