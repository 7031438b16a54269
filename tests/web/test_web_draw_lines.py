"""A draw is recorded twice, for the drawer with its cards and for everyone with its count: every reader reads it
once, in every list of what happened (the play page, the public page, the turn mail, a game's webhook, the receipt),
while the replay and the API still give every event."""

from __future__ import annotations

import html
import json
from datetime import datetime, timedelta, timezone

from flask.testing import FlaskClient

from events.handling import Cause
from pbem.post import webhooks
from pbem.instance.links import Links
from pbem.post.mail.outbox import draft_of, message_of
from pbem.service import Player, Service
from delivery import parse, text_of
from web.conftest import text

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cy")]


def new_game(service: Service) -> tuple[str, dict[str, str]]:
    """A new three-player game (each player has drawn five cards at setup) and each seat's draw as they read it."""
    game_id = service.create_game("emerald", PLAYERS, seed="draws").after.game_id
    cards = {}
    for event in service.store.read(game_id):
        if event.type == "emerald.CardsDrawn":
            cards[event.payload["seat"]] = event.payload["cards"]
    assert sorted(cards) == [0, 1, 2] and all(len(c) == 5 for c in cards.values())
    return game_id, {p.name: next(line["text"] for line in service.log(game_id, p.email)
                                  if line["type"] == "emerald.CardsDrawn" and not line["repeats"])
                     for p in PLAYERS}


def test_each_reader_reads_each_draw_once_on_the_play_and_public_pages(client: FlaskClient, service: Service,
                                                                        links: Links) -> None:
    game_id, own = new_game(service)
    assert own["Ben"].startswith("Ben draws ") and "(" in own["Ben"]  # the cards, by name and number
    page = html.unescape(text(client.get(f"/play/{links.play(game_id, 1, service.store.last(game_id)[0])}")))
    # the page lists what happened since the reader's last turn, and the last moves: each draw once in each list
    shown = page.count(own["Ben"])
    assert shown >= 1 and page.count("Ann draws 5 cards.") == page.count("Cy draws 5 cards.") == shown
    assert "Ben draws 5 cards." not in page
    assert "drew cards" not in page and own["Ann"] not in page
    public = html.unescape(text(client.get(f"/games/{game_id}")))
    assert all(public.count(f"{n} draws 5 cards.") == 1 for n in ("Ann", "Ben", "Cy"))
    assert "drew cards" not in public


def test_the_api_and_the_replay_still_give_every_event(client: FlaskClient, service: Service) -> None:
    game_id, _ = new_game(service)
    log = service.log(game_id, "ben@example.org")
    assert [line["seq"] for line in log] == list(range(1, service.store.last(game_id)[0] + 1))
    seat_of = {e.seq: e.payload.get("seat") for e in service.store.read(game_id)}
    repeated = [(line["type"], seat_of[line["seq"]]) for line in log if line["repeats"]]
    assert sorted(repeated) == [("emerald.CardsDrawn", 0), ("emerald.CardsDrawn", 2), ("emerald.CardsDrawnCount", 1)]
    assert [line["repeats"] for line in service.log(game_id)].count(True) == 3  # a spectator: the three hidden draws


def test_the_turn_mail_and_the_receipt_tell_a_refill_once(client: FlaskClient, service: Service,
                                                          links: Links) -> None:
    game_id, _ = new_game(service)
    # Play until someone refills their hand at the end of a turn, through the page (the receipt) as that seat
    for _ in range(60):
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        action = rules.legal_actions(state.game, seat)[0]
        token = links.play(game_id, seat, state.seq)
        answer = client.post(f"/play/{token}", data={"csrf": links.csrf(token), "seq": str(state.seq),
                                                     "text": rules.format(state.game, action)})
        assert answer.status_code == 200
        new = service.store.read(game_id, state.seq)
        if any(e.type == "emerald.CardsDrawnCount" for e in new):
            break
    else:
        raise AssertionError("no refill in 60 moves")
    drawer = PLAYERS[seat].name
    receipt = html.unescape(answer.get_data(as_text=True))
    what_happened = receipt.split('id="happened-h"')[1].split("</section>")[0]
    count = next(e for e in new if e.type == "emerald.CardsDrawnCount").payload["count"]
    assert f"{drawer} draws " in what_happened and f"{drawer} draws {count} card" not in what_happened
    counted = next(e for e in new if e.type == "emerald.CardsDrawnCount")
    table = receipt.split('id="receipt-h"')[1].split("</section>")[0]
    last, before = new[-1], f" (with the {len(new) - 1} before it)" if len(new) > 1 else ""
    assert f"Recorded as event {last.seq}, sha256 {last.hash}</span>{before}:" in table
    assert f"/audit/{new[0].seq}\">Check these events</a>" in table  # one witness line, then the audit of them all
    assert counted.hash not in table and "draws" not in table  # the refill is told once, in what happened
    assert "emerald." not in receipt  # in words, never by its internal type name
    service.write_owed_mail(datetime.now(timezone.utc) + timedelta(minutes=11))  # the next player, who played on
    other = PLAYERS[(seat + 1) % 3]  # the page a moment ago, is mailed once she has left her turn waiting
    mail = service.store.query("SELECT * FROM outbox WHERE to_addr = ? AND channel = 'mail' ORDER BY created_at DESC",
                               (other.email,))[0]
    body = text_of(parse(message_of(mail)))
    assert f"{drawer} draws {count} card" in body and f"{drawer} drew cards" not in body


def test_a_games_webhook_tells_a_draw_once(service: Service) -> None:
    game_id, _ = new_game(service)
    service.add_webhook(("game", game_id), "http://127.0.0.1:9/table", "json",
                        webhooks.Policy(limit=3, allow_loopback=True), cause=Cause("cli"))
    for _ in range(60):
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game_id, seat, rules.legal_actions(state.game, seat)[0], cause=Cause("cli"))
        if any(e.type == "emerald.CardsDrawnCount" for e in service.store.read(game_id, state.seq)):
            break
    said = "\n".join(json.dumps(draft_of(row)) for row in service.store.query(
        "SELECT * FROM outbox WHERE channel = 'webhook'"))
    assert f"{PLAYERS[seat].name} draws " in said and "drew cards" not in said
