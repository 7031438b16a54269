"""Replies by mail: real reply mails (quoted text, signature, HTML only) are read and applied."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from pbem.post.mail.outbox import message_of
from delivery import ANN, BEN, parse, text_of
from events.handling import Cause
from pbem.post.mail.inbound import UnknownReply, parse_reply, process, process_maildir
from pbem.post.mail.replytext import new_lines
from pbem.service import Service

pytestmark = pytest.mark.usefixtures("highdie_registered")


@pytest.fixture
def game(service: Service) -> str:
    return service.create_game("highdie", [ANN, BEN], seed="d1").after.game_id


def latest_mail(service: Service, address: str) -> EmailMessage:
    row = service.store.query("SELECT draft, message FROM outbox WHERE to_addr = ? ORDER BY created_at DESC LIMIT 1",
                              (address,))[0]
    return parse(message_of(row))


def reply_to(original: EmailMessage, body: str, *, html: str | None = None, to: str | None = None,
             message_id: str = "<reply-1@example.org>") -> bytes:
    reply = EmailMessage()
    reply["From"] = "Ann <ann@example.org>"
    reply["To"] = to or str(original["Reply-To"])
    reply["Subject"] = "Re: " + str(original["Subject"])
    reply["Message-ID"] = message_id
    reply["In-Reply-To"] = str(original["Message-ID"])
    if html is None:
        reply.set_content(body)
    else:
        reply.set_content(html, subtype="html")
    return bytes(reply)


def quoted(original: EmailMessage) -> str:
    return "\n".join("> " + line for line in text_of(original).splitlines())


def test_a_plain_reply_with_quote_and_signature_is_applied(service: Service, game: str) -> None:
    mail = latest_mail(service, ANN.email)
    body = f"bet 2\n\n-- \nAnn, sent from the garden\n\nOn Monday pbem wrote:\n{quoted(mail)}\n"
    outcome = process(service, reply_to(mail, body), "play@localhost")
    assert outcome.applied == ["bet 2"] and outcome.error is None
    state = service.load(game)
    assert state.game.scores == (2, 0)
    event = next(e for e in service.store.read(game) if e.type == "dice.Bet")
    assert event.cause["via"] == "mail" and event.cause["message_id"] == "<reply-1@example.org>"
    assert event.cause["text"] == "bet 2" and event.cause["from"] == "ann@example.org" and event.cause["link"]
    assert latest_mail(service, BEN.email)["Subject"].endswith("Your turn")  # Ann's receipt waits for her next mail
    assert latest_mail(service, ANN.email)["Subject"].endswith("Your turn")


def test_an_html_only_reply_is_read_without_its_quoted_part(service: Service, game: str) -> None:
    mail = latest_mail(service, ANN.email)
    html = ("<html><body><div>bet 3</div><div><br></div><div class=\"gmail_quote\">On Monday pbem wrote:"
            "<blockquote>pass</blockquote></div></body></html>")
    outcome = process(service, reply_to(mail, "", html=html), "play@localhost")
    assert outcome.applied == ["bet 3"]


def test_several_commands_apply_in_order_and_stop_at_the_first_error(service: Service, game: str) -> None:
    mail = latest_mail(service, ANN.email)
    outcome = process(service, reply_to(mail, "bet 1\nfly away\nbet 2\n"), "play@localhost")
    assert outcome.applied == ["bet 1"] and "fly away" in (outcome.error or "")
    error = latest_mail(service, ANN.email)
    assert error["Subject"].endswith("Your reply could not be applied")
    text = text_of(error)
    assert "cannot read 'fly away'" in text and "(the lines before it were applied: 'bet 1')" in " ".join(text.split())
    assert service.load(game).game.scores == (1, 0)


def test_an_illegal_command_mails_back_the_legal_choices(service: Service, game: str) -> None:
    mail = latest_mail(service, BEN.email) if service.store.query(
        "SELECT 1 FROM outbox WHERE to_addr = ?", (BEN.email,)) else None
    assert mail is None  # Ben has no prompt yet, so no link: he cannot act out of turn by mail
    ann = latest_mail(service, ANN.email)
    outcome = process(service, reply_to(ann, "bet 9"), "play@localhost")
    assert outcome.applied == [] and "you may" in (outcome.error or "")
    text = text_of(latest_mail(service, ANN.email))
    assert "bet 3" in text and "play 15" in text


def test_a_reply_to_an_old_mail_is_refused_as_stale(service: Service, game: str) -> None:
    old = latest_mail(service, ANN.email)
    service.act(game, ANN.email, "bet 1", cause=Cause("cli"))
    service.act(game, BEN.email, "bet 1", cause=Cause("cli"))
    seq = service.load(game).seq
    outcome = process(service, reply_to(old, "bet 2"), "play@localhost")
    assert outcome.applied == [] and "moved on" in (outcome.error or "")
    assert service.load(game).game.scores == (1, 1)
    assert service.load(game).seq == seq


def test_the_same_reply_delivered_twice_is_applied_once(service: Service, game: str) -> None:
    raw = reply_to(latest_mail(service, ANN.email), "bet 1")
    process(service, raw, "play@localhost")
    again = process(service, raw, "play@localhost")
    assert again.applied == [] and service.load(game).game.scores == (1, 0)


def test_a_mail_without_a_game_link_is_unknown(service: Service, game: str) -> None:
    mail = latest_mail(service, ANN.email)
    with pytest.raises(UnknownReply):
        parse_reply(reply_to(mail, "bet 1", to="play@localhost"), "play@localhost")
    forged = str(mail["Reply-To"]).replace("play+", "play+x")
    with pytest.raises(UnknownReply, match="not valid"):
        process(service, reply_to(mail, "bet 1", to=forged), "play@localhost")


def test_the_link_in_the_quote_is_enough_when_the_plus_address_is_lost(service: Service, game: str) -> None:
    mail = latest_mail(service, ANN.email)
    body = f"bet 2\n\nOn Monday pbem wrote:\n{quoted(mail)}\n"
    outcome = process(service, reply_to(mail, body, to="play@localhost"), "play@localhost")
    assert outcome.applied == ["bet 2"]


def test_quotes_and_signatures_are_cut(service: Service) -> None:
    assert new_lines("roll\n\n--\nAnn") == ["roll", ""]
    assert new_lines("roll\nOn Tue, 3 Mar 2026, pbem <p@x> wrote:\n> pass") == ["roll"]
    assert new_lines("roll\n-----Original Message-----\npass") == ["roll"]


def test_a_maildir_is_read_once_and_emptied(service: Service, game: str, tmp_path: Path) -> None:
    import mailbox
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(reply_to(latest_mail(service, ANN.email), "bet 2"))
    box.add(b"From: spam@example.com\nTo: play@localhost\nSubject: hi\n\nbuy now\n")
    assert process_maildir(service, tmp_path / "Maildir").read == 2
    assert len(box) == 0 and service.load(game).game.scores == (2, 0)


def test_the_inbound_command_reads_standard_input(service: Service, game: str) -> None:
    raw = reply_to(latest_mail(service, ANN.email), "bet 3")
    instance = str(service.settings.instance)
    result = CliRunner().invoke(cli, ["--instance", instance, "inbound"], input=raw)
    assert result.exit_code == 0 and "applied 1 command" in result.output
    unknown = CliRunner().invoke(cli, ["--instance", instance, "inbound"], input=b"From: a@b.c\n\nhello\n")
    assert unknown.exit_code == 1 and "no game link" in unknown.output


def inbound(service: Service, *args: str, stdin: bytes = b"") -> Result:
    """``pbem inbound`` on the service's instance, as a mail server's pipe runs it."""
    return CliRunner().invoke(cli, ["--instance", str(service.settings.instance), "inbound", *args], input=stdin)


def test_a_reply_whose_every_command_is_refused_exits_1_with_the_reason(service: Service, game: str) -> None:
    result = inbound(service, stdin=reply_to(latest_mail(service, ANN.email), "bet 9"))
    assert result.exit_code == 1
    assert "nothing applied: 'bet 9'" in result.output and "(mailed back to the player)" in result.output
    assert latest_mail(service, ANN.email)["Subject"].endswith("Your reply could not be applied")
    assert service.load(game).game.scores == (0, 0)


def test_a_reply_with_no_command_or_a_forged_link_exits_1(service: Service, game: str) -> None:
    mail = latest_mail(service, ANN.email)
    empty = inbound(service, stdin=reply_to(mail, "\n\n-- \nAnn", message_id="<empty@example.org>"))
    assert empty.exit_code == 1 and "nothing applied: the reply had no command in it" in empty.output
    forged = str(mail["Reply-To"]).replace("play+", "play+x")
    bad = inbound(service, stdin=reply_to(mail, "bet 1", to=forged, message_id="<forged@example.org>"))
    assert bad.exit_code == 1 and "not valid" in bad.output
    stranger = inbound(service, stdin=b"From: stranger@example.com\nTo: play@localhost\n\nbet 1\n")
    assert stranger.exit_code == 1 and "no game link" in stranger.output
    assert service.load(game).game.scores == (0, 0)


def test_a_reply_applied_in_part_exits_0_and_says_where_it_stopped(service: Service, game: str) -> None:
    result = inbound(service, stdin=reply_to(latest_mail(service, ANN.email), "bet 1\nfly away\n"))
    assert result.exit_code == 0
    assert "applied 1 command(s); then refused: 'fly away'" in result.output


def test_a_duplicate_delivery_is_no_error_and_says_nothing_was_done(service: Service, game: str) -> None:
    raw = reply_to(latest_mail(service, ANN.email), "bet 1")
    first = inbound(service, stdin=raw)
    assert first.exit_code == 0 and "applied 1 command(s)" in first.output
    again = inbound(service, stdin=raw)
    assert again.exit_code == 0, again.output
    assert again.output.strip() == "already applied (duplicate Message-ID <reply-1@example.org>): nothing done"
    assert service.load(game).game.scores == (1, 0)


def test_a_duplicate_of_a_refused_reply_says_it_was_refused_then(service: Service, game: str) -> None:
    raw = reply_to(latest_mail(service, ANN.email), "bet 9", message_id="<refused@example.org>")
    assert inbound(service, stdin=raw).exit_code == 1
    again = inbound(service, stdin=raw)
    assert again.exit_code == 0
    assert "already read, and refused then (duplicate Message-ID <refused@example.org>): nothing done" in again.output


def test_the_inbound_command_reads_a_maildir_and_counts_what_it_did(service: Service, game: str,
                                                                    tmp_path: Path) -> None:
    import mailbox
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    mail = latest_mail(service, ANN.email)
    applied = reply_to(mail, "bet 2", message_id="<one@example.org>")
    assert inbound(service, stdin=applied).exit_code == 0
    box.add(applied)  # delivered again
    box.add(reply_to(mail, "bet 1", message_id="<two@example.org>"))  # stale now: the game moved on
    box.add(b"From: spam@example.com\nTo: play@localhost\nSubject: hi\n\nbuy now\n")
    result = inbound(service, "--maildir", str(tmp_path / "Maildir"))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == ("3 messages read: 0 applied, 1 duplicate(s), 1 refused, "
                                     "1 without a valid game link")
    assert len(box) == 0 and service.load(game).game.scores == (2, 0)
    missing = inbound(service, "--maildir", str(tmp_path / "nowhere"))
    assert missing.exit_code == 2 and "does not exist" in missing.output


def test_a_reply_quoting_without_marks_applies_only_what_the_player_wrote(service: Service, game: str) -> None:
    mail = latest_mail(service, ANN.email)
    original = "\n".join("    " + line for line in text_of(mail).splitlines())  # Yahoo: indented, no > marks
    body = (f"Hallo zusammen,\n\nbet 2\n\nViele Grüße\nAnna\n\n\n    Am Montag, 3. März 2026 um 10:02:11 MEZ hat "
            f"pbem <{mail['Reply-To']}> Folgendes geschrieben:  \n \n{original}\n")
    outcome = process(service, reply_to(mail, body), "play@localhost")
    assert outcome.applied == ["bet 2"] and outcome.error is None
    assert service.load(game).game.scores == (2, 0)


def test_an_out_of_office_answer_is_not_read_as_commands(service: Service, game: str) -> None:
    raw = reply_to(latest_mail(service, ANN.email), "I am away until Monday.\nbet 2")
    answer = raw.replace(b"Subject:", b"Auto-Submitted: auto-replied\nSubject:", 1)
    result = inbound(service, stdin=answer)
    assert result.exit_code == 1 and "an automatic answer" in result.output
    assert service.load(game).game.scores == (0, 0)
    assert not service.store.query("SELECT 1 FROM outbox WHERE kind = 'reply_error'")
