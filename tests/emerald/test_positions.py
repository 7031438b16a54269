"""A game begun from a position (docs/emerald-positions.md): ``position`` → TOML → ``setup_from`` gives every seat
the same legal actions and view (and the spectator the same view) as the game it was taken from, the same events
for the moves that follow, and a game on the kernel that plays on to an end whose chain verifies."""

from __future__ import annotations

import random
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import pytest
import tomli_w

from events.audit import verify
from events.envelope import Event
from events.rng import Rng
from events.rules import GameConfig, InvalidAction, Seat
from pbem.games.emerald import RULES
from pbem.games.emerald.state import State
from tests.emerald.harness import NAMES, Game, make_event
from tests.emerald.recorded import new_kernel, play

DOC = Path(__file__).resolve().parents[2] / "docs" / "emerald-positions.md"
FOLLOWING = 4   # moves replayed on both games after each position


@dataclass
class Move:
    """One command of a recorded playout: the state before it, the random counter, what was played, what it wrote."""

    state: State
    counter: int
    seat: int
    action: dict[str, Any]
    events: list[Event]


def playout(players: int, seed: int, options: Mapping[str, Any] | None = None) -> tuple[Game, str, list[Move]]:
    """A seeded random game played to its end, every move kept."""
    secret = f"position-{players}-{seed}"
    game = Game.new(players, seed=secret, options=options)
    pick = random.Random(seed)
    moves: list[Move] = []
    while prompts := RULES.prompts(game.state):
        seat = next(iter(prompts))
        legal = RULES.legal_actions(game.state, seat)
        action = pick.choice([a for a in legal if a["kind"] not in ("pass", "discard")] or legal)
        state, counter = game.state, game.rng.counter
        moves.append(Move(state, counter, seat, action, game.act(seat, action)))
    return game, secret, moves


def chosen(moves: list[Move], every: int) -> list[int]:
    """Positions of every kind: every few moves, every one inside an action's steps or an interrupt window, every
    Loyalist placing agents and setup placement, and the last moves before the end."""
    picked = {i for i in range(0, len(moves), every)} | set(range(max(0, len(moves) - 3), len(moves)))
    picked |= {i for i, m in enumerate(moves) if m.state.interrupt or m.state.owed or m.state.pending}
    picked |= {i for i, m in enumerate(moves) if m.state.phase == "setup"}
    return sorted(picked)


def begun_from(config: GameConfig, written: Mapping[str, Any]) -> State:
    """The state a game begun from ``written`` is in after its first events (the position read back from TOML)."""
    read = tomllib.loads(tomli_w.dumps(written))
    state = RULES.initial_state(config)
    for seq, new in enumerate(RULES.setup_from(config, read, Rng("position")), start=1):
        state = RULES.evolve(state, make_event(seq, new))
    return state


def same_game(copy: State, original: State) -> None:
    assert RULES.prompts(copy) == RULES.prompts(original)
    for seat in (None, *range(original.n)):
        assert RULES.view(copy, seat) == RULES.view(original, seat), seat
        if seat is not None:
            assert RULES.legal_actions(copy, seat) == RULES.legal_actions(original, seat), seat


def _written(events: list[Any]) -> list[tuple[str, Any, str]]:
    return [(e.type, dict(e.payload), e.visibility.kind) for e in events]


def kind_of(state: State) -> str:
    return ("interrupt" if state.interrupt else "placing agents" if state.owed else "step" if state.pending
            else state.phase)


GAMES = [(2, 1, None), (2, 2, None), (3, 1, None), (3, 2, {"action_card_with_points": "identity"}),
         (4, 1, None), (4, 2, {"cthulhu_shows_cards": False, "free_actions_after_last_action": False}),
         (5, 1, None), (5, 2, {"sherlock_stops_replacement": False})]


