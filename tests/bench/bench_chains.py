"""What the web's check of a game's record costs (``pbem.web.damage``), on a game of about 1,000 events.

    python tests/bench/bench_chains.py [--events N] [--runs N] [--json]

a. The first page of a game in a process: ``Chains.check`` reads the whole stream and recomputes every hash, once;
   against reading the stream alone (``store.read``).
b. Every later page: ``Chains.check`` with nothing new (one primary-key lookup, ``store.last``), and after one more
   command (the new events read and rehashed); against the public page itself (``GET /games/<id>``).

Times are medians, with the garbage collector off during each timed call. A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.timing import timed  # noqa: E402

from delivery import make_settings  # noqa: E402
from events.handling import Cause  # noqa: E402
from kernelgame import RULES  # noqa: E402
from pbem import games  # noqa: E402
from pbem.service import Player, Service  # noqa: E402
from pbem.web import create_app  # noqa: E402
from pbem.web.damage import Chains  # noqa: E402

CLI = Cause("cli")


def long_game(service: Service, events: int) -> str:
    """A Highdie game made long by the organiser's pauses and resumptions (a move or two, then records)."""
    game = service.create_game("highdie", [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben")],
                               seed="bench-chains").after.game_id
    service.act_as(game, 0, "bet 1", cause=CLI)
    while service.store.last(game)[0] < events:
        service.pause(game, "a break", cause=CLI)
        service.resume(game, "back", cause=CLI)
    return game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games.register(RULES)
    with tempfile.TemporaryDirectory() as folder:
        settings = make_settings(Path(folder) / "inst")
        service = Service.open(settings)
        game = long_game(service, args.events)
        app = create_app({"instance": settings.instance, "secret_key": "bench-chains-secret-key", "TESTING": True})
        client = app.test_client()
        whole, read, unchanged, one_more, page = [], [], [], [], []
        for _ in range(args.runs):
            chains = Chains()
            whole.append(timed(lambda: chains.check(service, game)))
            read.append(timed(lambda: service.store.read(game)))
            unchanged.append(timed(lambda: chains.check(service, game)))
            service.pause(game, "a break", cause=CLI)
            one_more.append(timed(lambda: chains.check(service, game)))
            service.resume(game, "back", cause=CLI)
            chains.check(service, game)
            page.append(timed(lambda: client.get(f"/games/{game}")))
        service.close()
    found: dict[str, Any] = {
        "events": args.events, "runs": args.runs,
        "whole_ms": statistics.median(whole) * 1000, "read_ms": statistics.median(read) * 1000,
        "unchanged_us": statistics.median(unchanged) * 1e6, "one_more_us": statistics.median(one_more) * 1e6,
        "page_ms": statistics.median(page) * 1000,
    }
    if args.json:
        print(json.dumps(found, indent=2))
        return
    print(f"a. first page's check of {args.events} events: {found['whole_ms']:.1f} ms "
          f"(reading them alone {found['read_ms']:.1f} ms: {found['whole_ms'] / found['read_ms']:.2f} x)")
    print(f"b. a later page's check: {found['unchanged_us']:.0f} us with nothing new, {found['one_more_us']:.0f} us "
          f"after one more command; the public page itself {found['page_ms']:.1f} ms")


if __name__ == "__main__":
    main()
