"""Table talk that arrives (``pbem.post.talk_mail``): each player chooses when talk reaches them (soon, batched; with
their next turn mail; in their digest); a private message reaches only its addressee; a reply to a talk mail is a
message at the table, never a move."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner
from flask import Flask

from cli.main import cli
from delivery import ANN, BEN, mails_to, parse, text_of, html_of
from events.handling import Cause
from pbem.post import talk_mail
from pbem.post.mail.inbound import process
from pbem.post.mail.outbox import message_of
from pbem.post.people import mail_settings, set_mail
from pbem.scheduler import Jobs
from pbem.service import Player, Service
from pbem.table import talk
from pbem.web import create_app

CY = Player("cy@example.org", "Cy")
LINK = Cause("link")


@pytest.fixture
def app(tmp_path: Path, highdie_registered: None) -> Flask:
    return create_app({"instance": tmp_path / "inst", "secret_key": "talk-mail-key", "TESTING": True})


@pytest.fixture
def service(app: Flask) -> Iterator[Service]:
    svc = Service.open(app.config["PBEM_SETTINGS"])
    yield svc
    svc.close()


@pytest.fixture
def game(service: Service) -> str:
    """Ann, Ben and Cy at a table; Ann wants talk soon, Ben with his turn mail (the default), Cy in her digest."""
    game_id = service.create_game("highdie", [ANN, BEN, CY], seed="talk-mail", title="Friday dice").after.game_id
    set_mail(service.store, service.player_id(ANN.email), "every", "off", "soon")
    set_mail(service.store, service.player_id(CY.email), "every", "off", "digest")
    return game_id


def say(service: Service, game: str, seat: int, text: str, to: tuple[int, ...] | None = None) -> None:
    service.say(game, seat, talk.Talk("say", text, to), cause=LINK)


def talk_mails(service: Service, email: str) -> list[dict[str, Any]]:
    return [m for m in mails_to(service, email) if m["kind"] == "talk"]


def minutes(n: float) -> datetime:
    return datetime.now(timezone.utc) + timedelta(minutes=n)


def test_soon_sends_one_short_mail_once_the_message_is_five_minutes_old_and_only_to_who_chose_it(
        service: Service, game: str) -> None:
    say(service, game, 1, "Anyone for a truce this round?")
    service.write_owed_mail(minutes(4))  # not yet: more may come
    assert talk_mails(service, ANN.email) == []
    service.write_owed_mail(minutes(6))
    [row] = talk_mails(service, ANN.email)
    mail = parse(message_of(row))
    assert mail["Subject"] == "[Friday dice] A message from Ben"
    body = text_of(mail)
    assert "Ann, a message at the table:" in body
    assert "Ben to everyone: \u201cAnyone for a truce this round?\u201d" in body
    assert "#talk-h" in body and "Reply to this mail to answer the whole table" in body
    assert "Ben to everyone" in html_of(mail) and str(mail["Reply-To"]).startswith("play+")
    assert mail["In-Reply-To"] == f"<{game}.0.pbem@localhost>"  # in the thread of the game's mails
    # Ben wrote it, Cy reads it in her digest: neither gets a talk mail; the hold is over, nothing more comes
    assert talk_mails(service, BEN.email) == [] and talk_mails(service, CY.email) == []
    service.write_owed_mail(minutes(60))
    assert len(talk_mails(service, ANN.email)) == 1


def test_a_burst_of_messages_is_one_mail_and_a_long_exchange_waits_at_most_half_an_hour(
        service: Service, game: str) -> None:
    for words in ("First point.", "Second point.", "And a third."):
        say(service, game, 1, words)
    say(service, game, 2, "Noted, Ben.")
    service.write_owed_mail(minutes(6))
    [row] = talk_mails(service, ANN.email)
    mail = parse(message_of(row))
    assert mail["Subject"] == "[Friday dice] 4 messages from Ben and Cy"
    body = text_of(mail)
    assert "Ann, 4 messages at the table:" in body
    assert [body.index(w) for w in ("First point.", "Second point.", "And a third.", "Noted, Ben.")] == sorted(
        body.index(w) for w in ("First point.", "Second point.", "And a third.", "Noted, Ben."))
    # a hold begun 40 minutes ago is due at once with the next message, not five minutes after it
    begun = (datetime.now(timezone.utc) - timedelta(minutes=40)).isoformat(timespec="seconds")
    with service.store.transaction() as conn:
        conn.execute(f"INSERT INTO {talk_mail.HELD} (game_id, seat, first_at, due_at) VALUES (?, 0, ?, ?)",
                     (game, begun, minutes(1).isoformat(timespec="seconds")))
    say(service, game, 1, "Still there?")
    [held] = service.store.query(f"SELECT due_at FROM {talk_mail.HELD} WHERE game_id = ?", (game,))
    assert held["due_at"] == (datetime.fromisoformat(begun) + timedelta(minutes=30)).isoformat(timespec="seconds")
    service.write_owed_mail(minutes(0.5))
    second = talk_mails(service, ANN.email)
    assert len(second) == 2 and second[-1]["subject"] == "[Friday dice] A message from Ben"
    assert "First point." not in text_of(parse(message_of(second[-1])))  # only what was not mailed before


def test_a_private_message_reaches_only_its_addressee_and_a_reply_goes_back_to_its_writer(
        service: Service, game: str) -> None:
    set_mail(service.store, service.player_id(CY.email), "every", "off", "soon")
    say(service, game, 1, "Cy, only you: I hold the sixes.", to=(2,))
    service.write_owed_mail(minutes(6))
    assert talk_mails(service, ANN.email) == []  # Ann wants talk soon too, but it was not for her
    assert all("sixes" not in message_of(m) for m in mails_to(service, ANN.email))
    [row] = talk_mails(service, CY.email)
    mail = parse(message_of(row))
    assert "Ben to Cy: \u201cCy, only you: I hold the sixes.\u201d" in text_of(mail)
    assert "Reply to this mail to answer Ben only" in text_of(mail)
    answer = EmailMessage()
    answer["From"], answer["To"] = "Cy <cy@example.org>", str(mail["Reply-To"])
    answer["Subject"], answer["Message-ID"] = "Re: " + str(mail["Subject"]), "<cy-1@example.org>"
    answer["In-Reply-To"] = str(mail["Message-ID"])
    quoted = "\n".join("> " + line for line in text_of(mail).splitlines())
    answer.set_content(f"Thanks Ben,\nso do I.\n\n-- \nCy\n\nOn Friday pbem wrote:\n{quoted}\n")
    outcome = process(service, bytes(answer), "play@localhost")
    assert outcome.error is None and outcome.applied == ["Thanks Ben, so do I."]
    last = service.store.read(game)[-1]
    assert (last.type, last.payload, last.actor) == (talk.SAID, {"seat": 2, "to": [1], "text": "Thanks Ben, so do I."},
                                                     "seat:2")
    assert last.cause["via"] == "mail" and last.cause["message_id"] == "<cy-1@example.org>"
    again = process(service, bytes(answer), "play@localhost")  # delivered twice: said once
    assert again.duplicate and [e.type for e in service.store.read(game)].count(talk.SAID) == 2


def test_a_reply_to_a_talk_mail_is_a_message_to_the_table_not_a_move(service: Service, game: str) -> None:
    say(service, game, 1, "Bet high, everyone.")
    service.write_owed_mail(minutes(6))
    mail = parse(message_of(talk_mails(service, ANN.email)[0]))
    before = service.load(game)
    answer = EmailMessage()
    answer["From"], answer["To"] = "Ann <ann@example.org>", str(mail["Reply-To"])
    answer["Subject"], answer["Message-ID"] = "Re: " + str(mail["Subject"]), "<ann-1@example.org>"
    quoted = "\n".join("> " + line for line in text_of(mail).splitlines())
    answer.set_content(f"bet 3\n\nOn Friday pbem wrote:\n{quoted}\n")  # words that would be a move in a turn mail
    outcome = process(service, bytes(answer), "play@localhost")
    assert outcome.applied == ["bet 3"] and outcome.error is None
    after = service.load(game)
    assert after.game == before.game  # no move was made
    last = service.store.read(game)[-1]
    assert (last.type, last.payload) == (talk.SAID, {"seat": 0, "to": None, "text": "bet 3"})
    empty = EmailMessage()
    empty["From"], empty["To"] = "Ann <ann@example.org>", str(mail["Reply-To"])
    empty["Subject"], empty["Message-ID"] = "Re: " + str(mail["Subject"]), "<ann-2@example.org>"
    empty.set_content(f"On Friday pbem wrote:\n{quoted}\n")
    refused = process(service, bytes(empty), "play@localhost")
    assert refused.applied == [] and "the message is empty" in str(refused.error)
    assert mails_to(service, ANN.email)[-1]["kind"] == "reply_error"


def test_with_the_turn_mail_sends_nothing_of_its_own_and_the_turn_mail_carries_the_words(
        service: Service, game: str) -> None:
    say(service, game, 2, "Ben, your move is a bluff.")
    service.write_owed_mail(minutes(60))
    assert talk_mails(service, BEN.email) == []
    state = service.load(game)
    turns = 0
    while 1 not in service.kernel.rules(state).prompts(state.game) and turns < 10:
        seat = sorted(service.kernel.rules(state).prompts(state.game))[0]
        service.act_as(game, seat, "bet 1", cause=Cause("cli"))  # a turn of someone else, then Ben's
        state = service.load(game)
        turns += 1
    service.write_owed_mail(minutes(60))
    turn = [m for m in mails_to(service, BEN.email) if m["kind"] in ("turn", "prompt")][-1]
    assert "Cy to everyone: \u201cBen, your move is a bluff.\u201d" in text_of(parse(message_of(turn)))
    assert talk_mails(service, BEN.email) == []


def test_in_the_digest_lists_the_talk_once_and_a_day_without_talk_sends_nothing(app: Flask, service: Service,
                                                                                game: str) -> None:
    say(service, game, 0, "Good luck all.")
    say(service, game, 1, "Cy, a word: watch Ann.", to=(2,))
    say(service, game, 1, "Ann, a word: watch Cy.", to=(0,))
    service.write_owed_mail(minutes(60))
    assert talk_mails(service, CY.email) == []
    jobs = Jobs(app.config["PBEM_SETTINGS"])
    jobs.digests(minutes(60 * 25))
    [digest] = [m for m in mails_to(service, CY.email) if m["kind"] == "digest"]
    mail = parse(message_of(digest))
    assert mail["Subject"] == "[pbem] 2 messages at your tables"
    body = text_of(mail)
    assert "Ann to everyone: \u201cGood luck all.\u201d" in body
    assert "Ben to Cy: \u201cCy, a word: watch Ann.\u201d" in body
    assert "watch Cy" not in body and "watch Cy" not in html_of(mail) and "Friday dice" in body
    assert "This is your daily digest of table talk" in body and "#talk-h" in body
    jobs.digests(minutes(60 * 49))  # the next day: nothing new was said
    assert len([m for m in mails_to(service, CY.email) if m["kind"] == "digest"]) == 1


def test_the_setting_is_chosen_on_the_home_page_and_on_the_command_line(app: Flask, service: Service, game: str,
                                                                        tmp_path: Path) -> None:
    client = app.test_client()
    links = app.extensions["pbem.links"]
    token = links.make("home", service.player_id(BEN.email))
    page = client.get(f"/home/{token}").get_data(as_text=True)
    assert "When table talk comes" in page and 'name="talk_mail" value="turn" checked' in page
    response = client.post(f"/home/{token}/mail", data={"csrf": links.csrf(token), "mail_mode": "every",
                                                        "talk_mail": "soon"})
    assert response.status_code == 200
    assert "table talk a mail a few minutes after someone writes" in response.get_data(as_text=True)
    assert mail_settings(service.store, BEN.email).talk == "soon"
    bad = client.post(f"/home/{token}/mail", data={"csrf": links.csrf(token), "mail_mode": "every",
                                                   "talk_mail": "hourly"})
    assert bad.status_code == 400 and mail_settings(service.store, BEN.email).talk == "soon"
    instance = ["--instance", str(tmp_path / "inst")]
    done = CliRunner().invoke(cli, [*instance, "player", "mail", BEN.email, "--talk", "digest"])
    assert done.exit_code == 0, done.output
    assert done.output.strip() == (f"{BEN.email}: a mail for every decision, receipts off, "
                                   "table talk in your daily digest")
    chosen = mail_settings(service.store, BEN.email)
    assert (chosen.mode, chosen.receipts, chosen.talk) == ("every", False, "digest")
    assert service.store.query("SELECT digest_at FROM players WHERE email = ?", (BEN.email,))[0]["digest_at"]
    shown = CliRunner().invoke(cli, [*instance, "player", "show", BEN.email])
    assert "table talk in the digest" in shown.output
