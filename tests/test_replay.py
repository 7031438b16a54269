"""Replay: the state at every move is the live state then; a player's replay shows only what they saw."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from events.handling import Cause, UndoRefused
from events.replay import live_states
from pbem.proof import replay as replay_module
from pbem.service import Player, Service, ServiceError
from tests.emerald.checks import _ids_in

ANN, BEN, CY = "ann@example.org", "ben@example.org", "cy@example.org"


def play_with_undos(service: Service, game_id: str, seed: int, commands: int, undo_rate: float = 0.15,
                    after: Any = None) -> None:
    """Random legal moves for whoever is prompted, with an undo attempt now and then."""
    pick = random.Random(seed)
    kernel = service.kernel
    for _ in range(commands):
        state = kernel.load(game_id)
        if state.ended:
            return
        rules = kernel.rules(state)
        seat = pick.choice(sorted(rules.prompts(state.game)))
        result = kernel.execute(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("test"))
        if after:
            after(result)
        if pick.random() < undo_rate and not result.after.ended:  # "oops": take it back at once, if allowed
            try:
                result = kernel.undo(game_id, seat, cause=Cause("test"))
            except UndoRefused:
                continue
            if after:
                after(result)


def new_game(service: Service, game_type: str, seed: str, seats: int = 3) -> str:
    players = [Player.parse(e) for e in (ANN, BEN, CY)[:seats]]
    return service.create_game(game_type, players, seed=seed).after.game_id


@pytest.mark.parametrize("seed", range(6))
def test_the_state_at_every_move_is_the_live_state_then(highdie_registered: None, service: Service,
                                                        seed: int) -> None:
    game_id = new_game(service, "highdie", f"replay-{seed}")
    live = {}

    def remember(result: Any) -> None:
        live[result.after.seq] = result.after

    play_with_undos(service, game_id, seed, 400, undo_rate=0.5, after=remember)
    events = service.store.read(game_id)
    states = replay_module.timeline(service.store, service.kernel.replayer, game_id).states
    assert len(states) == len(events) and any(e.type == "pbem.ActionsUndone" for e in events)
    for seq, state in live.items():  # as the command left it, the moment it was made
        assert states[seq - 1] == state
    for seq in range(1, len(events) + 1):  # and as the snapshot-and-tail load rebuilds it
        assert states[seq - 1] == service.kernel.load(game_id, upto_seq=seq)


def test_an_emerald_game_with_undos_replays_every_move_as_it_stood(service: Service) -> None:
    game_id = new_game(service, "emerald", "emerald-replay")
    live = {}
    play_with_undos(service, game_id, 7, 250, after=lambda r: live.__setitem__(r.after.seq, r.after))
    states = replay_module.timeline(service.store, service.kernel.replayer, game_id).states
    assert live and all(states[seq - 1] == state for seq, state in live.items())


def test_the_timeline_grows_with_the_game_and_matches_a_fresh_one(highdie_registered: None,
                                                                  service: Service) -> None:
    game_id = new_game(service, "highdie", "grow")
    first = service.replay(game_id)
    play_with_undos(service, game_id, 1, 30)
    grown = replay_module.timeline(service.store, service.kernel.replayer, game_id)
    assert grown.last > first["last"]
    assert grown.states == live_states(service.kernel.replayer, service.store.read(game_id))
    assert service.replay(game_id)["at"] == grown.last


def hidden_cards(state: Any, seat: int) -> set[int]:
    """Emerald cards the seat cannot see at this state: every deck, other hands, the stacks below the top."""
    hidden: set[int] = set(state.boxed)
    for other, p in enumerate(state.players):
        hidden.update(p.deck)
        if other != seat:
            hidden.update(p.hand)
    for city in state.cities:
        hidden.update(city.stack[1:])
    return hidden


def test_a_players_replay_shows_only_what_they_could_see_then(service: Service) -> None:
    game_id = new_game(service, "emerald", "perspective")
    play_with_undos(service, game_id, 3, 120)
    line = replay_module.timeline(service.store, service.kernel.replayer, game_id)
    rules = service.kernel.rules(line.states[0])
    for seq in range(1, line.last + 1, 3):
        state = line.states[seq - 1]
        for seat, name in enumerate(("ann", "ben", "cy")):
            shown = service.replay(game_id, seq, seat=seat)
            assert shown["views"] == {name: rules.view(state.game, seat)}  # their view then, nothing more
            leaked = _ids_in(shown["views"]) & hidden_cards(state.game, seat)
            assert not leaked, (seq, seat, leaked)
            for entry in shown["events"]:
                event = line.events[entry["seq"] - 1]
                if not event.visibility.allows(seat) and not event.type.startswith("pbem."):
                    # a hidden event: its words name no card and depend on nothing but whose it was
                    assert not re.search(r"\(\d+\)", entry["text"]), entry
                    stripped = replace(event, payload={"seat": event.payload.get("seat")})
                    assert entry["text"] == service.describe_event(rules, stripped, seat, False,
                                                                   ["ann", "ben", "cy"])
        spectator = service.replay(game_id, seq)
        assert spectator["views"] == {"public": rules.view(state.game, None)}


def test_everything_is_revealed_only_after_the_end(highdie_registered: None, service: Service) -> None:
    game_id = new_game(service, "highdie", "reveal", seats=2)
    with pytest.raises(ServiceError, match="only once the game has ended"):
        service.replay(game_id, everything=True)
    play_with_undos(service, game_id, 2, 500, undo_rate=0)
    shown = service.replay(game_id, 6, everything=True)
    assert set(shown["views"]) == {"public", "ann", "ben"}
    dealt = [e for e in shown["events"] if e["type"] == "dice.HandDealt"]
    hands = [e.payload["cards"] for e in service.store.read(game_id, 0, 6) if e.type == "dice.HandDealt"]
    assert len(dealt) == 2 and all(str(hand) in e["text"] for e, hand in zip(dealt, hands))
    # a player's perspective still shows only what they saw at that time, even after the end
    as_ann = service.replay(game_id, 6, seat=0)
    assert set(as_ann["views"]) == {"ann"}
    assert [e["text"] for e in as_ann["events"] if e["type"] == "dice.HandDealt"][1] == "ben was dealt 2 cards"


def test_undone_moves_are_marked_and_skipped_when_stepping(highdie_registered: None, service: Service) -> None:
    game_id = new_game(service, "highdie", "undo-steps", seats=2)
    state = service.load(game_id)
    seat = next(iter(service.kernel.rules(state).prompts(state.game)))
    bet = service.kernel.execute(game_id, seat, {"kind": "bet", "points": 2}, cause=Cause("cli"))
    undo = service.kernel.undo(game_id, seat, cause=Cause("cli"))
    taken_back = bet.events[0].seq
    shown = service.replay(game_id, taken_back)
    assert shown["event"]["undone_by"] == {"seq": undo.events[0].seq, "who": ("ann", "ben")[seat],
                                           "at": undo.events[0].recorded_at, "reason": "undone by its player",
                                           "where": "turn 1"}  # the game's count (highdie has no presentation)
    assert shown["next"] == undo.events[0].seq and shown["prev"] == taken_back - 1
    with_undone = service.replay(game_id, taken_back - 1, with_undone=True)
    assert with_undone["next"] == taken_back
    assert service.replay(game_id, taken_back - 1)["next"] == undo.events[0].seq
    assert service.replay(game_id, undo.events[0].seq)["views"] == service.replay(game_id, taken_back - 1)["views"]


def test_replay_refuses_a_move_that_is_not_there(highdie_registered: None, service: Service) -> None:
    game_id = new_game(service, "highdie", "bounds", seats=2)
    for bad in (0, 10_000):
        with pytest.raises(ServiceError, match="there is no step"):
            service.replay(game_id, bad)
    with pytest.raises(ServiceError, match="no game"):
        service.replay("0000000000")


def test_cli_replay(highdie_registered: None, service: Service) -> None:
    game_id = new_game(service, "highdie", "cli-replay", seats=2)
    state = service.load(game_id)
    seat = next(iter(service.kernel.rules(state).prompts(state.game)))
    service.kernel.execute(game_id, seat, {"kind": "bet", "points": 2}, cause=Cause("cli"))
    service.kernel.undo(game_id, seat, cause=Cause("cli"))
    instance = str(service.settings.instance)
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(cli, ["--instance", instance, "game", "replay", game_id, *args])

    shown = run("--as", (ANN, BEN)[seat])
    assert shown.exit_code == 0, shown.output
    assert f"as {('ann', 'ben')[seat]} saw it" in shown.output
    # a taken-back move says when it was taken back in the game's count, as the page does, not by event number
    assert re.search(r"\[taken back by (ann|ben) at \S+ \(turn 1\)\]", shown.output)
    assert re.search(r"^>    9  turn 1 .* (ann|ben) took back their last move$", shown.output, re.M)  # the step shown
    assert re.search(r"^highdie.* - turn 1, (ann|ben) - as .* saw it\nstep \d+ of \d+; event 9 of 9 on record$",
                     shown.output, re.M | re.I)
    early = json.loads(run("--to", "3", "--json").output)
    assert early["at"] == 3 and early["next"] == 4 and list(early["views"]) == ["public"]
    refused = run("--all")
    assert refused.exit_code == 1 and "only once the game has ended" in refused.output
    assert "there is no step 99" in run("--to", "99").output
    assert run("--all", "--as", ANN).exit_code == 2


def test_a_replay_across_an_agreed_undo_with_a_pause_inside_it(highdie_registered: None, service: Service) -> None:
    """An approved request takes several moves back around a pause; every move still replays as it stood."""
    game_id = new_game(service, "highdie", "agreed")
    cli_cause = Cause("cli")
    service.act(game_id, ANN, "bet 3", cause=cli_cause)
    service.pause(game_id, "lunch", cause=cli_cause)
    service.resume(game_id, "back", cause=cli_cause)
    service.act(game_id, BEN, "bet 2", cause=cli_cause)
    service.act(game_id, CY, "bet 1", cause=cli_cause)
    request = service.request_undo(game_id, 0, "I meant to pass", cause=cli_cause).events[0].payload["request"]
    service.answer_undo(game_id, request, 1, "approve", cause=cli_cause)
    approved = service.answer_undo(game_id, request, 2, "approve", cause=cli_cause)
    undos = [e for e in approved.events if e.type == "pbem.ActionsUndone"]
    assert len(undos) == 2  # the moves before and after the pause; the pause itself stays on record
    line = replay_module.timeline(service.store, service.kernel.replayer, game_id)
    for seq in range(1, line.last + 1):
        if seq != undos[0].seq:  # between the two ranges of one undo: the state it goes back to (live_states)
            assert line.states[seq - 1] == service.kernel.load(game_id, upto_seq=seq), seq
    assert line.states[undos[0].seq - 1].game == line.states[undos[1].seq - 1].game
    assert line.states[-1].game == service.kernel.load(game_id, upto_seq=undos[0].payload["from_seq"] - 1).game
    shown = service.replay(game_id, undos[0].payload["from_seq"])
    assert shown["event"]["undone_by"]["seq"] == undos[0].seq and shown["event"]["undone_by"]["who"] == "cy"


def test_the_replay_menu_counts_turns_as_the_game_does(service: Service) -> None:
    game_id = new_game(service, "emerald", "menu")
    play_with_undos(service, game_id, 5, 40, undo_rate=0)
    shown = service.replay(game_id, None, seat=0)
    words = [t["words"] for t in shown["turns"]]
    # the setup's placements are the setup, not turns 1 to 6; the first turn is the game's turn 1
    assert words[0] == "setup" and words.count("setup") == 6, words
    assert words[6] == "turn 1" and all(w.startswith("turn ") for w in words[6:]), words
    numbers = [int(w.split()[1]) for w in words[6:]]
    assert numbers == sorted(numbers) and numbers[-1] < len(shown["turns"]) - 6 + 1


def test_the_turn_the_menu_marks_is_the_one_the_step_names(service: Service) -> None:
    """Each step says where the game stood when its command began (``turn 23, action 2 of 2``); the "Go to" list marks
    that turn, not the next one that the step's command began (a deadline recorded by Ben's last action is turn
    23's, not "Turn 24: Cy"), and each entry goes to a step of its own turn, which the list then marks."""
    game_id = new_game(service, "emerald", "menu-agrees")
    play_with_undos(service, game_id, 5, 60, undo_rate=0.2)
    shown = service.replay(game_id, None, with_undone=True)
    turns = {t["seq"]: t for t in shown["turns"]}
    for at in range(1, shown["last"] + 1):
        step = service.replay(game_id, at, with_undone=True)
        where = step["event"]["where"]
        if step["turn_at"] is None:
            assert where == "the start", (at, where)
            continue
        marked = turns[step["turn_at"]]
        assert where.split(",")[0] == marked["words"], (at, where, marked)
    ends = [t for t in shown["turns"] if t["step"] is not None]
    assert ends and len(ends) >= len(shown["turns"]) - 1  # only a turn nothing was played in yet has no step
    for turn in ends:
        gone = service.replay(game_id, turn["step"])
        assert gone["turn_at"] == turn["seq"] and gone["event"]["where"].split(",")[0] == turn["words"], turn
    # the brief's case: the last event of a command that handed the turn on reads as the turn it ended
    handed = next(t for t in shown["turns"][7:] if t["seq"] in range(1, shown["last"]))
    before = service.replay(game_id, handed["seq"])
    assert before["turn_at"] != handed["seq"] and before["event"]["where"].split(",")[0] != handed["words"]
