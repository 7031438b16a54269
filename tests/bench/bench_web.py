"""HTTP round trip of an action, against a bare Flask endpoint doing one SQLite insert; memory over many actions.

    python tests/bench/bench_web.py [--requests N] [--memory-actions N]

Both servers run in the same way (werkzeug's threaded server in a child process on loopback),
both write to SQLite with WAL and synchronous=FULL, and the client sends the same kind of form
POST. pbem's request goes through a signed link with a CSRF token, loads the game, decides,
appends the events, the deadline and the outbox rows in one transaction, and renders the
receipt page. Goal: median within 3x of the bare endpoint. Then the child serving pbem takes
``--memory-actions`` actions and its resident memory is sampled: it should stay flat.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

SERVER = r"""
import sys, sqlite3, threading
sys.path.insert(0, {root!r}); sys.path.insert(0, {tests!r})
from werkzeug.serving import make_server
kind, port, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if kind == "bare":
    from flask import Flask, request
    app = Flask("bare")
    local = threading.local()
    def conn():
        if not hasattr(local, "c"):
            c = sqlite3.connect(folder + "/bare.sqlite3", isolation_level=None, check_same_thread=False)
            c.execute("PRAGMA journal_mode=WAL"); c.execute("PRAGMA synchronous=FULL")
            c.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT)")
            local.c = c
        return local.c
    @app.post("/insert")
    def insert():
        c = conn(); c.execute("BEGIN IMMEDIATE"); c.execute("INSERT INTO t (body) VALUES (?)", (request.form["text"],))
        c.execute("COMMIT"); return "ok"
else:
    from kernelgame import RULES
    from pbem import games
    games.register(RULES)
    from pbem.web import create_app
    app = create_app({{"instance": folder + "/inst", "secret_key": "bench-secret-key"}})
make_server("127.0.0.1", port, app, threaded=True).serve_forever()
"""


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(kind: str, folder: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    code = SERVER.format(root=str(ROOT), tests=str(ROOT / "tests"))
    child = subprocess.Popen([sys.executable, "-c", code, kind, str(port), folder], stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/nothing", timeout=1)
        except urllib.error.HTTPError:
            return child, base
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{kind} server did not start")


def post(url: str, fields: dict[str, str]) -> float:
    data = urllib.parse.urlencode(fields).encode()
    start = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, data=data, method="POST"), timeout=30) as response:
        response.read()
        assert response.status == 200, response.status
    return time.perf_counter() - start


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Player:
    """Plays a game (A Study in Emerald, three players, random legal moves; or Highdie) through the pages' form
    POSTs, creating a new game when one ends."""

    def __init__(self, folder: str, game_type: str = "emerald") -> None:
        import random
        self.game_type, self.pick = game_type, random.Random(1)
        sys.path.insert(0, str(ROOT))
        sys.path.insert(0, str(ROOT / "tests"))
        from kernelgame import RULES
        from pbem.instance import config
        from pbem import games
        from pbem.service import Player as P, Service
        games.register(RULES)
        self.settings = config.Settings(Path(folder) / "inst",
                                        {**config.load(Path(folder) / "inst", environ={}).values,
                                         "secret_key": "bench-secret-key"})
        self.service = Service.open(self.settings)
        self.players = [P("a@example.org", "A"), P("b@example.org", "B"), P("c@example.org", "C")]
        self.game = ""
        self.new_game()

    def new_game(self) -> None:
        players = self.players if self.game_type == "emerald" else self.players[:2]
        self.game = self.service.create_game(self.game_type, players).after.game_id

    def next_form(self) -> tuple[str, dict[str, str]]:
        state = self.service.load(self.game)
        if state.ended:
            self.new_game()
            state = self.service.load(self.game)
        rules = self.service.kernel.rules(state)
        seat, prompt = next(iter(rules.prompts(state.game).items()))
        links = self.service.notifier.links  # type: ignore[union-attr]
        token = links.play(self.game, seat, state.seq)
        if self.game_type == "emerald":
            legal = rules.legal_actions(state.game, seat)
            moves = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
            text = rules.format(state.game, self.pick.choice(moves))
        else:
            text = "bet 1" if prompt.kind == "turn" else "accept"
        return f"/play/{token}", {"csrf": links.csrf(token), "text": text, "seq": str(state.seq)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--memory-actions", type=int, default=10_000)
    parser.add_argument("--game", choices=("emerald", "highdie"), default="emerald")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bare, bare_base = start("bare", folder)
        ours, our_base = start("pbem", folder)
        player = Player(folder, args.game)
        bare_times, our_times = [], []
        try:
            for i in range(args.requests):
                bare_times.append(post(bare_base + "/insert", {"text": f"row {i}"}))
                path, fields = player.next_form()
                our_times.append(post(our_base + path, fields))
            base, mine = statistics.median(bare_times), statistics.median(our_times)
            print(f"action round trip over HTTP ({args.game}), {args.requests} requests each, interleaved (median)")
            print(f"  bare Flask endpoint, one SQLite insert: {base * 1000:7.2f} ms")
            print(f"  pbem POST through a signed link:        {mine * 1000:7.2f} ms")
            print(f"  ratio {mine / base:.2f} (goal <= 3): {'PASS' if mine / base <= 3 else 'MISS'}")
            samples = []
            started = time.perf_counter()
            for i in range(1, args.memory_actions + 1):
                path, fields = player.next_form()
                post(our_base + path, fields)
                if i in (1, 1000) or i % 2500 == 0:
                    samples.append((i, rss_kib(ours.pid)))
            elapsed = time.perf_counter() - started
            print(f"server memory over {args.memory_actions} actions ({elapsed:.0f} s): "
                  + ", ".join(f"{n}: {kib / 1024:.1f} MiB" for n, kib in samples))
            growth = (samples[-1][1] - samples[1][1]) / 1024 if len(samples) > 1 else 0
            print(f"  growth from action 1,000 to the last: {growth:+.1f} MiB")
            print(json.dumps({"bare_ms": base * 1000, "pbem_ms": mine * 1000, "ratio": mine / base,
                              "rss_mib": [[n, kib / 1024] for n, kib in samples]}))
        finally:
            player.service.close()
            for child in (bare, ours):
                child.terminate()
                child.wait(timeout=30)


if __name__ == "__main__":
    os.environ.setdefault("PBEM_INSTANCE", "")
    main()
