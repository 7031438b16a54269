"""Two web server processes on one database, raced through one link: one write wins, the rest are 409s.

On both engines: one SQLite file, then one PostgreSQL database (the nodes of a scaled-out service).

The servers are real processes (``serve_highdie.py``: the app under threaded werkzeug, on
loopback), so no lock inside one process can be what keeps two writes apart: only the
expected seq of every write and the store's ``(game_id, seq)`` key. Every loop is bounded
in rounds and in time.
"""

from __future__ import annotations

import json
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
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import pytest

from delivery import free_port, make_settings
from events.handling import Cause
from events.schema import ACTIONS_UNDONE
from pbem.instance.links import Links
from pbem.service import Service
from pbem.table.seat_events import ABSENCE_DECLARED, ABSENCE_STARTED
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


def post(port: int, path: str, form: Mapping[str, Any], as_json: bool = False) -> int:
    """POST a form (or, ``as_json``, the same as a JSON body); the answer's status."""
    data = json.dumps(form).encode() if as_json else urllib.parse.urlencode(form).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method="POST", data=data,
                                     headers={"Content-Type": "application/json"} if as_json else {})
    try:
        with OPENER.open(request, timeout=60) as response:
            return int(response.status)
    except urllib.error.HTTPError as err:
        err.close()
        return int(err.code)


def race(posts: Sequence[tuple[int, str, Mapping[str, Any]]], delays: list[float] | None = None,
         as_json: bool = False) -> list[int]:
    """Send every POST at once (or ``delays`` seconds after), each from its own thread; their statuses in order."""
    statuses = [0] * len(posts)
    start = threading.Barrier(len(posts))

    def send(index: int) -> None:
        port, path, form = posts[index]
        start.wait()
        if delays:
            time.sleep(delays[index])
        statuses[index] = post(port, path, form, as_json)

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
            assert sorted(statuses) == [200] + [409] * 7, statuses  # a lost race is always 409
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


def test_eight_declarations_of_one_absence_at_once_record_one_and_the_allowance_holds(
        servers: Servers, highdie_registered: None) -> None:
    """Ann declares the same 40-day absence eight times at once, four through each server: one is recorded, it
    stops her clock for the game's 14 days and no more; each of the other seven either came after it and is refused
    (400: it overlaps the one recorded) or passed its check before it and lost the race at its append (409: checked
    again on what came first)."""
    service = servers.service()
    seen: Counter[int] = Counter()
    began, rounds = time.time(), 0
    try:
        while rounds < ROUNDS and time.time() - began < SECONDS:
            game = service.create_game("highdie", [ANN, BEN], seed=f"race-away-{rounds}").after.game_id
            due = _due(service, game, 0)
            token = servers.links.play(game, 0, service.store.last(game)[0])
            today = datetime.now(timezone.utc).date()
            body = {"from": today.isoformat(), "until": (today + timedelta(days=40)).isoformat()}
            statuses = race([(port, f"/api/play/{token}/away", body) for port in servers.ports for _ in range(4)],
                            as_json=True)
            events = service.store.read(game)
            assert [e.type for e in events].count(ABSENCE_DECLARED) == 1, statuses
            assert [e.type for e in events].count(ABSENCE_STARTED) == 1
            assert _due(service, game, 0) - due == timedelta(days=14)  # the allowance, to the second
            assert statuses.count(200) == 1 and set(statuses) <= {200, 400, 409}, statuses
            seen.update(statuses)
            rounds += 1
            assert service.verify(game).ok
    finally:
        service.close()
    print(f"\nabsence race: {rounds} rounds, statuses {dict(seen)}")
    assert rounds >= 3


def _due(service: Service, game: str, seat: int) -> datetime:
    rows = service.store.query("SELECT due_at FROM deadlines WHERE game_id = ? AND seat = ?", (game, seat))
    return datetime.fromisoformat(rows[0]["due_at"])


def test_every_write_that_loses_a_race_answers_409(servers: Servers, highdie_registered: None) -> None:
    """Pairs of writes through the two servers, each of which alone would be accepted at the move both pages showed,
    and which cannot both be (a move and a request to take it back can: the move closes the request): one is
    recorded (200), and the other, whatever refused it after the first came in (the turn gone, another request
    open, the answer given already, the move taken back), answers 409: a lost race is never a 400 or a 422."""
    service = servers.service()
    seen: Counter[str] = Counter()
    began, rounds = time.time(), 0
    try:
        while rounds < ROUNDS and time.time() - began < SECONDS:
            for kind in ("move/move", "api move/api move", "undo request/undo request", "undo/move",
                         "answer/answer", "pause/pause"):
                game = service.create_game("highdie", [ANN, BEN], seed=f"lost-{rounds}-{kind}").after.game_id
                service.act_as(game, 0, "bet 1", cause=CLI)  # Ben to move, and Ann may take hers back alone
                if kind != "undo/move":
                    service.act_as(game, 1, "bet 1", cause=CLI)  # Ann to move; her last move is beyond her own undo
                if kind == "answer/answer":
                    service.request_undo(game, 0, "a slip", cause=CLI)
                seq = service.store.last(game)[0]
                posts = _pair(servers, service, game, seq, kind)
                delay = 0.003 * (rounds % 4)  # the second a little later, now and then: each window of the race
                statuses = race([p[:3] for p in posts], delays=[0, delay], as_json=posts[0][3])
                assert sorted(statuses) == [200, 409], (kind, statuses)
                seen[kind] += 1
                assert service.verify(game).ok
            rounds += 1
    finally:
        service.close()
    print(f"\nlost races: {rounds} rounds of {dict(seen)}")
    assert rounds >= 2


def _pair(servers: Servers, service: Service, game: str, seq: int,
          kind: str) -> list[tuple[int, str, Mapping[str, Any], bool]]:
    """Two writes of ``kind`` at ``seq``, the first through one server and the second through the other."""
    one, two = servers.ports
    ann = servers.links.play(game, 0, seq)
    form = {"csrf": servers.links.csrf(ann), "seq": str(seq)}
    move = {**form, "text": "bet 2"}
    ask = {**form, "reason": "a slip"}
    if kind == "move/move":
        return [(one, f"/play/{ann}", move, False), (two, f"/play/{ann}", {**form, "text": "bet 3"}, False)]
    if kind == "api move/api move":
        return [(one, f"/api/play/{ann}", {"action": {"kind": "bet", "points": 2}}, True),
                (two, f"/api/play/{ann}", {"action": {"kind": "bet", "points": 3}}, True)]
    if kind == "undo request/undo request":
        return [(one, f"/play/{ann}/undo-request", ask, False), (two, f"/play/{ann}/undo-request", ask, False)]
    if kind == "undo/move":
        ben = servers.links.play(game, 1, seq)
        return [(one, f"/play/{ann}/undo", form, False),
                (two, f"/play/{ben}", {"csrf": servers.links.csrf(ben), "seq": str(seq), "text": "bet 2"}, False)]
    if kind == "answer/answer":
        request = service.undo_request(game)
        assert request is not None
        ben = servers.links.undo(game, request.request, 1)
        answer = {"csrf": servers.links.csrf(ben), "seq": str(seq), "answer": "approve"}
        return [(one, f"/undo/{ben}", answer, False), (two, f"/undo/{ben}", {**answer, "answer": "refuse"}, False)]
    organiser = servers.links.make("organiser", game)
    pause = {"csrf": servers.links.csrf(organiser), "seq": str(seq), "what": "pause"}
    return [(one, f"/organise/{organiser}", pause, False), (two, f"/organise/{organiser}", pause, False)]
