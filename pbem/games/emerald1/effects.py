"""The procedures the rules share: emitting events, drawing, claiming, sanity, revealing, ending."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.envelope import NewEvent, Visibility
from events.rng import Rng
from pbem.games.emerald1 import scoring
from pbem.games.emerald1.evolve import plan
from pbem.games.emerald1.state import RESTORATIONIST, State


PUBLIC, SERVER = Visibility.public(), Visibility.server()  # frozen: one of each serves every event
_TO: dict[Any, Visibility] = {}  # and one per seat (or pair of seats) an event is shown to
_KINDS: dict[str, tuple[str, Any]] = {}  # event name -> (type, ``evolve.plan`` of it)
_PLAYER = frozenset(("player",))  # ``State.own``: the player at the payload's seat (every one without a seat)


class Stop(Exception):
    """The game ended in the middle of an action: nothing more happens."""


class Ctx:
    """Collects the events of one decision and keeps the state they lead to.

    That working state shares its containers with the state decided on until an event writes them: each is
    copied once, by the first event that writes it (``own``), and then changed in place by the later ones. The
    code that decides reads the state through ``ctx.s`` (the same object throughout), so it reads what the events
    so far made; where it keeps a container across an event (a loop over a city's zombies, or over the agents),
    the events in between leave what it reads there as it was. Nothing is cached on a working state.
    """

    def __init__(self, state: State, rng: Rng) -> None:
        self.base = state
        self.s = state.successor(memo=False)
        self.s.__dict__["_working"] = True
        self.owned: set[Any] = set()
        self.checked = -1   # how many events there were when ``check`` last found nothing to do
        self.rng = rng
        self.events: list[NewEvent] = []

    def emit(self, name: str, payload: Mapping[str, Any], to: int | tuple[int, ...] | None = None, *,
             server: bool = False, reveals: bool = False) -> None:
        if server:
            vis = SERVER
        elif to is None:
            vis = PUBLIC
        else:
            vis = _TO.get(to) or _TO.setdefault(to, Visibility.to(*(to if isinstance(to, tuple) else (to,))))
        found = _KINDS.get(name)
        if found is None:
            type_ = "emerald1." + name
            found = _KINDS.setdefault(name, (type_, plan(type_)))
        type_, how = found
        self.events.append(NewEvent(type_, dict(payload), vis, reveals))
        if how is not None:
            handler, fields, players = how
            # The working state's own copy (one level) of each container the event writes, made by the first event
            # that writes it: ``State.own``, inline, as this runs for every event decided.
            owned = self.owned
            d = self.s.__dict__
            for f in fields:
                if f not in owned:
                    d[f] = d[f].copy()
                    owned.add(f)
            if players:
                seat = payload.get("seat") if players == 1 else None
                self.s.own(_PLAYER, seat if isinstance(seat, int) else None, owned)
            handler(self.s, payload)


# --- cards in hand -----------------------------------------------------------------------

def shuffle_deck(ctx: Ctx, seat: int, with_discard: bool) -> None:
    pl = ctx.s.players[seat]
    cards = sorted(pl.deck + (pl.discard if with_discard else []))
    if with_discard:
        ctx.emit("DiscardReshuffled", {"seat": seat, "count": len(pl.discard)})
    ctx.emit("DeckShuffled", {"seat": seat, "order": ctx.rng.shuffle(cards)}, server=True)


def draw(ctx: Ctx, seat: int, count: int) -> int:
    """Draw ``count`` cards, shuffling the discard pile into a new deck when the deck runs out."""
    drawn = 0
    while drawn < count:
        pl = ctx.s.players[seat]
        if not pl.deck:
            if not pl.discard:
                break
            shuffle_deck(ctx, seat, True)
            pl = ctx.s.players[seat]
        take = list(pl.deck[: count - drawn])
        ctx.emit("CardsDrawn", {"seat": seat, "cards": take}, to=seat, reveals=True)
        ctx.emit("CardsDrawnCount", {"seat": seat, "count": len(take)})
        drawn += len(take)
    return drawn


def play(ctx: Ctx, seat: int, cards: list[int], use: str, remove: bool = False) -> None:
    """Cards leave the hand face up: to the discard pile, or out of the game (one-use, Infernal Machine)."""
    if not cards:
        return
    if not remove and use != "bombs":  # every card to the discard pile
        keep, gone = list(cards), []
    else:
        keep = [c for c in cards if not (remove or ctx.s.cat.cards[c].action in ("infernal_machine", "fenians")
                                    and use == "bombs")]
        gone = [c for c in cards if c not in keep]
    if keep:
        ctx.emit("CardsPlayed", {"seat": seat, "cards": sorted(keep), "use": use, "to": "discard"})
    if gone:
        ctx.emit("CardsPlayed", {"seat": seat, "cards": sorted(gone), "use": use, "to": "removed"})


def hand_card_lost(ctx: Ctx, seat: int, where: str) -> None:
    """A card left a player's hand or deck outside their play: replace it, or shuffle the deck."""
    if where == "hand":
        draw(ctx, seat, 1)
    elif where == "deck":
        shuffle_deck(ctx, seat, False)


def where_is(s: State, seat: int, card: int) -> str:
    pl = s.players[seat]
    for w in ("hand", "deck", "discard"):
        if card in getattr(pl, w):
            return w
    return ""


def give_card(ctx: Ctx, from_seat: int, to_seat: int, card: int) -> None:
    """A player hands a card to another (a City card, a double agent's or a converted agent's card)."""
    where = where_is(ctx.s, from_seat, card)
    if not where:
        return
    ctx.emit("CardTransferred", {"seat": to_seat, "from_seat": from_seat, "card": card, "from": where})
    hand_card_lost(ctx, from_seat, where)


# --- tracks, sanity, identity, end -------------------------------------------------------

def move_marker(ctx: Ctx, track: str, steps: int) -> None:
    cur = ctx.s.war if track == "war" else ctx.s.revolution
    to = max(0, min(ctx.s.cat.game["track_top"], cur + steps))
    if to != cur:
        ctx.emit("MarkerMoved", {"track": track, "from": cur, "to": to})
    if to >= ctx.s.cat.game["track_top"]:
        end(ctx, f"{track}_track")


def draw_sanity(ctx: Ctx, seat: int, why: str, assassination: bool = False, dies_after: bool = False) -> bool:
    """Draw a Sanity counter; returns whether it was Mad. A revealed Loyalist only draws to see
    whether an assassinating agent dies. ``dies_after``: a Restorationist it drives mad dies, and the caller ends
    the game once the card drawn for is played."""
    pl = ctx.s.players[seat]
    if pl.revealed and pl.side != RESTORATIONIST and not assassination:
        return False
    if not ctx.s.sanity_pool:
        ctx.emit("SanityDrawn", {"seat": seat, "result": "none", "why": why})
        mad_enough(ctx, seat, dies_after)
        return True
    result = ctx.s.sanity_pool[0]
    ctx.emit("SanityDrawn", {"seat": seat, "result": result, "why": why}, reveals=True)
    if result == "mad":
        mad_enough(ctx, seat, dies_after)
    return result == "mad"


def mad_enough(ctx: Ctx, seat: int, dies_after: bool = False) -> None:
    pl = ctx.s.players[seat]
    if pl.mad >= mad_to_reveal(ctx.s, seat) or pl.sanity_forced:
        reveal(ctx, seat, "sanity")
        if ctx.s.players[seat].side == RESTORATIONIST:
            if not pl.main_dead:
                ctx.emit("AgentLost", {"agent": f"m{seat}", "why": "sanity", "to": "gone"})
            if not dies_after:
                end(ctx, "restorationist_mad")


def mad_to_reveal(s: State, seat: int) -> int:
    g = s.cat.game
    return int(g["freud_mad_to_reveal"] if s.has_pe(seat, "freud") else g["mad_to_reveal"])



def reveal(ctx: Ctx, seat: int, why: str) -> None:
    pl = ctx.s.players[seat]
    if pl.revealed:
        return
    ctx.emit("IdentityRevealed", {"seat": seat, "identity": pl.identity, "side": pl.side, "why": why},
             reveals=True)


def end(ctx: Ctx, reason: str) -> None:
    sides = {str(i): p.side for i, p in enumerate(ctx.s.players)}
    ctx.emit("GameEnded", {"reason": reason, "sides": sides}, reveals=True)
    raise Stop


QUIET = frozenset("emerald1." + name for name in (
    "TurnStarted", "ActionDone", "StepSet", "WindowSet", "MrsHudsonUsed", "CardsDrawn", "CardsDrawnCount",
    "DeckShuffled", "DiscardReshuffled", "CardsDiscarded", "CardsDiscardedCount", "CubesMoved", "CubesCleared",
    "BlockingPlaced", "BlockingRemoved", "PEDisplayed", "CardShown"))
"""Events that change nothing ``check`` reads (who is known or revealed and on which side, who owns which city,
the royal persons, the agents, the zombies, the tracks, kills and sacrifices, and which cards each player has among
hand, deck and discard pile: these events, as ``decide`` makes them, only move cards between those three)."""


def check(ctx: Ctx) -> None:
    """After every step: Known to the Authorities, and the end on points."""
    s = ctx.s
    if s.phase != "play":
        return
    if ctx.checked >= 0:
        events = ctx.events
        for i in range(ctx.checked, len(events)):  # a loop: ``all`` over a generator costs several times more
            if events[i].type not in QUIET:
                break
        else:
            return  # it found nothing to do, and nothing it reads has changed since
    # A disc in the Known box changes no score: both questions are answered before the discs are placed.
    known, reached = scoring.after_step(s, s.cat.game["victory_target"][str(s.n)], ctx.base)
    for seat in known:
        ctx.emit("KnownToAuthorities", {"seat": seat})
    if reached:
        end(ctx, "victory_points")
    ctx.checked = len(ctx.events)


# --- the board ---------------------------------------------------------------------------

def turn_top(ctx: Ctx, city: str) -> None:
    top = ctx.s.top(city)
    if top is not None:
        ctx.emit("TopTurned", {"city": city, "card": top}, reveals=True)


def stack_emptied(ctx: Ctx, city: str) -> None:
    """An exhausted Game Card box: War +2 and one more Permanent Effect on display."""
    if ctx.s.pe_deck:
        ctx.emit("PEDisplayed", {"card": ctx.s.pe_deck[0]}, reveals=True)
    move_marker(ctx, "war", ctx.s.cat.game["war_on_empty_stack"])


def stack_top_removed(ctx: Ctx, city: str, card: int, why: str, cubes_to: str) -> None:
    """The top Game card of a city leaves the game (The Third Section, Cthulhu)."""
    if f"card:{card}" in ctx.s.cubes:
        ctx.emit("CubesCleared", {"place": f"card:{card}", "all_to": cubes_to})
    if f"card:{card}" in ctx.s.blocking:
        ctx.emit("BlockingRemoved", {"place": f"card:{card}"})
    if str(card) in ctx.s.agents and ctx.s.agents[str(card)]["where"] == "card":
        ctx.emit("AgentLost", {"agent": str(card), "why": why, "to": "gone"})
    ctx.emit("CardGone", {"card": card, "why": why, "city": city})
    if ctx.s.stacks[city]:
        turn_top(ctx, city)


def take_double_agents(ctx: Ctx, count: int) -> list[int]:
    """Counters drawn at random from those available: the pool is face down, so it is shuffled first."""
    order = ctx.rng.shuffle(list(ctx.s.da_pool))
    ctx.emit("DoubleAgentsShuffled", {"order": order}, server=True)
    return order[:count]
