"""Audit: verify the hash chain, the fairness of every random draw, and explain one event."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from events.envelope import (CAUSE_PARTS, GENESIS_HASH, SALTED, Event, Visibility, canonical_json, cause_commitment,
                             event_hash, is_hidden, payload_commitment, payload_hash, recompute_hash, split_cause)
from events.handling import group_commands, is_delivery
from events.replay import GameState, Replayer, effective, undone_seqs
from events.rng import Rng, compute, seed_commitment
from events.rules import ActionError
from events.schema import ACTIONS_UNDONE, GAME_CREATED, GAME_ENDED, POSITION_GIVEN, RANDOM_DRAWN
from events.store import CorruptLog, EventStore


@dataclass(frozen=True)
class Finding:
    """A failed check: the first seq where it fails, and why."""

    seq: int
    problem: str

    def __str__(self) -> str:
        return f"event {self.seq}: {self.problem}"


@dataclass
class Verification:
    """The result of ``verify``: every check made, and the first failure if any."""

    events: int = 0
    checks: list[str] = field(default_factory=list)
    failure: Finding | None = None
    reached: int = 1  # the first event of the command being checked, for a failure nobody foresaw

    @property
    def ok(self) -> bool:
        return self.failure is None

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "events": self.events, "checks": self.checks,
                "failure": {"seq": self.failure.seq, "problem": self.failure.problem} if self.failure else None}


def salted(events: Sequence[Event]) -> bool:
    """Whether the game's hidden payloads enter the chain through salted commitments (games since then)."""
    return bool(events) and events[0].payload.get("payload_commitments") == SALTED


def causes_salted(events: Sequence[Event]) -> bool:
    """Whether the game's causes enter the chain in parts (``events.envelope.cause_form``; games since then)."""
    return bool(events) and events[0].payload.get("cause_commitments") == SALTED


def verify_chain(events: Sequence[Event], game_id: str | None = None, seed: str | None = None) -> Finding | None:
    """The first event that breaks the chain (missing, inserted, reordered or altered), or None.

    ``seed`` opens the commitments of hidden payloads in a salted game: by default the one
    revealed at the end; before the end, the server's own.
    """
    if seed is None:
        seed = next((e.payload.get("seed") for e in events if e.type == GAME_ENDED), None)
    return verify_links(events, 0, GENESIS_HASH, game_id=game_id, seed=seed, salted_game=salted(events),
                        causes_game=causes_salted(events))


def verify_links(events: Sequence[Event], after_seq: int, after_hash: str, *, game_id: str | None, seed: str | None,
                 salted_game: bool, causes_game: bool) -> Finding | None:
    """The first of ``events``, which follow event ``after_seq`` of hash ``after_hash``, that breaks the chain.

    The chain's check from any point on: a reader that checked the stream up to an event checks only what came
    after it. ``seed`` opens a salted game's hidden payloads and, in a game whose causes enter the chain in parts
    (``causes_game``), their commitments.
    """
    prev_hash = after_hash
    salt_seed = seed if salted_game else None
    cause_seed = seed if causes_game else None
    for position, event in enumerate(events, start=after_seq + 1):
        if game_id is not None and event.game_id != game_id:
            return Finding(position, f"belongs to game {event.game_id}, not {game_id}")
        if event.seq != position or type(event.seq) is not int:
            return Finding(position, f"expected event {position} here but found event {event.seq}: "
                                     "an event was removed, inserted or moved")
        if event.prev_hash != prev_hash:
            return Finding(event.seq, "does not link to the event before it (prev_hash differs): "
                                      "an earlier event was replaced, or this one was moved")
        if salt_seed is None and is_hidden(event.visibility) and salted_game:
            return Finding(event.seq, "its payload is hidden behind a salted commitment, and no seed was given "
                                      "to open it")
        if cause_seed is None and causes_game:
            return Finding(event.seq, "its cause enters the chain behind salted commitments, and no seed was given "
                                      "to open them")
        try:
            altered = recompute_hash(event, salt_seed, cause_seed) != event.hash
        except (TypeError, ValueError):  # a column of the wrong type, which no append writes
            altered = True
        if altered:
            return Finding(event.seq, "its content does not match its hash: it was altered after recording")
        prev_hash = event.hash
    return None


