"""Several nodes on one PostgreSQL database: two workers, a worker killed mid-batch, the database restarted.

Real processes (``pbem worker``, web servers) over a real server (``tests/pg.py``) and a real SMTP server on loopback:
only the database keeps them apart. Two web processes racing moves on one prompt are in
``tests/web/test_web_race_processes.py`` (on both engines).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from delivery import ANN, BEN, free_port, make_settings, smtp_server
from events.audit import verify_chain
from events.handling import Cause
from events.store import StoreUnavailable
from pbem.post.mail.dispatch import dispatch, status
from pbem.post.mail.transport import SMTPTransport
from pbem.service import Service
from pbem.web import create_app
from test_mail_claims import SENDER, SlowInbox, queue_mails

pytestmark = pytest.mark.usefixtures("highdie_registered")
ROOT = Path(__file__).parent.parent
CLI = Cause("cli")


@pytest.fixture
def node(pg_server: Any, tmp_path: Path) -> Iterator[tuple[Service, str]]:
    """A service on a fresh PostgreSQL database, and that database's address."""
    url = pg_server.url(pg_server.create_database())
    service = Service.open(make_settings(tmp_path / "inst", database=url, database_timeout=2.0))
    yield service, url
    service.close()
    from events import pgstore
    pgstore.close_shared()


def until(check: Callable[[], bool], seconds: float = 60) -> bool:
    deadline = time.time() + seconds
    while not check():
        if time.time() > deadline:
            return False
        time.sleep(0.1)
    return True


def workers(service: Service, url: str, port: int, count: int) -> list[subprocess.Popen[str]]:
    assert service.settings is not None
    env = {**os.environ, "PBEM_INSTANCE": str(service.settings.instance), "PBEM_DATABASE": url,
           "PBEM_MAIL_TRANSPORT": "smtp", "PBEM_SMTP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(port),
           "PBEM_SMTP_SECURITY": "none", "PBEM_DISPATCH_SECONDS": "1", "PBEM_DEADLINE_SECONDS": "1"}
    return [subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], cwd=ROOT, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for _ in range(count)]


