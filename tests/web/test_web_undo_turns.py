"""An undo request reads in the game's own count (``turn 4, action 2 of 2``), as the replay does: its mail, its
answer page and the play page name the moves it takes back by turn and action, each in the log's words; an event's
number shows only on an audit or witness line."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from delivery import ANN, BEN, CY, html_of, parse, play_moves, text_of
from events.handling import Cause
from pbem.games.presentation import turn_label
from pbem.post.mail.outbox import message_of
from pbem.service import Service
from web.conftest import text

PROOF_LINE = re.compile(r"Recorded as events? \d+|Witness: game \w+, event \d+|/audit/\d+")
NUMBERED = re.compile(r"\b(?:events?|moves?|move number)\s+(\d+)(?:\s*(?:-|to)\s*\d+)?", re.I)


def event_numbers(page: str, least: int) -> list[str]:
    """What names an event by its number (``event 76``, ``events 76-89``, ``move 85``) outside the page's or mail's
    audit and witness lines, the only ones that may; ``least``: the lowest event number in play (below it, such
    words are counts, as in "moves 1 cube")."""
    lines = [line for line in page.splitlines() if not PROOF_LINE.search(line)]
    return [m[0] for line in lines for m in NUMBERED.finditer(line) if int(m[1]) >= least]


def where(service: Service, game: str, seq: int) -> str:
    """The game's own count after event ``seq``."""
    state = service.load(game, seq)
    return turn_label(state.game_type, service.kernel.rules(state).view(state.game, None)) or ""


def test_an_undo_request_reads_in_turns_in_its_mail_its_page_and_the_play_page(client: FlaskClient,
                                                                               service: Service,
                                                                               links: object) -> None:
    game = service.create_game("emerald", [ANN, BEN, CY], seed="undo-turns").after.game_id
    # the described position (seeded): Ann has ended turn 4 with her second action, and Ben has played his first
    # action of turn 5, so Ann may no longer take hers back alone
    play_moves(service, game, 18, seed=5)
    ann_move = service.kernel.last_command_of(game, 0, service.load(game).seq)
    assert ann_move is not None and where(service, game, ann_move[0].seq - 1) == "turn 4, action 2 of 2"
    assert where(service, game, ann_move[-1].seq) == "turn 5, action 1 of 2"
    ann_first = next(e for e in ann_move if not e.type.startswith("pbem."))  # after its random draw
    ben = [e for e in service.store.read(game, ann_move[-1].seq) if e.cause.get("seat") == 1 and not
           e.type.startswith("pbem.")]
    assert ben and service.can_request_undo(game, 0) == (True, "")
    asked = service.request_undo(game, 0, "I discarded the wrong card", cause=Cause("cli")).events[0].payload
    assert (asked["from_seq"], asked["approvers"]) == (ann_move[0].seq, [1, 2])
    least = asked["from_seq"] - 1

    words = "Ann asks to take back their last move (turn 4, action 2 of 2) and the 1 move played after it"
    # the mail to Cy: the request in turns, each move in the log's words, under its turn and action
    [mail] = [m for m in service.store.query("SELECT * FROM outbox WHERE to_addr = ? AND kind = 'undo_request'",
                                             (CY.email,))]
    message = parse(message_of(mail))
    body = text_of(message)
    assert f'{words}, saying: "I discarded the wrong card".' in " ".join(body.split())
    lines = service.log(game, CY.email)
    log = {line["seq"]: line["text"] for line in lines}
    listed = re.findall(r"^    (Turn \d+, action \d of 2): (.*)$", body, re.M)
    shown = [line for line in lines if asked["from_seq"] <= line["seq"] <= asked["to_seq"]
             and not line["type"].startswith("pbem.") and not line["repeats"]]
    assert listed[0] == ("Turn 4, action 2 of 2", log[ann_first.seq])
    assert ("Turn 5, action 1 of 2", log[ben[0].seq]) in listed and [t for _, t in listed] == [
        line["text"] for line in shown]
    assert "before that move (turn 4, action 2 of 2)" in body
    assert not event_numbers(body, least), event_numbers(body, least)
    html = html_of(message)
    assert f"{words}, saying: &ldquo;I discarded the wrong card&rdquo;." in html
    assert not event_numbers(html, least), event_numbers(html, least)

    # Cy's answer page, through the mailed link: the same words; the numbers only on its audit line
    approve = re.search(r"^Approve: +http://127\.0\.0\.1:8000(\S+)$", body, re.M)
    assert approve is not None
    page = text(client.get(approve[1]))
    assert f"{words}, saying: &ldquo;I discarded the wrong card&rdquo;." in page
    assert f"<li>Turn 4, action 2 of 2: {log[ann_first.seq]}</li>" in page.replace("&#39;", "'")
    assert f"Recorded as events {asked['from_seq']} to {asked['to_seq']}: <a href=" in page
    assert not event_numbers(page, least), event_numbers(page, least)

    # the play pages: the asker reads it as hers, the others as Ann's; the log's line of the request has no numbers
    seq = service.load(game).seq
    mine = text(client.get(f"/play/{links.play(game, 0, seq)}"))  # type: ignore[attr-defined]
    assert "You ask to take back your last move (turn 4, action 2 of 2) and the 1 move played after it" in mine
    theirs = text(client.get(f"/play/{links.play(game, 2, seq)}"))  # type: ignore[attr-defined]
    assert f"{words}, saying" in theirs
    for page in (mine, theirs):
        assert not event_numbers(page, least), event_numbers(page, least)
    assert "Ann asks to take back their last move and every move after it (I discarded the wrong card)" in \
        service.log(game, BEN.email)[-1]["text"]


def test_a_request_that_lapses_says_so_without_event_numbers(service: Service) -> None:
    game = service.create_game("emerald", [ANN, BEN, CY], seed="undo-turns").after.game_id
    play_moves(service, game, 18, seed=5)
    least = service.request_undo(game, 0, "", cause=Cause("cli")).events[0].payload["from_seq"] - 1
    play_moves(service, game, 1, seed=6)  # Ben plays on: the request lapses in his move's command
    [mail] = service.store.query("SELECT * FROM outbox WHERE to_addr = ? AND kind = 'undo_closed'", (ANN.email,))
    body = text_of(parse(message_of(mail)))
    assert ("your request to take back a move was overtaken by play (the game moved on before everyone had "
            "answered; ask again if it still matters)") in " ".join(body.split())
    assert not event_numbers(body, least), event_numbers(body, least)