def verify_records(records: Sequence[Mapping[str, Any]]) -> Finding | None:
    """The chain of a record as one reader holds it: withheld payloads enter by their commitment.

    A reader's log (``pbem game log --as``, the API's log) shows a hidden payload they may see
    with its ``payload_salt``, and one they may not see as ``payload_commitment`` alone (in a
    game recorded before salting, ``payload_sha256``). Every hash is checked; what is withheld
    is taken on its commitment, which the seed revealed at the end will open.
    """
    prev_hash = GENESIS_HASH
    created = records[0].get("payload") if records else None
    salted_game = isinstance(created, Mapping) and created.get("payload_commitments") == SALTED
    causes_game = isinstance(created, Mapping) and created.get("cause_commitments") == SALTED
    for position, record in enumerate(records, start=1):
        seq = int(record["seq"])
        if seq != position:
            return Finding(position, f"expected event {position} here but found event {seq}")
        if record["prev_hash"] != prev_hash:
            return Finding(seq, "does not link to the event before it (prev_hash differs)")
        payload = record["payload"]
        if payload is None:
            digest = record.get("payload_commitment") or record.get("payload_sha256")
            if not digest:
                return Finding(seq, "its payload is withheld and no commitment to it is shown")
        elif salted_game and is_hidden(Visibility.decode(record["visibility"])):
            if not record.get("payload_salt"):
                return Finding(seq, "its payload is hidden from others, and its salt is missing")
            digest = payload_commitment(payload, str(record["payload_salt"]))
        else:
            digest = payload_hash(payload)
        cause = record_cause_form(record, seq) if causes_game else record["cause"]
        if cause is None:
            return Finding(seq, "its cause is shown in part without the commitments that stand for the rest")
        if not causes_game and record.get("cause_withheld"):
            prev_hash = record["hash"]  # a game recorded before cause commitments: its withheld words cannot be
            continue                    # checked, so this event's hash is taken on the next event's word
        recomputed = event_hash(game_id=record["game_id"], seq=seq, type=record["type"], version=record["version"],
                                payload_digest=str(digest), actor=record["actor"], visibility=record["visibility"],
                                reveals=record["reveals"], recorded_at=record["recorded_at"], cause=cause,
                                prev_hash=record["prev_hash"])
        if recomputed != record["hash"]:
            return Finding(seq, "its content does not match its hash: it was altered after recording")
        prev_hash = record["hash"]
    return None


def record_cause_form(record: Mapping[str, Any], seq: int) -> Mapping[str, Any] | None:
    """What a reader's record of an event says its cause entered the hash as (``events.envelope.cause_form``): the
    public part, and for each other part its commitment, or the part shown with its salt (None: neither shown)."""
    parts = split_cause(record["cause"])
    form: dict[str, Any] = dict(parts["public"])
    salts = record.get("cause_salts") or {}
    commitments = record.get("cause_commitments") or {}
    for part in CAUSE_PARTS:
        if part in salts:
            form[f"{part}_commitment"] = cause_commitment(parts[part], str(salts[part]))
        elif part in commitments and not parts[part]:
            form[f"{part}_commitment"] = str(commitments[part])
        else:
            return None
    return form


def verify_draws(events: Sequence[Event], seed: str) -> Finding | None:
    """Recompute every recorded draw from the seed; effective draws must use consecutive counters."""
    created = events[0]
    if seed_commitment(seed) != created.payload["seed_commitment"]:
        return Finding(created.seq, "the revealed seed does not match the commitment published at the start")
    for event in events:
        if event.type != RANDOM_DRAWN:
            continue
        for draw in event.payload["draws"]:
            if compute(seed, draw["n"], draw["op"], draw["args"]) != draw["result"]:
                return Finding(event.seq, f"draw {draw['n']} ({draw['op']}) does not follow from the seed")
    expected = 0
    for event in effective(events):
        if event.type == RANDOM_DRAWN:
            for draw in event.payload["draws"]:
                if draw["n"] != expected:
                    return Finding(event.seq, f"draw {draw['n']} should have been draw {expected}: "
                                              "a draw was skipped or repeated")
                expected += 1
    return None


