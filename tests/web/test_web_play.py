"""The play page behind a link: what it shows, preview, confirm with a receipt, undo, standing orders."""

from __future__ import annotations

from flask.testing import FlaskClient

from web.conftest import Game, csrf_of, text


def test_the_play_page_shows_the_private_view_the_prompt_the_choices_and_the_log(client: FlaskClient,
                                                                                game: Game) -> None:
    token = game.token(0)  # once: a link signed in another second is another string
    response = client.get(f"/play/{token}")
    page = text(response)
    assert response.status_code == 200
    assert "Ann, it is your move" in page and "Your move: your turn" in page
    assert 'value="play 14"' in page and 'value="bet 3"' in page and 'name="text"' in page
    assert "<td>9</td>" in page or "<li>9</li>" in page          # Ann's own hand, drawn as a table
    assert "Deadline:" in page and " UTC" in page
    assert "game created for Ann, Ben" in page                  # the log since the start
    assert f'action="/play/{token}/preview"' in page


def test_a_get_changes_nothing_and_asks_browsers_to_keep_and_leak_nothing(client: FlaskClient, game: Game) -> None:
    before = (game.seq(), game.outbox())
    for _ in range(3):
        response = client.get(f"/play/{game.token(0)}")
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["Referrer-Policy"] == "no-referrer"
    assert (game.seq(), game.outbox()) == before


def test_the_other_seat_sees_no_action_form_and_not_anns_cards(client: FlaskClient, game: Game) -> None:
    page = text(client.get(f"/play/{game.token(1)}"))
    assert "Ben, nothing to do for now" in page and "Waiting for: Ann (their turn)" in page
    assert 'name="choice"' not in page and "<li>14</li>" not in page


