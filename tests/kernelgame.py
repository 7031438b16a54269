"""Highdie: a small game with hidden hands, a die and an out-of-turn prompt, for testing the kernel.

Rules: a 15-card deck (1 to 15) is shuffled; each player is dealt two cards in secret.
On your turn do one thing: ``play N`` (score a card from your hand; a card of 10 or
more lets the next player ``contest`` it with a die roll of 4+ to take the points,
or ``accept``), ``roll`` (score a die), ``draw`` (take the top card in secret, if any
are left), ``bet N`` (score 1 to 3, no risk, no secret) or ``pass``. The game ends when
someone has 25 points or after eight turns each; the highest score wins, ties share.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, replace
from typing import Any, Mapping

from marshmallow import Schema, fields

from events.envelope import Event, NewEvent, Visibility
from events.rng import Rng
from events.rules import (Action, EventType, GameConfig, IllegalAction, InvalidAction, Outcome,
                          Prompt)

DECK = tuple(range(1, 16))
HAND = 2
TARGET = 25
TURNS_EACH = 8


@dataclass(frozen=True)
class State:
    seats: int
    names: tuple[str, ...]
    deck: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    table: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    turn: int = 0
    turns_taken: int = 0
    contest: tuple[int, int, int] | None = None  # (responder, player, points)
    target: int = TARGET
    turns_each: int = TURNS_EACH


class DeckShuffledSchema(Schema):
    order = fields.List(fields.Integer(), required=True)


class HandDealtSchema(Schema):
    seat = fields.Integer(required=True)
    cards = fields.List(fields.Integer(), required=True)


class CardPlayedSchema(Schema):
    seat = fields.Integer(required=True)
    card = fields.Integer(required=True)


class RolledSchema(Schema):
    seat = fields.Integer(required=True)
    face = fields.Integer(required=True)


class CardDrawnSchema(Schema):
    seat = fields.Integer(required=True)
    card = fields.Integer(required=True)


class BetSchema(Schema):
    seat = fields.Integer(required=True)
    points = fields.Integer(required=True)


class ContestSchema(Schema):
    seat = fields.Integer(required=True)
    won = fields.Boolean(required=True)
    points = fields.Integer(required=True)
    face = fields.Integer(allow_none=True, required=True)


class TurnEndedSchema(Schema):
    next = fields.Integer(required=True)


class PositionSetSchema(Schema):
    scores = fields.List(fields.Integer(), required=True)
    turn = fields.Integer(required=True)
    turns_taken = fields.Integer(required=True)


def _upcast_bet_v1(payload: dict[str, Any]) -> dict[str, Any]:
    # v1 called the field "amount"
    return {"seat": payload["seat"], "points": payload.pop("amount")}


EVENT_TYPES = (
    EventType("dice.DeckShuffled", DeckShuffledSchema, doc="The deck's order (hidden)."),
    EventType("dice.HandDealt", HandDealtSchema, doc="Cards dealt to one player (seen by them)."),
    EventType("dice.CardPlayed", CardPlayedSchema, doc="A card played from hand for its points."),
    EventType("dice.Rolled", RolledSchema, doc="A die rolled for points."),
    EventType("dice.CardDrawn", CardDrawnSchema, doc="A card drawn in secret."),
    EventType("dice.Bet", BetSchema, version=2, upcasters={1: _upcast_bet_v1}, doc="Safe points."),
    EventType("dice.Contested", ContestSchema, doc="A contest of a high card decided."),
    EventType("dice.TurnEnded", TurnEndedSchema, doc="The turn passed to the next player."),
    EventType("dice.PositionSet", PositionSetSchema, doc="A game begun from a position: scores and whose turn."),
)


class Highdie:
    name = "highdie"
    title = "Highdie (test game)"
    version = "1"
    min_seats = 2
    max_seats = 4
    event_types = EVENT_TYPES
    standing_order_topics = {"highdie.contest": "When a high card is played: contest it (always) or accept (never)."}

    def load_data(self, override: Mapping[str, Any] | None) -> Mapping[str, Any]:
        data = {"target": TARGET}
        if override:
            problems = [f"unknown key {k!r}" for k in override if k not in data]
            if "target" in override and not isinstance(override["target"], int):
                problems.append("target must be a whole number")
            if problems:
                raise InvalidAction("bad data override: " + "; ".join(problems))
            data.update(override)
        return data

    def options(self, chosen: Mapping[str, Any]) -> dict[str, Any]:
        """One option, ``turns_each``: recorded with its default; games recorded before it read it as 8. Other
        options (the delivery layer's: time limits, vacations) pass through unchanged."""
        turns = chosen.get("turns_each", TURNS_EACH)
        if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 20:
            raise InvalidAction(f"turns_each is a whole number from 1 to 20, not {turns!r}")
        return {**chosen, "turns_each": turns}

    def position(self, state: State) -> Mapping[str, Any]:
        return {"deck": list(state.deck), "hands": [list(h) for h in state.hands], "scores": list(state.scores),
                "turn": state.turn, "turns_taken": state.turns_taken}

    def setup_from(self, config: GameConfig, position: Mapping[str, Any], rng: Rng) -> list[NewEvent]:
        n = len(config.seats)
        hands = position.get("hands")
        if not isinstance(hands, list) or len(hands) != n:
            raise InvalidAction(f"hands: give one hand for each of the {n} players")
        cards = [c for h in hands for c in h] + list(position.get("deck", []))
        if sorted(cards) != list(DECK):
            raise InvalidAction("hands and deck: every card from 1 to 15 once")
        turn = position.get("turn", 0)
        if not isinstance(turn, int) or not 0 <= turn < n:
            raise InvalidAction(f"turn: a seat from 0 to {n - 1}")
        events = [NewEvent("dice.DeckShuffled", {"order": cards}, Visibility.server())]
        events += [NewEvent("dice.HandDealt", {"seat": seat, "cards": list(hand)}, Visibility.to(seat), reveals=True)
                   for seat, hand in enumerate(hands)]
        return events + [NewEvent("dice.PositionSet", {"scores": list(position.get("scores", [0] * n)),
                                                       "turn": turn, "turns_taken": position.get("turns_taken", 0)})]

    def initial_state(self, config: GameConfig) -> State:
        n = len(config.seats)
        return State(seats=n, names=tuple(s.name for s in config.seats), hands=((),) * n, scores=(0,) * n,
                     target=int(config.data["target"]), turns_each=int(config.options.get("turns_each", TURNS_EACH)))

    def setup(self, config: GameConfig, rng: Rng) -> list[NewEvent]:
        order = rng.shuffle(DECK)
        events = [NewEvent("dice.DeckShuffled", {"order": order}, Visibility.server())]
        for seat in range(len(config.seats)):
            cards = order[seat * HAND:(seat + 1) * HAND]
            events.append(NewEvent("dice.HandDealt", {"seat": seat, "cards": cards}, Visibility.to(seat),
                                   reveals=True))
        return events

    def evolve(self, state: State, event: Event) -> State:
        p = event.payload
        if event.type == "dice.DeckShuffled":
            return replace(state, deck=tuple(p["order"]))
        if event.type == "dice.HandDealt":
            return replace(state, deck=state.deck[len(p["cards"]):],
                           hands=_set(state.hands, p["seat"], tuple(p["cards"])))
        if event.type == "dice.CardPlayed":
            seat, card = p["seat"], p["card"]
            hand = tuple(c for c in state.hands[seat] if c != card)
            state = replace(state, hands=_set(state.hands, seat, hand), table=state.table + (card,),
                            scores=_add(state.scores, seat, card))
            if card >= 10:
                state = replace(state, contest=((seat + 1) % state.seats, seat, card))
            return state
        if event.type == "dice.Rolled":
            return replace(state, scores=_add(state.scores, p["seat"], p["face"]))
        if event.type == "dice.CardDrawn":
            return replace(state, deck=state.deck[1:],
                           hands=_set(state.hands, p["seat"], state.hands[p["seat"]] + (p["card"],)))
        if event.type == "dice.Bet":
            return replace(state, scores=_add(state.scores, p["seat"], p["points"]))
        if event.type == "dice.Contested":
            assert state.contest is not None
            responder, player, points = state.contest
            if p["won"]:
                scores = _add(_add(state.scores, player, -points), responder, points)
                state = replace(state, scores=scores)
            return replace(state, contest=None)
        if event.type == "dice.TurnEnded":
            return replace(state, turn=p["next"], turns_taken=state.turns_taken + 1)
        if event.type == "dice.PositionSet":
            return replace(state, scores=tuple(p["scores"]), turn=p["turn"], turns_taken=p["turns_taken"])
        raise ValueError(f"unknown event {event.type}")

    def _over(self, state: State) -> bool:
        return state.contest is None and (max(state.scores) >= state.target or state.turns_taken >= state.turns_each * state.seats)

    def prompts(self, state: State) -> Mapping[int, Prompt]:
        if self._over(state):
            return {}
        if state.contest is not None:
            responder = state.contest[0]
            return {responder: Prompt(responder, "interrupt", f"contest the {state.contest[2]}?",
                                      default={"kind": "accept"}, topic="highdie.contest",
                                      answers={"use": {"kind": "contest"}, "decline": {"kind": "accept"}})}
        return {state.turn: Prompt(state.turn, "turn", "your turn", default={"kind": "pass"})}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.prompts(state):
            return []
        if state.contest is not None:
            return [{"kind": "accept"}, {"kind": "contest"}]
        actions: list[Action] = [{"kind": "play", "card": c} for c in sorted(state.hands[seat])]
        actions.append({"kind": "roll"})
        if state.deck:
            actions.append({"kind": "draw"})
        actions += [{"kind": "bet", "points": n} for n in (1, 2, 3)]
        actions.append({"kind": "pass"})
        return actions

    def decide(self, state: State, seat: int, action: Action, rng: Rng) -> list[NewEvent]:
        legal = self.legal_actions(state, seat)
        if dict(action) not in legal:
            raise IllegalAction(f"not legal now; you may: {', '.join(self.format(state, a) for a in legal)}")
        kind = action["kind"]
        if kind == "accept":
            assert state.contest is not None
            return [NewEvent("dice.Contested", {"seat": seat, "won": False, "points": state.contest[2], "face": None})]
        if kind == "contest":
            assert state.contest is not None
            face = rng.randint(1, 6)
            return [NewEvent("dice.Contested",
                             {"seat": seat, "won": face >= 4, "points": state.contest[2], "face": face})]
        events: list[NewEvent]
        if kind == "play":
            events = [NewEvent("dice.CardPlayed", {"seat": seat, "card": action["card"]}, reveals=True)]
            if action["card"] >= 10:
                return events + [NewEvent("dice.TurnEnded", {"next": (seat + 1) % state.seats})]
        elif kind == "roll":
            events = [NewEvent("dice.Rolled", {"seat": seat, "face": rng.randint(1, 6)})]
        elif kind == "draw":
            events = [NewEvent("dice.CardDrawn", {"seat": seat, "card": state.deck[0]}, Visibility.to(seat),
                               reveals=True)]
        elif kind == "bet":
            events = [NewEvent("dice.Bet", {"seat": seat, "points": action["points"]})]
        else:
            events = []
        return events + [NewEvent("dice.TurnEnded", {"next": (seat + 1) % state.seats})]

    def view(self, state: State, seat: int | None) -> Mapping[str, Any]:
        over = self._over(state)
        players = []
        for i in range(state.seats):
            player: dict[str, Any] = {"name": state.names[i], "score": state.scores[i],
                                      "hand_size": len(state.hands[i])}
            if over or i == seat:
                player["hand"] = list(state.hands[i])
            players.append(player)
        shown: dict[str, Any] = {"players": players, "table": list(state.table), "deck_size": len(state.deck),
                                 "turn": state.turn, "over": over}
        if state.contest is not None:
            shown["contest"] = {"responder": state.contest[0], "player": state.contest[1],
                                "points": state.contest[2]}
        if seat is not None:
            shown["you"] = seat
        return shown

    def outcome(self, state: State) -> Outcome | None:
        if not self._over(state):
            return None
        best = max(state.scores)
        return Outcome(scores=dict(enumerate(state.scores)),
                       breakdown={i: {"points": s} for i, s in enumerate(state.scores)},
                       winners=tuple(i for i, s in enumerate(state.scores) if s == best),
                       summary=f"highest score {best}")

    def parse(self, state: State, text: str) -> Action:
        words = text.strip().lower().split()
        if not words:
            raise InvalidAction("empty command; try: play N, roll, draw, bet N, pass")
        head, rest = words[0], words[1:]
        if head in ("roll", "draw", "pass", "accept", "contest") and not rest:
            return {"kind": head}
        if head in ("play", "bet") and len(rest) == 1 and re.fullmatch(r"[0-9]{1,9}", rest[0]):
            return {"kind": head, "card" if head == "play" else "points": int(rest[0])}
        raise InvalidAction(f"cannot read {text!r}; try: play N, roll, draw, bet N, pass, accept, contest")

    def format(self, state: State, action: Action) -> str:
        if action["kind"] == "play":
            return f"play {action['card']}"
        if action["kind"] == "bet":
            return f"bet {action['points']}"
        return str(action["kind"])

    def describe(self, event: Event, seat: int | None) -> str:
        p = event.payload
        if event.type == "dice.CardDrawn" and not event.visibility.allows(seat):
            return f"seat {p['seat']} drew a card"
        if event.type == "dice.HandDealt" and not event.visibility.allows(seat):
            return f"seat {p['seat']} was dealt {len(p['cards'])} cards"
        if event.type == "dice.DeckShuffled":
            return "the deck was shuffled"
        return f"{event.type.split('.')[1]} {p}"


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1:]


def _add(scores: tuple[int, ...], seat: int, points: int) -> tuple[int, ...]:
    return _set(scores, seat, scores[seat] + points)


RULES = Highdie()
