"""Positions of Nanty Narking survive TOML: from seeded random playouts, the position after a command, written with
``tomli_w`` and read with ``tomllib``, starts a game that offers every seat the same legal actions and the same
view (and the spectator the same view) as the original did; games begun so through the kernel play on to a clean
end whose chain verifies.
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from events import audit
from events.handling import Kernel
from events.rng import Rng
from events.rules import GameConfig
from events.store import SQLiteEventStore
from pbem.games.nanty import RULES
from pbem.games.nanty.evolve import apply
from pbem.games.nanty.state import State
from tests.leaks.nanty import _card_ids, _personalities
from tests.nanty.harness import Game
from tests.playout import play_random

GAMES = [  # (players, variant, options): every kind of step, under both readings of who is asked about interrupts
    (2, "standard", {}), (3, "standard", {}), (4, "standard", {}), (2, "classic", {}), (3, "classic", {}),
    (4, "classic", {"interrupts": "any_time"}), (3, "standard", {"interrupts": "any_time"}),
    (4, "standard", {"fire_spread": "rolls_on", "grenadiers_disable_powers": False}),
]
SEEDS = range(2)
EVERY = 4  # of the steps without a question, one in EVERY is checked (every question, and the last step, always)


def kind_of(state: State) -> str:
    """What kind of step a position is at: a question's kind, a card being played, or a turn between cards."""
    p = state.pend()
    if p.get("ask"):
        return str(p["ask"]["kind"])
    if p.get("card") is not None:
        return "card"
    return "between cards" if p.get("played") else "turn start"


def through_toml(position: Mapping[str, Any]) -> dict[str, Any]:
    text = tomli_w.dumps(dict(position))
    assert "null" not in text
    return tomllib.loads(text)


def begun_from(config: GameConfig, position: Mapping[str, Any]) -> State:
    state = RULES.initial_state(config)
    for event in RULES.setup_from(config, position, Rng("elsewhere")):
        state = apply(state, event.type, event.payload)
    return state


def same_game(original: State, copy: State) -> None:
    for seat in range(original.n):
        assert RULES.legal_actions(copy, seat) == RULES.legal_actions(original, seat), seat
    for reader in (None, *range(original.n)):
        assert RULES.view(copy, reader) == RULES.view(original, reader), reader


def choose(legal: list[dict[str, Any]], pick: random.Random) -> dict[str, Any]:
    doing = [a for a in legal if a["kind"] not in ("skip", "power")] or legal
    return pick.choice(doing if pick.random() < 0.85 else legal)


def positions(players: int, variant: str, options: Mapping[str, Any], seed: int) -> list[tuple[Game, State]]:
    """A random game's positions after every command, and the game (its config) they come from."""
    game = Game.new(players, seed=f"positions-{players}-{variant}-{seed}", variant=variant, options=options)
    pick = random.Random(seed)
    found = [(game, game.state)]
    while game.state.phase != "over":
        seat = pick.choice(sorted(RULES.prompts(game.state)))
        game.act(seat, choose(RULES.legal_actions(game.state, seat), pick))
        found.append((game, game.state))
    return found[:-1]   # the last is the end itself: its position would start a game anew


def test_positions_round_trip_through_toml_to_the_same_game() -> None:
    kinds: Counter[str] = Counter()
    checked = 0
    for players, variant, options in GAMES:
        for seed in SEEDS:
            found = positions(players, variant, options, seed)
            for index, (game, state) in enumerate(found):
                if index % EVERY and index != len(found) - 1 and not state.pend().get("ask"):
                    continue
                same_game(state, begun_from(game.config, through_toml(RULES.position(state))))
                kinds[kind_of(state)] += 1
                kinds["just before the end"] += index == len(found) - 1
                checked += 1
    assert checked >= 500
    assert {"turn start", "card", "between cards", "interrupt", "murder", "flood",
            "just before the end"} <= set(kinds), kinds   # the rarer questions: test_positions.py


def test_a_position_s_public_event_names_nothing_hidden_and_each_hand_goes_to_its_holder() -> None:
    game, state = positions(3, "standard", {}, 0)[30]
    events = RULES.setup_from(game.config, through_toml(RULES.position(state)), Rng("x"))
    shown = {e.type: e.visibility.kind for e in events}
    assert shown == {"nanty.DecksSet": "server", "nanty.PersonalityDealt": "seats", "nanty.PersonalitiesDealt": "public",
                     "nanty.HandSet": "seats", "nanty.PositionSet": "public"}
    for event in events:
        if event.type in ("nanty.HandSet", "nanty.PersonalityDealt"):
            assert event.visibility.allows(event.payload["seat"]) and event.reveals
            assert not any(event.visibility.allows(s) for s in range(3) if s != event.payload["seat"])
    public = next(e for e in events if e.type == "nanty.PositionSet").payload
    cards: set[int] = set()
    _card_ids(public, cards)
    assert not cards & (set(state.deck) | {c for p in state.players for c in p.hand})
    people: set[str] = set()
    _personalities(public, people)
    assert not people


@pytest.mark.parametrize(("players", "variant", "options", "seed", "at"), [
    (2, "standard", {}, 0, 0), (3, "classic", {}, 1, 25), (4, "standard", {"interrupts": "any_time"}, 2, 41),
    (3, "standard", {}, 0, -1)])
def test_a_game_begun_from_a_position_through_the_kernel_plays_on_to_a_clean_end(
        tmp_path: Path, players: int, variant: str, options: dict[str, Any], seed: int, at: int) -> None:
    game, state = positions(players, variant, options, seed)[at]
    names = [s.name for s in game.config.seats]
    store = SQLiteEventStore(tmp_path / "p.sqlite3")
    try:
        kernel = Kernel(store, {"nanty": RULES})
        begun = kernel.create("nanty", names, options=dict(game.config.options), seed=f"after-{seed}",
                              position=through_toml(RULES.position(state)))
        same_game(state, begun.after.game)
        assert play_random(kernel, begun.after.game_id, seed).ended
        report = audit.verify(kernel.replayer, store.read(begun.after.game_id))
        assert report.ok, report.failure
    finally:
        store.close()
