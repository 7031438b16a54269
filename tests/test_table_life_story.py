"""Issue 13's "done when", as one story: an organiser creates a game on the web, three players accept by mail, talk
at the table, one takes a week away under each vacation policy, one vanishes and is replaced, and the game ends and
verifies, its webhook having received the public news only.

Every link followed is one a mail carried, through a real SMTP server on loopback; the webhook posts to a real HTTP
receiver on loopback; time passes on a fake clock that the kernel records at and the scheduler's tick is run at.
"""

from __future__ import annotations

import queue
import random
import re
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from delivery import Inbox, free_port, smtp_server, text_of
from events.handling import Cause
from pbem.organising import muster, organisers
from pbem.table import seatlife, talk
from pbem.table.autopilot import status
from pbem.table.delivery import DEADLINE_EXTENDED, GAME_PAUSED, GAME_RESUMED, TIMED_OUT
from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.inbound import process
from pbem.post.mail.transport import SMTPTransport
from pbem.scheduler import Jobs
from pbem.table.seat_events import ABSENCE_DECLARED, ABSENCE_ENDED, ABSENCE_STARTED, AUTOPILOT_ON, SEAT_REPLACED
from pbem.service import Player, Service
from pbem.web import create_app
from pbem.post.webhook_post import Poster
from receiver import Receiver
from web.conftest import csrf_of, seq_of, text

ORGANISER = "olive@example.org"
PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), Player("cy@example.org", "Cy")]
ANN, BEN, CY = PLAYERS
DEE = Player("dee@example.org", "Dee")
WEEK = timedelta(days=7)
TEST = Cause("test")
SECRET = "the zebra-quartz fountain at midnight"  # Cy's word to Ben alone
PRIVATE_REASON = "my knee operation"  # Ben's reason for his absence, kept to himself


class Clock:
    """The time the story says it is: every service's kernel records events at it."""

    def __init__(self) -> None:
        self.now = datetime.now(timezone.utc).replace(microsecond=0)

    def __call__(self) -> str:
        return self.now.isoformat(timespec="seconds")


