"""The options a game is played under (its readings of contested rulings), in words: on its public page, on each
player's play page and in each player's first mail; a game recorded before an option existed shows the reading it
is played by.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from flask.testing import FlaskClient

from delivery import html_of, mails_to, parse, text_of
from events.handling import Cause
from pbem.instance.links import Links
from pbem.post.mail.outbox import message_of
from pbem.service import Player, Service
from web.conftest import ANN, BEN, text

PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), Player("cy@example.org", "Cy")]
RECORDS = Path(__file__).parent.parent / "emerald" / "records"


def test_the_public_page_and_every_play_page_say_the_readings_chosen(client: FlaskClient, service: Service,
                                                                     links: Links) -> None:
    game_id = service.create_game("emerald", PLAYERS, seed="rulings", options={
        "cthulhu_takes_royalty": True, "free_actions_after_last_action": False}).after.game_id
    public = text(client.get(f"/games/{game_id}"))
    assert "Rules chosen for this game" in public
    assert "<th scope=\"row\">Cthulhu and the Royalty card of its city</th><td>Cthulhu removes the Royalty card " \
           "with the other cards</td>" in public
    assert "Not allowed: a turn ends with its last action" in public
    assert "Goes to the discard pile and can be played again" in public  # a default, said as well
    assert "cthulhu_takes_royalty" not in public and "True" not in public.split("rulings-h")[1]
    for seat in range(3):
        page = text(client.get(f"/play/{links.play(game_id, seat, service.store.last(game_id)[0])}"))
        assert "the 6 readings this game is played by" in page and "Cthulhu removes the Royalty card" in page


def test_a_game_recorded_before_the_options_shows_the_readings_it_is_played_by(client: FlaskClient,
                                                                              service: Service) -> None:
    lines = gzip.open(RECORDS / "two-players.jsonl.gz", "rt", encoding="utf-8").read().splitlines()
    state = service.import_record(lines)
    assert state.config.options == {}
    public = text(client.get(f"/games/{state.game_id}"))
    # ruling 1's reading then: the card goes beside the identity card (a new game's default is the discard pile)
    assert "Goes beside the Secret Identity card and is never played again" in public
    assert "Goes to the discard pile" not in public


def test_a_game_without_options_shows_none(client: FlaskClient, service: Service) -> None:
    game_id = service.create_game("highdie", [ANN, BEN], seed="plain").after.game_id
    assert "Rules chosen for this game" not in text(client.get(f"/games/{game_id}"))


def test_each_players_first_mail_says_the_readings_chosen_and_later_mails_do_not(service: Service) -> None:
    game_id = service.create_game("nanty", PLAYERS, seed="first-mail", options={"ties": "money"}).after.game_id
    first_player = PLAYERS[int(service.show(game_id)["waiting_for"][0]["seat"])].email
    [first] = mails_to(service, first_player)
    message = parse(message_of(first))
    words = " ".join(text_of(message).split())
    assert "RULES CHOSEN FOR THIS GAME, where the rulebook reads two ways:" in words
    assert "A tie on points: The tied player with the most money wins; a tie on money too is shared" in words
    assert "Personalities: Standard: the ten personalities of the current rules" in words
    assert all(len(line) <= 78 for line in text_of(message).split("RULES CHOSEN")[1].split("\n\n")[0].splitlines())
    assert "Rules chosen for this game" in html_of(message)
    assert not any(key in words + html_of(message) for key in ("grenadiers_disable_powers", "fire_spread", "rolls_on"))

    seen: dict[str, int] = {}
    for _ in range(40):  # until every player has had a mail, and the first player a second one
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        legal = rules.legal_actions(state.game, seat)
        service.act_as(game_id, seat, next((a for a in legal if a["kind"] not in ("skip", "power")), legal[0]),
                       cause=Cause("test"))
        seen = {p.email: len(mails_to(service, p.email)) for p in PLAYERS}
        if min(seen.values()) >= 1 and seen[first_player] >= 2:
            break
    assert min(seen.values()) >= 1 and seen[first_player] >= 2, seen
    for player in PLAYERS:
        mails = [text_of(parse(message_of(m))) for m in mails_to(service, player.email)]
        assert "RULES CHOSEN FOR THIS GAME" in mails[0], player.name
        assert not any("RULES CHOSEN FOR THIS GAME" in m for m in mails[1:]), player.name
