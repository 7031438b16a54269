"""A seat's life leaks nothing: in seeded games of every registered game a player goes away with a reason they
keep to themselves, resigns, and their seat is given to a new player. At every move every reader's channels are
scanned as in ``tests/test_leaks.py``; the new player's welcome mail (the seat's view and history) with the
seat's probe, the old player's notice and the organiser's mail with the spectator's: they carry no hidden thing."""

from __future__ import annotations

import random
import zlib
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask

from events.handling import Cause
from pbem.table import seatlife
from pbem.games import all_games
from pbem.post.mail.outbox import draft_of
from pbem.post.mail.render import environment
from pbem.service import Player, Service
from pbem.web import create_app
from tests.leaks import PROBES
from tests.test_leaks import PLAYERS, Reader, scan

FAY = Player("fay@example.org", "Fay")
KEPT = "a very private operation"
ORG = "org@example.org"


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"instance": tmp_path / "inst", "secret_key": "leak-test-key", "TESTING": True})


@pytest.fixture
def service(app: Flask) -> Iterator[Service]:
    svc = Service.open(app.config["PBEM_SETTINGS"])
    yield svc
    svc.close()


class Words:
    """The kept reason, as a probe's secrets: no reader but its writer may read it."""

    def find(self, text: str, data: object = None) -> list[str]:
        return [KEPT] if KEPT in text else []


def mails_to(service: Service, game_id: str, address: str, kinds: tuple[str, ...]) -> dict[str, tuple[str, None]]:
    env = environment()
    found = {}
    for row in service.store.query("SELECT id, kind, draft FROM outbox WHERE to_addr = ?", (address,)):
        if row["kind"] in kinds:
            draft = draft_of(row)
            found[f"mail {row['id']} ({row['kind']})"] = ("\n".join([
                draft["subject"], env.get_template(f"mail/{draft['template']}.txt").render(**draft["context"]),
                env.get_template(f"mail/{draft['template']}.html").render(**draft["context"])]), None)
    return found


@pytest.mark.parametrize("game_type", [g if g == "emerald" else pytest.param(g, marks=pytest.mark.slow)
                                       for g in sorted(all_games())])
def test_away_resigned_and_replaced_seats_leak_nothing(app: Flask, service: Service, game_type: str) -> None:
    client, links = app.test_client(), app.extensions["pbem.links"]
    game_id = service.create_game(game_type, PLAYERS[:3], seed="leaks-seats", organiser=ORG,  # a fixed id: the
                                  game_id=f"{zlib.crc32(game_type.encode()):08x}00").after.game_id  # bot's seed
    readers = [Reader(service, client, links, game_id, seat) for seat in (None, 0, 1, 2)]
    probes = [PROBES[game_type](reader.seat) for reader in readers]
    pick, read, replaced = random.Random(5), 0, False
    first, back = date.today() + timedelta(days=1), date.today() + timedelta(days=6)
    service.declare_absence(game_id, 2, first.isoformat(), back.isoformat(), KEPT, cause=Cause("test"))
    for move in range(100_000):
        state = service.load(game_id)
        if state.ended:
            break
        if move == 20:
            service.seat_command(game_id, 1, "resign", cause=Cause("test"))
        if move == 30:
            service.replace(game_id, 1, FAY, cause=Cause("test"))
            readers[2].email, replaced = FAY.email, True
        events = service.store.read(game_id, read)
        read = state.seq
        slow = move < 36 or move % 40 == 0
        for reader, probe in zip(readers, probes):
            secrets = probe(state, events)
            channels = {**reader.shown(), **reader.mails()}
            if slow:
                channels.update(reader.everything_else())
            name = "the spectator" if reader.seat is None else f"seat {reader.seat}"
            scan(channels, secrets, name, state.seq)
            if reader.seat != 2:
                scan(channels, Words(), name, state.seq)
        spectator = probes[0](state, [])
        told = {**mails_to(service, game_id, PLAYERS[1].email, ("seat_given",)),
                **mails_to(service, game_id, ORG, ("substitute",))}
        scan(told, spectator, "the old player or the organiser", state.seq)
        scan(told, Words(), "the old player or the organiser", state.seq)
        rules = service.kernel.rules(state)
        prompts = rules.prompts(state.game)
        seat = pick.choice(sorted(prompts))
        legal = rules.legal_actions(state.game, seat)
        doing = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
        if seat == 1 and not replaced and move >= 20:
            seatlife.tick(service, datetime.now(timezone.utc))  # the resigned seat plays on by autopilot
            continue
        service.act_as(game_id, seat, pick.choice(doing), cause=Cause("test"))
    assert service.load(game_id).ended
    assert service.store.query("SELECT 1 FROM outbox WHERE to_addr = ? AND kind = 'welcome'", (FAY.email,))
    assert service.verify(game_id).ok
