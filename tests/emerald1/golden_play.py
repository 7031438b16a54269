"""A digest of everything the rules say over seeded random games, to prove a speed-up changed nothing.

The digest covers, at every step of 12 seeded random games per player count: ``prompts``, every seat's
``legal_actions``, the chosen action and its text command, every event ``decide`` produced (type, payload,
visibility), the refusal (or the events) of a few actions that are probably illegal now, and every seat's and the
spectator's ``view`` after the action; and each game's ``outcome``. Each is hashed as its ``repr``: stricter than
canonical JSON, it also sees the order of a dict's keys and a tuple where a list was. Some steps start from a state that went
through ``pickle`` (as the kernel's snapshots do), so that views built without any cached part are covered too.

Run ``python -m tests.emerald1.golden_play [players ...]`` to print the digests (about a minute).
"""

from __future__ import annotations

import hashlib
import pickle
import random
import sys
from typing import Any

from events.envelope import Event, NewEvent
from events.rng import Rng
from events.rules import ActionError, GameConfig, Seat
from pbem.games.emerald1 import RULES
from pbem.games.emerald1.state import State

GAMES = 12
SEEDS = range(GAMES)
PICKLE_EVERY = 37


def _event(seq: int, ne: NewEvent) -> Event:
    return Event("golden", seq, ne.type, 1, dict(ne.payload), "system", ne.visibility, ne.reveals,
                 "2026-01-01T00:00:00Z", {}, "", "")


def _events_text(events: list[NewEvent]) -> str:
    return repr([[ne.type, ne.payload, ne.visibility.encode(), ne.reveals] for ne in events])


def _probe(state: State, seat: int, action: dict[str, Any]) -> str:
    """What ``decide`` says to ``action``: the refusal, or the events (drawn from a probe's own randomness)."""
    try:
        return "ok " + _events_text(RULES.decide(state, seat, action, Rng("probe")))
    except ActionError as err:
        return f"{type(err).__name__} {err}"


def _mutants(action: dict[str, Any], pick: random.Random) -> list[dict[str, Any]]:
    """Near misses of a legal action: one field changed, or a card list cut short."""
    out: list[dict[str, Any]] = []
    for key, value in sorted(action.items()):
        if key == "kind":
            continue
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            out.append({**action, key: value + pick.choice((1, -1, 7))})
        elif isinstance(value, str):
            out.append({**action, key: value[:-1] if pick.random() < 0.3 else "city:paris"})
        elif isinstance(value, list):
            out.append({**action, key: value[:-1]} if value else {**action, key: [101]})
    return out


def play(players: int, seed: int, sink: Any) -> int:
    """One seeded random game fed into ``sink`` (a hash's ``update``); returns the number of actions."""
    data = RULES.load_data(None)
    config = GameConfig(seats=tuple(Seat(i, f"p{i}") for i in range(players)), data=data)
    rng = Rng(f"golden-{players}-{seed}")
    state = RULES.initial_state(config)
    seq = 0

    def put(tag: str, text: str) -> None:
        sink(f"{tag}:{len(text)}:".encode())
        sink(text.encode("utf-8"))

    setup = RULES.setup(config, rng)
    put("setup", _events_text(setup))
    for ne in setup:
        seq += 1
        state = RULES.evolve(state, _event(seq, ne))
    chooser = random.Random(seed)
    prober = random.Random(10_000 + seed)
    seats: list[int | None] = [None, *range(players)]
    for s in seats:
        put(f"view{s}", repr(RULES.view(state, s)))
    earlier: list[dict[str, Any]] = []
    steps = 0
    while True:
        if steps % PICKLE_EVERY == PICKLE_EVERY - 1:
            state = pickle.loads(pickle.dumps(state))
        prompts = RULES.prompts(state)
        put("prompts", repr({k: p.to_json() for k, p in prompts.items()}))
        for s in range(players):
            put(f"legal{s}", repr(RULES.legal_actions(state, s)))
        if not prompts:
            put("outcome", repr(RULES.outcome(state).to_json()))  # type: ignore[union-attr]
            return steps
        seat = next(iter(prompts))
        legal = RULES.legal_actions(state, seat)
        options = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
        action = chooser.choice(options)
        put("format", RULES.format(state, action))
        probes = [a for a in prober.sample(earlier, min(2, len(earlier))) if a not in legal]
        probes += _mutants(action, prober)[:2]
        if steps % 5 == 0:
            probes.append(action)
            probes.append({"kind": "pass"})
            probes.append({"kind": "nonsense"})
            other = (seat + 1) % players
            put("probe_other", _probe(state, other, action))
        for a in probes:
            put("probe", repr(a) + " " + _probe(state, seat, a))
        earlier = (earlier + prober.sample(legal, min(3, len(legal))))[-30:]
        events = RULES.decide(state, seat, action, rng)
        put("events", _events_text(events))
        for ne in events:
            seq += 1
            state = RULES.evolve(state, _event(seq, ne))
        for s in seats:
            put(f"view{s}", repr(RULES.view(state, s)))
        steps += 1


def digest(players: int, seeds: range = SEEDS) -> tuple[str, int]:
    """The sha256 over the games of one player count, and how many actions they took."""
    h = hashlib.sha256()
    steps = sum(play(players, seed, h.update) for seed in seeds)
    return h.hexdigest(), steps


def main() -> None:
    counts = [int(a) for a in sys.argv[1:]] or [2, 3, 4, 5]
    for players in counts:
        hexdigest, steps = digest(players)
        print(f"{players}: ({hexdigest!r}, {steps}),", flush=True)


if __name__ == "__main__":
    main()
