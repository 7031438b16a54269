"""Two web server processes on one database, raced through one link: one write wins, the rest are 409s.

On both engines: one SQLite file, then one PostgreSQL database (the nodes of a scaled-out service).

The servers are real processes (``serve_highdie.py``: the app under threaded werkzeug, on
loopback), so no lock inside one process can be what keeps two writes apart: only the
expected seq of every write and the store's ``(game_id, seq)`` key. Every loop is bounded
in rounds and in time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from delivery import free_port, make_settings
from events.handling import Cause
from events.schema import ACTIONS_UNDONE
from pbem.instance.links import Links
from pbem.service import Service
from web.conftest import ANN, BEN

SCRIPT = Path(__file__).with_name("serve_highdie.py")
ROOT = Path(__file__).parent.parent.parent
CLI = Cause("cli")
ROUNDS = 12
SECONDS = 45          # each test stops starting rounds after this long
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy


@dataclass
class Servers:
    ports: list[int]
    instance: Path
    links: Links
    database: str | None = None

    def service(self) -> Service:
        return Service.open(make_settings(self.instance, **({"database": self.database} if self.database else {})))


def wait_until_up(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.time() + 30
    while True:
        assert process.poll() is None, log.read_text()
        try:
            with OPENER.open(f"http://127.0.0.1:{port}/", timeout=2):
                return
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def servers(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    folder = tmp_path_factory.mktemp("race")
    instance = folder / "inst"
    database, env = None, dict(os.environ)
    if request.param == "postgresql":
        server = request.getfixturevalue("pg_server")
        database = env["PBEM_DATABASE"] = server.url(server.create_database())
    settings = make_settings(instance, **({"database": database} if database else {}))
    ports = [free_port(), free_port()]
    started: list[tuple[subprocess.Popen[bytes], Path]] = []
    try:
        for port in ports:
            log = folder / f"server-{port}.log"
            with open(log, "wb") as out:
                started.append((subprocess.Popen([sys.executable, str(SCRIPT), str(instance), str(port)], cwd=ROOT,
                                                 stdout=out, stderr=subprocess.STDOUT, env=env), log))
        for port, (process, log) in zip(ports, started):
            wait_until_up(port, process, log)
        yield Servers(ports, instance, Links(settings.secret_keys, 86_400), database)
    finally:
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
    for _, log in started:
        assert " 500 " not in log.read_text(), "a server answered 500"


def post(port: int, path: str, form: dict[str, str]) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method="POST",
                                     data=urllib.parse.urlencode(form).encode())
    try:
        with OPENER.open(request, timeout=60) as response:
            return int(response.status)
    except urllib.error.HTTPError as err:
        err.close()
        return int(err.code)


def race(posts: list[tuple[int, str, dict[str, str]]], delays: list[float] | None = None) -> list[int]:
    """Send every POST at once (or ``delays`` seconds after), each from its own thread; their statuses in order."""
    statuses = [0] * len(posts)
    start = threading.Barrier(len(posts))

    def send(index: int) -> None:
        port, path, form = posts[index]
        start.wait()
        if delays:
            time.sleep(delays[index])
        statuses[index] = post(port, path, form)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses


def test_concurrent_undos_through_one_link_take_back_exactly_one_move(servers: Servers,
                                                                     highdie_registered: None) -> None:
    service = servers.service()
    game = service.create_game("highdie", [ANN, BEN], seed="race-undo").after.game_id
    seen: Counter[int] = Counter()
    began, rounds = time.time(), 0
    try:
        while rounds < ROUNDS and time.time() - began < SECONDS:
            service.act_as(game, 0, "bet 1", cause=CLI)  # Ann may take it back alone
            seq = service.store.last(game)[0]
            token = servers.links.play(game, 0, seq)
            form = {"csrf": servers.links.csrf(token), "seq": str(seq)}
            statuses = race([(port, f"/play/{token}/undo", form) for port in servers.ports for _ in range(4)])
            undone = [e for e in service.store.read(game, seq) if e.type == ACTIONS_UNDONE]
            assert sorted(statuses) == [200] + [409] * 7, statuses
            assert len(undone) == 1 and undone[0].payload["from_seq"] < seq
            seen.update(statuses)
            rounds += 1
        assert service.verify(game).ok
    finally:
        service.close()
    print(f"\nundo race: {rounds} rounds, {sum(seen.values())} POSTs, statuses {dict(seen)}")
    assert rounds >= 3


def test_a_move_and_an_undo_raced_through_one_link_are_never_both_applied(servers: Servers,
                                                                         highdie_registered: None) -> None:
    service = servers.service()
    seen: Counter[str] = Counter()
    began, rounds = time.time(), 0
    try:
        while rounds < ROUNDS and time.time() - began < SECONDS:
            game = service.create_game("highdie", [ANN, BEN], seed=f"race-move-{rounds}").after.game_id
            service.act_as(game, 0, "bet 1", cause=CLI)
            service.act_as(game, 1, "bet 1", cause=CLI)  # Ann to move; her last move is no longer hers to undo...
            seq = service.store.last(game)[0]
            token = servers.links.play(game, 0, seq)
            csrf = servers.links.csrf(token)
            first, second = servers.ports
            statuses = race([(first, f"/play/{token}", {"csrf": csrf, "seq": str(seq), "text": "bet 3"}),
                             (second, f"/play/{token}/undo", {"csrf": csrf, "seq": str(seq)}),
                             (first, f"/play/{token}/undo", {"csrf": csrf, "seq": str(seq)})],
                            delays=[0, 0.004 * (rounds % 6), 0.008 * (rounds % 6)])  # the undo later and later
            after = service.store.read(game, seq)
            moved = any(e.type == "dice.Bet" and e.payload["points"] == 3 for e in after)
            undone = any(e.type == ACTIONS_UNDONE for e in after)
            assert not (moved and undone), (statuses, [e.type for e in after])  # ...nor the one she makes now
            assert statuses[0] == 200 and moved and set(statuses[1:]) <= {409, 422}, statuses
            seen.update(f"move {statuses[0]}, undo {s}" for s in statuses[1:])
            rounds += 1
    finally:
        service.close()
    print(f"\nmove/undo race: {rounds} rounds, {dict(seen)}")
    assert rounds >= 3


def test_a_move_standing_orders_and_organiser_records_at_once_give_no_server_error(servers: Servers,
                                                                                   highdie_registered: None) -> None:
    service = servers.service()
    game = service.create_game("highdie", [ANN, BEN], seed="race-mixed").after.game_id
    service.set_standing_order(game, 1, "highdie.contest", "ask", cause=CLI)  # Ben has a topic to set
    organiser = servers.links.make("organiser", game)
    seen: Counter[str] = Counter()
    began, rounds = time.time(), 0
    try:
        while rounds < 4 and time.time() - began < SECONDS:
            seq = service.store.last(game)[0]
            turn = int(service.show(game)["waiting_for"][0]["seat"])
            mover, ben = servers.links.play(game, turn, seq), servers.links.play(game, 1, seq)
            form = {"seq": str(seq)}
            posts = [(servers.ports[0], f"/play/{mover}", {**form, "csrf": servers.links.csrf(mover), "text": "bet 1"})]
            for i, answer in enumerate(["always", "never", "ask"] * 2):
                posts.append((servers.ports[i % 2], f"/play/{ben}/orders",
                              {**form, "csrf": servers.links.csrf(ben), "topic": "highdie.contest",
                               "answer": answer}))
            for i, what in enumerate(["pause", "extend", "resume", "extend", "pause"]):
                posts.append((servers.ports[(i + 1) % 2], f"/organise/{organiser}",
                              {**form, "csrf": servers.links.csrf(organiser), "what": what, "hours": "1"}))
            statuses = race(posts)
            kinds = ["move"] + ["order"] * 6 + ["organiser"] * 5
            seen.update(f"{kind} {status}" for kind, status in zip(kinds, statuses))
            assert set(statuses) <= {200, 409}, list(zip(kinds, statuses))
            rounds += 1
        assert service.verify(game).ok
    finally:
        service.close()
    print(f"\nmixed race: {rounds} rounds, {dict(sorted(seen.items()))}")
    assert rounds >= 2