def _draft_form(event: Event) -> str:
    return canonical_json([event.type, event.payload, event.visibility.encode(), event.reveals])


def check_undo_command(command: Sequence[Event]) -> Finding | None:
    """An undo holds its ``pbem.ActionsUndone`` events and delivery records (an answer, a deadline), nothing else.

    Its undo rules were checked when it was made; what can be checked afterwards is that
    no move, draw or game event was slipped into it, since only a move may record those.
    """
    if "action" in command[0].cause:
        return Finding(command[0].seq, "an undo carries a recorded action, as only a move does")
    for event in command:
        if not event.type.startswith("pbem.") or event.type in (GAME_CREATED, RANDOM_DRAWN, GAME_ENDED):
            return Finding(event.seq, f"an undo holds a {event.type}, which only a move can record")
    return None


def recheck_command(replayer: Replayer, before: GameState[Any] | None, command: list[Event],
                    seed: str) -> str | None:
    """Decide the recorded command again from the state before it; None if the same events result.

    This is the proof that the rules accepted the move: the recorded action, on the
    recorded position, with the draws the seed gives, produces exactly what was recorded.
    """
    first = command[0]
    if is_delivery(command):
        return None
    recorded = [replayer.registry.upcast(e) for e in command if not e.type.startswith("pbem.")]
    if first.type == GAME_CREATED:
        rules = replayer.rules_for(first.payload["game_type"])
        state = replayer.start(first)
        given = [e for e in command if e.type == POSITION_GIVEN]
        if bool(first.payload.get("from_position")) != bool(given):
            return "the game's record of whether it started from a position does not match its first command"
        try:
            produced = (getattr(rules, "setup_from")(state.config, given[0].payload["position"], Rng(seed, 0))
                        if given else rules.setup(state.config, Rng(seed, 0)))
        except ActionError as refused:
            return f"the rules now refuse the position the game started from: {refused}"
    else:
        if before is None or "action" not in first.cause:
            return "the command carries no recorded action to check"
        rules = replayer.rules_for(before.game_type)
        try:
            produced = rules.decide(before.game, int(first.cause["seat"]), first.cause["action"],
                                    Rng(seed, before.rng_counter))
        except ActionError as refused:
            return f"the rules now refuse the recorded action: {refused}"
    if len(produced) != len(recorded):
        return f"the rules produce {len(produced)} events from the recorded action, but {len(recorded)} were recorded"
    for draft, event in zip(produced, recorded):
        expected = canonical_json([draft.type, draft.payload, draft.visibility.encode(), draft.reveals])
        if expected != _draft_form(event):
            return f"the rules produce a different {draft.type} than the one recorded"
    return None


@dataclass(frozen=True)
class Witness:
    """What a player was told of the log at some moment: the hash of event ``seq`` (a mail, a receipt)."""

    seq: int
    hash: str
    source: str = ""


def verify_witnesses(events: Sequence[Event], witnesses: Iterable[Witness]) -> Finding | None:
    """The first witness the log contradicts: it lacks an event a player was told of, or holds another hash there.

    The chain alone proves that no event was changed without rehashing everything after it;
    whoever can write the database can do that. A head a player received is out of their reach:
    a log cut short, or rewritten before that head, no longer holds it.
    """
    for witness in sorted(witnesses, key=lambda w: w.seq):
        source = f" ({witness.source})" if witness.source else ""
        if witness.seq > len(events):
            return Finding(witness.seq, f"a player was told of event {witness.seq}{source}, but the log ends at "
                                        f"event {len(events)}: events were removed from its end")
        held = events[witness.seq - 1].hash
        if held != witness.hash:
            return Finding(witness.seq, f"a player was told its hash was {witness.hash[:16]}...{source}, but the log "
                                        f"holds {held[:16]}...: the log was rewritten up to here")
    return None


