"""A game begun from a position (``docs/emerald1-positions.md``): ``position`` → TOML → ``setup_from`` gives every
seat the same game, from hundreds of positions of seeded random games (mid-turn, in the middle of an action,
inside a question asked out of turn, in the setup, just before the end) and from described positions for the
steps and questions random games seldom reach; the kernel starts a game from one and plays it on to an end that
verifies; a bad position is refused by its field."""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from events.audit import verify
from events.handling import Cause, Kernel
from events.rng import Rng
from events.rules import GameConfig, InvalidAction
from events.store import SQLiteEventStore
from pbem.games.emerald1 import RULES
from pbem.games.emerald1.options import OPTIONS
from pbem.games.emerald1.state import State
from tests.emerald1.fixtures import choose, play
from tests.emerald1.harness import Game, make_event
from tests.emerald1.position import R, agent, arrange, cubes, display, hand, pe, sanity_next, side, started

OTHER_READINGS = {o.key: o.choices[1].value for o in OPTIONS}


def begun_from(config: GameConfig, state: State) -> State:
    """The game ``setup_from`` begins from ``state``'s position, written to TOML and read back."""
    words = RULES.position(state)
    text = tomli_w.dumps(words)              # refuses None, and keys that are not strings
    back = tomllib.loads(text)
    assert back == words
    made = RULES.initial_state(config)
    for seq, ne in enumerate(RULES.setup_from(config, back, Rng("position")), start=1):
        made = RULES.evolve(made, make_event(seq, ne))
    return made


def same_game(config: GameConfig, state: State) -> None:
    """Begun from its position, the game is ``state`` (the order Blocking discs were placed in aside), and offers
    every seat the same legal actions and the same view, and the spectator the same view."""
    made = begun_from(config, state)
    mine, theirs = made._plain(), state._plain()
    mine["blocking"], theirs["blocking"] = sorted(mine["blocking"]), sorted(theirs["blocking"])
    assert mine == theirs
    for seat in range(state.n):
        assert RULES.legal_actions(made, seat) == RULES.legal_actions(state, seat)
        assert RULES.view(made, seat) == RULES.view(state, seat)
    assert RULES.view(made, None) == RULES.view(state, None)


def kind_of(state: State) -> str:
    if state.phase == "setup":
        return "setup"
    if state.window:
        return "asked: " + state.window["effect"]["type"]
    if state.step:
        return "action: " + state.step["step"]
    return "between actions"


def sampled(game: Game, pick: random.Random, every: int) -> list[State]:
    """Positions of a random game played to its end: every ``every``th, every question asked, every action under
    way (but one in four of the common ones, moving agents and taking cubes back), the setup, and the last before
    the end."""
    out = []
    steps = 0
    while game.state.phase != "over":
        s = game.state
        common = s.step.get("step") in ("move", "retrieve")
        if steps % every == 0 or s.window or s.phase == "setup" or (s.step and (not common or steps % 4 == 0)):
            out.append(s)
        last = s
        seat = game.who()
        game.act(seat, choose(RULES, s, seat, pick))
        steps += 1
    return out + [last]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_positions_of_random_games_give_every_seat_the_same_game(players: int) -> None:
    seen: Counter[str] = Counter()
    for seed, options in ((0, None), (1, OTHER_READINGS)):
        game = Game.new(players, seed=f"positions-{players}-{seed}", options=options)
        for state in sampled(game, random.Random(seed), every=9):
            same_game(game.config, state)
            seen[kind_of(state)] += 1
    assert sum(seen.values()) >= 80, seen
    assert {"setup", "between actions", "action: move", "action: retrieve", "asked: assassinate"} <= set(seen), seen


# --- steps and questions random games seldom reach, from described positions ------------------------------

def cthulhu_driving_its_claimer_mad() -> Game:
    game = started(cities=["cairo", "rome", "rome"])
    s = arrange(game)
    side(s, 0, R)
    s.players[0].mad = 2                              # two of the Mad counters out of the pool
    for _ in range(2):
        s.sanity_pool.remove("mad")
    sanity_next(s, "mad", "sane", "sane")
    card = display(s, "cthulhu")
    cubes(s, f"card:{card}", 0, 1)
    game.act(0, {"kind": "claim", "target": f"card:{card}"})
    return game


