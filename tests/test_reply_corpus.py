"""Replies understood from every client: the reply corpus (``tests/replies``) gives the intended commands.

Eleven mail programs in eight languages, plain and HTML (``tests/replies/make_corpus.py`` says how each is made);
each reply is read as it came, and, where it has an HTML part, from that part alone, as an HTML-only reply.
"""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.post.mail.replytext import commands_in, commands_of, html_to_text, new_lines

CORPUS = sorted((Path(__file__).parent / "replies").glob("*.eml"))


def read(path: Path) -> EmailMessage:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def cases() -> list[tuple[str, EmailMessage, list[str]]]:
    found = []
    for path in CORPUS:
        message = read(path)
        expected = [c.strip() for c in str(message["X-Corpus-Commands"]).split(" | ")]
        found.append((path.stem, message, expected))
        page = message.get_body(preferencelist=("html",))
        if page is not None and message.get_body(preferencelist=("plain",)) is not None:
            only = EmailMessage()
            only.set_content(str(page.get_content()), subtype="html")
            found.append((path.stem + " (HTML only)", only, expected))
    return found


def test_the_corpus_is_ten_clients_in_six_languages_at_least() -> None:
    clients = {p.stem.rsplit("-", 1)[0] for p in CORPUS}
    languages = {p.stem.rsplit("-", 1)[1] for p in CORPUS}
    assert len(clients) >= 10 and len(languages) >= 6 and len(CORPUS) >= 60


def test_the_intended_commands_are_read_from_99_percent_of_the_replies() -> None:
    read_right, wrong = 0, []
    every = cases()
    for name, message, expected in every:
        got = commands_in(message)
        if got == expected:
            read_right += 1
        else:
            wrong.append(f"{name}: {got} instead of {expected}")
    assert read_right / len(every) >= 0.99, "\n".join(wrong)
    assert len(every) >= 120  # the HTML parts read alone as well


@pytest.mark.parametrize("text, commands", [
    ("bet 2\n\nAnn", ["bet 2"]),  # a name under a blank line is no command
    ("Hi pbem,\n\nbet 2\nplay 15\n\nCheers, Ann", ["bet 2", "play 15"]),
    ("On Tue, 3 Mar 2026, pbem <p@x.org> wrote:\n> pass\n\nbet 1\n-- \nAnn", ["bet 1"]),  # bottom posted
    ("> bet 1?\nbet 2\n> and then?\n", ["bet 2"]),  # answered inline
    ("bet 2\n-----Ursprüngliche Nachricht-----\nVon: pbem\nbet 1", ["bet 2"]),
    ("bet 2\nSent from my iPhone\n\nOn 3 Mar 2026, at 10:02, pbem wrote:\n\nbet 1", ["bet 2"]),
    ("take back my seat\n", ["take back my seat"]),  # a command that begins like a closing word ("tak")
])
def test_the_player_s_lines_are_found(text: str, commands: list[str]) -> None:
    assert commands_of(new_lines(text)) == commands


def test_html_quotes_become_marked_lines() -> None:
    page = ('<div>bet 3</div><div><br></div><div class="gmail_quote">On Monday pbem wrote:<blockquote>pass'
            '</blockquote></div><div class="gmail_signature">Ann</div>')
    assert html_to_text(page).split("\n") == ["bet 3", "", "> On Monday pbem wrote:", "> pass"]
