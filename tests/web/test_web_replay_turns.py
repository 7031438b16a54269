"""The replay reads in the game's own count (``turn 2, action 1 of 2``), as the pages and mails do; the event's number
appears only as the audit link's words. Every event can still be stepped through (the URL keeps its number)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from delivery import ANN, BEN, play_moves
from events.handling import Cause
from pbem.service import Player, Service
from web.conftest import text

CY = Player("cy@example.org", "Cy")


def test_an_emerald_replay_reads_in_turns_and_actions_not_event_numbers(client: FlaskClient, service: Service,
                                                                          links: object) -> None:
    game = service.create_game("emerald", [ANN, BEN, CY], seed="replay-turns").after.game_id
    play_moves(service, game, 40, seed=3)
    state = service.load(game)
    last = state.seq
    page = text(client.get(f"/games/{game}/replay"))
    heading = re.search(r"<h1>Replay: (.*?)</h1>", page)
    assert heading is not None and re.fullmatch(r"(turn \d+, (action [12] of 2|both actions done)|setup), \w+",
                                                heading[1]), heading
    assert f"Step {last} of {last}" in page
    assert "Replay: move" not in page and "Go to move" not in page and f"move {last}" not in page
    table = page[page.index('id="moves-h"'):]
    first_cells = re.findall(r'<td><a href="[^"]*"(?: aria-current="step")?>([^<]*)</a></td>', table)
    assert first_cells and all(re.fullmatch(r"(Turn \d+, (action [12] of 2|both actions done)|Setup|The start)", c)
                               for c in first_cells), first_cells
    # the first event: where the game started; each step keeps its number in the link only
    start = text(client.get(f"/games/{game}/replay?at=1"))
    assert "<h1>Replay: the start, the game</h1>" in start and "Step 1 of" in start
    assert 'href="/games/%s/replay?as=public&amp;at=2" rel="next"' % game in start
    # a player's replay links each event to its audit, and only there says its number
    token = links.play(game, 0, last)  # type: ignore[attr-defined]
    mine = text(client.get(f"/play/{token}/replay?at={last}"))
    assert f"Recorded as event {last}: audit</a>" in mine and "Audit this move" not in mine


def test_a_taken_back_move_says_where_it_was_taken_back_in_turns(client: FlaskClient, service: Service) -> None:
    game = service.create_game("emerald", [ANN, BEN, CY], seed="replay-undo").after.game_id
    state = service.load(game)
    rules = service.kernel.rules(state)
    seat = sorted(rules.prompts(state.game))[0]
    moved = service.act_as(game, seat, rules.legal_actions(state.game, seat)[0], cause=Cause("link"))  # a placement
    service.undo(game, [ANN, BEN, CY][seat].email, cause=Cause("link"))
    at = moved.events[0].seq
    page = text(client.get(f"/games/{game}/replay?at={at}&undone=1"))
    assert "(setup: undone by its player)" in page and "<strong>Taken back</strong>" in page
    assert f"(move {at + 2}" not in page and "Step " in page
    skipped = text(client.get(f"/games/{game}/replay?at={at}"))  # asked for, though the steps skip it
    assert "A taken-back step." in skipped


def test_the_page_of_an_outdated_link_says_where_the_game_is_in_turns(client: FlaskClient, service: Service,
                                                                      links: object) -> None:
    game = service.create_game("emerald", [ANN, BEN, CY], seed="stale-turns").after.game_id
    old = links.play(game, 0, service.store.last(game)[0])  # type: ignore[attr-defined]
    play_moves(service, game, 30, seed=4)
    response = client.get(f"/play/{old}")
    page = text(response)
    assert response.status_code == 409 and "The game has moved on" in page
    now = re.search(r"The game now \((turn \d+, (action [12] of 2|both actions done))\), as Ann sees it", page)
    assert now is not None, page[page.find("The game now"):][:120]
    assert "This link was made before the latest moves: the game has moved on since (it is turn" in page
    assert not re.search(r"\bmove \d+", page)  # event numbers belong to the proof pages
    public = text(client.get(f"/games/{game}"))
    assert re.search(r'<p class="meta">Turn \d+, (action [12] of 2|both actions done) &middot; running', public)