def cthulhu_over_a_disguised_agent() -> Game:
    game = started(cities=["cairo", "cairo", "cairo"])
    s = arrange(game)
    agent(s, 9, 1, "rome")
    agent(s, 10, 1, "rome")
    hand(s, 1, [9, 201, 202, 203, 204])
    pe(s, 1, "master_of_disguise")
    card = display(s, "cthulhu")
    cubes(s, f"card:{card}", 0, 1)
    game.act(0, {"kind": "claim", "target": f"card:{card}"})
    game.act(0, {"kind": "destroy", "city": "rome"})
    return game


def an_attack_on_a_disguised_agent(card: int, action: Mapping[str, Any]) -> Game:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    agent(s, 9, 1, "rome")
    agent(s, "m0", 0, "rome", vampire=True)
    pe(s, 1, "master_of_disguise")
    s.players[1].known = True
    hand(s, 0, [card, 101, 102, 103, 104])
    game.act(0, dict(action))
    return game


def zombies_ready_to_kill() -> Game:
    game = started(cities=["rome", "rome", "cairo"])
    s = arrange(game)
    agent(s, 21, 2, "cairo")
    s.players[1].known = s.players[2].known = True
    s.zombies["rome"][0] = s.zombies["cairo"][0] = 1
    hand(s, 0, [61, 101, 102, 103, 104])
    game.act(0, {"kind": "card", "card": 61})
    return game


def holmes_revealed_as_a_double_agent() -> Game:
    game = started(cities=["rome", "rome", "cairo"])
    s = arrange(game)
    agent(s, 18, 1, "rome")
    for p in s.players:                                  # seat 0 holds Holmes's counter, taken from where it was
        p.double_agents = [a for a in p.double_agents if a != 18]
    s.da_pool = [a for a in s.da_pool if a != 18]
    s.players[0].double_agents.append(18)
    game.act(0, {"kind": "double_agent", "agent": 18})
    return game


def pinkerton_drawn() -> Game:
    game = started()
    hand(arrange(game), 0, [57, 101, 102, 103, 104])
    game.act(0, {"kind": "card", "card": 57})
    return game


def free_actions_after_the_second() -> Game:
    game = started(options={"free_actions_after_last_action": "yes"})
    s = arrange(game)
    hand(s, 0, [46, 101, 102, 103, 104])
    pe(s, 0, "mrs_hudson")
    game.act(0, {"kind": "pass"})
    game.act(0, {"kind": "pass"})
    return game


RARE = {
    "asked: holmes_moriarty": holmes_revealed_as_a_double_agent,
    "action: pinkerton": pinkerton_drawn,
    "action: free": free_actions_after_the_second,
    "action: cthulhu, its claimer dead": cthulhu_driving_its_claimer_mad,
    "asked: relocate, then the end": lambda: _then(cthulhu_driving_its_claimer_mad(), 0,
                                                    {"kind": "destroy", "city": "rome"}),
    "asked: cthulhu_escape": cthulhu_over_a_disguised_agent,
    "asked: destroy": lambda: an_attack_on_a_disguised_agent(51, {"kind": "card", "card": 51, "agent": "9"}),
    "asked: convert": lambda: an_attack_on_a_disguised_agent(60, {"kind": "card", "card": 60, "convert": "9"}),
    "action: zombie_kill": zombies_ready_to_kill,
}


def _then(game: Game, seat: int, action: Mapping[str, Any]) -> Game:
    game.act(seat, dict(action))
    return game


@pytest.mark.parametrize("name", sorted(RARE))
def test_a_described_position_with_a_rare_step_or_question_gives_every_seat_the_same_game(name: str) -> None:
    game = RARE[name]()
    assert kind_of(game.state) == name.split(",")[0]
    same_game(game.config, game.state)


# --- the kernel ----------------------------------------------------------------------------------------

