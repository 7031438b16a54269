"""A seat's knowledge: the log as the seat may read it, its view and its legal actions, and nothing else."""

from __future__ import annotations

from events.envelope import Event, Visibility
from pbem.bots.knowledge import knowledge_of
from pbem.bots.table import Table, config_for
from pbem.games.nanty import RULES as NANTY


def _table() -> Table:
    return Table(NANTY, config_for(NANTY, 3), "knowledge")


def test_a_seat_reads_its_own_secrets_and_public_events_and_no_one_else_s() -> None:
    table = _table()
    known = table.knowledge(1)
    dealt = [e for e in known.events if e.type == "nanty.PersonalityDealt"]
    assert [e.visibility.seats for e in dealt] == [(0,), (1,), (2,)]
    assert [e.payload is not None for e in dealt] == [False, True, False]
    assert dealt[1].payload == {"seat": 1, "personality": table.state.players[1].personality}
    shuffled = [e for e in known.events if e.type == "nanty.DeckShuffled"]
    assert len(shuffled) == 1 and shuffled[0].withheld  # server only: nobody's
    drawn = [e for e in known.events if e.type == "nanty.CardsDrawn"]
    assert [e.withheld for e in drawn] == [True, False, True]
    counts = [e for e in known.events if e.type == "nanty.CardsDrawnCount"]
    assert all(e.payload is not None for e in counts)  # how many is public


def test_the_view_and_legal_actions_are_the_rules_own_for_that_seat() -> None:
    table = _table()
    seat = table.prompted()
    known = table.knowledge(seat)
    assert known.view == NANTY.view(table.state, seat)
    assert list(known.legal) == NANTY.legal_actions(table.state, seat)
    assert known.seat == seat and known.game_type == "nanty" and known.players == 3


def test_kernel_events_and_undone_moves_are_not_part_of_it() -> None:
    table = _table()
    seat = table.prompted()
    before = len(table.events)
    table.act(seat, NANTY.legal_actions(table.state, seat)[0])
    undone = range(before + 1, len(table.events) + 1)
    events = list(table.events)
    seq = len(events)
    events.append(Event("offline", seq + 1, "pbem.ActionsUndone", 1,
                        {"from_seq": undone[0], "to_seq": undone[-1], "by": "seat:0"}, "seat:0",
                        Visibility.public(), False, "", {}, "", ""))
    events.append(Event("offline", seq + 2, "pbem.RandomDrawn", 1, {"draws": []}, "system",
                        Visibility.server(), False, "", {}, "", ""))
    known = knowledge_of(NANTY, NANTY.version, table.config, events, table.state, 0)
    assert [e.seq for e in known.events] == list(range(1, before + 1))


def test_knowledge_carried_on_from_an_earlier_one_equals_knowledge_made_afresh() -> None:
    table = _table()
    earlier = table.knowledge(2)
    for _ in range(12):
        seat = table.prompted()
        table.act(seat, NANTY.legal_actions(table.state, seat)[-1])
    carried = knowledge_of(NANTY, NANTY.version, table.config, table.events, table.state, 2, before=earlier)
    fresh = knowledge_of(NANTY, NANTY.version, table.config, table.events, table.state, 2)
    assert carried == fresh and len(carried.events) > len(earlier.events)
    other = knowledge_of(NANTY, NANTY.version, table.config, table.events, table.state, 1, before=earlier)
    assert other == knowledge_of(NANTY, NANTY.version, table.config, table.events, table.state, 1)
