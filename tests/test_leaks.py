"""Nothing a reader may not know reaches them on any channel, in seeded random games of every game.

At every move, for every seat and the spectator: the game as shown (view, ``waiting_for``, the prompt),
every mail composed for them (subject, text and HTML), every post to their webhook (the spectator's: the game's,
which also posts only the public log's lines); every few moves also the log (with its deadline
reasons), the replay, the web pages and the JSON API. Each game's probe (``tests/leaks``) names what the
reader may not know at that moment, and private messages sent during the game name words only their two
players may read; none of it may appear. The log is read from where the last read of it ended, and whole every
few reads. Records before the end are refused on the web.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.handling import Cause
from pbem.games import all_games
from pbem.instance.links import Links
from pbem.post.mail.render import environment
from pbem.service import Player, Service
from pbem.web import create_app
from tests.leaks import PROBES, Secrets
from tests.leaks.webhooks import HookReader, Whispers, add_hooks
from pbem.post.mail.outbox import draft_of

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cat", "Dan", "Eve")]
SOON, EVERY = 60, 20  # the slower channels are read at each of the first moves, then every few moves
# The log: its lines since the last read, and all of it every WHOLE_LOG reads. An event's line says the same at every
# later read until the game ends (which ends the test), and what a reader may not know only shrinks as a game goes on
# (a card named to them once is never secret again), so a line read once is not read again at every later read.
WHOLE_LOG = 5
# Each game at three and four seats, from seeds whose random games are of a common length, not among the longest:
# every move is read by every reader, so the check's time follows the game's. (Moves to the end, and with the seeds
# used before: Emerald 1st 292 and 221 (412, 983), Emerald 2nd 255 and 270 (255, 443), Nanty Narking 169 and 178
# (297, 178).)
SEEDS = {"emerald": {3: 11, 4: 4}, "emerald1": {3: 6, 4: 10}, "nanty": {3: 3, 4: 12}}
GAMES = [(game_type, seats, SEEDS[game_type][seats]) for game_type in sorted(all_games()) for seats in (3, 4)]


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"instance": tmp_path / "inst", "secret_key": "leak-test-key", "TESTING": True})


@pytest.fixture
def service(app: Flask) -> Iterator[Service]:
    svc = Service.open(app.config["PBEM_SETTINGS"])
    yield svc
    svc.close()


def test_every_registered_game_has_a_probe() -> None:
    assert set(all_games()) <= set(PROBES)


class Reader:
    """One seat, or the spectator, and everything that reaches them."""

    def __init__(self, service: Service, client: FlaskClient, links: Links, game_id: str, seat: int | None) -> None:
        self.service, self.client, self.links, self.game_id, self.seat = service, client, links, game_id, seat
        self.email = PLAYERS[seat].email if seat is not None else None
        self.mails_read: set[str] = set()
        self.log_read, self.slow_reads = 0, 0  # the log is read whole every WHOLE_LOG-th time, else from there on

    def shown(self) -> Channels:
        return {"show": data(self.service.show(self.game_id, self.email))}

    def mails(self) -> Channels:
        rows = self.service.store.query("SELECT id, draft FROM outbox WHERE game_id = ? AND to_addr = ?",
                                        (self.game_id, self.email or ""))
        env = environment()
        found: Channels = {}
        for row in (r for r in rows if r["id"] not in self.mails_read):
            draft = draft_of(row)
            found[f"mail {row['id']} ({draft['template']})"] = ("\n".join([
                draft["subject"],
                env.get_template(f"mail/{draft['template']}.txt").render(**draft["context"]),
                env.get_template(f"mail/{draft['template']}.html").render(**draft["context"])]), None)
            self.mails_read.add(str(row["id"]))
        return found

    def everything_else(self) -> Channels:
        svc, gid = self.service, self.game_id
        after = 0 if self.slow_reads % WHOLE_LOG == 0 else self.log_read
        self.slow_reads, self.log_read = self.slow_reads + 1, svc.store.last(gid)[0]
        found = {"log": data(svc.log(gid, self.email, after_seq=after)),
                 "replay": data(svc.replay(gid, seat=self.seat))}
        if self.seat is None:
            pages = {"page": f"/games/{gid}", "api": f"/api/games/{gid}", "replay page": f"/games/{gid}/replay"}
        else:
            token = self.links.play(gid, self.seat, svc.store.last(gid)[0])
            pages = {"page": f"/play/{token}", "api": f"/api/play/{token}", "replay page": f"/play/{token}/replay"}
        for name, url in pages.items():
            response = self.client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            found[name] = (response.get_data(as_text=True), response.get_json() if response.is_json else None)
        return found


Channels = dict[str, tuple[str, Any]]


def data(value: Any) -> tuple[str, Any]:
    """A JSON channel: its text and its data, so card ids are looked for too."""
    return json.dumps(value), value


def scan(channels: Channels, secrets: Secrets, who: str, seq: int, words: list[str] = []) -> None:
    for channel, (text, value) in channels.items():
        leaked = secrets.find(text, value) + Whispers.found_in(text, words)
        assert not leaked, f"{who} reads {leaked} in the {channel} at event {seq}"


@pytest.mark.parametrize("game_type,seats,seed", GAMES)
def test_no_channel_tells_a_reader_what_they_may_not_know(app: Flask, service: Service, game_type: str,
                                                          seats: int, seed: int) -> None:
    client, links = app.test_client(), app.extensions["pbem.links"]
    game_id = service.create_game(game_type, PLAYERS[:seats], seed=f"leaks-{seed}").after.game_id
    readers = [Reader(service, client, links, game_id, seat) for seat in [None, *range(seats)]]
    probes = [PROBES[game_type](reader.seat) for reader in readers]
    # the game's webhook reads as the spectator, each player's as its player (tests/leaks/webhooks.py)
    hooks = {seat: HookReader(service, hook)
             for seat, hook in add_hooks(service, game_id, [p.email for p in PLAYERS[:seats]]).items()}
    pick, read = random.Random(seed), 0
    whispers = Whispers(random.Random(seed))
    for move in range(100_000):
        state = service.load(game_id)
        if state.ended:
            break
        if whispers.maybe_say(service, game_id, seats, move):  # a private message: only its two players read it
            state = service.load(game_id)
        events = service.store.read(game_id, read)
        read = state.seq
        slow = move < SOON or move % EVERY == 0
        for reader, probe in zip(readers, probes):
            secrets = probe(state, events)
            channels = {**reader.shown(), **reader.mails(), **hooks[reader.seat].posts()}
            if slow:
                channels.update(reader.everything_else())
            scan(channels, secrets, "the spectator" if reader.seat is None else PLAYERS[reader.seat].name, state.seq,
                 whispers.hidden_from(reader.seat))
        if slow:
            hooks[None].check_public(game_id)
        if slow:
            assert client.get(f"/games/{game_id}/record.jsonl").status_code in (403, 404)
        rules = service.kernel.rules(state)
        seat = pick.choice(sorted(rules.prompts(state.game)))
        legal = rules.legal_actions(state.game, seat)
        doing = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal  # games end sooner
        service.act_as(game_id, seat, pick.choice(doing), cause=Cause("test"))
    assert service.load(game_id).ended


def test_a_muster_tells_no_invitee_another_ones_address(app: Flask, service: Service) -> None:
    """Through invitation, decline, replacement and start: mails, invitation pages, the JSON API and the game."""
    from pbem.organising import muster, organisers
    from tests.leaks.muster import Addresses
    client, links = app.test_client(), app.extensions["pbem.links"]
    invited = [PLAYERS[0], PLAYERS[1], PLAYERS[2]]
    asked = organisers.check(service.kernel.games, "emerald", [(p.name, p.email) for p in invited], {}, {}, None)
    found = muster.open_muster(service, organiser="olive@example.org", organiser_name="Olive", game_type="emerald",
                               title=asked.title, players=asked.players, options=asked.options, data_override=None,
                               days=7, cause=Cause("test"))
    tokens = {p.email: links.make("invite", f"{found.muster_id}.{i}.{found.invitations[i].invitation}")
              for i, p in enumerate(invited)}

    def answer(slot: int, choice: str) -> None:
        current = muster.get(service.store, found.muster_id)
        muster.answer(service, found.muster_id, slot, current.invitations[slot].invitation, choice,
                      cause=Cause("test"))

    def scan_all() -> None:
        everyone = [p.email for p in invited] + [PLAYERS[3].email]
        for reader in everyone:
            secrets = Addresses.of(reader, "olive@example.org", everyone)
            channels: Channels = {}
            for row in service.store.query("SELECT id, draft FROM outbox WHERE to_addr = ?", (reader,)):
                draft = draft_of(row)
                env = environment()
                channels[f"mail {draft['subject']}"] = ("\n".join([
                    draft["subject"], env.get_template(f"mail/{draft['template']}.txt").render(**draft["context"]),
                    env.get_template(f"mail/{draft['template']}.html").render(**draft["context"])]), None)
            if reader in tokens:
                for url in (f"/invitation/{tokens[reader]}", f"/api/invitation/{tokens[reader]}"):
                    response = client.get(url)
                    channels[url] = (response.get_data(as_text=True), response.get_json() if response.is_json
                                     else None)
            scan(channels, secrets, reader, service.store.last(found.muster_id)[0])

    scan_all()
    answer(0, "accept")
    answer(1, "decline")
    scan_all()
    muster.replace(service, found.muster_id, 1, PLAYERS[3], days=7, cause=Cause("test"))
    tokens[PLAYERS[3].email] = links.make("invite", f"{found.muster_id}.1.{service.store.last(found.muster_id)[0]}")
    scan_all()
    answer(1, "accept")
    answer(2, "accept")
    scan_all()
    game_id = str(muster.get(service.store, found.muster_id).game_id)
    for seat, player in enumerate([PLAYERS[0], PLAYERS[3], PLAYERS[2]]):
        token = links.play(game_id, seat, service.store.last(game_id)[0])
        secrets = Addresses.of(player.email, "olive@example.org", [p.email for p in PLAYERS[:4]])
        channels = {url: (client.get(url).get_data(as_text=True), None)
                    for url in (f"/play/{token}", f"/api/play/{token}", f"/games/{game_id}")}
        scan(channels, secrets, player.name, service.store.last(game_id)[0])