def test_the_kernel_begins_a_game_from_a_position_and_it_plays_on_to_an_end_that_verifies(tmp_path: Path) -> None:
    store = SQLiteEventStore(tmp_path / "positions.sqlite3")
    try:
        kernel = Kernel(store, {"emerald1": RULES})
        game = Game.new(3, seed="kernel-position")
        states = sampled(game, random.Random(5), every=40)
        chosen = [states[len(states) // 2], next(s for s in states if s.window), states[-1]]
        for number, state in enumerate(chosen):
            words = tomllib.loads(tomli_w.dumps(RULES.position(state)))
            created = kernel.create("emerald1", ["ann", "bob", "cat"], seed=f"from-{number}", position=words,
                                    options=dict(game.config.options), game_id=f"from-{number}")
            begun = created.after.game
            for seat in (None, 0, 1, 2):
                assert RULES.view(begun, seat) == RULES.view(state, seat)
            visible = {e.type.split(".")[1]: (e.visibility.kind, e.visibility.seats) for e in created.events
                       if e.type.startswith("emerald1.")}
            assert visible == {"PositionSet": ("public", ()), "PositionSecrets": ("server", ()),
                               "PositionHand": ("seats", (2,))}   # the last of the three: each to its own player
            play(kernel, f"from-{number}", random.Random(number), None)
            assert kernel.load(f"from-{number}").ended
            report = verify(kernel.replayer, store.read(f"from-{number}"))
            assert report.ok, report.failure
    finally:
        store.close()


# --- refusals --------------------------------------------------------------------------------------------

def a_position() -> tuple[GameConfig, dict[str, Any]]:
    game = Game.new(3, seed="refusals")
    game.start(["paris", "rome", "cairo"])
    return game.config, tomllib.loads(tomli_w.dumps(RULES.position(game.state)))


def changed(words: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """``words`` with the field at ``path`` (dots and list indexes) set to ``value`` (deleted if ``...``)."""
    out = tomllib.loads(tomli_w.dumps(words))
    parts = [int(p) if p.isdigit() else p for p in path.split(".")]
    where: Any = out
    for p in parts[:-1]:
        where = where[p]
    if value is ...:
        del where[parts[-1]]
    else:
        where[parts[-1]] = value
    return out


@pytest.mark.parametrize("path,value,words", [
    ("phase", "over", "position, phase: \"setup\""),
    ("colour", "red", "position, colour: unknown field"),
    ("turn", ..., "position, turn: missing"),
    ("players.1.hand", [101, 202], "position, players[1].hand: card 101 is also in players[0]"),
    ("players.2.available", 7, "position, players[2]: Available, Pool, Limbo and the cubes on the board make 21"),
    ("cities.0.name", "Atlantis", "position, cities[0].name: 'Atlantis' is not a city of the map"),
    ("agents.0.agent", "main agent of seat 7", "position, agents[0].agent: 'main agent of seat 7' is not an agent"),
    ("to_play", 3, "position, to_play: a whole number from 0 to 2, not 3"),
    ("sanity_counters.0", "Cheerful", "position, sanity_counters[0]: one of 'Sane', 'Mad'"),
    ("double_agent_pool", [], "position, double_agent_pool: every Double-agent counter from 1 to 22 once"),
    ("players.0.identity", "Royalist", "position, players[0].identity: one of 'Loyalist', 'Restorationist'"),
    ("agents.3.city", "Rome", "position, agents: agent 3's counter is on its card, which is not the top card in Rome"),
    ("agents.3.where", "board", "position, agents: agent 3's card is face up in Cairo: its counter lies on it"),
    ("players.0.available", -1, "position, players[0].available: a whole number from 0 to 20, not -1"),
])
def test_a_bad_position_is_refused_naming_its_field(path: str, value: Any, words: str, tmp_path: Path) -> None:
    config, good = a_position()
    bad = changed(good, path, value)
    if path == "players.1.hand":
        bad["players"][0]["hand"] = [101] + bad["players"][0]["hand"][1:]
        bad["players"][0]["deck"] = [c for c in bad["players"][0]["deck"] if c != 101]
    with pytest.raises(InvalidAction) as refused:
        RULES.setup_from(config, bad, Rng("refused"))
    assert str(refused.value).startswith(words), str(refused.value)
    store = SQLiteEventStore(tmp_path / "refused.sqlite3")
    try:
        kernel = Kernel(store, {"emerald1": RULES})
        with pytest.raises(InvalidAction):
            kernel.create("emerald1", ["ann", "bob", "cat"], seed="refused", position=bad, game_id="refused")
        assert store.last("refused")[0] == 0
    finally:
        store.close()


def test_the_example_in_the_docs_begins_the_game_it_describes() -> None:
    page = (Path(__file__).parents[2] / "docs" / "emerald1-positions.md").read_text(encoding="utf-8")
    words = tomllib.loads(page.split("```toml\n", 1)[1].split("```", 1)[0])
    game = Game.new(2, seed="docs")
    made = RULES.initial_state(game.config)
    for seq, ne in enumerate(RULES.setup_from(game.config, words, Rng("docs")), start=1):
        made = RULES.evolve(made, make_event(seq, ne))
    assert (made.turn, made.active, made.actions_done, made.step) == (37, 0, 1, {"step": "move", "moved": ["m0"],
                                                                                  "cost": 1})
    assert RULES.prompts(made)[0].text == "Go on moving agents, or pay for the moves so far (pay)."
    assert RULES.position(made) == words
