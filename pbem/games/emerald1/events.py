"""The event types of A Study in Emerald (1st edition), each with a marshmallow payload schema."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields

from events.rules import EventType

I, S, R, B = fields.Integer, fields.String, fields.Raw, fields.Boolean


def _t(name: str, doc: str, **spec: Any) -> EventType:
    attrs: dict[str, Any] = dict(spec)
    attrs["Meta"] = type("Meta", (), {"unknown": RAISE})
    return EventType(name=f"emerald1.{name}", schema=type(f"E1{name}Payload", (Schema,), attrs), version=1, doc=doc)


def seat() -> fields.Integer:
    return I(required=True)


def ints() -> fields.List:
    return fields.List(I(), required=True)


EVENT_TYPES: tuple[EventType, ...] = (
    _t("IdentityDealt", "To one player: their Secret Identity card.", seat=seat(), identity=S(required=True)),
    _t("IdentitiesDealt", "The Secret Identity cards are dealt (how many).", count=I(required=True)),
    _t("StacksDealt", "Server only: each city's Game Card box, top first.",
       stacks=fields.Dict(keys=S(), values=fields.List(I()), required=True)),
    _t("CardsBoxed", "Server only: the Game cards put aside unseen.", cards=ints()),
    _t("TopTurned", "The top card of a Game Card box is turned face up (an agent's counter goes on it).",
       city=S(required=True), card=I(required=True)),
    _t("PEDeckShuffled", "Server only: the order of the Permanent Effect deck.", order=ints()),
    _t("PEDisplayed", "A Permanent Effect card is put on display.", card=I(required=True)),
    _t("DoubleAgentsShuffled", "Server only: the face-down Double-agent counters, in order.", order=ints()),
    _t("DoubleAgentsTaken", "To one player: the Double-agent counters they drew.", seat=seat(), agents=ints(),
       why=S()),
    _t("DoubleAgentsCount", "A player draws Double-agent counters (how many).", seat=seat(), count=I(), why=S()),
    _t("DoubleAgentsReturned", "To one player: the counters shuffled back (Pinkerton Agents).", seat=seat(),
       agents=ints()),
    _t("DoubleAgentsReturnedCount", "A player shuffles counters back (how many).", seat=seat(), count=I()),
    _t("DoubleAgentStolen", "To the two players: the counter Irene Adler took.", seat=seat(),
       from_seat=I(required=True), agent=I()),
    _t("DoubleAgentStolenCount", "Irene Adler takes a Double-agent counter from a player.", seat=seat(),
       from_seat=I(required=True)),
    _t("DoubleAgentRevealed", "A player reveals a Double-agent counter.", seat=seat(), agent=I(required=True),
       owner=I(allow_none=True)),
    _t("SanityShuffled", "Server only: the face-down Sanity counters, in order.",
       order=fields.List(S(), required=True)),
    _t("DeckShuffled", "Server only: a player's new draw deck, top first.", seat=seat(), order=ints()),
    _t("DiscardReshuffled", "A player shuffles their discard pile into a new deck.", seat=seat(), count=I()),
    _t("CardsDrawn", "To the drawing player: the cards drawn.", seat=seat(), cards=ints()),
    _t("CardsDrawnCount", "A player draws cards (how many).", seat=seat(), count=I()),
    _t("CardsDrawnBack", "A player takes an agent's card back from Mi-go into their hand.", seat=seat(),
       card=I(required=True)),
    _t("FirstPlayerChosen", "The first player, drawn at random.", seat=seat()),
    _t("MainAgentPlaced", "A player places their Main Agent (setup).", seat=seat(), city=S(required=True)),
    _t("TurnStarted", "A player's turn begins.", seat=seat(), turn=I(required=True)),
    _t("CardsPlayed", "Cards leave a hand face up: to the discard pile, out of the game, or onto a card.",
       seat=seat(), cards=ints(), use=S(), to=S(required=True)),
    _t("CardShown", "A player shows a card from their hand and keeps it (killing a zombie).", seat=seat(),
       card=I(required=True), use=S()),
    _t("CardsDiscarded", "To the discarding player: the cards discarded (the shown one last).", seat=seat(),
       cards=ints()),
    _t("CardsDiscardedCount", "A player discards cards: how many, and the one left showing.", seat=seat(),
       count=I(), shown=I()),
    _t("CardRemovedFace", "To the player: the card they removed face down (The Third Section).", seat=seat(),
       card=I(required=True)),
    _t("CardRemovedHidden", "A player removes a card from their hand face down (The Third Section).", seat=seat()),
    _t("CardTransferred", "A player hands a card to another.", seat=seat(), from_seat=I(required=True),
       card=I(required=True), **{"from": S()}),
    _t("CardGone", "A card leaves the game.", card=I(required=True), from_seat=I(allow_none=True), why=S(),
       city=S()),
    _t("CubesMoved", "Influence cubes move (Available, Pool, Limbo, a City box or a card).", seat=seat(),
       **{"from": S(required=True)}, to=S(required=True), count=I(required=True)),
    _t("CubesCleared", "The cubes on a place leave it (the claimer's to Limbo, the others' home).",
       place=S(required=True), claimer=I(), all_to=S()),
    _t("CardClaimed", "A player claims a Game card, a Permanent Effect or a City card.", seat=seat(),
       card=I(required=True), city=S(), from_seat=I(), **{"from": S()}),
    _t("AgentControlled", "A claimed agent's counter goes to the City box with the claimer's disc.", seat=seat(),
       agent=S(required=True), city=S(required=True)),
    _t("AgentOwnerChanged", "Another player takes control of an agent.", agent=S(required=True), seat=seat(),
       from_seat=I(), vampire=B()),
    _t("AgentMoved", "An agent moves to another city.", seat=seat(), agent=S(required=True),
       **{"from": S(required=True)}, to=S(required=True), cost=I(), why=S()),
    _t("AgentFlipped", "An agent's counter is turned to its vampire (or human) side.", agent=S(required=True),
       vampire=B(required=True), seat=I()),
    _t("AgentToMiGo", "An agent's brain goes to Pluto: the counter leaves the board for Mi-go.", seat=seat(),
       agent=S(required=True), turn=I(required=True)),
    _t("AgentKilled", "An agent is assassinated, destroyed or killed by a zombie; the killer keeps the counter.",
       seat=seat(), agent=S(required=True), owner=I(required=True), city=S(allow_none=True), how=S()),
    _t("AgentLost", "An agent counter leaves the board for good.", agent=S(required=True), why=S(), to=S()),
    _t("MainAgentSurvives", "A Loyalist's Main Agent is attacked and stays on the board.", seat=seat(), by=I()),
    _t("Sacrificed", "An agent is sacrificed to Yog-Sothoth.", seat=seat(), agent=S(required=True), vp=I()),
    _t("AttackFoiled", "An attack fails.", seat=seat(), by=I(), how=S()),
    _t("MarkerMoved", "The War or Revolution marker moves.", track=S(required=True), to=I(required=True),
       **{"from": I()}),
    _t("SanityDrawn", "A player draws a Sanity counter (Sane, Mad, or none left).", seat=seat(),
       result=S(required=True), why=S()),
    _t("IdentityRevealed", "A player reveals their Secret Identity.", seat=seat(), identity=S(required=True),
       side=S(required=True), why=S()),
    _t("IdentityLooked", "Vladimir Burtsev: a player looks at another's identity.", seat=seat(),
       target=I(required=True)),
    _t("IdentitySeen", "To the looking player: the side they saw.", seat=seat(), target=I(required=True),
       side=S(required=True)),
    _t("SideChanged", "Change of Heart: the player is now on the other side.", seat=seat()),
    _t("KnownToAuthorities", "A player's disc goes into the Known to the Authorities box.", seat=seat()),
    _t("RoyalTaken", "A royal person is assassinated or hidden.", seat=seat(), city=S(required=True),
       how=S(required=True)),
    _t("CityLost", "A player loses control of a city.", seat=seat(), city=S(required=True)),
    _t("BlockingPlaced", "A Blocking disc is placed.", seat=I(), place=S(required=True)),
    _t("BlockingRemoved", "A Blocking disc returns to the Pool.", seat=I(), place=S(required=True)),
    _t("ZombiePlaced", "A zombie is placed in a city.", seat=seat(), city=S(required=True)),
    _t("ZombiesRemoved", "Zombies leave a city.", seat=seat(), city=S(required=True), count=I(required=True),
       by=I(), gone=B()),
    _t("BismarckPlayed", "Bismarck locks a city for its controller.", seat=seat(), city=S(required=True), card=I()),
    _t("CityDestroyed", "Cthulhu destroys a city.", seat=seat(), city=S(required=True)),
    _t("SocietyOfLeopold", "The Society of Leopold: vampires and zombies leave; their cards are useless.",
       seat=seat()),
    _t("StepSet", "The next step of the acting player's action.", step=R(allow_none=True)),
    _t("WindowSet", "Who is asked out of turn, and about what.", window=R(allow_none=True)),
    _t("ActionDone", "An action (or a free action) is done.", seat=seat(), free=B()),
    _t("MrsHudsonUsed", "Mrs Hudson: a card discarded and replaced (once a turn).", seat=seat()),
    _t("PositionSet", "A game begun from a position: the board, the tracks, the turn and what every player shows.",
       **{k: R(required=True) for k in ("phase", "turn", "first", "active", "actions_done", "free_used",
                                         "hudson_used", "setup_queue", "war", "revolution", "war_max",
                                         "revolution_max", "sanity_out", "da_revealed", "safe_used", "leopold",
                                         "pe_display", "removed", "removed_hidden", "owner", "bismarck", "royal",
                                         "cubes", "blocking", "zombies", "destroyed", "agents", "migo", "players")},
       window=R()),
    _t("PositionSecrets", "Server only, for a game begun from a position: every face-down deck, stack and pool, "
       "in order.", **{k: R(required=True) for k in ("decks", "stacks", "boxed", "pe_deck", "sanity_pool", "da_pool",
                                                      "removed_secret")}),
    _t("PositionHand", "To one player, for a game begun from a position: their identity, hand, discard pile and "
       "counters (and the action they are in the middle of).", seat=seat(),
       **{k: R(required=True) for k in ("identity", "hand", "discard", "double_agents", "seen",
                                         "hidden_necronomicons")}, step=R()),
    _t("GameEnded", "The game ends; every identity is revealed.", reason=S(required=True),
       sides=fields.Dict(keys=S(), values=S(), required=True)),
)

EVENT_NAMES = tuple(t.name for t in EVENT_TYPES)
