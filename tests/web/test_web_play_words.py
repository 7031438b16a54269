"""The play page at a glance: choices grouped by kind and said in words, what happened since the reader's last
turn, the preview and the receipt in words."""

from __future__ import annotations

import html
import random
import re

from flask.testing import FlaskClient

from events.handling import Cause
from pbem.instance.links import Links
from pbem.games.presentation import FOLD_OVER, choices, said
from pbem.service import Player, Service
from web.conftest import Game, text

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cy")]


def emerald_at_ben(service: Service) -> str:
    """A three-player game 40 random moves in: Ben to play, with place, move, retrieve, discard and pass."""
    game_id = service.create_game("emerald", PLAYERS, seed="board").after.game_id
    pick = random.Random(4)
    for _ in range(40):
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("cli"))
    return game_id


def test_emerald_groups_every_legal_action_once_by_kind_in_words(service: Service) -> None:
    game_id = emerald_at_ben(service)
    legal = service.legal(game_id, "ben@example.org")
    groups = choices("emerald", service.show(game_id, "ben@example.org")["view"], legal)
    assert [g["label"] for g in groups] == ["Place cubes", "Move agents", "Retrieve cubes", "Discard cards",
                                           "Pass or stop"]
    assert sorted(c["text"] for g in groups for c in g["choices"]) == sorted(e["text"] for e in legal)
    folded = {g["label"]: g["folded"] for g in groups}
    assert folded["Discard cards"] and len(groups[3]["choices"]) == 31 > FOLD_OVER and not folded["Move agents"]
    place = groups[0]["choices"][0]
    assert place == {"text": "place 1 cube in Berlin using 301", "label": "1 cube in Berlin, with Informer (301)"}
    assert said(groups, "discard 301 304") == "Discard cards — Informer (301), Agitator (304)"
    assert said(groups, "pass") == "Pass or stop — pass: this action does nothing"


def test_a_game_without_a_presentation_gets_one_group_of_commands(client: FlaskClient, game: Game) -> None:
    legal = game.service.legal(game.id, "ann@example.org")
    groups = choices("highdie", game.service.show(game.id, "ann@example.org")["view"], legal)
    assert len(groups) == 1 and groups[0]["label"] == "Choose an action" and not groups[0]["folded"]
    assert [c["label"] for c in groups[0]["choices"]] == [e["text"] for e in legal]
    assert said(groups, "bet 3") == "bet 3"


def test_the_page_shows_groups_as_fieldsets_and_what_happened_since_the_last_turn(
        client: FlaskClient, service: Service, links: Links) -> None:
    game_id = emerald_at_ben(service)
    page = html.unescape(text(client.get(f"/play/{links.play(game_id, 1, service.store.last(game_id)[0])}")))
    assert "<legend>Place cubes <span class=\"small\">(18)</span></legend>" in page
    assert '<summary>with Informer (301) <span class="small">(9)</span></summary>' in page  # by card, then city
    assert 'value="place 1 cube in Berlin using 301"> 1 cube in Berlin</label>' in page
    assert "<summary>Show the 31 choices</summary>" in page        # the discards, folded
    assert 'value="move 1 agent using 308"> 1 agent, with Courier (308)' in page
    since = page[page.index('<h2 id="since-h">Since your last turn'):page.index('id="log-h"')]
    assert "Cy plays Bomb Maker (406)." in since and "Turn 17: Ben to play." in since
    assert "Ben draws" not in since and "is to act by" not in since   # Ben's own turn, deliveries: not news
    assert "the last 20 of" in page and "/replay" in page           # the whole log: folded and the replay


def test_the_preview_and_the_receipt_say_the_move_in_words(client: FlaskClient, service: Service,
                                                           links: Links) -> None:
    game_id = emerald_at_ben(service)
    token = links.play(game_id, 1, service.store.last(game_id)[0])
    preview = html.unescape(text(client.post(f"/play/{token}/preview",
                                             data={"csrf": links.csrf(token), "choice": "move 1 agent using 308"})))
    assert "If you confirm, this is played: <strong>Move agents — 1 agent, with Courier (308)</strong>." in preview
    done = html.unescape(text(client.post(f"/play/{token}", data={"csrf": links.csrf(token),
                                                                    "text": "move 1 agent using 308"})))
    happened = done[done.index("What happened"):done.index("Receipt")]
    assert "Ben plays Courier (308)." in happened
    assert re.search(r'href="/play/[^"/]+/audit/\d+">Check these events', done)
    assert f'href="/games/{game_id}/verify">verify the whole game' in done


def test_a_city_or_a_card_is_clicked_to_see_the_choices_about_it(client: FlaskClient, service: Service,
                                                                  links: Links) -> None:
    game_id = emerald_at_ben(service)
    token = links.play(game_id, 1, service.store.last(game_id)[0])
    page = html.unescape(text(client.get(f"/play/{token}")))
    legal = [e["text"] for e in service.legal(game_id, "ben@example.org")]
    # every city Ben can place a cube in (all nine here) is a link on the board
    places = {re.search(r" in (.+) using", t).group(1) for t in legal if t.startswith("place")}  # type: ignore[union-attr]
    linked = re.findall(r'<h4><a href="/play/[^"]+\?on=city:(\w+)#prompt-h">([^<]+)</a>', page)
    assert {name for _, name in linked} == places and len(places) == len(linked) == 9
    # every card of his hand that some action uses links too, named as the card reads
    assert re.search(r'\?on=card:308#prompt-h"><strong>Courier</strong></a>', page)

    berlin = html.unescape(text(client.get(f"/play/{token}?on=city:berlin")))
    focused = berlin[berlin.index("<legend>Your choices with Berlin"):berlin.index("Show all your choices")]
    offered = re.findall(r'<input type="radio" name="choice" value="([^"]+)">', focused)
    assert offered == [t for t in legal if t.startswith("place") and " in Berlin " in t] and offered
    assert "1 cube in Berlin, with Informer (301)" in focused
    assert "<summary>All your choices</summary>" in berlin           # the rest stays one click away

    courier = html.unescape(text(client.get(f"/play/{token}?on=card:308")))
    focused = courier[courier.index("<legend>Your choices with Courier (308)"):courier.index("Show all your choices")]
    assert re.findall(r'name="choice" value="([^"]+)"', focused) == [t for t in legal if re.search(r"\b308\b", t)]

    # a picked choice previews like any other
    preview = html.unescape(text(client.post(f"/play/{token}/preview",
                                             data={"csrf": links.csrf(token), "choice": offered[0]})))
    assert f"If you confirm, this is played: <strong>Place cubes — " in preview

    for odd in ("city:atlantis", "card:999", "nonsense", "x" * 500, "city:"):
        answer = client.get(f"/play/{token}", query_string={"on": odd})
        assert answer.status_code == 200
        assert "Nothing you can do now is about that." in html.unescape(text(answer))


def test_nothing_is_clickable_when_it_is_not_your_move(client: FlaskClient, service: Service, links: Links) -> None:
    game_id = emerald_at_ben(service)
    page = text(client.get(f"/play/{links.play(game_id, 0, service.store.last(game_id)[0])}"))
    assert "?on=" not in page and "Click a city" not in page
