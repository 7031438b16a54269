"""The event types of Nanty Narking, each with a marshmallow payload schema."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from events.rules import EventType

Int = fields.Integer
Str = fields.String
Raw = fields.Raw


def _t(name: str, doc: str, **spec: Any) -> EventType:
    return EventType(name=f"nanty.{name}", schema=type(f"Nanty{name}Payload", (Schema,), dict(spec)), version=1,
                     doc=doc)


def _seat() -> fields.Integer:
    return Int(required=True)


def _area() -> fields.String:
    return Str(required=True)


EVENT_TYPES: tuple[EventType, ...] = (
    _t("DeckShuffled", "Server only: the character deck, top first.", order=fields.List(Int(), required=True)),
    _t("EventsShuffled", "Server only: the Random Event deck, top first.", order=fields.List(Str(), required=True)),
    _t("PersonalityDealt", "To one player: their personality card.", seat=_seat(), personality=Str(required=True)),
    _t("PersonalitiesDealt", "Every player is dealt a personality face down.", count=Int(required=True)),
    _t("PersonalitiesSetAside", "Server only: the personalities not dealt.", personalities=fields.List(Str(), required=True)),
    _t("MoneyMoved", "Money moves between the bank (-1) and a player, or between players.",
       **{"from": Int(required=True)}, to=Int(required=True), amount=Int(required=True), why=Str()),
    _t("CardsDrawn", "To the drawing player: the cards drawn.", seat=_seat(), cards=fields.List(Int(), required=True)),
    _t("CardsDrawnCount", "A player draws cards (how many).", seat=_seat(), count=Int(required=True)),
    _t("CardPlayed", "A player plays a card from their hand, face up.", seat=_seat(), card=Int(required=True)),
    _t("CardDiscarded", "A card leaves a hand for the discard pile.", seat=_seat(), card=Int(required=True), why=Str()),
    _t("LoanTaken", "A loan card stays in front of its player.", seat=_seat(), card=Int(required=True)),
    _t("CardsRevealed", "Fog: the top cards of the deck are shown and discarded.", cards=fields.List(Int(), required=True)),
    _t("AgentPlaced", "An agent goes onto an area.", seat=_seat(), area=_area(), why=Str()),
    _t("AgentRemoved", "An agent leaves the board.", seat=_seat(), area=_area(), why=Str(), by=Int()),
    _t("AgentMoved", "An agent moves to another area.", seat=_seat(), **{"from": _area()}, to=_area(), why=Str()),
    _t("BuildingPlaced", "A building goes up; its owner takes the City Area card.", seat=_seat(), area=_area()),
    _t("BuildingRemoved", "A building is removed; its City Area card goes back.", seat=_seat(), area=_area(), why=Str()),
    _t("PawnPlaced", "A Grenadier or New Citizen goes onto an area.", pawn=Str(required=True), area=_area()),
    _t("PawnRemoved", "A Grenadier or New Citizen leaves the board.", pawn=Str(required=True), area=_area(), why=Str()),
    _t("TroublePlaced", "A trouble marker goes onto an area.", area=_area()),
    _t("TroubleRemoved", "A trouble marker leaves an area.", area=_area()),
    _t("PowerUsed", "A player uses the power of their City Area card.", seat=_seat(), area=_area()),
    _t("PowerDisabled", "Inigo Jones: an area's power is lost for the rest of the game.", area=_area()),
    _t("EventDrawn", "A Random Event card is drawn.", seat=_seat(), event=Str(required=True)),
    _t("DieRolled", "The twelve-sided die is rolled.", seat=Int(), face=Int(required=True), area=_area(), why=Str()),
    _t("InterruptAnswered", "The player whose piece was targeted stops the effect with a card, or lets it happen.",
       seat=_seat(), used=fields.Boolean(required=True), card=Int(allow_none=True)),
    _t("StepSet", "Where the turn stands: the card being resolved and any decision asked for.",
       pending=Raw(required=True)),
    _t("TurnStarted", "A player's turn begins.", seat=_seat(), turn=Int(required=True)),
    _t("DecksSet", "Server only, a game begun from a position: the character deck and the Random Events, top first, "
       "and the personalities set aside.", deck=fields.List(Int(), required=True),
       random_events=fields.List(Str(), required=True), set_aside=fields.List(Str(), required=True)),
    _t("HandSet", "A game begun from a position, to one player: the cards in their hand.", seat=_seat(),
       cards=fields.List(Int(), required=True)),
    _t("PositionSet", "A game begun from a position: the table as everyone sees it, and where the turn stands.",
       turn=Int(required=True), active=Int(required=True), bank=Int(required=True),
       discard=fields.List(Int(), required=True), events_done=fields.List(Str(), required=True),
       players=fields.List(fields.Dict(), required=True), spots=fields.List(fields.Dict(), required=True),
       pending=Raw(required=True)),
    _t("GameEnded", "The game ends; every personality is revealed.", reason=Str(required=True),
       winners=fields.List(Int(), required=True), personalities=fields.Dict(keys=Str(), values=Str(), required=True)),
)

EVENT_NAMES = tuple(t.name for t in EVENT_TYPES)
