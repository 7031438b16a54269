"""The state cache: a state kept by one service is used only while the store ends where it ends, and is carried
forward, not loaded again, when another process (another service on the same file) appended after it."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from delivery import make_settings
from events.handling import Cause, UndoRefused
from pbem.service import Player, Service
from pbem.instance.statecache import ADVANCE_AT_MOST, StateCache

PLAYERS = [Player.parse(e) for e in ("ann@example.org", "ben@example.org", "cy@example.org")]


def two_services(tmp_path: Path) -> tuple[Service, Service]:
    """Two services on one database, as two web workers' would be: each with a cache of its own."""
    settings = make_settings(tmp_path / "inst")
    return Service.open(settings), Service.open(settings)


def play(service: Service, game_id: str, moves: int, pick: random.Random) -> None:
    for _ in range(moves):
        state = service.kernel.load(game_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("test"))


def same(one: object, other: object) -> None:
    assert (one.seq, one.last_hash, one.rng_counter, one.ended) == (  # type: ignore[attr-defined]
        other.seq, other.last_hash, other.rng_counter, other.ended)  # type: ignore[attr-defined]
    assert one.game == other.game  # type: ignore[attr-defined]


def test_a_state_another_process_moved_on_from_is_carried_forward_to_the_loaded_state(tmp_path: Path) -> None:
    a, b = two_services(tmp_path)
    game_id = a.create_game("emerald", PLAYERS, seed="cache-forward").after.game_id
    a.states = StateCache()
    cached = a.load(game_id)
    assert (a.states.loads, a.states.advances) == (1, 0)
    assert a.load(game_id) is cached and a.states.hits == 1  # nothing appended: the same object
    play(b, game_id, 2, random.Random(3))
    assert cached.seq < b.store.last(game_id)[0] <= cached.seq + ADVANCE_AT_MOST
    now = a.load(game_id)
    assert (a.states.loads, a.states.advances) == (1, 1)  # the 2 moves folded onto the cached state
    assert now.seq > cached.seq
    same(now, b.kernel.load(game_id))  # exactly what loading from the store gives
    a.close(), b.close()


def test_a_state_far_behind_is_loaded_again_from_the_newest_snapshot(tmp_path: Path) -> None:
    a, b = two_services(tmp_path)
    game_id = a.create_game("emerald", PLAYERS, seed="cache-far").after.game_id
    a.states = StateCache()
    cached = a.load(game_id)
    pick = random.Random(3)
    while b.store.last(game_id)[0] <= cached.seq + ADVANCE_AT_MOST:
        play(b, game_id, 1, pick)
    now = a.load(game_id)
    assert (a.states.loads, a.states.advances) == (2, 0)  # a snapshot and its short tail cost less than the fold
    same(now, b.kernel.load(game_id))
    assert a.load(game_id) is now and a.states.hits == 1  # and it is kept
    a.close(), b.close()


def test_an_undo_reaching_back_into_the_cached_state_loads_the_game_again(tmp_path: Path) -> None:
    a, b = two_services(tmp_path)
    game_id = a.create_game("emerald", PLAYERS, seed="cache-undo").after.game_id
    pick = random.Random(5)
    for _ in range(40):  # a move that can be taken back: the mover's own last command
        play(b, game_id, 1, pick)
        a.states = StateCache()
        cached = a.load(game_id)
        mover = next(e for e in reversed(b.store.read(game_id)) if e.actor.startswith("seat:")).actor
        try:
            b.kernel.undo(game_id, int(mover.split(":")[1]), cause=Cause("test"))
        except UndoRefused:
            continue
        break
    else:
        raise AssertionError("no move of the seeded game could be taken back")
    now = a.load(game_id)
    assert (a.states.loads, a.states.advances) == (2, 0)  # the undo reaches before the cached state's end
    assert now.seq > cached.seq
    same(now, b.kernel.load(game_id))
    a.close(), b.close()


def test_a_cached_state_that_does_not_chain_to_the_stored_events_is_never_used(tmp_path: Path) -> None:
    a, b = two_services(tmp_path)
    game_id = a.create_game("emerald", PLAYERS, seed="cache-chain").after.game_id
    play(b, game_id, 2, random.Random(1))
    a.states = StateCache()
    true = a.load(game_id)
    a.states.keep(replace(a.kernel.load(game_id, true.seq - 1), last_hash="f" * 64))  # not the stored hash
    play(b, game_id, 1, random.Random(2))
    now = a.load(game_id)
    assert (a.states.loads, a.states.advances) == (2, 0)
    same(now, b.kernel.load(game_id))
    a.close(), b.close()


def test_the_web_apps_services_share_one_cache(tmp_path: Path) -> None:
    from pbem.web import create_app
    from pbem.web.common import service
    app = create_app({"instance": tmp_path / "inst", "secret_key": "k" * 32, "TESTING": True})
    with app.app_context(), app.test_request_context():
        first = service()
        with app.app_context(), app.test_request_context():  # a second request at once: another of the pool
            second = service()
    assert first is not second
    assert first.states is second.states is app.extensions["pbem.states"]
