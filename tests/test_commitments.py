"""Hidden payloads hide: no digest or hash a reader holds confirms a guess of what was withheld.

An attacker reads the public log (or a player's) of seeded games, and for every withheld
payload tries every candidate of its space (both identities, every card in every place of
a hand, the true payload itself) against the digest shown and against the event's hash.
The same attack on the same games chained the old way (plain sha256 digests) recovers every
one of them, so the attack is real.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Iterator, Mapping, Sequence

import pytest

from events.audit import verify_records
from events.envelope import Event, canonical_json, event_hash, payload_hash, recompute_hash, sha256_hex
from events.handling import Cause
from pbem.proof import reading
from pbem.service import Player, Service

PLAYERS = [Player.parse(f"{name}@example.org") for name in ("ann", "ben", "cat", "dan")]


def play(service: Service, game_id: str, seed: int, commands: int) -> None:
    pick = random.Random(seed)
    for _ in range(commands):
        state = service.load(game_id)
        if state.ended:
            return
        rules = service.kernel.rules(state)
        seat = pick.choice(sorted(rules.prompts(state.game)))
        action = pick.choice(rules.legal_actions(state.game, seat))
        service.kernel.execute(game_id, seat, action, cause=Cause("test"), hooks=service)


def candidates(payload: Mapping[str, Any], cards: Sequence[int]) -> Iterator[dict[str, Any]]:
    """The attacker's guesses: the payload itself, both identities, and every card in every place of a list."""
    yield dict(payload)
    for side in ("loyalist", "restorationist"):
        yield {**payload, "identity": side}
    for key, value in payload.items():
        if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
            for place in range(len(value)):
                for card in cards:
                    yield {**payload, key: value[:place] + [card] + value[place + 1:]}


def recovered(records: list[dict[str, Any]], truth: Mapping[int, Event], cards: Sequence[int]) -> list[int]:
    """The seqs of withheld payloads that some guess confirms, by the digest shown or by the event's hash."""
    found = []
    for record in records:
        if record["payload"] is not None:
            continue
        shown = {record.get("payload_sha256"), record.get("payload_commitment")} - {None}
        for guess in candidates(truth[record["seq"]].payload, cards):
            digest = payload_hash(guess)
            rehashed = event_hash(game_id=record["game_id"], seq=record["seq"], type=record["type"],
                                  version=record["version"], payload_digest=digest, actor=record["actor"],
                                  visibility=record["visibility"], reveals=record["reveals"],
                                  recorded_at=record["recorded_at"], cause=record["cause"],
                                  prev_hash=record["prev_hash"])
            if digest in shown or rehashed == record["hash"]:
                found.append(record["seq"])
                break
    return found


def chained_the_old_way(events: list[Event]) -> list[Event]:
    """The same events as a game recorded before salting: plain digests, no marker in event 1."""
    old: list[Event] = []
    prev = events[0].prev_hash
    for event in events:
        if event.seq == 1:
            event = replace(event, payload={k: v for k, v in event.payload.items()
                                            if k not in ("payload_commitments", "cause_commitments")})
        event = replace(event, prev_hash=prev)
        event = replace(event, hash=recompute_hash(event))
        old.append(event)
        prev = event.hash
    return old


@pytest.mark.parametrize("seats,seed", [(3, 1), (4, 2), (2, 3)])
def test_no_withheld_payload_of_a_running_game_can_be_guessed(service: Service, seats: int, seed: int) -> None:
    game_id = service.create_game("emerald", PLAYERS[:seats], seed=f"guess-{seed}").after.game_id
    play(service, game_id, seed, 60)
    assert not service.load(game_id).ended
    events = service.store.read(game_id)
    truth = {e.seq: e for e in events}
    cards = sorted(service.load(game_id).game.cat.cards)
    withheld = 0
    for reader in [None, *range(seats)]:
        email = PLAYERS[reader].email if reader is not None else None
        records = service.log(game_id, email)
        withheld += sum(r["payload"] is None for r in records)
        assert recovered(records, truth, cards) == []
        assert verify_records(records) is None  # and the reader can still check the whole chain
    assert withheld > seats * 3  # identities, hands and deck orders were there to be guessed

    old = chained_the_old_way(events)
    old_records = reading.records(reading.SPECTATOR, old, reading.Game(False))
    hidden = [r["seq"] for r in old_records if r["payload"] is None]
    assert recovered(old_records, {e.seq: e for e in old}, cards) == hidden  # the attack works on plain digests


def test_a_player_checks_their_own_hidden_payloads_with_their_salts(service: Service) -> None:
    game_id = service.create_game("emerald", PLAYERS[:3], seed="own-salts").after.game_id
    records = service.log(game_id, PLAYERS[1].email)
    own = [r for r in records if r["visibility"] == "seats:1"]
    assert own and all(r["payload"] is not None and len(r["payload_salt"]) == 64 for r in own)
    assert {r["type"] for r in own} >= {"emerald.IdentityDealt"}
    tampered = [dict(r) for r in records]
    first = next(i for i, r in enumerate(tampered) if r["type"] == "emerald.IdentityDealt" and r["payload"])
    side = tampered[first]["payload"]["identity"]
    tampered[first]["payload"] = {**tampered[first]["payload"],
                                  "identity": "loyalist" if side == "restorationist" else "restorationist"}
    finding = verify_records(tampered)
    assert finding is not None and finding.seq == tampered[first]["seq"]


def test_after_the_end_every_payload_and_salt_is_shown_and_verifies(service: Service) -> None:
    game_id = service.create_game("emerald", PLAYERS[:2], seed="to-the-end").after.game_id
    play(service, game_id, 7, 3000)
    state = service.load(game_id)
    assert state.ended
    records = service.log(game_id)
    assert all(r["payload"] is not None for r in records)
    assert all(len(r["payload_salt"]) == 64 for r in records if r["visibility"] != "public")
    assert verify_records(records) is None
    assert service.verify(game_id).ok


def test_the_salt_is_no_digest_of_the_payload(service: Service) -> None:
    """Two events with the same hidden payload get different commitments: nothing links equal secrets."""
    game_id = service.create_game("emerald", PLAYERS[:3], seed="equal").after.game_id
    truth = {e.seq: e.payload for e in service.store.read(game_id)}
    withheld = [r for r in service.log(game_id) if r["payload"] is None]
    commitments = [r["payload_commitment"] for r in withheld]
    assert len(withheld) > 3 and len(commitments) == len(set(commitments))
    assert all(r["payload_commitment"] != sha256_hex(canonical_json(truth[r["seq"]])) for r in withheld)
