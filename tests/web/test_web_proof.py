"""The replay, audit and verify pages and the record download: who may see what, and what they prove."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

import pytest
from flask.testing import FlaskClient

from events.audit import verify_records
from events.handling import Cause
from pbem.post.mail.inbound import Reply, apply_reply
from pbem.service import Service, ServiceError
from playout import play_random
from web.conftest import ANN, BEN, Game, csrf_of, text


def hand_of(game: Game, seat: int) -> list[int]:
    return next(e.payload["cards"] for e in game.service.store.read(game.id)
                if e.type == "dice.HandDealt" and e.payload["seat"] == seat)


def finish(game: Game) -> None:
    play_random(game.service.kernel, game.id, 5)


def test_the_public_replay_steps_through_the_game(client: FlaskClient, game: Game) -> None:
    client.post(f"/play/{game.token(0)}", data={"csrf": game.links.csrf(game.token(0)), "text": "bet 3"})
    response = client.get(f"/games/{game.id}/replay?at=5")
    page = text(response)
    assert response.status_code == 200 and f"Step 5 of {game.seq()}" in page
    assert "Replay: move" not in page and "Go to move" not in page  # the game's count, not event numbers
    assert "As a spectator saw it" in page
    assert f'href="/games/{game.id}/replay?as=public&amp;at=4" rel="prev"' in page
    assert f'href="/games/{game.id}/replay?as=public&amp;at=6" rel="next"' in page
    assert "Ann was dealt 2 cards" in page and "Ben was dealt 2 cards" in page  # nobody's hand is shown
    last = text(client.get(f"/games/{game.id}/replay"))
    assert f"Step {game.seq()} of {game.seq()}" in last and "Bet {" in last


def test_bad_replay_requests_get_a_plain_refusal(client: FlaskClient, game: Game) -> None:
    for query, status, words in [("at=abc", 400, "must be a step number"), ("at=999", 404, "there is no step 999"),
                                 ("as=all", 403, "only once the game has ended"),
                                 ("as=1", 403, "only once the game has ended"), ("as=7", 400, "Choose public")]:
        response = client.get(f"/games/{game.id}/replay?{query}")
        assert response.status_code == status and words in text(response), query
    assert client.get("/games/nosuchgame/replay").status_code == 404


def test_a_player_replays_their_own_view_even_from_an_old_link(client: FlaskClient, game: Game) -> None:
    old = game.token(0)
    client.post(f"/play/{old}", data={"csrf": game.links.csrf(old), "text": "bet 3"})
    response = client.get(f"/play/{old}/replay?at=6")  # the link is outdated for playing, not for looking back
    page = text(response)
    assert response.status_code == 200 and "As Ann saw it at that moment" in page
    assert f"HandDealt {{&#39;cards&#39;: {hand_of(game, 0)}" in page       # her own hand...
    assert str(hand_of(game, 1)) not in page and "Ben was dealt 2 cards" in page  # ...and not Ben's
    public = text(client.get(f"/play/{old}/replay?at=6&as=public"))
    assert "As a spectator saw it" in public and str(hand_of(game, 0)) not in public
    assert client.get(f"/play/{old[:-3]}xyz/replay").status_code == 403


def test_after_the_end_anyone_may_see_everything(client: FlaskClient, game: Game) -> None:
    finish(game)
    page = text(client.get(f"/games/{game.id}/replay?as=all&at=6"))
    assert "Everything revealed" in page
    assert str(hand_of(game, 0)) in page and str(hand_of(game, 1)) in page
    assert "The table, as Ann saw it" in page and "The table, as Ben saw it" in page
    as_ben = text(client.get(f"/games/{game.id}/replay?as=1&at=6"))
    assert "As Ben saw it at that moment" in as_ben and str(hand_of(game, 0)) not in as_ben


def test_a_player_audits_their_own_move_and_public_ones_but_not_hidden_ones(client: FlaskClient,
                                                                           game: Game) -> None:
    token = game.token(0)
    client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": "bet 3"})
    bet = next(e for e in game.service.store.read(game.id) if e.type == "dice.Bet")
    own = text(client.get(f"/play/{token}/audit/{bet.seq}"))
    assert f"Audit of event {bet.seq}" in own and "a signed link on the web page" in own
    assert "Action as submitted" in own and "verified from event 1 to this command" in own
    assert bet.hash in own and "What changed on the table (seat 0 view)" in own
    ben = game.token(1)
    other = text(client.get(f"/play/{ben}/audit/{bet.seq}"))  # public, but Ann's: no typed command, no private view
    assert "Action as submitted" not in other and "(seat 0 view)" not in other and "(public view)" in other
    bens_hand = next(e for e in game.service.store.read(game.id) if e.type == "dice.HandDealt"
                     and e.payload["seat"] == 1)
    refused = client.get(f"/play/{token}/audit/{bens_hand.seq}")
    assert refused.status_code == 403 and "hidden from you" in text(refused)
    assert client.get(f"/play/{token}/audit/999").status_code == 404


def test_the_organiser_audits_any_event_and_sees_how_each_move_arrived(client: FlaskClient, game: Game) -> None:
    service = game.service
    token = game.token(0)  # 1. through a link on the web page
    client.post(f"/play/{token}", data={"csrf": csrf_of(text(client.get(f"/play/{token}"))), "text": "bet 3"})
    by_link = game.seq()
    reply = Reply(BEN.email, "<reply-1@example.org>", game.token(1), ["bet 2"])  # 2. a reply by mail
    assert apply_reply(service, reply).error is None
    by_mail = game.seq()
    service.act_as(game.id, 0, "bet 1", cause=Cause("cli"))  # 3. the command line
    by_cli = game.seq()
    later = datetime.now(timezone.utc) + timedelta(days=30)  # 4. a deadline that passed
    assert service.time_out(game.id, 1, now=later) is not None
    by_scheduler = game.seq()

    causes = {seq: service.audit(game.id, seq)["command"]["cause"] for seq in (by_link, by_mail, by_cli, by_scheduler)}
    assert causes[by_link]["via"] == "link" and causes[by_link]["link_issued_seq"] < by_link
    assert {"link", "link_issued_at", "link_issued_seq"} <= set(causes[by_link])
    assert causes[by_mail]["via"] == "mail" and causes[by_mail]["message_id"] == "<reply-1@example.org>"
    assert causes[by_mail]["from"] == BEN.email and causes[by_mail]["received_at"]
    assert causes[by_mail]["text"] == "bet 2" and causes[by_mail]["action"] == {"kind": "bet", "points": 2}
    assert causes[by_cli]["via"] == "cli" and causes[by_cli]["text"] == "bet 1"
    assert causes[by_scheduler]["via"] == "scheduler" and causes[by_scheduler]["actor"] == "scheduler"
    assert causes[by_scheduler]["deadline"] and causes[by_scheduler]["action"] == {"kind": "pass"}

    organiser = game.links.make("organiser", game.id)
    pages = {seq: text(client.get(f"/organise/{organiser}/audit/{seq}")) for seq in causes}
    assert "Link id" in pages[by_link] and "Link issued at move" in pages[by_link]
    assert "&lt;reply-1@example.org&gt;" in pages[by_mail] and "Mail received at" in pages[by_mail]
    assert "the command line on the server" in pages[by_cli]
    assert "the scheduler (a deadline passed)" in pages[by_scheduler]
    assert "&lt;ann@example.org&gt;" in pages[by_link]  # the organiser sees who, by address
    form = text(client.get(f"/organise/{organiser}"))
    assert f'action="/organise/{organiser}/audit"' in form
    assert f"Audit of event {by_cli}" in text(client.get(f"/organise/{organiser}/audit?seq={by_cli}"))
    assert client.get(f"/organise/{organiser}/audit").status_code == 400


def test_the_verify_page_names_the_first_bad_event(client: FlaskClient, game: Game) -> None:
    finish(game)
    page = text(client.get(f"/games/{game.id}/verify"))
    assert "Verified" in page and "every draw recomputed from the seed" in page
    assert f'href="/games/{game.id}/record.jsonl"' in page
    found = game.service.store.query("SELECT seq, payload FROM events WHERE game_id = ? AND seq > 5 ORDER BY seq "
                                     "LIMIT 1", (game.id,))[0]
    with game.service.store.transaction() as conn:
        conn.execute("UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?",
                     (json.dumps({**json.loads(found["payload"]), "points": 3}), game.id, found["seq"]))
    broken = text(client.get(f"/games/{game.id}/verify"))
    assert re.search(r"Verification failed at event 6</h2><p>its content does not match its hash", broken)


def test_the_record_is_downloadable_after_the_end_verifies_and_the_full_record_imports_exactly(
        client: FlaskClient, game: Game, tmp_path: object) -> None:
    refused = client.get(f"/games/{game.id}/record.jsonl")
    assert refused.status_code == 403 and "once the game has ended" in text(refused)
    finish(game)
    response = client.get(f"/games/{game.id}/record.jsonl")
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    assert response.headers["Content-Disposition"] == f'attachment; filename="pbem-{game.id}.jsonl"'
    body = text(response)
    assert ANN.email not in body and BEN.email not in body
    # the public record: every game payload shown, the players' words of their commands behind their commitments,
    # and every hash checks
    lines = [json.loads(line) for line in body.splitlines()[1:]]
    assert all(line["payload"] is not None for line in lines)
    assert all("text" not in line["cause"] and "action" not in line["cause"] for line in lines)
    assert verify_records(lines) is None
    with pytest.raises(ServiceError, match="only a full record"):
        game.service.import_record(body.splitlines())
    # the operator's full record (with its secrets) moves the game whole
    from delivery import make_settings, own_database
    elsewhere = Service.open(make_settings(tmp_path / "elsewhere", **own_database()))  # type: ignore[operator]
    try:
        state = elsewhere.import_record(list(game.service.export(game.id, with_secrets=True)))
        assert [e.to_record() for e in elsewhere.store.read(game.id)] == \
            [e.to_record() for e in game.service.store.read(game.id)]
        assert state == game.service.load(game.id)
        assert elsewhere.replay(game.id, 6, everything=True)["views"] == \
            game.service.replay(game.id, 6, everything=True)["views"]
    finally:
        elsewhere.close()


def test_a_mail_with_a_receipt_links_the_audit_of_the_move_the_verification_and_the_replay(client: FlaskClient,
                                                                                    game: Game) -> None:
    from delivery import html_of, later, mails_to, parse, text_of
    from pbem.post.mail.outbox import message_of
    result = game.service.act(game.id, ANN.email, "bet 2", cause=Cause("cli"))
    game.service.act(game.id, BEN.email, "bet 1", cause=Cause("cli"))
    later(game.service)  # she left her turn waiting: her mail comes
    receipt = parse(message_of(mails_to(game.service, ANN.email)[-1]))  # folded into her next turn's mail
    body = text_of(receipt)
    urls = {label: re.search(rf"{label}: http://[^/]+(/\S+)", body)[1]  # type: ignore[index]
            for label in ("audit your moves", "Verify the whole game", "Replay the game as you saw it")}
    audit = text(client.get(urls["audit your moves"]))
    assert f"Audit of event {result.events[0].seq}" in audit and result.events[0].hash in audit
    assert "Verified" in text(client.get(urls["Verify the whole game"]))
    assert "As Ann saw it at that moment" in text(client.get(urls["Replay the game as you saw it"]))
    assert urls["audit your moves"].replace("&", "&amp;") in html_of(receipt)
