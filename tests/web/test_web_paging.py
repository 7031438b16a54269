"""Pages whose cost does not grow with the game: the public log a page at a time, the home page a page of games
at a time (issue: lean at scale)."""

from __future__ import annotations

import html
import random
import re

from flask import Flask
from flask.testing import FlaskClient

from events.handling import Cause
from pbem.service import Player, Service
from pbem.web.common import LOG_PAGE, log_window
from web.conftest import ANN, BEN, Game, text

CLI = Cause("cli")


def long_emerald(service: Service, moves: int) -> str:
    game_id = service.create_game("emerald", [ANN, BEN], seed="paging").after.game_id
    pick = random.Random(2)
    for _ in range(moves):
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=CLI)
    return game_id


def rows(page: str) -> list[str]:
    log = page[page.index('id="log-h"'):]
    return re.findall(r"<tr class=\"[^\"]*\"><td>(\d+)</td>", log)


def test_the_public_page_shows_the_newest_log_lines_and_older_ones_a_page_at_a_time(client: FlaskClient,
                                                                                      service: Service) -> None:
    game_id = long_emerald(service, 60)
    last = service.store.last(game_id)[0]
    assert last > 2 * LOG_PAGE
    page = html.unescape(text(client.get(f"/games/{game_id}")))
    # a page shows a range of events; a line that only repeats another (a hidden draw beside its count) is left out
    said = {line["seq"] for line in service.log(game_id) if not line["repeats"]}
    assert len(said) < last
    assert rows(page) == [str(n) for n in range(last - LOG_PAGE + 1, last + 1) if n in said]
    assert f"Events {last - LOG_PAGE + 1} to {last} of {last}" in page
    older = re.search(r'href="([^"]+)#log-h" rel="prev">Earlier events', page).group(1)  # type: ignore[union-attr]
    assert older == f"/games/{game_id}?before={last - LOG_PAGE + 1}" and "Later events" not in page

    second = html.unescape(text(client.get(older)))
    assert rows(second) == [str(n) for n in range(last - 2 * LOG_PAGE + 1, last - LOG_PAGE + 1) if n in said]
    assert "Later events" in second and "The latest" in second
    # the lines are those the whole log has (its words, its numbers)
    whole = {str(line["seq"]): line["text"] for line in service.log(game_id)}
    for n in rows(second)[:5]:
        assert html.escape(whole[n], quote=False) in html.escape(second, quote=False)

    first = html.unescape(text(client.get(f"/games/{game_id}?before=1")))
    assert rows(first) == [str(n) for n in range(1, LOG_PAGE + 1) if n in said] and "Earlier events" not in first
    for junk in ("x", "-5", "99999999", "", "1e9", "0"):
        answer = client.get(f"/games/{game_id}", query_string={"before": junk})
        assert answer.status_code == 200 and rows(html.unescape(text(answer)))


def test_an_earlier_page_marks_what_a_later_undo_took_back(app: Flask, game: Game) -> None:
    service = game.service
    service.act(game.id, ANN.email, "bet 2", cause=CLI)
    taken = service.store.last(game.id)[0]
    service.undo(game.id, ANN.email, cause=CLI)
    service.act(game.id, ANN.email, "bet 3", cause=CLI)
    last = service.store.last(game.id)[0]
    whole = {line["seq"]: line["undone"] for line in service.log(game.id)}
    assert whole[taken] and not whole[last]
    with app.test_request_context():
        window = log_window(game.id, None, last, before=taken + 1, size=3)
    assert [line["seq"] for line in window["lines"]] == [taken - 2, taken - 1, taken]
    assert [line["undone"] for line in window["lines"]] == [whole[taken - 2], whole[taken - 1], True]
    assert window["older"] == taken - 2 and window["newer"] == taken + 4


def test_the_home_page_shows_the_games_waiting_for_the_player_first_a_page_at_a_time(client: FlaskClient,
                                                                                      game: Game) -> None:
    service = game.service
    cy = Player("cy@example.org", "Cy")
    waiting = []
    for n in range(70):  # Ann moves first in even games: those wait for her
        players = [ANN, cy] if n % 2 == 0 else [cy, ANN]
        made = service.create_game("highdie", players, seed=f"home-{n}").after.game_id
        if n % 2 == 0:
            waiting.append(made)
    path = f"/home/{game.links.make('home', service.player_id(ANN.email))}"
    page = html.unescape(text(client.get(path)))
    assert "71 games, 36 waiting for you" in page and "Games 1 to 30." in page and "(page 1 of 3)" in page
    listed = re.findall(r"<br><span class=\"small\">(\w+), as Ann</span>", page)
    assert len(listed) == 30 and set(listed) <= set(waiting) | {game.id}   # the games waiting come first
    assert page.count("Act now") == 30 and "Previous games" not in page
    last = html.unescape(text(client.get(f"{path}?page=3")))
    on_last = re.findall(r"<br><span class=\"small\">(\w+), as Ann</span>", last)
    assert len(on_last) == 11 and "More games" not in last and "Previous games" in last
    middle = re.findall(r"<br><span class=\"small\">(\w+), as Ann</span>", html.unescape(text(client.get(f"{path}?page=2"))))
    assert len(set(listed) | set(middle) | set(on_last)) == 71          # every game once over the pages
    for junk in ("0", "-1", "x", "999"):
        assert client.get(path, query_string={"page": junk}).status_code == 200
