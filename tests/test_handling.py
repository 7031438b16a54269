"""Commands: bad input changes nothing; a stale command is refused; concurrent ones retry; snapshots."""

from __future__ import annotations

import pickle

import pytest

import events.replay as replay
from events.handling import Cause, Kernel, StaleCommand
from events.rules import IllegalAction, InvalidAction
from events.store import Snapshot

CLI = Cause("cli")


@pytest.fixture
def game_id(kernel: Kernel) -> str:
    return kernel.create("highdie", ["Ann", "Ben"], seed="handling").after.game_id


def test_a_command_issued_at_an_older_seq_is_refused_and_writes_nothing(kernel: Kernel, game_id: str) -> None:
    issued = kernel.load(game_id).seq
    kernel.execute(game_id, 0, {"kind": "pass"}, cause=CLI, expected_seq=issued)
    seq = kernel.load(game_id).seq
    with pytest.raises(StaleCommand, match="moved on") as err:
        kernel.execute(game_id, 1, {"kind": "pass"}, cause=CLI, expected_seq=issued)
    assert (err.value.issued_seq, err.value.current_seq) == (issued, seq)
    assert kernel.load(game_id).seq == seq


def test_a_delivery_record_since_the_link_leaves_it_current(kernel: Kernel, game_id: str) -> None:
    """A pause or an undo request changes nothing on the table: a command issued before it still counts."""
    from events.envelope import NewEvent
    from pbem.table.delivery import DELIVERY_EVENT_TYPES, GAME_PAUSED
    kernel = Kernel(kernel.store, kernel.games, extra_types=DELIVERY_EVENT_TYPES)
    issued = kernel.load(game_id).seq
    kernel.record(game_id, [NewEvent(GAME_PAUSED, {"reason": "lunch"})], actor="organiser", cause=CLI)
    assert not kernel.moved_on(game_id, issued)
    kernel.execute(game_id, 0, {"kind": "pass"}, cause=CLI, expected_seq=issued)
    assert kernel.moved_on(game_id, issued)  # a move has: the same link is stale now
    with pytest.raises(StaleCommand):
        kernel.execute(game_id, 1, {"kind": "pass"}, cause=CLI, expected_seq=issued)


def test_acting_out_of_turn_says_who_is_awaited(kernel: Kernel, game_id: str) -> None:
    with pytest.raises(IllegalAction, match="not your turn to act; waiting for Ann"):
        kernel.execute(game_id, 1, {"kind": "pass"}, cause=CLI)


def test_a_malformed_action_is_invalid(kernel: Kernel, game_id: str) -> None:
    before = kernel.load(game_id)
    for bad in ({}, {"kind": 3}, "pass", None):
        with pytest.raises(InvalidAction):
            kernel.execute(game_id, 0, bad, cause=CLI)  # type: ignore[arg-type]
    assert kernel.load(game_id) == before


def test_an_illegal_action_says_what_is_legal(kernel: Kernel, game_id: str) -> None:
    with pytest.raises(IllegalAction, match="you may: play"):
        kernel.execute(game_id, 0, {"kind": "bet", "points": 9}, cause=CLI)


def test_the_cause_and_actor_are_recorded_on_every_event(kernel: Kernel, game_id: str) -> None:
    result = kernel.execute(game_id, 0, {"kind": "roll"}, cause=Cause("mail", {"message_id": "<m1@x>"}, "roll"))
    commands = {e.command_id for e in result.events}
    assert len(commands) == 1 and None not in commands
    for event in result.events:
        assert event.cause["via"] == "mail" and event.cause["message_id"] == "<m1@x>"
        assert event.cause["text"] == "roll" and event.cause["action"] == {"kind": "roll"}
        assert event.cause["actor"] == "seat:0"
    assert [e.actor for e in result.events] == ["system", "seat:0", "seat:0"]


def test_a_scheduler_time_out_is_recorded_with_the_scheduler_as_actor(kernel: Kernel, game_id: str) -> None:
    result = kernel.execute(game_id, 0, {"kind": "pass"}, cause=Cause("scheduler"), actor="scheduler")
    assert {e.actor for e in result.events} == {"scheduler"}


def test_a_concurrent_append_is_decided_again_on_the_new_state(kernel: Kernel, game_id: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Without an expected seq (the CLI), losing a race means deciding again on the new state.

    Here Ann's move arrives twice at once (say by mail and by the CLI): the first wins; the
    second, decided again, finds it is no longer her turn. One bet is recorded, not two.
    """
    original = kernel.store.append
    raced = []

    def append_after_a_rival(game: str, expected: int, events, extra_rows=(), snapshot=None):  # type: ignore[no-untyped-def]
        if not raced:
            raced.append(True)
            kernel.store.append = original  # type: ignore[method-assign]
            kernel.execute(game_id, 0, {"kind": "bet", "points": 1}, cause=CLI)
            kernel.store.append = append_after_a_rival  # type: ignore[method-assign]
        return original(game, expected, events, extra_rows, snapshot)

    monkeypatch.setattr(kernel.store, "append", append_after_a_rival)
    with pytest.raises(IllegalAction, match="not your turn"):
        kernel.execute(game_id, 0, {"kind": "bet", "points": 2}, cause=CLI)
    assert raced and kernel.load(game_id).game.scores == (1, 0)


def test_state_loaded_through_snapshots_equals_a_full_replay(kernel: Kernel, game_id: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "SNAPSHOT_EVERY", 5)
    for n in range(6):
        kernel.execute(game_id, n % 2, {"kind": "bet", "points": 1}, cause=CLI)
    assert list(kernel.store.snapshots(game_id))
    assert kernel.load(game_id) == kernel.replayer.fold(kernel.store.read(game_id))
    assert kernel.load(game_id, upto_seq=9) == kernel.replayer.fold(kernel.store.read(game_id, 0, 9))


def test_a_corrupt_or_foreign_snapshot_is_passed_over(kernel: Kernel, game_id: str) -> None:
    kernel.execute(game_id, 0, {"kind": "bet", "points": 1}, cause=CLI)
    truth = kernel.replayer.fold(kernel.store.read(game_id))
    key = kernel.replayer.snapshot_key("highdie")
    kernel.store.save_snapshot(Snapshot(game_id, 7, key, b"not a pickle"))
    kernel.store.save_snapshot(Snapshot(game_id, 8, "highdie/0/k0", pickle.dumps("from older code")))
    assert kernel.load(game_id) == truth


def test_the_stored_payload_and_cause_are_the_canonical_json_that_was_hashed(kernel: Kernel, game_id: str) -> None:
    from events.envelope import canonical_json, recompute_hash
    kernel.execute(game_id, 0, {"kind": "bet", "points": 2}, cause=Cause("cli", text="bet 2 é"))
    rows = kernel.store.conn.execute(  # type: ignore[attr-defined]
        "SELECT payload, cause FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    events = kernel.store.read(game_id)
    assert [(canonical_json(e.payload), canonical_json(e.cause)) for e in events] == [tuple(r) for r in rows]
    assert "é" in rows[-1][1]  # as written, not escaped
    salt = kernel.seed(game_id)
    assert all(recompute_hash(e, salt, salt) == e.hash for e in events)
