"""The building blocks of every action: a context that emits and applies events, and the
procedures the rules share (money, pieces and their trouble markers, drawing, ending)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from events.envelope import NewEvent, Visibility
from events.rng import Rng
from pbem.games.nanty.evolve import apply
from pbem.games.nanty.state import BANK, State


class Stop(Exception):
    """The game ended in the middle of an action: nothing more happens."""


class Ctx:
    """Collects the events of one decision and keeps the state they lead to.

    ``p`` is the turn's bookkeeping (``State.pending``) as a dict the procedures change freely;
    ``commit`` records it with one ``StepSet`` when it differs from the state's.
    """

    def __init__(self, state: State, rng: Rng) -> None:
        self.s = state
        self.rng = rng
        self.events: list[NewEvent] = []
        self.p: dict[str, Any] = state.pend_to_change()

    def emit(self, name: str, payload: Mapping[str, Any], to: int | None = None, *,
             server: bool = False, reveals: bool = False) -> None:
        vis = Visibility.server() if server else (Visibility.to(to) if to is not None else Visibility.public())
        self.events.append(NewEvent("nanty." + name, dict(payload), vis, reveals))
        self.s = apply(self.s, "nanty." + name, payload)

    def commit(self) -> None:
        if self.s.phase == "over":
            return
        new = json.dumps(self.p, sort_keys=True) if self.p else ""
        if new != self.s.pending:
            self.emit("StepSet", {"pending": self.p})


# --- money -------------------------------------------------------------------------------

def gain(ctx: Ctx, seat: int, amount: int, why: str) -> None:
    """From the bank; an empty bank pays what it has (GUIDE C2-21)."""
    amount = min(amount, ctx.s.bank)
    if amount > 0:
        ctx.emit("MoneyMoved", {"from": BANK, "to": seat, "amount": amount, "why": why})


def pay(ctx: Ctx, seat: int, amount: int, why: str, to: int = BANK) -> None:
    """To the bank (or a player); a player pays what they have."""
    amount = min(amount, ctx.s.players[seat].money)
    if amount > 0:
        ctx.emit("MoneyMoved", {"from": seat, "to": to, "amount": amount, "why": why})


# --- pieces and trouble ------------------------------------------------------------------

def _arrive(ctx: Ctx, area: str, before: int) -> None:
    # a pawn joined an area that already had one: trouble, at most one marker per area
    if before > 0 and not ctx.s.spot(area).trouble:
        ctx.emit("TroublePlaced", {"area": area})


def _left(ctx: Ctx, area: str) -> None:
    if ctx.s.spot(area).trouble:
        ctx.emit("TroubleRemoved", {"area": area})


def place_agent(ctx: Ctx, seat: int, area: str, why: str, lift: str | None = None) -> None:
    """Place an agent; ``lift`` is the area an agent is taken from first when all are on the board."""
    if lift is not None:
        remove_agent(ctx, seat, lift, "relocated")
    before = ctx.s.spot(area).pawns
    ctx.emit("AgentPlaced", {"seat": seat, "area": area, "why": why})
    _arrive(ctx, area, before)


def remove_agent(ctx: Ctx, seat: int, area: str, why: str, by: int = -1) -> None:
    payload: dict[str, Any] = {"seat": seat, "area": area, "why": why}
    if by >= 0:
        payload["by"] = by
    ctx.emit("AgentRemoved", payload)
    _left(ctx, area)


def move_agent(ctx: Ctx, seat: int, frm: str, to: str, why: str) -> None:
    ctx.emit("AgentMoved", {"seat": seat, "from": frm, "to": to, "why": why})
    _left(ctx, frm)
    _arrive(ctx, to, ctx.s.spot(to).pawns - 1)


def place_pawn(ctx: Ctx, pawn: str, area: str) -> None:
    before = ctx.s.spot(area).pawns
    ctx.emit("PawnPlaced", {"pawn": pawn, "area": area})
    _arrive(ctx, area, before)


def remove_pawn(ctx: Ctx, pawn: str, area: str, why: str) -> None:
    ctx.emit("PawnRemoved", {"pawn": pawn, "area": area, "why": why})
    _left(ctx, area)


def place_trouble(ctx: Ctx, area: str) -> None:
    if not ctx.s.spot(area).trouble:
        ctx.emit("TroublePlaced", {"area": area})


def remove_trouble(ctx: Ctx, area: str) -> None:
    if ctx.s.spot(area).trouble:
        ctx.emit("TroubleRemoved", {"area": area})


def build(ctx: Ctx, seat: int, area: str, lift: str | None = None) -> None:
    """Pay the building cost and place a building (taking the City Area card)."""
    if lift is not None:
        ctx.emit("BuildingRemoved", {"seat": seat, "area": lift, "why": "relocated"})
    pay(ctx, seat, ctx.s.cat.areas[area].cost, "building")
    ctx.emit("BuildingPlaced", {"seat": seat, "area": area})


def demolish(ctx: Ctx, area: str, why: str) -> None:
    owner = ctx.s.spot(area).building
    if owner >= 0:
        ctx.emit("BuildingRemoved", {"seat": owner, "area": area, "why": why})


# --- cards -------------------------------------------------------------------------------

def draw(ctx: Ctx, seat: int, count: int) -> int:
    """Draw up to ``count`` cards from the deck (never reshuffled). Returns how many."""
    take = list(ctx.s.deck[:count])
    if take:
        ctx.emit("CardsDrawn", {"seat": seat, "cards": take}, to=seat, reveals=True)
        ctx.emit("CardsDrawnCount", {"seat": seat, "count": len(take)})
    return len(take)


def roll(ctx: Ctx, why: str) -> str:
    """Roll the twelve-sided die through the game's Rng; the face names an area."""
    faces = ctx.s.cat.die
    face = ctx.rng.randint(1, len(faces))
    area = faces[face - 1]
    ctx.emit("DieRolled", {"seat": ctx.s.active, "face": face, "area": area, "why": why})
    return area


def end(ctx: Ctx, reason: str, winners: list[int]) -> None:
    people = {str(i): p.personality for i, p in enumerate(ctx.s.players)}
    ctx.emit("GameEnded", {"reason": reason, "winners": sorted(winners), "personalities": people}, reveals=True)
    ctx.p = {}
    raise Stop
