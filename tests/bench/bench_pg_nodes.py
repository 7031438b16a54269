"""The web round trip of a move on PostgreSQL: two web nodes against one, on one database, in the same run.

    python tests/bench/bench_pg_nodes.py [--seconds S] [--clients N] [--json]

Starts the tests' throwaway PostgreSQL server (``tests/pg.py``), then web server processes
(``tests/web/serve_highdie.py``: the app under threaded werkzeug, on loopback) over one database.
``--clients`` threads each play their own Highdie game through play links (a form POST with the
CSRF token and the page's seq: load, decide, append, outbox rows, the receipt page), for ``--seconds``
against one node, then the same against two nodes (the clients alternate between them). Reported:
moves per second and the median and 90th percentile round trip of each. The next link is worked out
outside the timed part. A script, not a test; the machine's cores bound what a second node can add.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from delivery import ANN, BEN, free_port, make_settings  # noqa: E402
from events.handling import Cause  # noqa: E402
from kernelgame import RULES  # noqa: E402
from pbem import games  # noqa: E402
from pbem.instance.links import Links  # noqa: E402
from pbem.service import Service  # noqa: E402
from pg import PgServer  # noqa: E402

SCRIPT = ROOT / "tests" / "web" / "serve_highdie.py"
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def start(instance: Path, url: str, count: int) -> list[tuple[subprocess.Popen[bytes], int]]:
    started = []
    for _ in range(count):
        port = free_port()
        process = subprocess.Popen([sys.executable, str(SCRIPT), str(instance), str(port)], cwd=ROOT,
                                   env={**os.environ, "PBEM_DATABASE": url}, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        started.append((process, port))
    for process, port in started:
        deadline = time.time() + 30
        while True:
            try:
                with OPENER.open(f"http://127.0.0.1:{port}/", timeout=2):
                    break
            except OSError:
                if time.time() > deadline or process.poll() is not None:
                    raise SystemExit(f"the server on port {port} did not start")
                time.sleep(0.1)
    return started


def play(service: Service, links: Links, ports: list[int], seconds: float, clients: int) -> dict[str, Any]:
    lock = threading.Lock()
    times: list[float] = []
    statuses: dict[int, int] = {}

    def client(index: int) -> None:
        game = None
        end = time.time() + seconds
        sent = 0
        while time.time() < end:
            with lock:  # the next link, outside the timed part (one service, shared)
                if game is None or service.show(game)["status"] != "running":
                    game = service.create_game("highdie", [ANN, BEN], seed=f"bench-{index}-{time.time()}",
                                               cause=Cause("cli")).after.game_id
                shown = service.show(game)
                seq, seat = shown["seq"], int(shown["waiting_for"][0]["seat"])
            token = links.play(game, seat, seq)
            form = urllib.parse.urlencode({"csrf": links.csrf(token), "seq": str(seq), "text": "bet 1"}).encode()
            port = ports[(index + sent) % len(ports)]
            began = time.perf_counter()
            try:
                with OPENER.open(urllib.request.Request(f"http://127.0.0.1:{port}/play/{token}", data=form),
                                 timeout=60) as response:
                    response.read()
                    status = response.status
            except urllib.error.HTTPError as err:
                err.close()
                status = err.code
            took = time.perf_counter() - began
            sent += 1
            with lock:
                times.append(took)
                statuses[status] = statuses.get(status, 0) + 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    began = time.time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.time() - began
    ordered = sorted(times)
    return {"nodes": len(ports), "moves": len(times), "moves_per_s": round(len(times) / elapsed, 1),
            "median_ms": round(statistics.median(ordered) * 1000, 1),
            "p90_ms": round(ordered[int(len(ordered) * 0.9)] * 1000, 1), "statuses": statuses}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games.register(RULES)
    server = PgServer()
    results = []
    try:
        url = server.url(server.create_database())
        folder = Path(server.folder) / "instance"
        settings = make_settings(folder, database=url)
        service = Service.open(settings)
        links = Links(settings.secret_keys, 86_400)
        for count in (1, 2):
            started = start(folder, url, count)
            try:
                play(service, links, [p for _, p in started], 2, args.clients)  # warm up
                results.append(play(service, links, [p for _, p in started], args.seconds, args.clients))
            finally:
                for process, _ in started:
                    process.terminate()
                    process.wait(timeout=10)
        service.close()
    finally:
        from events import pgstore
        pgstore.close_shared()
        server.stop()
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for r in results:
        print(f"{r['nodes']} node(s): {r['moves']} moves, {r['moves_per_s']}/s, median {r['median_ms']} ms, "
              f"p90 {r['p90_ms']} ms, statuses {r['statuses']}")


if __name__ == "__main__":
    main()
