"""Each player chooses their mails on their home page: every decision or a daily digest, and receipts on or off."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from flask import Flask
from flask.testing import FlaskClient

from delivery import html_of, mails_to, parse, text_of
from events.handling import Cause
from pbem.post.mail.outbox import message_of
from pbem.post.people import mail_settings, set_mail
from pbem.scheduler import Jobs
from web.conftest import ANN, BEN, Game, csrf_of, text

CLI = Cause("cli")
MORNING = datetime(2026, 11, 24, 8, 0, tzinfo=timezone.utc)  # the test's clock: the first digest is due tomorrow 07:00


def home(game: Game, email: str) -> str:
    return f"/home/{game.links.make('home', game.service.player_id(email))}"


def choose(client: FlaskClient, game: Game, email: str, **form: str) -> tuple[int, str]:
    path = home(game, email)
    page = text(client.get(path))
    response = client.post(f"{path}/mail", data={"csrf": csrf_of(page[page.index("Your mails"):]), **form})
    return response.status_code, text(response)


def test_a_player_chooses_the_daily_digest_and_receipts_with_the_form(client: FlaskClient, game: Game) -> None:
    assert mail_settings(game.service.store, ANN.email).mode == "every"  # the default
    status, page = choose(client, game, ANN.email, mail_mode="daily", receipts="on")
    assert status == 200 and "You now get one digest a day of the games waiting for you, receipts on, table talk with your next turn mail." in page
    chosen = mail_settings(game.service.store, ANN.email)
    assert (chosen.mode, chosen.receipts) == ("daily", True)
    row = game.service.store.query("SELECT digest_at FROM players WHERE email = ?", (ANN.email,))[0]
    assert row["digest_at"].endswith("T07:00:00+00:00")
    assert 'value="daily" checked' in client.get(home(game, ANN.email)).get_data(as_text=True)
    status, page = choose(client, game, ANN.email, mail_mode="every")  # an unticked box sends nothing: off
    assert status == 200 and "a mail for every decision, receipts off" in page
    assert game.service.store.query("SELECT digest_at FROM players WHERE email = ?", (ANN.email,))[0]["digest_at"] is None


def test_a_bad_value_or_a_forged_form_is_refused_and_changes_nothing(client: FlaskClient, game: Game) -> None:
    before = game.service.store.query("SELECT * FROM players ORDER BY email")
    status, page = choose(client, game, ANN.email, mail_mode="hourly", receipts="on")
    assert status == 400 and "Unknown mail setting" in page and "Nothing was changed" in page
    assert "&#39;hourly&#39; is not a mail setting; choose every or daily" in page
    status, page = choose(client, game, ANN.email, mail_mode="daily", receipts="maybe")
    assert status == 400 and "receipts are on or off" in page
    path = home(game, ANN.email)
    assert client.post(f"{path}/mail", data={"csrf": "forged", "mail_mode": "daily"}).status_code == 403
    nobody = game.links.make("home", "nobody")
    response = client.post(f"/home/{nobody}/mail", data={"csrf": game.links.csrf(nobody), "mail_mode": "daily"})
    assert response.status_code == 404
    assert game.service.store.query("SELECT * FROM players ORDER BY email") == before


def test_a_day_of_moves_gives_each_player_on_the_digest_one_mail(app: Flask, game: Game) -> None:
    service = game.service
    for player in (ANN, BEN):
        set_mail(service.store, service.player_id(player.email), "daily", "off", now=MORNING)
    # the mails so far, by id: they were written at the real time, later than the test's clock once that has passed
    sent = {p.email: {m["id"] for m in mails_to(service, p.email)} for p in (ANN, BEN)}
    second = service.create_game("highdie", [ANN, BEN], seed="digest").after.game_id  # Ann's turn, no mail
    third = service.create_game("highdie", [BEN, ANN], seed="digest").after.game_id  # Ben's
    jobs = Jobs(app.config["PBEM_SETTINGS"])
    for hour in range(27):
        now = MORNING + timedelta(hours=hour)
        if hour == 3:
            service.act(game.id, ANN.email, "bet 2", cause=CLI)  # Ben's turn: no mail now, the digest says it
        if hour == 5:
            service.act(game.id, BEN.email, "bet 1", cause=CLI)
        jobs.digests(now)
    for player in (ANN, BEN):
        new = [m for m in mails_to(service, player.email) if m["id"] not in sent[player.email]]
        assert [m["kind"] for m in new] == ["digest"], player
        assert new[0]["created_at"].startswith("2026-11-25T07:00")
    digest = {p.email: [m for m in mails_to(service, p.email) if m["kind"] == "digest"][-1] for p in (ANN, BEN)}
    ann = parse(message_of(digest[ANN.email]))
    assert ann["Subject"].startswith("[pbem] Your move in 2 games (first due ")
    body = text_of(ann)
    assert game.id in body and second in body and third not in body and body.count("/play/") == 2
    assert "/home/" in body and third in text_of(parse(message_of(digest[BEN.email])))
    assert ann["X-Pbem-Witness"] is None and "Act</a>" in html_of(ann)
    # its own list (not any one game's), and "unsubscribe" opens the page where the player chooses their mails
    assert ann["List-Id"] == "Your daily digest <digest.pbem.localhost>"
    unsubscribe = re.fullmatch(r"<http[^>]*/home/([^/#>]+)#mail-h>", str(ann["List-Unsubscribe"]))
    assert unsubscribe is not None  # the player's home page (a link signed when the mail was made), at the settings
    assert game.links.read("home", unsubscribe[1]).subject == service.player_id(ANN.email)
    assert ann["List-Unsubscribe-Post"] is None  # not one-click: a mail client opens the page instead
    due = service.store.query("SELECT digest_at FROM players WHERE email = ?", (ANN.email,))[0]["digest_at"]
    assert due == "2026-11-26T07:00:00+00:00"
    jobs.digests(MORNING + timedelta(days=2))  # the next morning: the next digest
    assert [m["kind"] for m in mails_to(service, ANN.email)].count("digest") == 2


def test_digests_are_found_by_an_index_not_by_reading_every_player(game: Game) -> None:
    if game.service.store.engine != "sqlite":
        pytest.skip("reads SQLite's query plan")
    plan = game.service.store.query("EXPLAIN QUERY PLAN SELECT email FROM players WHERE digest_at <= ?",
                                    ("2026-11-24T07:00:00+00:00",))
    assert any("USING INDEX" in str(row["detail"]) and "digest_at" in str(row["detail"]) for row in plan), plan
