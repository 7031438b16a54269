"""Undo is a compensating event, allowed alone only within the horizon, and never re-rolls."""

from __future__ import annotations

import pytest

from events.handling import Cause, Kernel, UndoRefused, group_commands, undoable_commands
from events.replay import effective
from events.schema import ACTIONS_UNDONE

CLI = Cause("cli")


def new_game(kernel: Kernel, seed: str = "undo") -> str:
    return kernel.create("highdie", ["Ann", "Ben"], seed=seed).after.game_id


def test_a_player_undoes_their_own_last_action_and_the_log_keeps_it(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    before = kernel.load(game_id)
    bet = kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    assert bet.after.game.scores == (3, 0)
    undone = kernel.undo(game_id, 0, cause=CLI)
    assert [e.type for e in undone.events] == [ACTIONS_UNDONE]
    payload = undone.events[0].payload
    assert (payload["from_seq"], payload["to_seq"]) == (bet.events[0].seq, bet.events[-1].seq)
    assert undone.after.game == before.game
    assert undone.after.seq == bet.events[-1].seq + 1
    log = kernel.store.read(game_id)
    assert [e.seq for e in log] == list(range(1, undone.after.seq + 1)), "nothing is deleted"
    assert kernel.load(game_id) == undone.after


def test_redo_after_undo_is_just_acting_again(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    kernel.undo(game_id, 0, cause=CLI)
    again = kernel.execute(game_id, 0, {"kind": "bet", "points": 1}, cause=CLI)
    assert again.after.game.scores == (1, 0)
    assert again.after.game.turn == 1


def test_undo_is_refused_once_another_seat_has_acted(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    kernel.execute(game_id, 1, {"kind": "pass"}, cause=CLI)
    seq = kernel.load(game_id).seq
    with pytest.raises(UndoRefused, match="not yours"):
        kernel.undo(game_id, 0, cause=CLI)
    assert kernel.load(game_id).seq == seq, "a refused undo writes nothing"


def test_undo_is_refused_for_an_action_that_used_chance(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    kernel.execute(game_id, 0, {"kind": "roll"}, cause=CLI)
    with pytest.raises(UndoRefused, match="chance"):
        kernel.undo(game_id, 0, cause=CLI)


def test_undo_is_refused_for_an_action_that_revealed_hidden_information(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    kernel.execute(game_id, 0, {"kind": "draw"}, cause=CLI)
    with pytest.raises(UndoRefused, match="revealed"):
        kernel.undo(game_id, 0, cause=CLI)


def test_there_is_nothing_to_undo_right_after_setup(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    with pytest.raises(UndoRefused, match="set up"):
        kernel.undo(game_id, 0, cause=CLI)


def test_the_horizon_lists_what_may_be_undone_and_why_no_further(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    kernel.execute(game_id, 0, {"kind": "roll"}, cause=CLI)
    kernel.execute(game_id, 1, {"kind": "bet", "points": 2}, cause=CLI)
    recent = kernel.recent_commands(game_id, kernel.load(game_id).seq)
    found, why = undoable_commands(recent, 1)
    assert len(found) == 1 and "chance" not in why and "not yours" in why
    found, why = undoable_commands(recent, 0)
    assert found == [] and "not yours" in why


def test_an_agreed_undo_of_a_die_roll_then_redo_gives_the_same_roll(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    first = kernel.execute(game_id, 0, {"kind": "roll"}, cause=CLI)
    face = first.events[1].payload["face"]
    kernel.undo(game_id, 0, cause=Cause("link"), force=True, actor="organiser")
    assert kernel.load(game_id).rng_counter == first.before.rng_counter  # type: ignore[union-attr]
    again = kernel.execute(game_id, 0, {"kind": "roll"}, cause=CLI)
    assert again.events[1].payload["face"] == face
    assert again.events[0].payload == first.events[0].payload


def test_an_agreed_undo_then_redo_draws_the_same_card(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    first = kernel.execute(game_id, 0, {"kind": "draw"}, cause=CLI)
    kernel.undo(game_id, 0, cause=Cause("link"), force=True, actor="organiser")
    again = kernel.execute(game_id, 0, {"kind": "draw"}, cause=CLI)
    assert again.events[0].payload == first.events[0].payload


def test_undo_twice_takes_back_two_own_actions_in_a_row(kernel: Kernel) -> None:
    game_id = kernel.create("highdie", ["Ann", "Ben"], seed="undo").after.game_id
    kernel.execute(game_id, 0, {"kind": "bet", "points": 1}, cause=CLI)
    kernel.execute(game_id, 1, {"kind": "bet", "points": 2}, cause=CLI)
    kernel.undo(game_id, 1, cause=CLI)
    with pytest.raises(UndoRefused):
        kernel.undo(game_id, 1, cause=CLI)  # the action before is seat 0's
    state = kernel.load(game_id)
    assert state.game.scores == (1, 0)
    events = kernel.store.read(game_id)
    assert len(effective(events)) == len(events) - 2  # the bet and its turn-end


def test_recent_commands_reach_back_past_a_small_window_whole(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    for points in (1, 2, 3):
        kernel.execute(game_id, 0, {"kind": "bet", "points": points}, cause=CLI)
        kernel.execute(game_id, 1, {"kind": "pass"}, cause=CLI)
    seq = kernel.load(game_id).seq
    full = [c for c in group_commands(effective(kernel.store.read(game_id))) if c[0].type != ACTIONS_UNDONE]
    for window in (1, 2, 3, 64):
        recent = kernel.recent_commands(game_id, seq, window)
        assert recent and recent == full[-len(recent):]


def test_a_snapshot_made_stale_by_an_undo_is_not_used(kernel: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    import events.replay as replay
    monkeypatch.setattr(replay, "SNAPSHOT_EVERY", 2)
    game_id = new_game(kernel)
    kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    assert list(kernel.store.snapshots(game_id))
    kernel.undo(game_id, 0, cause=CLI)
    assert kernel.load(game_id).game.scores == (0, 0)
    assert kernel.load(game_id) == kernel.replayer.fold(kernel.store.read(game_id))


# ---- an undo by agreement: a range of commands -----------------------------------------------

def delivery_kernel(kernel: Kernel) -> Kernel:
    """The same store with the delivery layer's events known, so pauses can be recorded."""
    from pbem.table.delivery import DELIVERY_EVENT_TYPES
    return Kernel(kernel.store, kernel.games, extra_types=DELIVERY_EVENT_TYPES)


def test_a_range_undo_takes_back_several_players_moves_and_keeps_them_in_the_log(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    before = kernel.load(game_id)
    ann = kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    ben = kernel.execute(game_id, 1, {"kind": "bet", "points": 2}, cause=CLI)
    undone = kernel.undo_range(game_id, ann.events[0].seq, ben.events[-1].seq, seat=0, cause=CLI,
                               actor="organiser", reason="agreed")
    assert [(e.type, e.payload["from_seq"], e.payload["to_seq"], e.actor) for e in undone.events] == [
        (ACTIONS_UNDONE, ann.events[0].seq, ben.events[-1].seq, "organiser")]
    assert undone.after.game == before.game and kernel.load(game_id).game == before.game
    assert len(kernel.store.read(game_id)) == undone.after.seq, "nothing is deleted"


def test_a_range_undo_is_refused_unless_it_is_whole_commands_with_nothing_played_after(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    ann = kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    ben = kernel.execute(game_id, 1, {"kind": "bet", "points": 2}, cause=CLI)
    seq = kernel.load(game_id).seq
    refusals = {
        (ann.events[1].seq, ben.events[-1].seq): "middle of a command",
        (ann.events[0].seq, ben.events[0].seq): "does not end a command",
        (ann.events[0].seq, ann.events[-1].seq): "moved on since",
        (1, ann.events[-1].seq): "setup cannot be undone",
        (ann.events[0].seq, seq + 5): "not a range",
    }
    for (first, last), why in refusals.items():
        with pytest.raises(UndoRefused, match=why):
            kernel.undo_range(game_id, first, last, seat=0, cause=CLI)
    assert kernel.load(game_id).seq == seq, "a refused undo writes nothing"
    kernel.undo_range(game_id, ben.events[0].seq, ben.events[-1].seq, seat=1, cause=CLI)
    with pytest.raises(UndoRefused, match="undone already"):
        kernel.undo_range(game_id, ben.events[0].seq, ben.events[-1].seq, seat=1, cause=CLI)


def test_a_range_undo_of_a_finished_game_is_refused(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    first = None
    while not kernel.load(game_id).ended:
        state = kernel.load(game_id)
        result = kernel.execute(game_id, state.game.turn, {"kind": "bet", "points": 3}, cause=CLI)
        first = first or result
    assert first is not None
    with pytest.raises(UndoRefused, match="game is over"):
        kernel.undo_range(game_id, first.events[0].seq, first.events[-1].seq, seat=0, cause=CLI)


def test_delivery_records_inside_the_range_stay_in_effect(kernel: Kernel) -> None:
    from events.envelope import NewEvent
    from pbem.table.delivery import GAME_PAUSED
    kernel = delivery_kernel(kernel)
    game_id = new_game(kernel)
    ann = kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    pause = kernel.record(game_id, [NewEvent(GAME_PAUSED, {"reason": "holiday"})], actor="organiser", cause=CLI)
    ben = kernel.execute(game_id, 1, {"kind": "bet", "points": 2}, cause=CLI)
    undone = kernel.undo_range(game_id, ann.events[0].seq, ben.events[-1].seq, seat=0, cause=CLI)
    assert [(e.payload["from_seq"], e.payload["to_seq"]) for e in undone.events] == [
        (ann.events[0].seq, ann.events[-1].seq), (ben.events[0].seq, ben.events[-1].seq)]
    kept = effective(kernel.store.read(game_id))
    assert pause.events[0] in kept and ann.events[0] not in kept and ben.events[0] not in kept
    assert kernel.load(game_id).game.scores == (0, 0)


def test_records_of_the_delivery_layer_join_the_undo_in_one_command(kernel: Kernel) -> None:
    from events.envelope import NewEvent
    from pbem.table.delivery import GAME_PAUSED, GAME_RESUMED
    kernel = delivery_kernel(kernel)
    game_id = new_game(kernel)
    ann = kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    undone = kernel.undo_range(game_id, ann.events[0].seq, ann.events[-1].seq, seat=0, cause=CLI,
                               records_before=[NewEvent(GAME_PAUSED, {"reason": "a"})],
                               records_after=[NewEvent(GAME_RESUMED, {"reason": "b"})])
    assert [e.type for e in undone.events] == [GAME_PAUSED, ACTIONS_UNDONE, GAME_RESUMED]
    assert len({e.command_id for e in undone.events}) == 1


def test_a_range_undo_then_redo_rolls_the_same_die_even_after_other_draws(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    roll = kernel.execute(game_id, 0, {"kind": "roll"}, cause=CLI)
    ben = kernel.execute(game_id, 1, {"kind": "roll"}, cause=CLI)
    kernel.undo_range(game_id, roll.events[0].seq, ben.events[-1].seq, seat=0, cause=CLI)
    again = kernel.execute(game_id, 0, {"kind": "roll"}, cause=CLI)
    assert again.events[1].payload["face"] == roll.events[1].payload["face"]
    assert again.events[0].payload == roll.events[0].payload
    ben_again = kernel.execute(game_id, 1, {"kind": "roll"}, cause=CLI)
    assert ben_again.events[0].payload == ben.events[0].payload


def test_the_last_move_of_a_seat_is_found_far_back(kernel: Kernel) -> None:
    game_id = new_game(kernel)
    ann = kernel.execute(game_id, 0, {"kind": "bet", "points": 1}, cause=CLI)
    kernel.execute(game_id, 1, {"kind": "bet", "points": 1}, cause=CLI)
    seq = kernel.load(game_id).seq
    for window in (1, 2, 64):
        assert kernel.last_command_of(game_id, 0, seq, window) == ann.events
    kernel.undo_range(game_id, ann.events[0].seq, seq, seat=0, cause=CLI)
    assert kernel.last_command_of(game_id, 0, kernel.load(game_id).seq) is None


def test_records_of_the_delivery_layer_neither_block_an_undo_nor_are_undone(kernel: Kernel) -> None:
    from events.envelope import NewEvent
    from pbem.table.delivery import GAME_PAUSED
    kernel = delivery_kernel(kernel)
    game_id = new_game(kernel)
    bet = kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    pause = kernel.record(game_id, [NewEvent(GAME_PAUSED, {"reason": "holiday"})], actor="organiser", cause=CLI)
    undone = kernel.undo(game_id, 0, cause=CLI)  # a pause is nobody acting
    assert (undone.events[0].payload["from_seq"], undone.events[0].payload["to_seq"]) == (
        bet.events[0].seq, bet.events[-1].seq)
    assert pause.events[0] in effective(kernel.store.read(game_id))
    with pytest.raises(UndoRefused, match="set up"):
        kernel.undo(game_id, 0, cause=CLI, force=True)  # and the pause is no move to take back


def test_an_undo_with_the_page_seq_refuses_once_a_move_or_undo_came_and_not_for_a_record(kernel: Kernel) -> None:
    from events.envelope import NewEvent
    from events.handling import StaleCommand
    from pbem.table.delivery import GAME_PAUSED

    kernel = delivery_kernel(kernel)
    game_id = new_game(kernel)
    kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    shown = kernel.store.last(game_id)[0]
    kernel.record(game_id, [NewEvent(GAME_PAUSED, {"reason": "tea"})], actor="organiser", cause=CLI)
    kernel.undo(game_id, 0, cause=CLI, expected_seq=shown)       # a pause is no move: the page still fits
    with pytest.raises(StaleCommand):
        kernel.undo(game_id, 0, cause=CLI, expected_seq=shown)   # the same page again: the undo came since


def test_the_horizon_is_read_as_of_the_state_loaded_not_what_came_after(kernel: Kernel) -> None:
    """Another process may append between loading the state and reading the last commands."""
    game_id = new_game(kernel)
    bet = kernel.execute(game_id, 0, {"kind": "bet", "points": 3}, cause=CLI)
    loaded = bet.after.seq
    kernel.undo(game_id, 0, cause=CLI)                            # lands after the state was loaded
    commands = kernel.recent_commands(game_id, loaded)
    assert commands[-1][0].seq == bet.events[0].seq, "the bet is still the last move as of that state"
