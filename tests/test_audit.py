"""Verification finds the first bad event, whatever was done to the log; audit explains one event."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from events.audit import Finding, explain, verify, verify_chain
from events.envelope import Event, recompute_hash
from events.handling import Cause, Kernel
from events.rng import seed_commitment
from pbem.service import Player, Service
from playout import play_random


@pytest.fixture
def finished(kernel: Kernel) -> str:
    game_id = kernel.create("highdie", ["Ann", "Ben", "Cy"], seed="audited").after.game_id
    play_random(kernel, game_id, 11)
    return game_id


def _sql(kernel: Kernel, sql: str, *params: object) -> None:
    kernel.store.conn.execute(sql, params)  # type: ignore[attr-defined]


def test_an_untouched_finished_game_verifies_completely(kernel: Kernel, finished: str) -> None:
    report = verify(kernel.replayer, kernel.store.read(finished))
    assert report.ok
    assert len(report.checks) == 4 and "every draw recomputed" in report.checks[2]


def test_a_running_game_verifies_its_chain_and_says_the_rest_waits(kernel: Kernel) -> None:
    game_id = kernel.create("highdie", ["Ann", "Ben"], seed="running").after.game_id
    report = verify(kernel.replayer, kernel.store.read(game_id), secret="running")
    assert report.ok and "secret until the game ends" in report.checks[-1]


def test_before_the_end_a_hidden_payload_is_checked_only_with_the_servers_seed(kernel: Kernel) -> None:
    game_id = kernel.create("highdie", ["Ann", "Ben"], seed="running").after.game_id
    events = kernel.store.read(game_id)
    # every cause enters the chain behind salted commitments, the first event's already
    assert verify(kernel.replayer, events, secret="not-the-seed").failure == Finding(
        1, "its content does not match its hash: it was altered after recording")
    failure = verify(kernel.replayer, events).failure
    assert failure is not None and failure.seq == 1 and "no seed was given" in failure.problem


def test_an_altered_payload_is_found_at_its_seq(kernel: Kernel, finished: str) -> None:
    _sql(kernel, "UPDATE events SET payload = json_set(payload, '$.seat', 2) WHERE game_id = ? AND seq = 9", finished)
    failure = verify(kernel.replayer, kernel.store.read(finished)).failure
    assert failure is not None and failure.seq == 9 and "altered" in failure.problem


def test_a_deleted_event_is_found_where_it_is_missing(kernel: Kernel, finished: str) -> None:
    _sql(kernel, "DELETE FROM events WHERE game_id = ? AND seq = 7", finished)
    failure = verify_chain(kernel.store.read(finished))
    assert failure is not None and failure.seq == 7 and "removed" in failure.problem


def test_two_events_swapped_are_found_at_the_first(kernel: Kernel, finished: str) -> None:
    _sql(kernel, "UPDATE events SET seq = -1 WHERE game_id = ? AND seq = 5", finished)
    _sql(kernel, "UPDATE events SET seq = 5 WHERE game_id = ? AND seq = 6", finished)
    _sql(kernel, "UPDATE events SET seq = 6 WHERE game_id = ? AND seq = -1", finished)
    failure = verify_chain(kernel.store.read(finished))
    assert failure is not None and failure.seq == 5


def test_an_inserted_event_is_found_where_it_was_put(kernel: Kernel, finished: str) -> None:
    events = kernel.store.read(finished)
    _sql(kernel, "UPDATE events SET seq = seq + 1000 WHERE game_id = ? AND seq >= 4", finished)
    _sql(kernel, "UPDATE events SET seq = seq - 999 WHERE game_id = ? AND seq >= 1004", finished)
    forged = events[2].to_record()
    forged.update(seq=4, payload={"seat": 0, "points": 3})
    _sql(kernel, "INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", finished, 4, forged["type"], 1,
         json.dumps(forged["payload"]), forged["actor"], forged["visibility"], 0, forged["recorded_at"],
         json.dumps(forged["cause"]), forged["prev_hash"], forged["hash"])
    failure = verify_chain(kernel.store.read(finished))
    assert failure is not None and failure.seq == 4


def rehash(events: list[Event], seq: int, seed: str, **changes: object) -> list[Event]:
    """The log with event ``seq`` changed and every hash after it recomputed: a forger's best effort.

    The forger writes to the database, so they hold the seed that salts the hidden payloads.
    """
    forged: list[Event] = []
    prev = events[0].prev_hash
    for e in events:
        if e.seq == seq:
            e = replace(e, **changes)  # type: ignore[arg-type]
        e = replace(e, prev_hash=prev)
        e = replace(e, hash=recompute_hash(e, seed, seed))
        forged.append(e)
        prev = e.hash
    return forged


def test_a_rehashed_forgery_is_caught_by_the_rules_recheck(kernel: Kernel) -> None:
    """Even a forger who recomputes every hash cannot make the rules accept a changed die roll."""
    game_id = kernel.create("highdie", ["Ann", "Ben"], seed="forged").after.game_id
    kernel.execute(game_id, 0, {"kind": "roll"}, cause=Cause("test"))
    play_random(kernel, game_id, 2)
    events = kernel.store.read(game_id)
    target = next(e for e in events if e.type == "dice.Rolled")
    forged = rehash(events, target.seq, "forged", payload={**target.payload, "face": 7 - target.payload["face"]})
    failure = verify(kernel.replayer, forged, secret="forged").failure
    assert failure is not None and failure.seq <= target.seq
    assert "different dice.Rolled" in failure.problem


def test_a_wrong_revealed_seed_fails_at_the_first_event(kernel: Kernel, finished: str) -> None:
    failure = verify(kernel.replayer, kernel.store.read(finished), seed="not-the-seed").failure
    assert failure is not None and failure.seq == 1 and "commitment" in failure.problem


def test_a_skipped_draw_is_found(kernel: Kernel) -> None:
    from events.audit import verify_draws
    game_id = kernel.create("highdie", ["Ann", "Ben"], seed="skip").after.game_id
    kernel.execute(game_id, 0, {"kind": "roll"}, cause=Cause("test"))
    events = kernel.store.read(game_id)
    from dataclasses import replace
    rolled = next(e for e in events if e.seq > 1 and e.type == "pbem.RandomDrawn" and e.payload["draws"][0]["n"] == 1)
    bumped = {"draws": [{**rolled.payload["draws"][0], "n": 2}]}
    from events.rng import compute
    bumped["draws"][0]["result"] = compute("skip", 2, "randint", [1, 6])
    events = [replace(e, payload=bumped) if e.seq == rolled.seq else e for e in events]
    failure = verify_draws(events, "skip")
    assert failure is not None and failure.seq == rolled.seq and "skipped" in failure.problem
    assert seed_commitment("skip") == events[0].payload["seed_commitment"]


def test_explain_shows_the_cause_states_and_the_rule_check(kernel: Kernel) -> None:
    game_id = kernel.create("highdie", ["Ann", "Ben"], seed="explain").after.game_id
    bet = kernel.execute(game_id, 0, {"kind": "bet", "points": 2},
                         cause=Cause("cli", {"host": "laptop"}, "bet 2"))
    seq = bet.events[0].seq
    found = explain(kernel.replayer, kernel.store.read(game_id), seq, kernel.seed(game_id))
    assert found["event"]["seq"] == seq
    assert found["command"]["cause"]["via"] == "cli"
    assert found["command"]["cause"]["text"] == "bet 2"
    assert found["command"]["cause"]["action"] == {"kind": "bet", "points": 2}
    assert found["command"]["events"] == [e.seq for e in bet.events]
    assert found["views"]["seat 0"]["before"]["players"][0]["score"] == 0
    assert found["views"]["seat 0"]["after"]["players"][0]["score"] == 2
    assert "hand" not in found["views"]["public"]["after"]["players"][0]
    assert found["rule_check"].startswith("accepted")
    assert found["chain"].startswith("verified")
    assert found["undone_by"] is None


def test_explain_of_an_undone_event_names_the_undo(kernel: Kernel) -> None:
    game_id = kernel.create("highdie", ["Ann", "Ben"], seed="explain").after.game_id
    bet = kernel.execute(game_id, 0, {"kind": "bet", "points": 2}, cause=Cause("cli"))
    undo = kernel.undo(game_id, 0, cause=Cause("cli"))
    found = explain(kernel.replayer, kernel.store.read(game_id), bet.events[0].seq, kernel.seed(game_id))
    assert found["undone_by"] == undo.events[0].seq
    assert "undone" in found["rule_check"]


def test_delivery_records_in_a_finished_game_verify(service: Service) -> None:
    """A pause, a resume and a standing order are on record but are not moves: verification passes over them."""
    players = [Player.parse("ann@example.org"), Player.parse("ben@example.org")]
    game_id = service.create_game("emerald", players, seed="paused-game").after.game_id
    service.pause(game_id, "holiday", cause=Cause("cli"))
    service.resume(game_id, "back", cause=Cause("cli"))
    seq = service.store.last(game_id)[0]
    assert explain(service.kernel.replayer, service.store.read(game_id), seq, "paused-game")["rule_check"] \
        .startswith("a record of the delivery layer")
    report = verify(service.kernel.replayer, service.store.read(game_id), seed="paused-game")
    assert report.ok, report.failure


def test_a_game_event_slipped_into_a_delivery_record_is_caught(service: Service) -> None:
    players = [Player.parse("ann@example.org"), Player.parse("ben@example.org")]
    game_id = service.create_game("emerald", players, seed="slipped").after.game_id
    service.pause(game_id, "holiday", cause=Cause("cli"))
    seq = service.store.last(game_id)[0]
    events = service.store.read(game_id)
    paused = events[seq - 1]
    forged = rehash(events, seq, "slipped", type="emerald.VPScored", payload={"seat": 0, "points": 5, "why": "forged"},
                    cause={k: v for k, v in paused.cause.items()})
    assert verify_chain(forged, seed="slipped") is None  # the forger kept the chain whole...
    failure = verify(service.kernel.replayer, forged, seed="slipped").failure
    assert failure is not None and failure.seq == seq  # ...but a game event needs a recorded action


def test_a_recheck_failure_under_newer_rules_says_so(kernel: Kernel) -> None:
    """A game recorded under older rules whose moves the current rules decide differently: the report names both."""
    game_id = kernel.create("highdie", ["Ann", "Ben"], seed="older").after.game_id
    kernel.execute(game_id, 0, {"kind": "roll"}, cause=Cause("test"))
    play_random(kernel, game_id, 2)
    events = kernel.store.read(game_id)
    created = events[0]
    older = rehash(events, 1, "older", payload={**created.payload, "rules_version": "0"})
    target = next(e for e in older if e.type == "dice.Rolled")
    forged = rehash(older, target.seq, "older", payload={**target.payload, "face": 7 - target.payload["face"]})
    failure = verify(kernel.replayer, forged, secret="older").failure
    assert failure is not None and "recorded under rules version 0 and this pbem runs version" in failure.problem
