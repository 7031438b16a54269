"""The building blocks of every action: a context that emits and applies events, and the
procedures the rules share (claiming, drawing, sanity, revealing, assassinating)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.envelope import NewEvent, Visibility
from events.rng import Rng
from pbem.games.emerald.evolve import apply
from pbem.games.emerald.state import LOYALIST, RESTORATIONIST, State


class Stop(Exception):
    """The game ended in the middle of an action: nothing more happens."""


class Ctx:
    """Collects the events of one decision and keeps the state they lead to."""

    def __init__(self, state: State, rng: Rng) -> None:
        self.s = state
        self.rng = rng
        self.events: list[NewEvent] = []

    def emit(self, name: str, payload: Mapping[str, Any], to: int | None = None, *,
             server: bool = False, reveals: bool = False) -> None:
        vis = Visibility.server() if server else (Visibility.to(to) if to is not None else Visibility.public())
        self.events.append(NewEvent("emerald." + name, dict(payload), vis, reveals))
        self.s = apply(self.s, "emerald." + name, payload)


# --- board cards -------------------------------------------------------------------------

def turn_top(ctx: Ctx, city: str) -> None:
    """Turn the top card face up; a Royalty card slides to the Royalty slot and the next is turned."""
    while ctx.s.city(city).stack:
        top = ctx.s.city(city).stack[0]
        ctx.emit("CardRevealed", {"city": city, "card": top}, reveals=True)
        if ctx.s.cat.cards[top].kind != "royalty":
            return
        ctx.emit("RoyaltySlid", {"city": city, "card": top})


# --- cards in hand -----------------------------------------------------------------------

def shuffle_discard(ctx: Ctx, seat: int) -> None:
    pl = ctx.s.players[seat]
    order = ctx.rng.shuffle(sorted(pl.discard))
    ctx.emit("DiscardReshuffled", {"seat": seat, "count": len(order)})
    ctx.emit("DeckShuffled", {"seat": seat, "order": order}, server=True)


def draw(ctx: Ctx, seat: int, count: int) -> int:
    """Draw ``count`` cards, reshuffling the discard pile when the deck runs out. Returns how many."""
    drawn = 0
    while drawn < count:
        pl = ctx.s.players[seat]
        if not pl.deck:
            if not pl.discard:
                break
            shuffle_discard(ctx, seat)
            pl = ctx.s.players[seat]
        take = list(pl.deck[: count - drawn])
        ctx.emit("CardsDrawn", {"seat": seat, "cards": take}, to=seat, reveals=True)
        ctx.emit("CardsDrawnCount", {"seat": seat, "count": len(take)})
        drawn += len(take)
    return drawn


def play_cards(ctx: Ctx, seat: int, cards: list[int], use: str, to: str | None = None) -> None:
    """Cards leave the hand: to the discard pile, or out of play for one-use cards."""
    if not cards:
        return
    if to is not None:
        ctx.emit("CardsPlayed", {"seat": seat, "cards": sorted(cards), "to": to, "use": use})
        return
    keep = [c for c in cards if not _removed_when_played(ctx.s, c)]
    gone = [c for c in cards if _removed_when_played(ctx.s, c)]
    if keep:
        ctx.emit("CardsPlayed", {"seat": seat, "cards": sorted(keep), "to": "discard", "use": use})
    if gone:
        ctx.emit("CardsPlayed", {"seat": seat, "cards": sorted(gone), "to": "removed", "use": use})


def _removed_when_played(state: State, card: int) -> bool:
    # Infernal Machine and Fenians are one-use even when played for their symbols.
    c = state.cat.cards[card]
    return c.text_type in ("one-use", "one-use benefit")


# --- points, tracks, sanity, identity ----------------------------------------------------

def score(ctx: Ctx, seat: int, amount: int, type_: str, reason: str) -> None:
    if amount:
        ctx.emit("VPScored", {"seat": seat, "amount": amount, "type": type_, "reason": reason})


def move_marker(ctx: Ctx, track: str, steps: int) -> None:
    cur = ctx.s.resto_track if track == "resto" else ctx.s.loyal_track
    to = min(ctx.s.cat.game["track_max"], cur + steps)
    if to != cur:
        ctx.emit("MarkerMoved", {"track": track, "from": cur, "to": to})


def roll_sanity(ctx: Ctx, seat: int, reason: str) -> bool:
    """Roll the Sanity die for ``seat``; on an insanity face a token is lost. Returns whether insane."""
    faces = ctx.s.cat.die
    face = faces[ctx.rng.randint(0, len(faces) - 1)]
    ctx.emit("SanityRolled", {"seat": seat, "face": face, "reason": reason})
    if face != "insane":
        return False
    lose_sanity(ctx, seat)
    return True


def lose_sanity(ctx: Ctx, seat: int) -> None:
    pl = ctx.s.players[seat]
    if pl.sanity <= 0:
        return
    ctx.emit("SanityChanged", {"seat": seat, "to": pl.sanity - 1})
    if pl.sanity - 1 == 0:
        reveal(ctx, seat, "sanity")


def reveal(ctx: Ctx, seat: int, why: str) -> None:
    """A forced reveal: a Restorationist ends the game, a Loyalist tops up to three agents.

    A Loyalist already revealed who meets a reveal's condition again (no agent left on the board, or the last
    Sanity token lost) has nothing left to turn over, but the card's "IF REVEALED" still applies: from rules
    revision 2 they top up to three again (docs/emerald-rulings.md, 8). Revision 1 did nothing.
    """
    pl = ctx.s.players[seat]
    if pl.revealed:
        if ctx.s.revision >= 2 and pl.side == LOYALIST:
            top_up(ctx, seat)
        return
    ctx.emit("IdentityRevealed", {"seat": seat, "identity": pl.identity, "side": pl.side, "why": why},
             reveals=True)
    if pl.side == RESTORATIONIST:
        end(ctx, "restorationist_revealed")
    top_up(ctx, seat)


def top_up(ctx: Ctx, seat: int) -> None:
    """Owe the agents that bring a revealed Loyalist up to three on the board, as far as the stock allows.

    From revision 2 the agents already owed count: a second trigger in the same action (the last Sanity token,
    then the last agent) owes only the difference.
    """
    s = ctx.s
    owed = sum(count for who, count in s.owed if who == seat) if s.revision >= 2 else 0
    need = s.cat.game["loyalist_reveal_agents"] - s.agents_on_board(seat) - owed
    need = min(need, s.players[seat].stock_agents - owed)
    if need > 0:
        ctx.emit("AgentsOwed", {"seat": seat, "count": need})


def check_agents(ctx: Ctx, seat: int) -> None:
    if ctx.s.agents_on_board(seat) == 0:
        reveal(ctx, seat, "agents")


def end(ctx: Ctx, reason: str) -> None:
    sides = {str(i): p.side for i, p in enumerate(ctx.s.players)}
    ctx.emit("GameEnded", {"reason": reason, "sides": sides}, reveals=True)
    raise Stop


def check_end(ctx: Ctx) -> None:
    s = ctx.s
    if s.phase != "play":
        return
    target = s.cat.game["victory_target"][str(s.n)]
    if any(s.total_vp(i) >= target for i in range(s.n)):
        end(ctx, "victory_points")
    top = s.cat.game["track_max"]
    if s.resto_track >= top or s.loyal_track >= top:
        end(ctx, "track")


# --- claiming ----------------------------------------------------------------------------

def claim(ctx: Ctx, seat: int, city: str) -> None:
    card = ctx.s.city(city).stack[0]
    ctx.emit("CardClaimed", {"seat": seat, "city": city, "card": card})
    ctx.emit("CubesCleared", {"city": city, "seat": seat})
    turn_top(ctx, city)
    cdef = ctx.s.cat.cards[card]
    if ctx.s.leopold and cdef.text in ("zombies", "vampires"):
        ctx.emit("CardRemoved", {"seat": seat, "card": card, "from": "discard", "why": "leopold"})
        return
    agents = min(cdef.sym("agent"), ctx.s.players[seat].stock_agents)
    if agents:
        ctx.emit("AgentPlaced", {"seat": seat, "city": city, "count": agents, "why": "claim"})
    for t in ("neutral", "resto", "loyal"):
        score(ctx, seat, cdef.sym("vp_" + t), t, f"claimed {cdef.name}")
    if cdef.sym("insanity"):
        roll_sanity(ctx, seat, f"claimed {cdef.name}")


def clear_cubes(ctx: Ctx, seat: int, city: str) -> None:
    if any(ctx.s.city(city).cubes):
        ctx.emit("CubesCleared", {"city": city, "seat": seat})


# --- interrupts --------------------------------------------------------------------------

def interrupt_cards(state: State, victim: int, kind: str) -> list[int]:
    """Cards in the victim's hand that can negate ``kind`` (Sherlock Holmes; Vampires against assassination)."""
    hand = state.players[victim].hand
    cards = [c for c in hand if state.cat.cards[c].text == "sherlock"] if sherlock_stops(state, kind) else []
    if kind == "assassinate" and not state.leopold:
        cards += [c for c in hand if state.cat.cards[c].text == "vampires"]
    return sorted(cards)


def sherlock_stops(state: State, kind: str) -> bool:
    """Whether Sherlock Holmes can negate an effect of this kind: every elimination, and a replacement (Irene Adler,
    Vampires' action) where the table reads ruling 3 so."""
    return kind != "replace" or state.sherlock_stops_replacement


def can_be_stopped(state: State, kind: str) -> bool:
    """Whether any card could negate an effect of this kind: if none can, nobody is asked."""
    return sherlock_stops(state, kind) or kind == "assassinate" and not state.leopold


__all__ = ["LOYALIST", "RESTORATIONIST", "Ctx", "Stop"]
