"""The one visibility rule, checked as a property over seeded games of every game (``pbem.proof.reading``).

A game is played to its end with everything that is recorded beside its events: moves carried by mail (the
sender's address and message id in the cause), moves on the page, private messages, private and sealed notes,
standing orders and the answers they give, and a seat given to another player half-way. At checkpoints (before
the replacement, after it, and after the end) every reader — each seat's player, the spectator, the organiser,
the replaced player, and the replacement — reads every surface: the game as shown, the log, the replay, the pages,
the JSON API, the audit, the mails (talk mails sent soon after and daily digests of talk among them), the webhook
posts and the record. Nothing they may not read may appear:

- an address (or a mail's message id) but to its owner and the organiser;
- a private message's words but to its writer and its reader, and never to the one who took a seat over;
- a private note's words but to its writer; a sealed note's but to its writer until the end;
- a standing order (its answer, or a line that one was set) but to its owner;
- the words of a command (as typed and parsed, its channel, the order that answered it) but to its player and the
  organiser;
- a computer player's reason for a move it made for a seat on autopilot (``pbem.BotReason``, server-only) but to
  the organiser, until the end.

``test_the_property_fails_when_a_part_of_the_rule_is_undone`` shows that it would notice each of those undone.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.envelope import SCHEDULER, NewEvent, Visibility
from events.handling import Cause
from events.rules import ActionError
from pbem.errors import ServiceError
from pbem.games import all_games
from pbem.post.mail.outbox import draft_of
from pbem.post.mail.render import environment
from pbem.post.people import set_mail
from pbem.proof import reading
from pbem.scheduler import Jobs
from pbem.service import Player, Service
from pbem.table import autopilot as autopilot_module, seatlife
from pbem.table.autopilot import PilotMove, status as autopilot_status
from pbem.table.seat_events import AUTOPILOT_ON
from pbem.table.talk import Talk
from pbem.web import create_app
from tests.bots import highdie
from tests.leaks.webhooks import HookReader, add_hooks

ORGANISER = "olive.organiser-x3@example.org"
ORDER_LINE = "set a standing order"
WORD_KEYS = ("text", "action", "via", "order", "deadline", "link", "link_issued_seq", "received_at", "line")


def marker(kind: str) -> str:
    return f"{kind}{secrets.token_hex(4)}"


def people(seats: int) -> list[Player]:
    return [Player(f"{n.lower()}.{marker('addr')}@example.org", n) for n in ("Ann", "Ben", "Cat", "Dan", "Eve")[:seats]]


@dataclass
class Secret:
    """Words some readers may not read: who may, as a function of the reader's key and whether the game ended."""

    words: str
    what: str
    may_read: Callable[[str, bool], bool]


