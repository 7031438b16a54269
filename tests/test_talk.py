"""Table talk: messages to the table or to chosen players, private and sealed notes (``pbem.table.talk``) — each an
event, read only by whom it is for, on every channel, and sent by page or by mail."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from delivery import ANN, BEN, make_settings, mails_to, parse, text_of
from events.handling import Cause
from events.rules import InvalidAction
from pbem.table import talk
from pbem.post.mail.inbound import process
from pbem.post.mail.outbox import message_of
from pbem.service import Player, Service
from pbem.web import create_app

CY = Player("cy@example.org", "Cy")
CLI = Cause("cli")
SECRET_WORDS = "meet me by the zebra-quartz fountain, the others are bluffing"


@pytest.fixture
def app(tmp_path: Path, database: str | None) -> Flask:
    return create_app({"instance": tmp_path / "inst", "secret_key": "talk-test-key", "TESTING": True})


@pytest.fixture
def service(app: Flask) -> Iterator[Service]:
    s = Service.open(app.config["PBEM_SETTINGS"])
    yield s
    s.close()


@pytest.fixture
def emerald(service: Service) -> str:
    return service.create_game("emerald", [ANN, BEN, CY], seed="talk").after.game_id


def say(service: Service, game: str, seat: int, line: str) -> None:
    said = talk.parse_line(line, ["Ann", "Ben", "Cy"], seat)
    assert said is not None
    service.say(game, seat, said, cause=CLI)


def everything_cy_reads(service: Service, app: Flask, game: str) -> str:
    """Cy's log, the public log and page, the JSON API, the public and Cy's replay, the record download before the end
    (refused), Cy's mails. (``pbem game export`` is the operator's: the whole record, every payload.)"""
    client = app.test_client()
    links = app.extensions["pbem.links"]
    token = links.play(game, 2, service.store.last(game)[0])
    seq = service.store.last(game)[0]
    parts = [json.dumps(service.log(game, CY.email)), json.dumps(service.log(game)),
             client.get(f"/games/{game}").get_data(as_text=True),
             client.get(f"/api/games/{game}").get_data(as_text=True),
             client.get(f"/play/{token}").get_data(as_text=True),
             client.get(f"/play/{token}/replay?at={seq}").get_data(as_text=True),
             client.get(f"/games/{game}/replay?at={seq}").get_data(as_text=True),
             json.dumps(service.replay(game, seq, seat=2)),
             client.get(f"/games/{game}/record.jsonl").get_data(as_text=True)]  # refused before the end
    parts += [message_of(m) for m in mails_to(service, CY.email)]
    return "\n".join(parts)


def test_a_message_to_the_table_is_public_sends_no_mail_and_comes_in_the_next_one(service: Service,
                                                                                  emerald: str) -> None:
    before = len(service.store.query("SELECT id FROM outbox"))
    say(service, emerald, 0, "say Good luck, all!")
    [event] = [e for e in service.store.read(emerald) if e.type == talk.SAID]
    assert event.payload == {"seat": 0, "to": None, "text": "Good luck, all!"} and event.visibility.kind == "public"
    assert event.actor == "seat:0" and len(service.store.query("SELECT id FROM outbox")) == before  # no mail now
    assert "Ann to everyone: \u201cGood luck, all!\u201d" in [line["text"] for line in service.log(emerald)]
    # the next mail of each other player has it in "since your last mail"
    state = service.load(emerald)
    rules = service.kernel.rules(state)
    seat = sorted(rules.prompts(state.game))[0]
    service.act_as(emerald, seat, rules.legal_actions(state.game, seat)[0], cause=CLI)
    later = [m for m in mails_to(service, [ANN, BEN, CY][sorted(rules.prompts(service.load(emerald).game))[0]].email)]
    assert "Ann to everyone: \u201cGood luck, all!\u201d" in text_of(parse(message_of(later[-1])))


def test_a_private_message_is_read_by_its_readers_only_on_every_channel(service: Service, app: Flask,
                                                                        emerald: str) -> None:
    say(service, emerald, 0, f"tell ben: {SECRET_WORDS}")
    [event] = [e for e in service.store.read(emerald) if e.type == talk.SAID]
    assert event.payload["to"] == [1] and event.visibility.encode() == "seats:0,1"
    assert f"Ann to Ben: \u201c{SECRET_WORDS}\u201d" in [line["text"] for line in service.log(emerald, BEN.email)]
    seen = everything_cy_reads(service, app, emerald)
    assert "Ann sent a private message to Ben" in seen
    assert "zebra-quartz" not in seen and "bluffing" not in seen


def test_the_organiser_audits_that_a_private_message_or_sealed_note_was_written_but_not_its_words(
        service: Service, app: Flask, emerald: str) -> None:
    say(service, emerald, 0, f"tell ben: {SECRET_WORDS}")
    say(service, emerald, 1, "seal Cy will win")
    say(service, emerald, 2, "say good luck, all")
    told, sealed, said = [e for e in service.store.read(emerald) if e.type in talk.TALK_TYPES]
    found = service.audit(emerald, told.seq, organiser=True)
    assert found["described"] == "Ann sent a private message to Ben"
    # the words withheld behind their commitment, and the command that carried them ("tell ben: ...") too
    assert found["event"]["payload"] is None and len(found["event"]["payload_commitment"]) == 64
    assert found["event"]["visibility"] == "seats:0,1" and found["event"]["hash"] == told.hash
    assert found["command"]["cause_withheld"] == ["words"]
    assert "zebra-quartz" not in json.dumps(found) and "Cy will win" not in json.dumps(service.audit(
        emerald, sealed.seq, organiser=True))
    # on the organiser's page too
    token = app.extensions["pbem.links"].make("organiser", emerald)
    page = app.test_client().get(f"/organise/{token}/audit/{told.seq}")
    assert page.status_code == 200 and "zebra-quartz" not in page.get_data(as_text=True)
    # a message to the whole table is public: its words are audited as they were said
    assert "good luck, all" in service.audit(emerald, said.seq, organiser=True)["described"]


def test_a_private_note_never_enters_the_log_and_a_sealed_one_opens_at_the_end(service: Service, app: Flask,
                                                                              emerald: str) -> None:
    say(service, emerald, 0, f"note {SECRET_WORDS}")
    say(service, emerald, 1, "seal Cy will win")
    kept, sealed = [e for e in service.store.read(emerald) if e.type in (talk.NOTE_KEPT, talk.NOTE_SEALED)]
    [row] = service.store.query("SELECT * FROM notes")
    assert row["text"] == SECRET_WORDS and "text" not in kept.payload
    assert kept.payload["commitment"] == hmac.new(bytes.fromhex(row["key"]), SECRET_WORDS.encode(),
                                                  hashlib.sha256).hexdigest()
    ann = [line["text"] for line in service.log(emerald, ANN.email)]
    assert f"Ann's private note: \u201c{SECRET_WORDS}\u201d" in ann and "Ben sealed a note (it is opened when the game ends)" in ann
    ben = [line["text"] for line in service.log(emerald, BEN.email)]
    assert "Ann wrote a private note" in ben and "Ben's sealed note: \u201cCy will win\u201d" in ben
    seen = everything_cy_reads(service, app, emerald)
    assert "zebra-quartz" not in seen and "Cy will win" not in seen
    assert all(SECRET_WORDS not in line for line in service.export(emerald, with_secrets=True))  # not even the operator's


@pytest.mark.usefixtures("highdie_registered")
def test_at_the_end_the_sealed_note_is_read_by_all_and_the_private_one_by_nobody_else(service: Service) -> None:
    game = service.create_game("highdie", [ANN, BEN], seed="end").after.game_id
    service.say(game, 0, talk.Talk("seal", "I will win by three"), cause=CLI)
    service.say(game, 1, talk.Talk("note", "Ann bluffs"), cause=CLI)
    pick = random.Random(1)
    while not service.load(game).ended:
        state = service.load(game)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=CLI)
    public = [line["text"] for line in service.log(game)]
    assert "Ann's sealed note (opened at the end): \u201cI will win by three\u201d" in public
    assert "Ben wrote a private note" in public and "Ann bluffs" not in "\n".join(service.export(game))
    with pytest.raises(InvalidAction, match="the game is over"):
        service.say(game, 0, talk.Talk("say", "gg"), cause=CLI)
    assert service.verify(game).ok


@pytest.mark.parametrize("line, error", [
    ("tell nobody: hi", "no player called 'nobody'"), ("tell Ann: hi", "not yourself"),
    ("tell Ben", "the message is empty"), ("tell : hi", "tell NAME MESSAGE"), ("say   ", "the message is empty"),
    ("say " + "x" * 1001, "at most 1000")])
def test_talk_that_cannot_be_sent_says_why(line: str, error: str) -> None:
    with pytest.raises(InvalidAction, match=error):
        talk.parse_line(line, ["Ann", "Ben", "Cy"], 0)


def test_tell_takes_one_name_before_the_words_or_several_before_a_colon() -> None:
    names = ["Ann", "Ben", "Cy", "Mary Ann"]
    assert talk.parse_line("tell ben meet me in Paris", names, 0) == talk.Talk("say", "meet me in Paris", (1,))
    assert talk.parse_line("tell Ben, cy: both of you", names, 0) == talk.Talk("say", "both of you", (1, 2))
    assert talk.parse_line("tell Mary Ann: hello", names, 0) == talk.Talk("say", "hello", (3,))


def test_a_game_command_is_not_talk() -> None:
    assert talk.parse_line("place 1 cube in Berlin using 301", ["Ann"], 0) is None
    assert talk.parse_line("Say hello", ["Ann", "Ben"], 0) == talk.Talk("say", "hello")


def test_talk_by_mail_is_applied_with_the_moves_and_a_bad_line_is_mailed_back(service: Service,
                                                                              emerald: str) -> None:
    [first] = service.store.query("SELECT * FROM outbox WHERE kind = 'turn'")  # whoever goes first
    mail = parse(message_of(first))
    writer = [ANN.email, BEN.email, CY.email].index(first["to_addr"])
    other = "Cy" if writer != 2 else "Ann"
    assert "To talk: say MESSAGE" in text_of(mail)

    def reply(body: str, message_id: str) -> bytes:
        from email.message import EmailMessage
        answer = EmailMessage()
        answer["From"], answer["To"] = "Ann <ann@example.org>", str(mail["Reply-To"])
        answer["Subject"], answer["Message-ID"] = "Re: " + str(mail["Subject"]), message_id
        answer.set_content(body)
        return bytes(answer)

    outcome = process(service, reply(f"say hello all\ntell {other}: just you\n", "<t1@example.org>"),
                      "play@localhost")
    assert outcome.applied == ["say hello all", f"tell {other}: just you"] and outcome.error is None
    said = [e.payload for e in service.store.read(emerald) if e.type == talk.SAID]
    assert said == [{"seat": writer, "to": None, "text": "hello all"},
                    {"seat": writer, "to": [["Ann", "Ben", "Cy"].index(other)], "text": "just you"}]
    assert all(e.cause["via"] == "mail" for e in service.store.read(emerald) if e.type == talk.SAID)
    outcome = process(service, reply("tell Zed: hi\n", "<t2@example.org>"), "play@localhost")
    assert outcome.applied == [] and "no player called 'Zed'" in str(outcome.error)


def test_talk_from_the_page_needs_its_csrf_and_sends_to_whom_was_ticked(app: Flask, service: Service,
                                                                        emerald: str) -> None:
    client: FlaskClient = app.test_client()
    links = app.extensions["pbem.links"]
    token = links.play(emerald, 0, service.store.last(emerald)[0])
    page = client.get(f"/play/{token}").get_data(as_text=True)
    assert "Table talk" in page and "Write to the table" in page and 'name="to" value="1"> Ben' in page
    count = len(service.store.read(emerald))
    assert client.post(f"/play/{token}/say", data={"csrf": "forged", "text": "hi"}).status_code == 403
    bad = client.post(f"/play/{token}/say", data={"csrf": links.csrf(token), "text": "  "})
    assert bad.status_code == 400 and "the message is empty" in bad.get_data(as_text=True)
    bad = client.post(f"/play/{token}/say", data={"csrf": links.csrf(token), "text": "hi", "to": ["7"]})
    assert bad.status_code == 400 and "no player called" in bad.get_data(as_text=True)
    assert len(service.store.read(emerald)) == count  # nothing written
    done = client.post(f"/play/{token}/say", data={"csrf": links.csrf(token), "text": "hi you two",
                                                   "to": ["1", "2"], "what": "say"})
    assert done.status_code == 200 and "Your message is sent to Ben and Cy." in done.get_data(as_text=True)
    assert [e.payload for e in service.store.read(emerald) if e.type == talk.SAID] == [
        {"seat": 0, "to": [1, 2], "text": "hi you two"}]
    # talk is no move: the link of before still plays
    state = service.load(emerald)
    rules = service.kernel.rules(state)
    seat = sorted(rules.prompts(state.game))[0]
    move_token = links.play(emerald, seat, count)
    text = rules.format(state.game, rules.legal_actions(state.game, seat)[0])
    moved = client.post(f"/play/{move_token}", data={"csrf": links.csrf(move_token), "text": text})
    assert moved.status_code == 200 and re.search(r"Done:", moved.get_data(as_text=True))


def test_talk_goes_in_the_hash_chain_and_the_game_still_verifies(service: Service, emerald: str) -> None:
    say(service, emerald, 0, "say hello")
    say(service, emerald, 1, "note remember the Cairo stack")
    assert service.verify(emerald).ok


def test_the_settings_of_a_service_without_mail_still_allow_talk(tmp_path: Path) -> None:
    plain = Service.open(make_settings(tmp_path / "plain"))
    try:
        game = plain.create_game("emerald", [ANN, BEN, CY], seed="plain").after.game_id
        plain.say(game, 2, talk.Talk("say", "hi", (0,)), cause=CLI)
        assert [line["text"] for line in plain.log(game, ANN.email)][-1] == "Cy to Ann: \u201chi\u201d"
    finally:
        plain.close()


def test_talk_through_the_json_api_and_the_command_line(app: Flask, service: Service, emerald: str) -> None:
    from click.testing import CliRunner

    from cli.main import cli

    client = app.test_client()
    links = app.extensions["pbem.links"]
    token = links.play(emerald, 1, service.store.last(emerald)[0])
    answer = client.post(f"/api/play/{token}/say", json={"text": "psst", "to": ["Cy"]})
    assert answer.status_code == 200 and answer.json["receipt"][0]["type"] == talk.SAID
    assert client.post(f"/api/play/{token}/say", data="text=hi").status_code == 415
    assert client.post(f"/api/play/{token}/say", json={"text": "hi", "to": ["Zed"]}).status_code == 400
    assert client.post(f"/api/play/{token}/say", json={"text": "hi", "extra": 1}).status_code == 400
    instance = app.config["PBEM_SETTINGS"].instance
    done = CliRunner().invoke(cli, ["--instance", str(instance), "game", "say", emerald, "--as", CY.email,
                                    "--to", "Ann", "hello Ann"])
    assert done.exit_code == 0 and "pbem.Said" in done.output, done.output
    sealed = CliRunner().invoke(cli, ["--instance", str(instance), "game", "say", emerald, "--as", CY.email,
                                      "--seal", "Ann wins"])
    assert sealed.exit_code == 0 and "pbem.NoteSealed" in sealed.output
    said = [e.payload for e in service.store.read(emerald) if e.type == talk.SAID]
    assert said == [{"seat": 1, "to": [2], "text": "psst"}, {"seat": 2, "to": [0], "text": "hello Ann"}]
    refused = CliRunner().invoke(cli, ["--instance", str(instance), "game", "say", emerald, "--as", CY.email,
                                       "--to", "Cy", "me"])
    assert refused.exit_code != 0 and "not yourself" in refused.output