@pytest.mark.parametrize("players,seed,options", GAMES)
def test_a_game_begun_from_a_position_offers_what_the_original_offered_and_goes_on_the_same(
        players: int, seed: int, options: Mapping[str, Any] | None) -> None:
    game, secret, moves = playout(players, seed, options)
    kinds: set[str] = set()
    for i in chosen(moves, every=8):
        move = moves[i]
        written = RULES.position(move.state)
        copy = begun_from(game.config, written)
        assert RULES.position(copy) == written
        same_game(copy, move.state)
        kinds.add(kind_of(move.state))
        for later in moves[i:i + FOLLOWING]:   # the same moves with the same draws write the same events
            produced = RULES.decide(copy, later.seat, later.action, Rng(secret, later.counter))
            assert _written(produced) == _written(later.events)
            for new in produced:
                copy = RULES.evolve(copy, make_event(0, new))
        after = moves[i + FOLLOWING].state if i + FOLLOWING < len(moves) else game.state
        assert RULES.position(copy) == RULES.position(after)
    assert len(chosen(moves, every=8)) >= 20 and {"play", "setup", "step"} <= kinds


def test_the_positions_cover_every_kind_of_decision() -> None:
    kinds: set[str] = set()
    for players, seed, options in GAMES[:4]:
        kinds |= {kind_of(m.state) for m in playout(players, seed, options)[2]}
    assert kinds == {"setup", "play", "step", "interrupt", "placing agents"}


HIDDEN = {"emerald.StacksDealt": "server", "emerald.CardsBoxed": "server", "emerald.DeckShuffled": "server",
          "emerald.IdentityDealt": "seats", "emerald.CardsDrawn": "seats", "emerald.IdentitySeen": "seats",
          "pbem.PositionGiven": "server", "pbem.GameCreated": "public"}