@dataclass
class Story:
    """A game played with everything beside its events, and what each reader may not read of it."""

    service: Service
    client: FlaskClient
    game_id: str
    players: list[Player]
    hooks: dict[int | None, HookReader]
    secrets: list[Secret] = field(default_factory=list)
    holders: dict[int, str] = field(default_factory=dict)   # seat -> the reader key of its holder now
    replaced: Player | None = None                          # the player who gave up seat 1
    order_owners: set[str] = field(default_factory=set)     # reader keys that set a standing order
    since: dict[str, int] = field(default_factory=dict)     # reader key -> the event their seat is theirs from
    mails_read: dict[str, set[str]] = field(default_factory=dict)
    audits_read: set[tuple[str, int, bool]] = field(default_factory=set)  # (reader key, event, ended)

    def not_yet_audited(self, key: str, sample: list[int], ended: bool) -> list[int]:
        """The events of ``sample`` this reader has not read the audit of at an earlier checkpoint: until the end,
        an event's audit says the same to the same reader at every later one."""
        fresh = [seq for seq in sample if (key, seq, ended) not in self.audits_read]
        self.audits_read.update((key, seq, ended) for seq in fresh)
        return fresh
    days: int = 0                                           # how far the worker's clock was moved on

    def may_read(self, secret: Secret, key: str, ended: bool) -> bool:
        """The replaced player reads what they read when the seat was theirs (their own words, their address)."""
        if key == "replaced" and self.replaced is not None:
            return secret.may_read(f"seat:1:{self.replaced.email}", ended)
        return secret.may_read(key, ended)

    def key_of(self, seat: int) -> str:
        return self.holders[seat]

    # ---- what the players do ----------------------------------------------------------------------------------

    def address_secret(self, player: Player, key: str) -> None:
        self.secrets.append(Secret(player.email, f"{player.name}'s address",
                                   lambda reader, ended, key=key: reader in (key, "organiser")))

    def tell(self, seat: int, to: int) -> None:
        words = marker("tell")
        writer, reader_key = self.key_of(seat), self.key_of(to)
        self.service.say(self.game_id, seat, Talk("say", f"between us: {words}", (to,)), cause=Cause("link"))
        self.secrets.append(Secret(words, "a private message",
                                   lambda reader, ended: reader in (writer, reader_key)))

    def note(self, seat: int) -> None:
        words = marker("note")
        writer = self.key_of(seat)
        self.service.say(self.game_id, seat, Talk("note", f"my plan: {words}"), cause=Cause("link"))
        self.secrets.append(Secret(words, "a private note", lambda reader, ended: reader == writer))

    def seal(self, seat: int) -> None:
        words = marker("seal")
        writer = self.key_of(seat)
        self.service.say(self.game_id, seat, Talk("seal", f"I predict {words}"), cause=Cause("link"))
        self.secrets.append(Secret(words, "a sealed note", lambda reader, ended: ended or reader == writer))

    def order(self, seat: int, answer: str) -> None:
        rules = self.service.kernel.rules(self.service.load(self.game_id))
        for topic in getattr(rules, "standing_order_topics", {}):
            self.service.set_standing_order(self.game_id, seat, topic, answer, cause=Cause("link"))
            self.order_owners.add(self.key_of(seat))

    def move(self, pick: random.Random, by_mail: bool) -> bool:
        """One random legal move of a seat the game waits for, by mail or on the page; False once the game ended."""
        state = self.service.load(self.game_id)
        if state.ended:
            return False
        rules = self.service.kernel.rules(state)
        seat = pick.choice(sorted(rules.prompts(state.game)))
        legal = rules.legal_actions(state.game, seat)
        action = pick.choice([a for a in legal if a["kind"] not in ("pass", "discard")] or legal)
        player = next(p for p in self.players if self.key_of(seat) == f"seat:{seat}:{p.email}")
        if by_mail:
            message = f"<{marker('msg')}@mail.example.org>"
            self.secrets.append(Secret(message.strip("<>"), "a mail's message id",
                                       lambda reader, ended, key=self.key_of(seat): reader in (key, "organiser")))
            cause = Cause("mail", {"from": f"{player.name} <{player.email}>", "message_id": message})
            self.service.act_as(self.game_id, seat, rules.format(state.game, action), cause=cause)
        else:
            self.service.act_as(self.game_id, seat, action, cause=Cause("link"))
        return True

    def autopilot(self, pick: random.Random) -> None:
        """A seat the game waits for goes on autopilot, and the scheduler plays for it (its player comes back by
        acting); each reason its computer player gives is marked, and hidden from every player until the end."""
        state = self.service.load(self.game_id)
        prompted = sorted(self.service.kernel.rules(state).prompts(state.game))
        if state.ended or not prompted:
            return
        seat = pick.choice(prompted)
        if not autopilot_status(self.service.store, self.game_id, seat)["autopilot"]:
            self.service.kernel.record(self.game_id, [NewEvent(AUTOPILOT_ON, {"seat": seat, "reason": "a test"})],
                                       actor=SCHEDULER, cause=Cause("test"), hooks=self.service)
        seatlife.tick(self.service, datetime.now(timezone.utc), limit=3)

    def marked_pilot(self, pilot: Callable[..., Any]) -> Callable[..., Any]:
        """The service's computer player, with a marker in each reason, recorded as a secret."""
        def marked(*args: Any) -> Any:
            move = PilotMove(*pilot(*args))
            if move.reason is None:
                return move
            words = marker("reason")
            self.secrets.append(Secret(words, "a computer player's reason",
                                       lambda reader, ended: ended or reader == "organiser"))
            return move._replace(reason=f"{move.reason} {words}")
        return marked

    def replace(self, seat: int, newcomer: Player) -> None:
        self.replaced = next(p for p in self.players if self.key_of(seat).endswith(p.email))
        self.service.replace(self.game_id, seat, newcomer, cause=Cause("link"))
        self.players.append(newcomer)
        self.holders[seat] = f"seat:{seat}:{newcomer.email}"
        self.since[self.holders[seat]] = self.service.store.last(self.game_id)[0]
        self.address_secret(newcomer, self.holders[seat])


# ---- every surface, as each reader reads it ---------------------------------------------------------------------

Surfaces = dict[str, tuple[str, Any]]