def stop(processes: list[subprocess.Popen[str]]) -> list[str]:
    """Stop as systemd does (SIGTERM): each worker finishes its running jobs and says it stopped."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    return [process.communicate(timeout=60)[0] for process in processes]


def sending_processes(service: Service) -> set[int]:
    """The processes that made the attempts (a sender's owner id is host:pid:run)."""
    return {int(str(r["sender"]).split(":")[1]) for r in service.store.query("SELECT DISTINCT sender FROM mail_attempts")}


def sent(service: Service) -> int:
    return int(status(service.store)["counts"].get("sent", 0))


def test_two_workers_on_one_database_send_each_mail_once_and_one_leads(node: tuple[Service, str]) -> None:
    service, url = node
    ids = queue_mails(service, 60)
    inbox, port = SlowInbox(), free_port()
    server = smtp_server(inbox, port)
    try:
        started = workers(service, url, port, 2)
        try:
            assert until(lambda: sent(service) == 60), status(service.store)
        finally:
            outputs = stop(started)
    finally:
        server.stop()
    counts = Counter(str(m["Message-ID"]) for m in inbox.messages)
    assert set(counts) == ids and max(counts.values()) == 1, f"sent twice: {[m for m, n in counts.items() if n > 1]}"
    assert len(sending_processes(service)) == 1, "both workers sent"
    assert sum("waits to take over" in out for out in outputs) == 1, outputs
    assert all(p.returncode == 0 for p in started), outputs
    assert all(out.rstrip().endswith("pbem worker stopped") for out in outputs), outputs


def test_a_worker_killed_mid_batch_loses_nothing_and_the_other_takes_over(node: tuple[Service, str]) -> None:
    service, url = node
    ids = queue_mails(service, 60)
    inbox, port = SlowInbox(), free_port()
    inbox.delay = 0.05
    server = smtp_server(inbox, port)
    try:
        started = workers(service, url, port, 2)
        try:
            assert until(lambda: sent(service) >= 10)
            [pid] = sending_processes(service)
            killed = next(p for p in started if p.pid == pid)
            killed.kill()  # mid-batch: its claim on the mail it was sending stays behind
            killed.wait(timeout=30)
            # the other worker takes the lock over and sends the rest; a claim of the dead one waits for its lease
            assert until(lambda: sent(service) >= 59), status(service.store)
        finally:
            stop(started)
        left = service.store.query("SELECT id, claimed_by FROM outbox WHERE status != 'sent'")
        assert all(int(r["claimed_by"].split(":")[1]) == pid for r in left), left  # only what the dead worker held, nothing lost
        # once its lease has run out, the next run sends it (the same Message-ID)
        later = datetime.now(timezone.utc) + timedelta(hours=1)
        dispatch(service.store, SMTPTransport("127.0.0.1", port, "none"), SENDER, max_attempts=3, retry_seconds=1,
                 now=later)
    finally:
        server.stop()
    assert status(service.store)["counts"] == {"sent": 60}
    assert set(str(m["Message-ID"]) for m in inbox.messages) == ids
    assert len(sending_processes(service)) >= 2, "the second worker never took over"


def test_a_database_restart_fails_commands_clearly_and_loses_or_doubles_nothing(node: tuple[Service, str],
                                                                                pg_server: Any) -> None:
    service, url = node
    game = service.create_game("highdie", [ANN, BEN], seed="restart").after.game_id
    inbox, port = SlowInbox(), free_port()
    server = smtp_server(inbox, port)
    try:
        started = workers(service, url, port, 1)
        try:
            def move() -> None:
                state = service.load(game)
                seat = next(iter(service.kernel.rules(state).prompts(state.game)))
                service.act_as(game, seat, "bet 1", cause=CLI)

            for _ in range(3):
                move()
            assert service.settings is not None
            web = create_app({"instance": service.settings.instance, "database": url, "TESTING": True}).test_client()
            assert web.get(f"/games/{game}").status_code == 200
            pg_server.pause()
            try:
                with pytest.raises(StoreUnavailable, match="cannot be reached.*nothing was written"):
                    move()
                page = web.get(f"/games/{game}")
                assert page.status_code == 503 and "nothing was changed" in page.get_data(as_text=True)
            finally:
                pg_server.start()
            # the same service (its pool) works again without a restart
            assert until(lambda: _works(move), 30)
            assert web.get(f"/games/{game}").status_code == 200
            for _ in range(2):
                move()
            outbox = service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"]
            assert until(lambda: sent(service) == outbox), status(service.store)
        finally:
            outputs = stop(started)
    finally:
        server.stop()
    events = service.store.read(game)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert verify_chain(events, game, service.kernel.seed(game)) is None
    counts = Counter(str(m["Message-ID"]) for m in inbox.messages)
    assert len(counts) == outbox and max(counts.values()) == 1, "a mail was lost or sent twice"
    assert started[0].returncode == 0, outputs


def _works(step: Callable[[], None]) -> bool:
    try:
        step()
        return True
    except StoreUnavailable:
        return False


def test_two_web_nodes_and_two_workers_apply_one_of_each_raced_move_and_mail_each_once(
        node: tuple[Service, str]) -> None:
    """The whole scaled-out service on one database: the same move posted to both web nodes at once, rounds on
    end, while both workers run (one leading): each round exactly one POST applies, and every mail goes once."""
    from pbem.instance.links import Links
    from web.test_web_race_processes import SCRIPT, race, wait_until_up
    service, url = node
    assert service.settings is not None
    links = Links(service.settings.secret_keys, 86_400)
    game = service.create_game("highdie", [ANN, BEN], seed="nodes").after.game_id
    inbox, port = SlowInbox(), free_port()
    server = smtp_server(inbox, port)
    ports = [free_port(), free_port()]
    webs = [subprocess.Popen([sys.executable, str(SCRIPT), str(service.settings.instance), str(p)], cwd=ROOT,
                             env={**os.environ, "PBEM_DATABASE": url}, stdout=subprocess.DEVNULL,
                             stderr=subprocess.STDOUT) for p in ports]
    started = workers(service, url, port, 2)
    wins = 0
    try:
        for p, web in zip(ports, webs):
            wait_until_up(p, web, Path(os.devnull))
        for _ in range(6):
            shown = service.show(game)
            if shown["status"] != "running":
                break
            seq, seat = shown["seq"], int(shown["waiting_for"][0]["seat"])
            token = links.play(game, seat, seq)
            form = {"csrf": links.csrf(token), "seq": str(seq), "text": "bet 1"}
            statuses = race([(p, f"/play/{token}", form) for p in ports for _ in range(2)])
            assert sorted(statuses) == [200, 409, 409, 409], statuses
            assert len([e for e in service.store.read(game, seq) if e.type == "dice.Bet"]) == 1
            wins += 1
        outbox = service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"]
        assert until(lambda: sent(service) == outbox), status(service.store)
    finally:
        for web in webs:
            web.terminate()
            web.wait(timeout=30)
        outputs = stop(started)
        server.stop()
    assert wins >= 3
    counts = Counter(str(m["Message-ID"]) for m in inbox.messages)
    assert len(counts) == outbox and max(counts.values()) == 1, "a mail was lost or sent twice"
    assert len(sending_processes(service)) == 1, "both workers sent"
    assert service.verify(game).ok and all(p.returncode == 0 for p in started), outputs