def check_schemas(replayer: Replayer, events: Sequence[Event]) -> Finding | None:
    """The first event whose type is unknown or whose payload breaks its schema."""
    for event in events:
        try:
            current = replayer.registry.upcast(event)
            replayer.registry.validate(current.type, current.payload)
        except Exception as err:  # an unknown type, a failing upcaster, a schema error: all say the same
            return Finding(event.seq, f"its payload is not a valid {event.type}: {_problem(err)}")
    return None


def _problem(err: BaseException) -> str:
    if isinstance(err, KeyError):
        return f"{err} is missing"
    return str(err) or type(err).__name__


def check_ended_last(events: Sequence[Event]) -> Finding | None:
    """An honest log holds nothing after ``pbem.GameEnded``: the game refuses every command once over."""
    for event in events:
        if event.type == GAME_ENDED and event.seq < len(events):
            return Finding(event.seq + 1, "comes after the end of the game: once a game is over nothing "
                                          "more is ever recorded")
    return None


CommandCheck = Callable[[Sequence[Event], Sequence[Event]], "str | None"]
Progress = Callable[[int, int], None]  # (commands checked, commands to check): a long verification is never silent


def _silent(done: int, total: int) -> None:
    """No progress shown."""


def verify(replayer: Replayer, events: Sequence[Event], seed: str | None = None, *,
           secret: str | None = None, witnesses: Iterable[Witness] = (),
           command_check: CommandCheck | None = None, progress: Progress = _silent) -> Verification:
    """Every check there is: the chain, the seed and draws, and each command re-decided.

    ``seed`` defaults to the one the game revealed at its end; without either, the
    draws and the rules cannot be checked yet and the report says so. ``secret`` is the
    server's own seed before the end: it opens the hidden payloads' commitments for the
    chain check and nothing more. ``witnesses`` are chain heads players received (their
    mails); ``command_check(history, command)`` is the delivery layer's own check of each
    command (e.g. that a move the scheduler made answers a deadline that passed).
    ``progress(done, total)`` is called as the commands are checked, one pass after another.
    A log no honest server writes fails with the event named, never with an error.
    """
    report = Verification(events=len(events))
    if not events:
        report.failure = Finding(1, "the game has no events")
        return report
    try:
        return _verify(replayer, events, seed, secret, list(witnesses), command_check, report, progress)
    except Exception as err:  # whatever a damaged log breaks, the report names where
        report.failure = Finding(report.reached, f"the game cannot be replayed from here: {_problem(err)}")
        return report


def verify_stored(replayer: Replayer, store: EventStore, game_id: str, *, secret: str | None = None,
                  witnesses: Iterable[Witness] = (), command_check: CommandCheck | None = None,
                  progress: Progress = _silent) -> Verification:
    """``verify`` of a game as its store holds it, and a row that cannot even be read back is a failure too.

    The events before an unreadable row are checked first, so the report names the first damaged event
    whatever the damage: an altered event before it, a missing one, or the row itself.
    """
    try:
        events = store.read(game_id)
    except CorruptLog as unreadable:
        report = Verification()
        report.failure, report.events = first_damage(store, game_id, unreadable, secret)
        report.checks.append(f"hash chain of the {report.events - 1} events before the first that cannot be read")
        return report
    return verify(replayer, events, secret=secret, witnesses=witnesses, command_check=command_check,
                  progress=progress)


