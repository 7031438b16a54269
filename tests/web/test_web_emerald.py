"""A Study in Emerald's own board on the pages: the reader's identity and hand, the cities, the players."""

from __future__ import annotations

import random
import re

from flask.testing import FlaskClient

from events.handling import Cause
from pbem.instance.links import Links
from pbem.service import Service
from web.conftest import ANN, BEN, text


def play(service: Service, game_id: str, commands: int, seed: int = 4) -> None:
    pick = random.Random(seed)
    for _ in range(commands):
        state = service.load(game_id)
        if state.ended:
            return
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("cli"))


def test_the_emerald_board_shows_the_readers_secrets_and_nobody_elses(client: FlaskClient, service: Service,
                                                                     links: Links) -> None:
    game_id = service.create_game("emerald", [ANN, BEN], seed="board").after.game_id
    play(service, game_id, 40)
    state = service.load(game_id)
    ann, ben = state.game.players[0], state.game.players[1]
    catalog = state.game.cat.cards
    page = text(client.get(f"/play/{links.play(game_id, 0, state.seq)}"))
    assert '<div class="emerald-board">' in page and "<svg" in page and "<h3>Players</h3>" in page
    assert f"You are <strong>{ann.identity.replace('_', ' ').capitalize()}</strong>" in page
    for card in ann.hand:  # each card by the number the commands accept, not its printed S-number
        assert re.search(rf'<span class="num">{card}</span> (<a [^>]+>)?<strong>{re.escape(catalog[card].name)}</strong>',
                         page)
    assert not ben.revealed and 'data-label="Identity">secret</td>' in page  # Ben's side stays secret
    assert page.count("<h3>Your hand</h3>") == 1  # one hand drawn: Ann's (the view holds no other)
    assert "Some card values are assumed" in page and f"/games/{game_id}/assumed" in page  # one sentence, a link
    assert "cities.berlin" not in page
    public = text(client.get(f"/games/{game_id}"))
    assert "<h3>Your hand</h3>" not in public and "<svg" in public

def test_the_emerald_board_draws_every_phase(client: FlaskClient, service: Service) -> None:
    game_id = service.create_game("emerald", [ANN, BEN], seed="phases").after.game_id
    play(service, game_id, 3000, seed=1)
    assert service.load(game_id).ended
    last = service.store.last(game_id)[0]
    for at in (1, 5, 30, last // 2, last):
        response = client.get(f"/games/{game_id}/replay?as=all&at={at}")
        assert response.status_code == 200, at
    assert "Game over" in text(client.get(f"/games/{game_id}/replay?as=all&at={last}"))