def test_a_preview_shows_the_table_after_the_action_and_writes_nothing(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    csrf = csrf_of(text(client.get(f"/play/{token}")))
    before = game.seq()
    response = client.post(f"/play/{token}/preview", data={"csrf": csrf, "choice": "bet 3"})
    page = text(response)
    assert response.status_code == 200 and "Preview: <code>bet 3</code>" in page
    assert "<td>3</td>" in page                                  # Ann's score after the bet
    assert 'name="text" value="bet 3"' in page and f'action="/play/{token}"' in page
    assert game.seq() == before


def test_a_preview_of_a_die_roll_says_the_result_comes_on_confirming(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    response = client.post(f"/play/{token}/preview", data={"csrf": game.links.csrf(token), "choice": "roll"})
    assert response.status_code == 200 and "involves chance" in text(response)


def test_a_preview_never_shows_a_card_before_it_is_drawn(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    response = client.post(f"/play/{token}/preview", data={"csrf": game.links.csrf(token), "text": "draw"})
    page = text(response)
    assert response.status_code == 200 and "reveals hidden information" in page
    assert "The table after it" in page and "<table class=\"grid\">" not in page


def test_the_typed_command_wins_over_the_chosen_one(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    response = client.post(f"/play/{token}/preview",
                           data={"csrf": game.links.csrf(token), "choice": "pass", "text": "  BET 2 "})
    assert "Preview: <code>bet 2</code>" in text(response)


def test_confirming_plays_the_action_and_shows_the_receipt(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    before = game.seq()
    response = client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": "bet 3"})
    page = text(response)
    assert response.status_code == 200 and "Done: bet 3" in page
    events = game.service.store.read(game.id, before)
    assert [e.type for e in events][:2] == ["dice.Bet", "dice.TurnEnded"]
    # one witness line for the proof; the game's own count says where it stands, not an event number
    assert f"Recorded as event {events[-1].seq}, sha256 {events[-1].hash}" in page
    assert f"(with the {len(events) - 1} before it)" in page and events[0].hash not in page
    assert "Recorded. Keep the receipt" in page and "move " not in page.split("Keep the receipt")[0][-80:]
    assert events[0].cause["via"] == "link" and events[0].cause["text"] == "bet 3" and events[0].cause["link"]
    assert "Waiting for: Ben" in page
    assert f'href="/play/{game.id}.0.{game.seq()}.' in page     # a fresh link at the new move


def test_undo_is_offered_after_an_undoable_action_and_takes_it_back(client: FlaskClient, game: Game) -> None:
    client.post(f"/play/{game.token(0)}", data={"csrf": game.links.csrf(game.token(0)), "text": "bet 3"})
    token = game.token(0)
    page = text(client.get(f"/play/{token}"))
    assert "Undo my last action" in page and f'action="/play/{token}/undo"' in page
    response = client.post(f"/play/{token}/undo", data={"csrf": csrf_of(page)})
    done = text(response)
    assert response.status_code == 200 and "Your last action was taken back" in done
    assert "Ann took back their last move" in done and "pbem.ActionsUndone" not in done  # the undo, in words
    assert "You have another decision: your turn" in done and "Continue" in done
    assert game.turn() == 0
    assert "Ann, it is your move" in text(client.get(f"/play/{game.token(0)}"))


def test_no_undo_button_when_the_last_action_is_not_yours(client: FlaskClient, game: Game) -> None:
    assert "Undo my last action" not in text(client.get(f"/play/{game.token(0)}"))


def test_a_refused_undo_is_a_clear_page_and_writes_nothing(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    before = game.seq()
    response = client.post(f"/play/{token}/undo", data={"csrf": game.links.csrf(token)})
    assert response.status_code == 422 and "nothing of yours to undo" in text(response)
    assert game.seq() == before


def play_high_card(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    assert client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": "play 14"}).status_code == 200


def test_an_out_of_turn_prompt_offers_its_choices_and_a_standing_order(client: FlaskClient, game: Game) -> None:
    play_high_card(client, game)
    page = text(client.get(f"/play/{game.token(1)}"))
    assert "Your move: contest the 14?" in page
    assert 'value="accept"' in page and 'value="contest"' in page
    assert "Standing orders" in page and 'name="topic" value="highdie.contest"' in page


def test_a_standing_order_answers_the_prompt_without_a_round_trip(client: FlaskClient, game: Game) -> None:
    play_high_card(client, game)
    token = game.token(1)
    before = game.seq()
    response = client.post(f"/play/{token}/orders", data={"csrf": game.links.csrf(token),
                                                          "topic": "highdie.contest", "answer": "never"})
    assert response.status_code == 200 and "Standing order saved: never" in text(response)
    types = [e.type for e in game.service.store.read(game.id, before)]
    assert types[0] == "pbem.StandingOrderSet" and "dice.Contested" in types
    assert game.service.show(game.id)["waiting_for"][0]["kind"] == "turn"


def test_a_bad_standing_order_is_refused_and_writes_nothing(client: FlaskClient, game: Game) -> None:
    play_high_card(client, game)
    token = game.token(1)
    before = game.seq()
    for form in ({"topic": "highdie.contest", "answer": "sometimes"}, {"topic": "other.topic", "answer": "always"},
                 {"answer": "always"}):
        response = client.post(f"/play/{token}/orders", data={"csrf": game.links.csrf(token), **form})
        assert response.status_code == 400, form
    assert game.seq() == before


def test_the_last_move_ends_the_game_and_the_page_shows_the_outcome(client: FlaskClient, game: Game) -> None:
    for _ in range(16):
        seat = game.turn()
        token = game.token(seat)
        assert client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": "bet 3"}).status_code == 200
    assert game.service.show(game.id)["status"] == "ended"
    page = text(client.get(f"/play/{game.token(0)}"))
    assert "the game is over" in page and "Game over" in page and "(winner)" in page
    assert 'name="choice"' not in page and "Standing orders" not in page


def test_a_players_page_counts_no_event_numbers_and_the_public_page_keeps_them(client: FlaskClient,
                                                                             game: Game) -> None:
    play = text(client.get(f"/play/{game.token(0)}"))
    public = text(client.get(f"/games/{game.id}"))
    assert "game created for Ann, Ben" in play and '<th scope="col">Event</th>' not in play
    assert '<th scope="col">Event</th>' in public  # the public page is where the record is checked
