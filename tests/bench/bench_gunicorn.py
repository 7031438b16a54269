"""Requests per second under the shipped gunicorn config: pbem's moves against a bare app's inserts.

    pip install -e '.[deploy]'    # gunicorn
    python tests/bench/bench_gunicorn.py [--seconds S] [--rounds N] [--clients N] [--games N] [--json]

Both apps are served by gunicorn with ``deploy/gunicorn.conf.py`` as shipped (2 x cores + 1 worker
processes of one thread, gunicorn's ``sync`` worker; ``PBEM_WEB_WORKERS`` and ``PBEM_WEB_THREADS`` set in
the environment change both apps alike), at the same time, on the same machine, each with its own instance
folder and a SQLite file (WAL, synchronous=FULL), and loaded in turn: ``--clients`` client threads post
to one app as fast as they are answered for ``--seconds``, then to the other, for ``--rounds`` rounds
(the order alternating), after ``--warmup`` seconds of the same load on each that are not counted (every
worker started, its imports done and its first requests served). A round's ratio compares two runs a few
seconds apart, so a change in what else the machine does hits both alike; the median ratio is reported:

* pbem: each client plays its own three-player A Study in Emerald games through the play page's form
  (``POST /play/<token>`` with the CSRF token and the page's move): the signed link and CSRF checked,
  the game loaded, the move decided and appended with its deadline and mails in one transaction, the
  receipt page rendered. The moves were recorded beforehand by playing the same seeds in another
  instance (random legal moves), and their links signed with the server's key, so the clients only send.
* bare: a Flask app whose one endpoint inserts the posted text into a table (one transaction).

Goal (issue "lean at scale"): pbem's requests per second at least 0.5x the bare app's (the median of the
rounds' ratios). Also the p50 and p99 latencies, the server's CPU per request, and any request that was
not answered 200. A script, not a test.

``--split K`` serves each app as K gunicorns instead of one (each of ``PBEM_WEB_WORKERS`` processes, so
``PBEM_WEB_WORKERS=1 ... --split 2`` is one process per core here) and sends each client's requests to one
of them: every move of a game reaches one process, as a proxy hashing on the game id (which a play link
carries in clear) would send it, without the proxy's own cost. It measures the most such routing could
give; it is not a shipped config.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import deque
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from events.handling import Cause  # noqa: E402
from pbem.instance.links import Links  # noqa: E402
from pbem.service import Player, Service  # noqa: E402
from pbem.web import create_app  # noqa: E402

SECRET = "bench-gunicorn-secret-key"
PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cy")]
BARE = '''
import os, sqlite3, threading
from flask import Flask, request
app = Flask("bare")
local = threading.local()
def conn():
    if not hasattr(local, "c"):
        c = sqlite3.connect(os.environ["BARE_DB"], isolation_level=None, check_same_thread=False)
        c.execute("PRAGMA journal_mode=WAL"); c.execute("PRAGMA synchronous=FULL"); c.execute("PRAGMA busy_timeout=10000")
        c.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT)")
        local.c = c
    return local.c
@app.post("/play/<token>")
def insert(token):
    c = conn(); c.execute("BEGIN IMMEDIATE"); c.execute("INSERT INTO t (body) VALUES (?)", (request.form["text"],))
    c.execute("COMMIT"); return "ok"
'''


def record(games: int, moves: int) -> list[list[tuple[str, int, int, str]]]:
    """Per game: its seed and the moves a random player makes, as (seed, seat, seq, text)."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-bench-record-"))
    app = create_app({"instance": folder / "inst", "secret_key": SECRET, "TESTING": True})
    service = Service.open(app.config["PBEM_SETTINGS"])
    scripts = []
    for g in range(games):
        seed = f"bench-gunicorn-{g}"
        game_id = service.create_game("emerald", PLAYERS, seed=seed).after.game_id
        pick = random.Random(g)
        script = []
        for _ in range(moves):
            state = service.load(game_id)
            if state.ended:
                break
            rules = service.kernel.rules(state)
            seat = sorted(rules.prompts(state.game))[0]
            legal = rules.legal_actions(state.game, seat)
            options = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
            action = pick.choice(options)
            script.append((seed, seat, state.seq, rules.format(state.game, action)))
            service.act_as(game_id, seat, action, cause=Cause("web"))
        scripts.append(script)
    service.close()
    shutil.rmtree(folder, ignore_errors=True)
    return scripts


def serve(kind: str, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "PBEM_BIND": f"127.0.0.1:{port}", "PBEM_INSTANCE": str(folder / "inst"),
           "PBEM_SECRET_KEY": SECRET, "PYTHONPATH": str(ROOT), "BARE_DB": str(folder / "bare.sqlite3")}
    if kind == "bare":
        (folder / "bare_app.py").write_text(BARE)
        env["PYTHONPATH"] = f"{folder}{os.pathsep}{ROOT}"
        target = "bare_app:app"
    else:
        target = "pbem.web:create_app()"
    child = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                              "--access-logfile", "/dev/null", "--error-logfile", str(folder / f"{kind}.log"),
                              target], env=env, cwd=str(folder), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            urllib.request.urlopen(base + "/nothing-here", timeout=1)
        except urllib.error.HTTPError:
            return child, base
        except OSError:
            time.sleep(0.05)
    child.terminate()
    raise RuntimeError(f"gunicorn ({kind}) did not start; see {folder / (kind + '.log')}")


