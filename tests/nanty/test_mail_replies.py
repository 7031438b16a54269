"""Playing Nanty Narking by replying to the turn mail: the command in the reply (quote and signature ignored)
is applied, and a command the game cannot read is answered with what it means."""

from __future__ import annotations

from email.message import EmailMessage

from delivery import parse, text_of
from pbem.post.mail.inbound import process
from pbem.post.mail.outbox import message_of
from pbem.service import Player, Service

PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben")]


def latest_mail(service: Service, address: str) -> EmailMessage:
    row = service.store.query("SELECT draft, message FROM outbox WHERE to_addr = ? ORDER BY created_at DESC LIMIT 1",
                              (address,))[0]
    return parse(message_of(row))


def reply(original: EmailMessage, sender: Player, body: str, message_id: str) -> bytes:
    mail = EmailMessage()
    mail["From"] = f"{sender.name} <{sender.email}>"
    mail["To"] = str(original["Reply-To"])
    mail["Subject"] = "Re: " + str(original["Subject"])
    mail["Message-ID"] = message_id
    mail["In-Reply-To"] = str(original["Message-ID"])
    quoted = "\n".join("> " + line for line in text_of(original).splitlines())
    mail.set_content(f"{body}\n\n-- \n{sender.name}\n\nOn Monday pbem wrote:\n{quoted}\n")
    return bytes(mail)


def test_a_turn_played_by_replies(service: Service) -> None:
    game_id = service.create_game("nanty", PLAYERS, seed="replies").after.game_id
    seat = service.show(game_id)["waiting_for"][0]["seat"]
    player = PLAYERS[seat]
    mail = latest_mail(service, player.email)
    assert "Nanty Narking" in str(mail["Subject"]) and "YOUR HAND" in text_of(mail)
    hand = service.show(game_id, player.email)["view"]["you"]["hand"]
    outcome = process(service, reply(mail, player, "play Atlantis", "<r1@example.org>"), "play@localhost")
    assert outcome.error and "Unknown card" in outcome.error
    outcome = process(service, reply(mail, player, f"play {hand[0]['number']}", "<r2@example.org>"), "play@localhost")
    assert outcome.applied == [f"play {hand[0]['number']}"] and outcome.error is None
    assert service.load(game_id).game.pend()["played"] == 1