def first_damage(store: EventStore, game_id: str, unreadable: CorruptLog, secret: str | None) -> tuple[Finding, int]:
    """Where a stream the store could not read is first damaged, and how many events that makes (the readable ones
    before it, and it): an event before the unreadable row that breaks the chain, one missing, or the row itself."""
    # a seq that is no number (a row edited by hand) sorts after every number: every event before it is read
    before = store.read(game_id, 0, unreadable.seq - 1 if type(unreadable.seq) is int else 2 ** 62)
    ended = next((e.payload.get("seed") for e in before if e.type == GAME_ENDED), None)
    position = len(before) + 1
    finding = verify_chain(before, game_id, ended or secret) if before else None
    if finding is None and unreadable.seq != position:
        finding = Finding(position, f"expected event {position} here but found event {unreadable.seq}: an event "
                                    "was removed, inserted or moved")
    return finding or Finding(position, unreadable.problem), position


def _verify(replayer: Replayer, events: Sequence[Event], seed: str | None, secret: str | None,
            witnesses: list[Witness], command_check: CommandCheck | None, report: Verification,
            progress: Progress) -> Verification:
    ended = [e for e in events if e.type == GAME_ENDED]
    seed = seed or (ended[-1].payload["seed"] if ended else None)
    commands = group_commands(events)
    decided = group_commands(effective(events)) if seed is not None else []
    total = (len(commands) if command_check is not None else 0) + len(decided)
    done = 0
    if seed is not None and events[0].type == GAME_CREATED and \
            seed_commitment(seed) != events[0].payload.get("seed_commitment"):
        report.failure = Finding(1, "the revealed seed does not match the commitment published at the start")
        return report
    finding = verify_chain(events, events[0].game_id, seed or secret)
    report.checks.append(f"hash chain of {len(events)} events")
    if finding:
        report.failure = finding
        return report
    if witnesses:
        finding = verify_witnesses(events, witnesses)
        report.checks.append(f"{len(witnesses)} chain head{'s' if len(witnesses) != 1 else ''} players received "
                             "found in the log")
        if finding:
            report.failure = finding
            return report
    finding = check_schemas(replayer, events) or check_ended_last(events)
    report.checks.append("every payload fits its event type; nothing after the end")
    if finding:
        report.failure = finding
        return report
    if command_check is not None:
        for command in commands:
            problem = command_check(events[:command[0].seq - 1], command)
            if problem:
                report.failure = Finding(command[0].seq, problem)
                return report
            done += 1
            progress(done, total)
        report.checks.append("every command the scheduler made answers a deadline that had passed")
    if seed is None:
        try:  # what the rules check once the seed is out: before, at least the record must replay
            replayer.fold(events)
        except CorruptLog as broken:
            report.failure = Finding(broken.seq, f"the game cannot be replayed from here: {broken.problem}")
            return report
        report.checks.append("the record replays")
        report.checks.append("draws and rules not checked: the seed stays secret until the game ends")
        return report
    finding = verify_draws(events, seed)
    report.checks.append("seed matches its commitment; every draw recomputed from the seed")
    if finding:
        report.failure = finding
        return report
    state: GameState[Any] | None = None
    for command in decided:
        done += 1
        progress(done, total)
        report.reached = command[0].seq
        if any(e.type == ACTIONS_UNDONE for e in command):
            finding = check_undo_command(command)
            if finding:
                report.failure = finding
                return report
        else:
            problem = recheck_command(replayer, state, command, seed)
            if problem:
                recorded, running = events[0].payload["rules_version"], replayer.rules_for(
                    events[0].payload["game_type"]).version
                if recorded != running:
                    problem += (f" (the game was recorded under rules version {recorded} and this pbem runs version "
                                f"{running}: a rule fix since then may be the cause)")
                report.failure = Finding(command[0].seq, problem)
                return report
        state = replayer.fold(command, state)
        if command[-1].type == GAME_ENDED:
            rules = replayer.rules_for(state.game_type)
            outcome = rules.outcome(state.game)
            if outcome is None or canonical_json(outcome.to_json()) != canonical_json(state.outcome):
                report.failure = Finding(command[-1].seq, "the recorded outcome is not what the rules compute")
                return report
    report.checks.append("every command decided again from its recorded action gives the recorded events")
    return report


