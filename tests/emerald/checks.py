"""Invariants checked during playouts: conservation, hidden information, parse/format, refusal."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from events.rules import IllegalAction
from pbem.games.emerald import RULES
from pbem.games.emerald.state import State


def conserved(state: State) -> None:
    cat, g = state.cat, state.cat.game
    for seat, p in enumerate(state.players):
        cubes = p.stock_cubes + p.limbo + sum(c.cubes[seat] for c in state.cities)
        assert cubes == g["cubes"], (seat, "cubes", cubes)
        trophies = sum(1 for q in state.players for k in q.kills if k.victim == seat)
        agents = p.stock_agents + sum(c.agents[seat] for c in state.cities) + p.migo + p.yog + trophies
        assert agents == g["agents"], (seat, "agents", agents)
        assert min(p.stock_cubes, p.limbo, p.stock_agents, p.sanity) >= 0
    places: list[int] = []
    for c in state.cities:
        places.extend(c.stack)
        if c.royalty:
            places.append(c.royalty)
    for p in state.players:
        places.extend(p.hand + p.deck + p.discard + p.kept)
    places.extend(state.removed + state.boxed)
    expected = [cid for cid, c in cat.cards.items() if c.kind != "start" or c.seat < state.n]
    counts = Counter(places)
    assert all(v == 1 for v in counts.values()), [k for k, v in counts.items() if v > 1]
    assert sorted(counts) == sorted(expected), set(expected) ^ set(counts)
    on_board = sum(sum(c.zombies) for c in state.cities)
    if not state.leopold:
        assert on_board + state.zombie_supply == g["zombies"]
    if 3 * state.n <= g["sanity_stock"]:
        assert sum(p.sanity for p in state.players) + state.sanity_stock == g["sanity_stock"]


def no_leaks(state: State) -> None:
    """A seat's view names no card hidden in another hand or deck, nor another's identity."""
    if state.phase == "over":
        return
    for seat in [None, *range(state.n)]:
        text = json.dumps(RULES.view(state, seat))
        view = RULES.view(state, seat)
        for other, p in enumerate(state.players):
            if other == seat:
                continue
            assert "hand" not in view["players"][other]
            assert "identity_card" not in view["players"][other]
            if not p.revealed:
                assert "side" not in view["players"][other]
        if seat is not None:
            assert view["you"]["identity_card"] == state.players[seat].identity
        visible_ids = _ids_in(view)
        hidden = set()
        for other, p in enumerate(state.players):
            hidden.update(p.deck)
            if other != seat:
                hidden.update(p.hand)
        for c in state.cities:
            hidden.update(c.stack[1:])
        hidden.update(state.boxed)
        leaked = visible_ids & hidden
        assert not leaked, (seat, leaked)
        assert text


def _ids_in(view: Any) -> set[int]:
    out: set[int] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if "kind" in x and "number" in x and "id" in x:
                out.add(x["id"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(view)
    return out


def round_trip(state: State, legal: list[dict[str, Any]], limit: int | None = None) -> None:
    for a in legal[:limit] if limit else legal:
        text = RULES.format(state, a)
        back = RULES.parse(state, text)
        assert back == a, (text, a, back)


def refuses_unlisted(state: State, seat: int, legal: list[dict[str, Any]]) -> None:
    """Mutate a legal action into one that is not listed; decide must refuse it."""
    from events.rng import Rng
    probes: list[dict[str, Any]] = [{"kind": "claim", "cities": ["paris"], "cards": [9999]},
                                    {"kind": "place", "city": "paris", "count": 99, "cards": []}]
    for a in legal[:3]:
        bad = dict(a)
        if "city" in bad:
            bad["city"] = "atlantis"
        else:
            bad["extra"] = 1
        probes.append(bad)
    for bad in probes:
        if bad in legal:
            continue
        try:
            RULES.decide(state, seat, bad, Rng("x"))
        except IllegalAction:
            continue
        raise AssertionError(f"decide accepted an unlisted action {bad}")
    others = [s for s in range(state.n) if s != seat]
    if others and legal:
        try:
            RULES.decide(state, others[0], legal[0], Rng("x"))
        except IllegalAction:
            pass
        else:
            raise AssertionError("decide accepted an action from a seat that has no prompt")


def prompt_sound(state: State, seat: int, legal: list[dict[str, Any]]) -> None:
    """One prompt; its default is legal; interrupt prompts carry a topic and answers that are legal."""
    prompts = RULES.prompts(state)
    assert list(prompts) == [seat]
    p = prompts[seat]
    assert p.default in legal, (p.default, legal[:5])
    if p.kind == "interrupt":
        assert p.topic.startswith("emerald.") and p.answers
        assert all(a in legal for a in p.answers.values())
    if state.interrupt:     # a targeted player: the same question whatever they hold
        assert p.topic == "emerald.interrupt" and sorted(p.answers) == ["decline", "use"], p
        assert "Sherlock" not in p.text and "Vampire" not in p.text, p.text


def accepts_listed(state: State, seat: int, legal: list[dict[str, Any]], rnd: Any, k: int = 3) -> None:
    """decide accepts listed actions (a sample), each on the same state."""
    from events.rng import Rng
    for a in rnd.sample(legal, min(k, len(legal))):
        RULES.decide(state, seat, a, Rng("probe"))
