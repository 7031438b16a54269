"""Replay and verification of a finished 1,000-event Emerald game, each against its baseline in the same run.

    python tests/bench/bench_replay.py [--events N] [--runs N] [--json]

a. Stepping: the replay page of a random move (``GET /games/<id>/replay?at=SEQ``), against the
   page of the game's current state (``GET /games/<id>``), both through the Flask app in this
   process, interleaved. Goal: within 2x. Also at the service level (``Service.replay`` against
   ``Service.show``), the first replay of the game (it computes every state once), and what a
   replay from the first event each time would cost.
b. Verification: ``Service.verify`` (the chain, the seed against its commitment, every draw, and
   every command decided again), against reading the rows and recomputing every hash with no
   rules applied (``store.read`` + ``verify_chain``). Goal: within 3x.

Times are medians, with the garbage collector off during each timed call. A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.timing import timed  # noqa: E402

from events.audit import verify_chain  # noqa: E402
from events.handling import Cause  # noqa: E402
from pbem.proof import replay as replay_module  # noqa: E402
from pbem.service import Player, Service  # noqa: E402
from pbem.web import create_app  # noqa: E402




def finished_game(service: Service, events: int) -> str:
    """A finished two-player game played at random, the one of several seeds whose length is nearest ``events``."""
    best: tuple[int, str] | None = None
    for seed in range(12):
        players = [Player.parse("Ann <ann@example.org>"), Player.parse("Ben <ben@example.org>")]
        game_id = service.create_game("emerald", players, seed=f"bench-replay-{seed}").after.game_id
        pick = random.Random(seed)
        while True:
            state = service.kernel.load(game_id)
            if state.ended:
                break
            rules = service.kernel.rules(state)
            seat = sorted(rules.prompts(state.game))[0]
            legal = rules.legal_actions(state.game, seat)
            options = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
            service.kernel.execute(game_id, seat, pick.choice(options), cause=Cause("bench"), state=state)
        length = service.store.last(game_id)[0]
        if best is None or abs(length - events) < abs(best[0] - events):
            best = (length, game_id)
        if abs(length - events) <= events // 10:
            break
    assert best is not None
    return best[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="pbem-bench-replay-"))
    app = create_app({"instance": folder / "inst", "secret_key": "bench-secret-key", "TESTING": True})
    service = Service.open(app.config["PBEM_SETTINGS"])
    game_id = finished_game(service, args.events)
    last = service.store.last(game_id)[0]
    client = app.test_client()
    pick = random.Random(1)
    results: dict[str, Any] = {"events": last}

    first = timed(lambda: service.replay(game_id, 1))
    results["first replay (every state computed once), ms"] = first * 1000

    short_id = service.create_game("emerald", [Player.parse("Ann <ann@example.org>"),
                                               Player.parse("Ben <ben@example.org>")], seed="bench-short").after.game_id
    short_pick = random.Random(7)
    while service.store.last(short_id)[0] < 40:
        state = service.kernel.load(short_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.kernel.execute(short_id, seat, short_pick.choice(rules.legal_actions(state.game, seat)),
                               cause=Cause("bench"), state=state)
    results["short game events"] = service.store.last(short_id)[0]

    def page(url: str) -> None:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    rounds: dict[str, list[float]] = {k: [] for k in ("current page", "short game page", "replay page", "show", "replay",
                                                      "replay, everything", "fold from the start")}
    events = service.store.read(game_id)
    for _ in range(args.runs):
        at = pick.randint(1, last)
        rounds["current page"].append(timed(lambda: page(f"/games/{game_id}")))
        rounds["short game page"].append(timed(lambda: page(f"/games/{short_id}")))
        rounds["replay page"].append(timed(lambda: page(f"/games/{game_id}/replay?at={at}")))
        rounds["show"].append(timed(lambda: service.show(game_id)))
        rounds["replay"].append(timed(lambda: service.replay(game_id, at)))
        rounds["replay, everything"].append(timed(lambda: service.replay(game_id, at, everything=True)))
        if len(rounds["fold from the start"]) < 30:
            rounds["fold from the start"].append(timed(lambda: service.kernel.replayer.fold(events[:at])))
    medians = {k: statistics.median(v) * 1000 for k, v in rounds.items()}
    results.update({f"{k}, ms": v for k, v in medians.items()})
    results["a. replay page / current page"] = medians["replay page"] / medians["current page"]
    results["a. Service.replay / Service.show"] = medians["replay"] / medians["show"]
    results["c. public page, long game / short game"] = medians["current page"] / medians["short game page"]

    verify_times, floor_times = [], []
    for _ in range(max(5, args.runs // 20)):
        replay_module._cache.clear()
        floor_times.append(timed(lambda: verify_chain(service.store.read(game_id))))
        verify_times.append(timed(lambda: service.verify(game_id)))
    report = service.verify(game_id)
    assert report.ok and any("decided again" in c for c in report.checks), report.to_json()
    results["verify, ms"] = statistics.median(verify_times) * 1000
    results["read + rehash, ms"] = statistics.median(floor_times) * 1000
    results["b. verify / read + rehash"] = results["verify, ms"] / results["read + rehash, ms"]
    service.close()

    if args.json:
        print(json.dumps(results, indent=2))
        return
    for key, value in results.items():
        print(f"{key:<48} {value:10.2f}" if isinstance(value, float) else f"{key:<48} {value:>10}")
    print(f"goal a (<= 2x): {'met' if results['a. replay page / current page'] <= 2 else 'MISSED'}; "
          f"goal b (<= 3x): {'met' if results['b. verify / read + rehash'] <= 3 else 'MISSED'}; "
          f"goal c (<= 1.5x): {'met' if results['c. public page, long game / short game'] <= 1.5 else 'MISSED'}")


if __name__ == "__main__":
    main()