def surfaces(story: Story, key: str, links: Any, ended: bool) -> Surfaces:
    """Everything that reaches the reader with this key now: (text, JSON data or None) by surface."""
    svc, gid, client = story.service, story.game_id, story.client
    found: Surfaces = {}

    def page(name: str, url: str) -> None:
        response = client.get(url)
        assert response.status_code in (200, 403), (url, response.status_code)
        found[name] = (response.get_data(as_text=True), response.get_json() if response.is_json else None)

    def as_json(name: str, value: Any) -> None:
        found[name] = (json.dumps(value), value)

    last = svc.store.last(gid)[0]
    sample = audited(svc.store.read(gid), last)
    if key.startswith("seat:"):
        _, seat_text, email = key.split(":", 2)
        seat = int(seat_text)
        as_json("show", svc.show(gid, email))
        as_json("log", svc.log(gid, email))
        as_json("replay", svc.replay(gid, seat=seat))
        for seq in story.not_yet_audited(key, sample, ended):
            try:
                as_json(f"audit {seq}", svc.audit(gid, seq, reader=seat, organiser=False, email=email))
            except ServiceError:
                pass  # hidden from them: refused, which tells nothing
        token = links.play(gid, seat, last)
        page("play page", f"/play/{token}")
        page("play API", f"/api/play/{token}")
        page("replay page", f"/play/{token}/replay")
        for seq in sample[:: max(1, len(sample) // 6)]:
            page(f"audit page {seq}", f"/play/{token}/audit/{seq}")
        found.update(mails(story, email))
        found.update(story.hooks[seat].posts())
    elif key == "organiser":
        for seq in story.not_yet_audited(key, sample, ended):
            as_json(f"organiser's audit {seq}", svc.audit(gid, seq, organiser=True))
        token = links.make("organiser", gid)
        page("organiser page", f"/organise/{token}")
        for seq in sample[:: max(1, len(sample) // 6)]:
            page(f"organiser's audit page {seq}", f"/organise/{token}/audit/{seq}")
        found.update(mails(story, ORGANISER))
    else:  # the spectator, and the replaced player, who reads what a spectator reads and their own mails
        as_json("show", svc.show(gid))
        as_json("log", svc.log(gid))
        as_json("replay", svc.replay(gid))
        found["export"] = ("\n".join(svc.export(gid)), None)
        page("game page", f"/games/{gid}")
        page("game API", f"/api/games/{gid}")
        page("replay page", f"/games/{gid}/replay")
        if ended:
            as_json("replay of everything", svc.replay(gid, everything=True))
            page("replay page of everything", f"/games/{gid}/replay?as=all")
            page("record", f"/games/{gid}/record.jsonl")
        if key == "spectator":
            found.update(story.hooks[None].posts())
        elif story.replaced is not None:
            found.update(mails(story, story.replaced.email))
    return found


def audited(events: list[Any], last: int) -> list[int]:
    """The events whose audit each reader reads: the first, the last, 25 spread over the game, and the first and the
    last of each kind of event recorded beside the game's own (talk, notes, orders, ...) and of the game's moves, by
    each writer, to each set of readers and through each channel, so that every way a cause is written is read."""
    groups: dict[tuple[str, str, str, str], list[int]] = {}
    for event in events:
        if event.type in ("pbem.DeadlineSet", "pbem.RandomDrawn"):
            continue
        kind = event.type if event.type.startswith("pbem.") else "a move"
        channel = str(event.cause.get("via") or ("mail" if "from" in event.cause else ""))
        groups.setdefault((kind, event.actor, event.visibility.encode(), channel), []).append(event.seq)
    return sorted({1, last, *range(2, last, max(1, last // 25))}
                  | {seq for seqs in groups.values() for seq in (seqs[0], seqs[-1])})


def mails(story: Story, email: str) -> Surfaces:
    seen = story.mails_read.setdefault(email, set())
    rows = story.service.store.query("SELECT id, draft FROM outbox WHERE to_addr = ?", (email,))
    env = environment()
    found: Surfaces = {}
    for row in (r for r in rows if r["id"] not in seen):
        draft = draft_of(row)
        found[f"mail {draft['subject']}"] = ("\n".join([
            draft["subject"], env.get_template(f"mail/{draft['template']}.txt").render(**draft["context"]),
            env.get_template(f"mail/{draft['template']}.html").render(**draft["context"])]), None)
        seen.add(str(row["id"]))
    return found


def records_in(value: Any) -> Iterator[dict[str, Any]]:
    """Every event a JSON surface holds (anything with a seq and a type: a record, a replay's step)."""
    if isinstance(value, dict):
        if "seq" in value and "type" in value:
            yield value
        for inner in value.values():
            yield from records_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from records_in(inner)


def leaks(story: Story, key: str, found: Surfaces, ended: bool) -> list[str]:
    """What the reader with this key reads and may not."""
    problems = []
    since = story.since.get(key, 0)
    given_by = {e.seq: str(e.cause.get("actor", "")) for e in story.service.store.read(story.game_id)}
    for surface, (text, data) in found.items():
        for secret in story.secrets:
            if secret.words in text and not story.may_read(secret, key, ended):
                problems.append(f"{secret.what} ({secret.words}) in the {surface}")
        if key not in story.order_owners and ORDER_LINE in text:
            problems.append(f"another player's standing order in the {surface}")
        for record in records_in(data):
            cause = record.get("cause") if isinstance(record.get("cause"), dict) else {}
            seq = int(record["seq"])
            own = key.startswith("seat:") and given_by.get(seq) == f"seat:{key.split(':')[1]}" and seq >= since
            if record["type"] == "pbem.StandingOrderSet" and record.get("payload") and key not in story.order_owners:
                problems.append(f"a standing order's payload in the {surface}")
            shown_words = [k for k in WORD_KEYS if k in cause] + (["via"] if record.get("via") else [])
            if shown_words and key != "organiser" and not own:
                problems.append(f"the words {shown_words} of another's command (event {record['seq']}) in the {surface}")
    return problems


# ---- the games ---------------------------------------------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"instance": tmp_path / "inst", "secret_key": "reading-test-key", "TESTING": True})


@pytest.fixture
def service(app: Flask) -> Iterator[Service]:
    svc = Service.open(app.config["PBEM_SETTINGS"])
    yield svc
    svc.close()


def begin(app: Flask, service: Service, game_type: str, seats: int, seed: int, **create: Any) -> Story:
    players = people(seats)
    # the game's id is fixed too: the computer players' moves for seats on autopilot are seeded by it
    game_id = service.create_game(game_type, players, seed=f"reading-{seed}", organiser=ORGANISER,
                                  game_id=hashlib.sha256(f"reading-{game_type}-{seed}".encode()).hexdigest()[:10],
                                  **create).after.game_id
    hooks = {seat: HookReader(service, hook) for seat, hook in add_hooks(service, game_id,
                                                                         [p.email for p in players]).items()}
    story = Story(service, app.test_client(), game_id, players, hooks)
    service.pilot = story.marked_pilot(service.pilot)
    for seat, player in enumerate(players):
        story.holders[seat] = f"seat:{seat}:{player.email}"
        story.address_secret(player, story.holders[seat])
    story.secrets.append(Secret(ORGANISER, "the organiser's address", lambda reader, ended: reader == "organiser"))
    # table talk reaches the first player soon after, the second in a daily digest (with their decisions), the
    # others with their turn mails: every talk mail is a surface too
    set_mail(service.store, service.player_id(players[0].email), "every", "off", "soon")
    set_mail(service.store, service.player_id(players[1].email), "daily", "off", "digest")
    return story


def play(story: Story, pick: random.Random, moves: int) -> None:
    for n in range(moves):
        if story.service.load(story.game_id).ended:  # the last move ended it: nothing more is said in it
            return
        seats = len(story.holders)
        if n % 9 == 4:
            story.tell(pick.randrange(seats), pick.randrange(seats))
        if n % 13 == 6:
            story.note(pick.randrange(seats))
        if n % 17 == 8:
            story.seal(pick.randrange(seats))
        if n % 11 == 5:
            story.autopilot(pick)
            if story.service.load(story.game_id).ended:
                return
        try:
            if not story.move(pick, by_mail=n % 3 == 0):
                return
        except ActionError:  # a move the rules refuse by text (an ambiguous name): play it on the page instead
            story.move(pick, by_mail=False)


def readers(story: Story) -> list[str]:
    keys = ["spectator", "organiser", *story.holders.values()]
    return keys + (["replaced"] if story.replaced is not None else [])


def check(story: Story, app: Flask) -> list[str]:
    ended = story.service.load(story.game_id).ended
    story.days += 2  # the talk mails held, and the digests, are written before the mails are read
    later = datetime.now(timezone.utc) + timedelta(days=story.days)
    story.service.write_owed_mail(later)
    Jobs(app.config["PBEM_SETTINGS"]).digests(later)
    links = app.extensions["pbem.links"]
    problems = []
    for key in readers(story):
        problems += [f"{key}: {p}" for p in leaks(story, key, surfaces(story, key, links, ended), ended)]
    return problems


def tell_distinct(story: Story, seats: int) -> None:
    for seat in range(seats):
        story.tell(seat, (seat + 1) % seats)


def story_of(app: Flask, service: Service, game_type: str, seats: int, seed: int, moves: int,
             **create: Any) -> tuple[Story, list[str]]:
    """A whole game with a check at each checkpoint; the problems found."""
    story = begin(app, service, game_type, seats, seed, **create)
    pick = random.Random(seed)
    story.order(0, "always")
    story.order(1, "never")
    tell_distinct(story, seats)
    play(story, pick, moves)
    problems = check(story, app)
    tell_distinct(story, seats)  # words to and from seat 1 that its next player must not read
    story.note(1)
    story.replace(1, Player(f"quinn.{marker('addr')}@example.org", "Quinn"))
    problems += check(story, app)
    tell_distinct(story, seats)
    play(story, pick, 100_000)
    assert story.service.load(story.game_id).ended
    return story, problems + check(story, app)


# The property wants a game played to its end with everything beside it, not a long one: every audit a reader reads
# checks the chain from event 1, so the check's time grows with the square of the game's length. The 2nd edition of
# Emerald ends at 6 victory points (a data override, as an owner may set one), and each game is played from a seed
# whose game is among the shorter ones and goes on well after the seat changes hands: Emerald 2nd 490 events (seed
# 7: 811), Emerald 1st 790 (seed 7's game ends before the change; a lower target does not end its games sooner, its
# points come late), Nanty Narking 389 (seed 7: 1,185). (Its id is fixed: ``begin``.)
SHORTER = {"emerald": {"game": {"victory_target": {str(n): 6 for n in range(2, 6)}}}}
SEEDS = {"emerald": 3, "emerald1": 13, "nanty": 10}


@pytest.mark.slow
@pytest.mark.parametrize("game_type", sorted(all_games()))
def test_no_reader_reads_what_the_rule_keeps_from_them_on_any_surface(app: Flask, service: Service,
                                                                       game_type: str) -> None:
    story, problems = story_of(app, service, game_type, 3, SEEDS[game_type], 40, data_override=SHORTER.get(game_type))
    assert problems == []
    said = {s.what for s in story.secrets}
    assert {"a private message", "a private note", "a sealed note", "a mail's message id",
            "a computer player's reason"} <= said


UNDONE = {
    "the cause's words read by all": lambda patch: patch.setattr(
        reading, "reads_words", lambda reader, command, ended: True),
    "an address read by all": lambda patch: patch.setattr(reading, "reads_address", lambda reader, cause: True),
    "standing orders public": lambda patch: patch.setattr(reading, "PRIVATE_WORDS", (reading.SAID, reading.NOTE_KEPT)),
    "private words opened at the end": lambda patch: patch.setattr(
        reading, "PRIVATE_WORDS", (reading.STANDING_ORDER_SET,)),
    "a computer player's reason public": lambda patch: patch.setattr(
        autopilot_module, "Visibility", type("Public", (), {"server": staticmethod(Visibility.public)})),
    "a replacement reads the words before it": lambda patch: patch.setattr(
        reading.Reader, "holds", lambda self, seat, seq: self.seat is not None and seat == self.seat),
}


LONGER = {"options": {"turns_each": 12}, "data_override": {"target": 999}}  # no early end: every checkpoint is met


@pytest.fixture
def short(app: Flask) -> Iterator[Service]:
    """A service that knows the kernel's short test game (Highdie: hidden hands, an out-of-turn question) and its
    computer player."""
    highdie.register()
    svc = Service.open(app.config["PBEM_SETTINGS"])
    yield svc
    svc.close()
    highdie.unregister()


@pytest.mark.parametrize("undone", sorted(UNDONE))
def test_the_property_fails_when_a_part_of_the_rule_is_undone(app: Flask, short: Service, undone: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    UNDONE[undone](monkeypatch)
    _, problems = story_of(app, short, "highdie", 3, 3, 12, **LONGER)
    assert problems, f"the property test did not notice {undone}"


def test_the_property_holds_on_a_short_game(app: Flask, short: Service) -> None:
    story, problems = story_of(app, short, "highdie", 3, 3, 12, **LONGER)
    assert problems == []
    assert story.replaced is not None and story.service.load(story.game_id).ended
    assert "a computer player's reason" in {s.what for s in story.secrets}
    # the talk mails were read as surfaces too: sent soon after, and in a digest
    talked = story.service.store.query("SELECT kind, draft FROM outbox WHERE kind IN ('talk', 'digest')")
    assert {r["kind"] for r in talked} == {"talk", "digest"}
    assert any(draft_of(r)["context"].get("talk") for r in talked if r["kind"] == "digest")