class Post:
    """The loopback SMTP server and HTTP receiver, and what reached them so far."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service, self.clock, self.inbox, self.port = service, clock, Inbox(), free_port()
        self.server = smtp_server(self.inbox, self.port)
        self.receiver = Receiver(free_port()).start()

    def deliver(self) -> None:
        now = max(self.clock.now, datetime.now(timezone.utc)) + timedelta(seconds=1)
        while dispatch(self.service.store, SMTPTransport("127.0.0.1", self.port, "none"), "pbem <pbem@localhost>",
                       max_attempts=3, retry_seconds=1, now=now, poster=Poster(timeout=2, allow_loopback=True)).sent:
            pass  # a run sends a batch

    def to(self, address: str) -> list[EmailMessage]:
        self.deliver()
        return [m for m in self.inbox.messages if address in str(m["To"])]

    def link(self, address: str, label: str) -> str:
        """The path of the link labelled ``label`` in the newest mail to ``address`` that has one."""
        for mail in reversed(self.to(address)):
            found = re.findall(rf"^{label}: http://[^/]+(\S+?)\r?$", text_of(mail), re.M)
            if found:
                return str(found[-1])
        raise AssertionError(f"no mail to {address} has a link {label!r}")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"instance": tmp_path / "inst", "secret_key": "story-test-key-for-links", "TESTING": True,
                       "webhook_loopback": True})


def clocked(app: Flask, clock: Clock) -> Service:
    opened = Service.open(app.config["PBEM_SETTINGS"])
    opened.kernel.clock = clock
    return opened


@pytest.fixture
def service(app: Flask, clock: Clock) -> Iterator[Service]:
    opened = clocked(app, clock)
    web = clocked(app, clock)  # the pages' service, on the same clock
    web.states = app.extensions["pbem.states"]
    app.extensions["pbem.services"] = pool = queue.LifoQueue()
    pool.put(web)
    yield opened
    opened.close()
    while not pool.empty():
        pool.get().close()


@pytest.fixture
def post(service: Service, clock: Clock) -> Iterator[Post]:
    found = Post(service, clock)
    yield found
    found.server.stop()
    found.receiver.stop()


def answer(client: FlaskClient, path: str, choice: str) -> str:
    page = client.get(path)
    assert page.status_code == 200
    return text(client.post(path.split("?")[0], data={"csrf": csrf_of(text(page)), "answer": choice}))


def prompts(service: Service, game: str) -> set[int]:
    state = service.load(game)
    return set() if state.ended else set(service.kernel.rules(state).prompts(state.game))


def move(service: Service, game: str, seat: int, pick: random.Random) -> None:
    state = service.load(game)
    service.act_as(game, seat, pick.choice(service.kernel.rules(state).legal_actions(state.game, seat)), cause=TEST)


def play_to_end(service: Service, game: str, pick: random.Random) -> None:
    """Random legal moves, preferring ones that do something (not a pass or a discard) so that the game, whose seed
    the web page drew, ends in a few hundred moves; a game still running after 20,000 says how it stands."""
    moves = 0
    while moves < 20_000:
        waiting = prompts(service, game)
        if not waiting:
            break
        seat = min(waiting)
        state = service.load(game)
        legal = service.kernel.rules(state).legal_actions(state.game, seat)
        doing = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
        service.act_as(game, seat, pick.choice(doing), cause=TEST)
        moves += 1
    state = service.load(game)
    assert state.ended, (moves, prompts(service, game), service.store.query(
        "SELECT status, paused_at FROM games WHERE game_id = ?", (game,)))
    assert service.verify(game).ok


def due_of(service: Service, game: str, seat: int) -> datetime:
    return datetime.fromisoformat(service.store.query("SELECT due_at FROM deadlines WHERE game_id = ? AND seat = ?",
                                                      (game, seat))[0]["due_at"])


def dues(service: Service, game: str) -> dict[int, str]:
    return {int(r["seat"]): r["due_at"] for r in
            service.store.query("SELECT seat, due_at FROM deadlines WHERE game_id = ?", (game,))}


def since(service: Service, game: str, seq: int) -> list[Any]:
    return [e for e in service.store.read(game) if e.seq > seq]


def reply(mail: EmailMessage, sender: Player, body: str, message_id: str) -> bytes:
    answered = EmailMessage()
    answered["From"], answered["To"] = f"{sender.name} <{sender.email}>", str(mail["Reply-To"])
    answered["Subject"], answered["Message-ID"] = "Re: " + str(mail["Subject"]), message_id
    answered["In-Reply-To"] = str(mail["Message-ID"])
    answered.set_content(body)
    return bytes(answered)


def test_an_organiser_s_game_from_invitation_to_verified_end(app: Flask, service: Service, post: Post,
                                                             clock: Clock) -> None:
    client = app.test_client()
    jobs = Jobs(app.config["PBEM_SETTINGS"], lambda: clocked(app, clock))
    pick = random.Random(13)

    # 1. the operator issues an organiser link; Olive creates a game on the page: clocks stop while anyone is away,
    # and a seat goes on autopilot after two missed deadlines
    assert service.notifier is not None
    organisers.invite(service.store, service.notifier, ORGANISER)
    new_page = post.link(ORGANISER, "Create a game")
    rows = [(p.name, p.email) for p in PLAYERS] + [("", "")] * 3
    created = client.post(new_page, data={
        "csrf": csrf_of(text(client.get(new_page))), "game": "emerald", "turn_hours": "48", "interrupt_hours": "12",
        "name": "Olive", "player_name": [r[0] for r in rows], "player_email": [r[1] for r in rows],
        "vacation": "pause", "autopilot_after": "2"})
    assert created.status_code == 303

    # 2. the three accept through the links in their invitations; the game starts and the first turn mail goes out
    for player in PLAYERS:
        assert "You accepted" in answer(client, post.link(player.email, "Accept"), "accept")
    [found] = muster.listing(service.store)
    game = str(found["game_id"])
    assert found["status"] == "started" and [p["email"] for p in service.players(game)] == [p.email for p in PLAYERS]
    assert service.load(game).config.options["vacation"] == "pause"
    [first] = [m for p in PLAYERS for m in post.to(p.email) if "Your turn" in str(m["Subject"])]
    writer = next(p for p in PLAYERS if p.email in str(first["To"]))
    seat = PLAYERS.index(writer)
    listener = PLAYERS[(seat + 1) % 3]  # told a secret
    outsider = PLAYERS[(seat + 2) % 3]  # not told

    # the webhook, added afterwards on the organiser's page of the game (its link in the "started" mail)
    organise = post.link(ORGANISER, "Organise the game")
    page = text(client.get(organise))
    added = client.post(f"{organise}/webhooks", data={"csrf": csrf_of(page), "seq": seq_of(page),
                                                      "url": post.receiver.url("/table")})
    assert added.status_code == 200 and "public news is now posted" in text(added)

    # 3. talk: a word to the table by mail reply, a secret to one player from the play page
    outcome = process(service, reply(first, writer, "say Good luck, all!\n", "<story-1@example.org>"),
                      service.notifier.reply_address)
    assert outcome.applied == ["say Good luck, all!"] and outcome.error is None
    play = post.link(writer.email, "Act on the web page")
    told = client.post(f"{play}/say", data={"csrf": csrf_of(text(client.get(play))), "text": SECRET,
                                            "to": [str(PLAYERS.index(listener))], "what": "say"})
    assert told.status_code == 200 and f"Your message is sent to {listener.name}." in text(told)
    said = [e for e in service.store.read(game) if e.type == talk.SAID]
    readers = sorted([seat, PLAYERS.index(listener)])
    assert [(e.payload["to"], e.visibility.encode(), e.cause["via"]) for e in said] == [
        (None, "public", "mail"), ([PLAYERS.index(listener)], f"seats:{readers[0]},{readers[1]}", "link")]
    mailed = {p.email: len(post.to(p.email)) for p in PLAYERS}
    for _ in range(200):  # play on until both others have had their next mail
        if all(len(post.to(p.email)) > mailed[p.email] for p in (listener, outsider)):
            break
        move(service, game, min(prompts(service, game)), pick)
    heard = {p.email: "\n".join(text_of(m) for m in post.to(p.email)[mailed[p.email]:]) for p in PLAYERS}
    assert f"{writer.name} to everyone: \u201cGood luck, all!\u201d" in heard[listener.email]
    assert f"{writer.name} to everyone: \u201cGood luck, all!\u201d" in heard[outsider.email]
    assert f"{writer.name} to {listener.name}: \u201c{SECRET}\u201d" in heard[listener.email]
    assert f"{writer.name} sent a private message to {listener.name}" in heard[outsider.email]
    assert "zebra-quartz" not in heard[outsider.email]

    # 4. a week away under each policy: Ben declares one absence on his home page for all his games; the same
    # players play two more games, one whose deadlines run, one with an allowance of three days
    def side_game(policy: str) -> str:
        made = service.create_game("emerald", PLAYERS, seed=f"story-{policy}", organiser=ORGANISER,
                                   options=seatlife.options(policy, None)).after.game_id
        while prompts(service, made) != {1}:  # on to Ben's turn
            move(service, made, min(prompts(service, made) - {1}), pick)
        return made
    running, allowance = side_game("run"), side_game("allowance:3")
    home = post.link(BEN.email, "All your games")
    first_day, back_day = (clock.now + timedelta(days=1)).date(), (clock.now + timedelta(days=8)).date()
    away = client.post(f"{home}/away", data={"csrf": csrf_of(text(client.get(home))), "game": "all",
                                             "from": first_day.isoformat(), "until": back_day.isoformat(),
                                             "reason": PRIVATE_REASON})
    assert away.status_code == 200 and "Your absence is recorded" in text(away)
    for each in (game, running, allowance):
        assert [e.type for e in service.store.read(each)][-1] == ABSENCE_DECLARED
    [row] = service.store.query("SELECT * FROM absences WHERE game_id = ?", (game,))
    starts, until = datetime.fromisoformat(row["starts_at"]), datetime.fromisoformat(row["until"])
    assert until - starts == WEEK
    main_dues, run_due, allowance_due = dues(service, game), due_of(service, running, 1), due_of(service, allowance, 1)
    marks = {g: service.store.last(g)[0] for g in (game, running, allowance)}

    clock.now = starts
    jobs.deadlines(clock.now)
    assert [e.type for e in since(service, game, marks[game])] == [ABSENCE_STARTED, GAME_PAUSED]
    assert [e.type for e in since(service, running, marks[running])] == [ABSENCE_STARTED]
    assert [e.type for e in since(service, allowance, marks[allowance])] == [ABSENCE_STARTED, DEADLINE_EXTENDED]
    assert due_of(service, allowance, 1) == allowance_due + timedelta(days=3)  # three days' allowance, not seven
    assert due_of(service, running, 1) == run_due  # under "run" nothing moves

    clock.now = run_due + timedelta(seconds=1)
    jobs.deadlines(clock.now)  # Ben's deadline runs out while he is away: his default is played
    assert TIMED_OUT in [e.type for e in since(service, running, marks[running])]
    assert status(service.store, running, 1)["missed"] == 0  # away: no step towards autopilot
    assert dues(service, game) == main_dues  # the paused game's deadlines never run out

    marks[game] = service.store.last(game)[0]
    clock.now = until
    jobs.deadlines(clock.now)
    back = since(service, game, marks[game])
    assert [e.type for e in back] == [ABSENCE_ENDED, GAME_RESUMED, DEADLINE_EXTENDED]
    assert back[-1].payload["reason"] == "the game was paused for 7.0 days while Ben was away"
    assert {s: datetime.fromisoformat(d) for s, d in dues(service, game).items()} == {
        s: datetime.fromisoformat(d) + WEEK for s, d in main_dues.items()}  # every deadline moved by the week
    [ended] = [e for e in service.store.read(allowance) if e.type == ABSENCE_ENDED]
    assert ended.payload["stopped_seconds"] == 3 * 86_400
    for each in (running, allowance):  # their part is played: Olive pauses them, and what they recorded verifies
        service.pause(each, "the vacation is over", cause=TEST)
        assert service.verify(each).ok

    # 5. Cy vanishes: her deadlines run out, tick after tick, until her seat is on autopilot and Olive is asked
    for _ in range(400):
        if status(service.store, game, 2)["autopilot"]:
            break
        waiting = prompts(service, game)
        if waiting - {2}:
            move(service, game, min(waiting - {2}), pick)
        else:
            clock.now = due_of(service, game, 2) + timedelta(seconds=1)
            jobs.deadlines(clock.now)
    [on] = [e for e in service.store.read(game) if e.type == AUTOPILOT_ON]
    assert on.payload == {"seat": 2, "reason": "2 deadlines missed in a row"}
    [asked] = [m for m in post.to(ORGANISER) if "Cy is on autopilot" in str(m["Subject"])]
    old_play = post.link(CY.email, "Act on the web page")
    organise = re.findall(r"http://[^/\s]+(/organise/\S+)", text_of(asked))[0]
    page = text(client.get(organise))
    replaced = client.post(f"{organise}/replace", data={"csrf": csrf_of(page), "seq": seq_of(page), "seat": "2",
                                                        "email": DEE.email, "name": DEE.name})
    assert replaced.status_code == 200 and "The seat is now Dee" in text(replaced)
    assert [e.payload["name"] for e in service.store.read(game) if e.type == SEAT_REPLACED] == ["Dee"]
    [welcome] = post.to(DEE.email)
    welcomed = text_of(welcome)
    assert "THE SEAT'S HISTORY" in welcomed and "YOUR HAND" in welcomed
    seq = service.store.last(game)[0]
    refused = client.get(old_play)
    assert refused.status_code == 403 and "given to another player" in text(refused)
    acted = client.post(old_play, data={"csrf": app.extensions["pbem.links"].csrf(old_play.rsplit("/", 1)[1]),
                                        "seq": str(seq), "text": "say I am back"})
    assert acted.status_code == 403 and service.store.last(game)[0] == seq  # nothing written

    # 6. the game is played to its end, and verifies
    play_to_end(service, game, pick)
    post.deliver()
    posted = [p.body.decode() for p in post.receiver.posts]
    assert posted and all(p.path == "/table" for p in post.receiver.posts)
    assert any("Good luck, all!" in body for body in posted)
    assert any(f"{writer.name} sent a private message to {listener.name}" in body for body in posted)
    for secret in ("zebra-quartz", PRIVATE_REASON, "YOUR HAND", DEE.email, CY.email):
        assert not [body for body in posted if secret in body], secret