def server_cpu(pid: int) -> float:
    """CPU seconds used so far by a gunicorn master and its workers (Linux ``/proc``; 0 elsewhere)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        total = 0
        for each in [str(pid), *children]:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def load(bases: list[str], forms: list[deque[tuple[str, dict[str, str]]]], seconds: float) -> dict[str, Any]:
    """Each client posts its own forms in order (taking them from its queue), as fast as answered, until the time
    is up; client ``n`` posts to ``bases[n % len(bases)]``."""
    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def client(base: str, mine: deque[tuple[str, dict[str, str]]]) -> None:
        while mine:
            if time.perf_counter() >= stop:
                return
            path, fields = mine.popleft()
            data = urllib.parse.urlencode(fields).encode()
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(urllib.request.Request(base + path, data=data, method="POST"),
                                            timeout=60) as answer:
                    answer.read()
                    ok = answer.status == 200
            except urllib.error.HTTPError as err:
                ok = False
                errors.append(f"{err.code} {path[:30]}")
            with lock:
                if ok:
                    times.append(time.perf_counter() - start)

    threads = [threading.Thread(target=client, args=(bases[n % len(bases)], mine)) for n, mine in enumerate(forms)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    ordered = sorted(times)
    return {"requests": len(times), "seconds": elapsed, "rps": len(times) / elapsed,
            "p50_ms": statistics.median(ordered) * 1000 if ordered else 0,
            "p99_ms": ordered[int(len(ordered) * 0.99)] * 1000 if ordered else 0, "errors": errors[:5],
            "error_count": len(errors)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4, help="seconds of load per app in each round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each the bare app then pbem (or the reverse)")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of load before measuring, for each app")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--games", type=int, default=3, help="games recorded per client (its supply of moves)")
    parser.add_argument("--moves", type=int, default=400, help="moves recorded per game at most")
    parser.add_argument("--split", type=int, default=1,
                        help="gunicorns per app, each client's games sent to one of them (game affinity)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        import gunicorn  # noqa: F401  (only whether it is there)
    except ImportError:
        sys.exit("gunicorn is not installed: pip install -e '.[deploy]'")

    scripts = record(args.clients * args.games, args.moves)
    folder = Path(tempfile.mkdtemp(prefix="pbem-bench-gunicorn-"))
    app = create_app({"instance": folder / "inst", "secret_key": SECRET, "TESTING": True})
    service = Service.open(app.config["PBEM_SETTINGS"])
    links = Links([SECRET], 30 * 86_400)
    forms: list[list[tuple[str, dict[str, str]]]] = [[] for _ in range(args.clients)]
    for n, script in enumerate(scripts):  # the same games on the served instance: the same seeds, so the same moves
        game_id = service.create_game("emerald", PLAYERS, seed=script[0][0]).after.game_id
        for _, seat, seq, text in script:  # a client plays its games one after the other
            token = links.play(game_id, seat, seq)
            forms[n % args.clients].append((f"/play/{token}", {"csrf": links.csrf(token), "text": text,
                                                               "seq": str(seq)}))
    service.close()

    servers = {kind: [serve(kind, folder) for _ in range(args.split)] for kind in ("bare", "pbem")}
    pbem_queues = [deque(mine) for mine in forms]  # each move is sent once, in order
    rounds: list[dict[str, Any]] = []
    try:
        def measure(kind: str, seconds: float) -> dict[str, Any]:
            children = [child.pid for child, _ in servers[kind]]
            # the bare app only stores what it is sent: it may be sent the same forms again
            queues = pbem_queues if kind == "pbem" else [deque(mine) for mine in forms]
            cpu = sum(map(server_cpu, children))
            result = load([base for _, base in servers[kind]], queues, seconds)
            result["server_cpu_ms"] = (sum(map(server_cpu, children)) - cpu) * 1000 / max(1, result["requests"])
            return result

        for kind in ("bare", "pbem"):
            measure(kind, args.warmup)  # every worker started and its first requests served, not counted
        for n in range(args.rounds):  # alternated, so that a change in the machine's load hits both alike
            order = ("bare", "pbem") if n % 2 == 0 else ("pbem", "bare")
            this = {kind: measure(kind, args.seconds) for kind in order}
            this["ratio"] = this["pbem"]["rps"] / this["bare"]["rps"]
            rounds.append(this)
    finally:
        for child, _ in [each for started in servers.values() for each in started]:
            child.terminate()
            child.wait(timeout=30)
    ratio = statistics.median(r["ratio"] for r in rounds)
    results = {"rounds": rounds, "ratio": ratio}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for n, r in enumerate(rounds, start=1):
        for kind in ("bare", "pbem"):
            k = r[kind]
            print(f"round {n} {kind:>5}: {k['requests']:5} requests in {k['seconds']:.1f} s = {k['rps']:6.1f}/s, "
                  f"p50 {k['p50_ms']:.1f} ms, p99 {k['p99_ms']:.1f} ms, server CPU {k['server_cpu_ms']:.2f} ms a "
                  f"request, {k['error_count']} not 200 {k['errors']}")
        print(f"round {n} ratio {r['ratio']:.2f}")
    print(f"ratio, median of {len(rounds)} rounds: {ratio:.2f} (goal >= 0.5): {'PASS' if ratio >= 0.5 else 'MISS'}")


if __name__ == "__main__":
    main()
