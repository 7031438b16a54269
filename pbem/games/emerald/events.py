"""The event types of A Study in Emerald, each with a marshmallow payload schema."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from events.rules import EventType

Int = fields.Integer
Str = fields.String
Raw = fields.Raw


def _schema(name: str, spec: dict[str, Any]) -> type:
    attrs = {k: v for k, v in spec.items()}
    return type(f"{name}Payload", (Schema,), attrs)


def _t(name: str, doc: str, **spec: Any) -> EventType:
    return EventType(name=f"emerald.{name}", schema=_schema(name, spec), version=1, doc=doc)


def _seat() -> fields.Integer:
    return Int(required=True)


EVENT_TYPES: tuple[EventType, ...] = (
    _t("StacksDealt", "Server only: the order of each Game Card space, top first.",
       stacks=fields.Dict(keys=Str(), values=fields.List(Int()), required=True)),
    _t("CardsBoxed", "Server only: game cards left in the box.", cards=fields.List(Int(), required=True)),
    _t("CardRevealed", "A card is turned face up on top of a Game Card space.", city=Str(required=True),
       card=Int(required=True)),
    _t("RoyaltySlid", "A revealed Royalty card slides to the Royalty slot.", city=Str(required=True),
       card=Int(required=True)),
    _t("DeckShuffled", "Server only: a player's discard pile becomes their deck, in this order.", seat=_seat(),
       order=fields.List(Int(), required=True)),
    _t("DiscardReshuffled", "A player shuffles their discard pile into a new deck.", seat=_seat(),
       count=Int(required=True)),
    _t("CardsDrawn", "To the drawing player: the cards drawn.", seat=_seat(), cards=fields.List(Int(), required=True)),
    _t("CardsDrawnCount", "A player draws cards (how many).", seat=_seat(), count=Int(required=True)),
    _t("IdentityDealt", "To one player: their Secret Identity card.", seat=_seat(), identity=Str(required=True)),
    _t("IdentitiesDealt", "Secret identities are dealt.", count=Int(required=True)),
    _t("FirstPlayerChosen", "The first player, drawn at random.", seat=_seat()),
    _t("AgentPlaced", "Agents go onto a city.", seat=_seat(), city=Str(required=True), count=Int(),
       source=Str(), why=Str()),
    _t("AgentRemoved", "Agents leave a city.", seat=_seat(), city=Str(required=True), to=Str(required=True),
       count=Int(), by=Int(), why=Str()),
    _t("AgentMoved", "An agent moves between cities.", seat=_seat(), **{"from": Str(required=True)},
       to=Str(required=True)),
    _t("CubesMoved", "Influence cubes move (stock, limbo or a city).", seat=_seat(),
       **{"from": Str(required=True)}, to=Str(required=True), count=Int(required=True)),
    _t("CubesCleared", "A city's cubes leave: the acting player's to Limbo, the others' to their stock.",
       city=Str(required=True), seat=_seat()),
    _t("CardsPlayed", "Cards leave a hand, face up.", seat=_seat(), cards=fields.List(Int(), required=True),
       to=Str(required=True), use=Str()),
    _t("CardClaimed", "A player takes the top card of a Game Card space.", seat=_seat(), city=Str(required=True),
       card=Int(required=True)),
    _t("CardRemoved", "A card leaves the game.", card=Int(required=True), **{"from": Str(required=True)},
       seat=Int(), city=Str(), why=Str()),
    _t("CardsRemovedUnseen", "Server only: face-down cards of a Game Card space leave the game unseen (into the box).",
       city=Str(required=True), cards=fields.List(Int(), required=True)),
    _t("CardsRemovedUnseenCount", "Face-down cards of a Game Card space leave the game unseen (how many).",
       city=Str(required=True), count=Int(required=True), why=Str()),
    _t("VPScored", "Victory points of one type.", seat=_seat(), amount=Int(required=True), type=Str(required=True),
       reason=Str()),
    _t("KillScored", "An assassinated agent lies on the assassin's card.", seat=_seat(), victim=Int(required=True),
       card=Int(required=True), amount=Int(required=True), type=Str(required=True)),
    _t("MarkerMoved", "A track marker moves.", track=Str(required=True), to=Int(required=True),
       **{"from": Int()}),
    _t("SanityRolled", "The Sanity die is rolled.", seat=_seat(), face=Str(required=True), reason=Str()),
    _t("SanityChanged", "A player's sanity tokens change.", seat=_seat(), to=Int(required=True)),
    _t("RoyaltyTaken", "A Royalty card is assassinated or hidden.", seat=_seat(), city=Str(required=True),
       card=Int(required=True), how=Str(required=True)),
    _t("IdentityRevealed", "A player must reveal their Secret Identity.", seat=_seat(),
       identity=Str(required=True), side=Str(required=True), why=Str()),
    _t("IdentityLooked", "Vladimir Burtsev: a player looks at another's identity.", seat=_seat(),
       target=Int(required=True)),
    _t("IdentitySeen", "To the looking player: the identity card seen.", seat=_seat(), target=Int(required=True),
       identity=Str(required=True)),
    _t("SideChanged", "Change of Heart: the player is now on the other side.", seat=_seat()),
    _t("BlackHandPlayed", "The Black Hand: royalty assassinated from now on score two more.", seat=_seat()),
    _t("ZombiesPlaced", "Zombies go onto a city.", seat=_seat(), city=Str(required=True), count=Int(required=True)),
    _t("ZombiesRemoved", "Zombies leave a city.", seat=_seat(), city=Str(required=True), count=Int(required=True),
       permanent=fields.Boolean()),
    _t("ZombieCardsVoided", "Society of Leopold: the Zombie and Vampire cards are out of the game."),
    _t("StepSet", "The next step of the acting player's action.", seat=Int(), step=Raw(allow_none=True)),
    _t("ActionCompleted", "One of the two actions of a turn is done.", seat=_seat(), number=Int()),
    _t("InterruptOffered", "A targeted player is asked whether to stop an action (every one is asked, whatever they hold).", seat=_seat(),
       effect=Raw(required=True), cont=Raw(required=True)),
    _t("InterruptAnswered", "The interrupt was used or declined.", seat=_seat(), used=fields.Boolean(required=True),
       card=Int(allow_none=True), effect=Str()),
    _t("InterruptClosed", "The interrupt window closes.", seat=_seat()),
    _t("AgentsOwed", "A revealed Loyalist must place agents up to three.", seat=_seat(), count=Int(required=True)),
    _t("TurnStarted", "A player's turn begins.", seat=_seat(), turn=Int(required=True)),
    _t("PositionSet", "A game begun from a position: the board, the tracks, each player's pieces, points, discard pile "
       "and cards beside the identity card, and whose decision it is.", phase=Str(required=True),
       turn=Int(required=True), first=Int(required=True), active=Int(required=True), actions_done=Int(required=True),
       setup_queue=fields.List(Int(), required=True), resto_track=Int(required=True), loyal_track=Int(required=True),
       zombie_supply=Int(required=True), sanity_stock=Int(required=True), leopold=fields.Boolean(required=True),
       removed=fields.List(Int(), required=True), step=Raw(), interrupt=Raw(), owed=Raw(required=True),
       players=fields.List(Raw(), required=True), cities=fields.Dict(keys=Str(), values=Raw(), required=True)),
    _t("GameEnded", "The game ends; every identity is revealed.", reason=Str(required=True),
       sides=fields.Dict(keys=Str(), values=Str(), required=True)),
)

EVENT_NAMES = tuple(t.name for t in EVENT_TYPES)