def flatten(value: Any, path: str = "") -> dict[str, Any]:
    """A view as ``{path: leaf}``: mappings and lists of mappings are opened, anything else is a leaf."""
    if isinstance(value, Mapping):
        items: Iterable[tuple[Any, Any]] = value.items()
    elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
        items = enumerate(value)
    else:
        return {path: value}
    found: dict[str, Any] = {}
    for key, item in items:
        found.update(flatten(item, f"{path}.{key}" if path else str(key)))
    return found


def changes(before: Any, after: Any) -> list[dict[str, Any]]:
    """What differs between two views, path by path: ``[{path, before, after}]``."""
    old, new = flatten(before or {}), flatten(after)
    return [{"path": key, "before": old.get(key), "after": new.get(key)}
            for key in sorted(old.keys() | new.keys()) if old.get(key) != new.get(key)]


def explain(replayer: Replayer, events: Sequence[Event], seq: int, seed: str | None) -> dict[str, Any]:
    """Everything about one event: envelope, command, states before and after, and the checks."""
    if not 1 <= seq <= len(events):
        raise LookupError(f"no event {seq}; the game has events 1 to {len(events)}")
    target = events[seq - 1]
    for position, event in enumerate(events[:seq], start=1):
        if event.seq != position:  # a row removed or moved by hand: events are not where their numbers say
            raise CorruptLog(event.game_id, position, ValueError(
                f"the stream holds event {event.seq} where event {position} should be"))
    command = next(c for c in group_commands(events) if c[0].seq <= seq <= c[-1].seq)
    first, last = command[0].seq, command[-1].seq
    chain = verify_chain(events[:last], seed=seed)
    skipped = undone_seqs(events)
    undone_by = next((e.seq for e in events if e.type == ACTIONS_UNDONE
                      and e.payload["from_seq"] <= seq <= e.payload["to_seq"]), None)
    before = replayer.fold(events[:first - 1]) if first > 1 else None
    undoes = any(e.type == ACTIONS_UNDONE for e in command)
    # the rules are pure functions of an immutable state: the command folded onto the state before it gives the
    # state after, but for an undo, which takes events before it out of the fold
    after = replayer.fold(events[:last]) if before is None or undoes else replayer.fold(command, before)
    rules = replayer.rules_for(after.game_type)
    seat = command[0].cause.get("seat")
    views: dict[str, Any] = {}
    for who in ([seat] if isinstance(seat, int) else []) + [None]:
        label = "public" if who is None else f"seat {who}"
        views[label] = {
            "before": rules.view(before.game, who) if before else None,
            "after": rules.view(after.game, who),
        }
    rule_check: str
    if undoes:
        rule_check = "an undo: checked against the undo rules when it was made"
    elif is_delivery(command):
        rule_check = "a record of the delivery layer (deadline, pause, standing order, ...): the rules see none of it"
    elif first in skipped:
        rule_check = f"undone by event {undone_by}; not part of the effective history"
    elif seed is None:
        rule_check = "not checked: the seed is secret until the game ends"
    else:
        # with no undo before the command, every event before it counts: the state before is the effective one
        effective_before = before if before is None or not any(e.type == ACTIONS_UNDONE for e in events[:first - 1]) \
            else replayer.fold(effective(events[:first - 1]))
        problem = recheck_command(replayer, effective_before, command, seed)
        rule_check = problem or "accepted: the recorded action on the position before gives exactly these events"
    return {
        "event": target.to_record(),
        "described": target.type if target.type.startswith("pbem.") else rules.describe(target, None),
        "command": {"first_seq": first, "last_seq": last, "cause": dict(target.cause),
                    "events": [e.seq for e in command]},
        "undone_by": undone_by,
        "chain": "verified from event 1 to this command" if chain is None else str(chain),
        "rule_check": rule_check,
        "views": views,
        "changes": {label: changes(pair["before"], pair["after"]) for label, pair in views.items()},
    }