@pytest.mark.parametrize("players,seed,options", GAMES[1::2])
def test_a_game_begun_from_a_position_on_the_kernel_plays_on_to_an_end_whose_chain_verifies(
        players: int, seed: int, options: Mapping[str, Any] | None, tmp_path: Path) -> None:
    """Inside an interrupt window (or the first action step), in the middle of a turn, and one move before the end."""
    _, _, moves = playout(players, seed, options)
    window = next((i for i, m in enumerate(moves) if m.state.interrupt), None)
    step = next(i for i, m in enumerate(moves) if m.state.pending)
    picks = [window if window is not None else step, len(moves) // 2, len(moves) - 1]
    kernel = new_kernel(tmp_path)
    try:
        for n, i in enumerate(picks):
            written = tomllib.loads(tomli_w.dumps(RULES.position(moves[i].state)))
            created = kernel.create("emerald", NAMES[:players], options=dict(options or {}), position=written,
                                    game_id=f"from-{n}")
            same_game(created.after.game, moves[i].state)
            seen = {e.type: e.visibility.kind for e in created.events}
            assert {k: v for k, v in seen.items() if v != "public"} == \
                {k: v for k, v in HIDDEN.items() if k in seen and v != "public"}
            assert created.events[0].payload["from_position"] is True
            play(kernel, f"from-{n}", f"{seed}-{n}")
            events = kernel.store.read(f"from-{n}")
            report = verify(kernel.replayer, events)
            assert report.ok, report.failure
            assert kernel.load(f"from-{n}").ended
    finally:
        kernel.store.close()


def _a_position() -> tuple[GameConfig, dict[str, Any]]:
    """Three players in the middle of a game: a position every refusal below changes in one field."""
    game, _, moves = playout(3, 1)
    return game.config, tomllib.loads(tomli_w.dumps(RULES.position(moves[120].state)))


def _refused(config: GameConfig, position: Mapping[str, Any]) -> str:
    with pytest.raises(InvalidAction) as err:
        RULES.setup_from(config, position, Rng("refused"))
    return str(err.value)


def test_a_refused_position_names_the_field_and_says_what_is_wrong(tmp_path: Path) -> None:
    config, good = _a_position()
    paris = good["cities"]["Paris"]
    first_in_hand = good["players"][1]["hand"][0]
    city, on_board = next((name, c["cards"][0]) for name, c in good["cities"].items() if c["cards"])
    assert 300 < first_in_hand < 311          # a starting card of seat 1; seat 0's have 100 less
    other_royalty = RULES.initial_state(config).cat.royalty_card["rome"]
    changes: dict[str, Any] = {
        "position: colour: unknown field": lambda p: p.update(colour="red"),
        f"position: players[1].hand: card {on_board} is in more than one place (also in cities.{city})":
            lambda p: p["players"][1]["hand"].append(on_board),
        f"position: players[1].hand: card {first_in_hand - 100} is a starting card of seat 0":
            lambda p: p["players"][1]["hand"].append(first_in_hand - 100),
        "position: cities.Paris.agents: must hold 3 entries (one for each player, in seat order), not 2":
            lambda p: p["cities"]["Paris"].update(agents=paris["agents"][:2]),
        "position: step.doing: one of 'move agents', 'take back cubes'":
            lambda p: p.update(step={"doing": "dance"}),
        f"position: cities.Paris.royalty: the Royalty slot of Paris holds only its own Royalty card":
            lambda p: p["cities"]["Paris"].update(royalty=other_royalty),
        "position: players[0].revealed: a revealed Restorationist ends the game":
            lambda p: p["players"][0].update(identity="restorationist", revealed=True, change_of_heart=False),
        "points reach the target: the game would be over":
            lambda p: p["players"][2]["points"].update(neutral=24),
        f"position: cards: missing from every place: {first_in_hand}":
            lambda p: p["players"][1]["hand"].remove(first_in_hand),
        "position: players[0].cubes_in_stock: stock, Limbo and cities hold":
            lambda p: p["players"][0].update(cubes_in_stock=p["players"][0]["cubes_in_stock"] + 1),
        "position: players[2].seat: the players are listed in seat order: this is seat 2":
            lambda p: p["players"][2].update(seat=0),
        "position: waiting_for.target: needed for 'assassination' then 'assassinate again'":
            lambda p: p.update(waiting_for={"asked": 1, "by": p["playing"], "effect": "assassination",
                                            "city": "Paris", "card": 39, "then": "assassinate again"}),
        "position: tracks: a marker at the end of its track ends the game":
            lambda p: p["tracks"].update(loyalist=10),
        "position: players[0].identities_seen[0].seat: Vladimir Burtsev looks at another player's card":
            lambda p: p["players"][0].update(identities_seen=[{"seat": 0, "identity": "loyalist"}]),
        "position: in_the_box: card 201 is a starting card: it is never boxed":
            lambda p: (p["players"][0][next(k for k in ("hand", "deck", "discard", "beside_identity")
                                             if 201 in p["players"][0][k])].remove(201), p["in_the_box"].append(201)),
    }
    for words, change in changes.items():
        bad = tomllib.loads(tomli_w.dumps(good))
        change(bad)
        assert words in _refused(config, bad), words
    kernel = new_kernel(tmp_path)
    bad = tomllib.loads(tomli_w.dumps(good))
    bad["players"][0]["sanity"] = 7
    with pytest.raises(InvalidAction, match=r"players\[0\]\.sanity: must be between 0 and 3, not 7"):
        kernel.create("emerald", NAMES[:3], position=bad, game_id="refused")
    assert kernel.store.last("refused")[0] == 0
    kernel.store.close()


def _documented() -> dict[str, Any]:
    found = re.search(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert found, "docs/emerald-positions.md has its whole example in a ```toml block"
    return tomllib.loads(found.group(1))


def test_the_documented_example_is_a_whole_position_that_reads_back_as_written() -> None:
    written = _documented()
    config = GameConfig(tuple(Seat(i, p["name"]) for i, p in enumerate(written["players"])),
                        RULES.options({}), RULES.load_data(None))
    state = begun_from(config, written)
    assert RULES.position(state) == written
    assert RULES.prompts(state)
