"""Whether a card's symbol with no option now stays open, because powers the player can still use this turn would
make it possible (rules revision 2; ``docs/nanty-rulings.md`` 25).

The player's own powers are tried on a copy of the position, never on hidden cards: money first (it only ever
helps), then the powers that move pieces or trouble, each once, in every order that could matter to this symbol.
Westminster's draw is never tried: it depends on the hidden deck and no symbol depends on a hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.rng import NoRandomness
from pbem.games.nanty import moves
from pbem.games.nanty.effects import Ctx
from pbem.games.nanty.state import Spot, State

Action = dict[str, Any]
MONEY_POWERS = ("money", "discard_money")
BUDGET = 400  # powers tried at most; past it the symbol is kept open (the player may still skip it)


def _relevant(s: State, seat: int, card: int, sym: str) -> Callable[[State, Action], bool] | None:
    """Which of the power options that move pieces or trouble could help this symbol (None: none can)."""
    name = sym.split(":", 1)[0]
    eff = s.cat.cards[card].scroll if name == "scroll" else ""

    def power(s: State, a: Action) -> str:
        return s.cat.areas[a["area"]].power

    def spot(s: State, area: str) -> Spot:
        return s.spot(area)

    if name == "building":
        # an agent where a building may stand, or a trouble marker lifted from such a place, if the player could
        # still pay for the building after paying for the power
        g = s.cat.game

        def affordable(s: State, area: str, price: int) -> bool:
            return spot(s, area).building < 0 and s.cat.areas[area].cost + price <= s.players[seat].money

        return lambda s, a: (power(s, a) == "place_agent" and affordable(s, a["to"], g["power_agent_cost"])) or \
            (power(s, a) == "remove_trouble" and affordable(s, a["target"], g["strand_cost"]))
    if name == "assassinate":
        # trouble made where there is a pawn that is not the player's: another player's agent, a Grenadier, a New
        # Citizen
        def target(s: State, area: str) -> bool:
            sp = spot(s, area)
            return sp.pawns > sp.agents[seat]

        return lambda s, a: (power(s, a) == "place_trouble" and target(s, a["target"])) or \
            (power(s, a) == "place_agent" and target(s, a["to"]))
    if name == "trouble" or eff == "calm":
        # trouble made: an agent joining a pawn, or East End's marker
        return lambda s, a: power(s, a) == "place_trouble" or \
            (power(s, a) == "place_agent" and spot(s, a["to"]).pawns > 0)
    if eff == "move_own":
        return lambda s, a: power(s, a) == "place_agent"
    if eff == "remove_agent":
        # one of your agents beside another player's
        return lambda s, a: power(s, a) == "place_agent" and any(
            count for v, count in enumerate(spot(s, a["to"]).agents) if v != seat)
    if eff == "place_trouble":
        # an area with a pawn and no marker: an agent alone in an empty area, or a marker lifted
        return lambda s, a: (power(s, a) == "place_agent" and spot(s, a["to"]).pawns == 0) or \
            power(s, a) == "remove_trouble"
    return None


def _use(s: State, seat: int, action: Action) -> State:
    """The position after the power (the turn's record of powers used is kept apart, by the search)."""
    ctx = Ctx(s, NoRandomness())
    moves.apply_power(ctx, seat, action)
    return ctx.s


def could_open(s: State, seat: int, card: int, sym: str, used: list[str]) -> bool:
    """Whether some of the seat's powers not ``used`` this turn, used now one after another, would give the symbol
    an option."""
    relevant = _relevant(s, seat, card, sym)
    used = list(used)
    # money first: using every money power only ever widens what a symbol may do
    for action in moves.power_options(s, seat, used):
        if s.cat.areas[action["area"]].power in MONEY_POWERS and action["area"] not in used:
            s = _use(s, seat, action)
            used.append(action["area"])
    if moves.symbol_options(s, seat, card, sym):
        return True
    if relevant is None:
        return False
    helps = relevant
    tried = 0
    seen: set[str] = set()

    def search(s: State, used: list[str]) -> bool:
        nonlocal tried
        for action in moves.power_options(s, seat, used):
            if action["area"] in used or not helps(s, action):
                continue
            after = _use(s, seat, action)
            key = repr((after.spots, after.players[seat].money, sorted(used + [action["area"]])))
            if key in seen:
                continue
            seen.add(key)
            tried += 1
            if tried > BUDGET:
                return True
            if moves.symbol_options(after, seat, card, sym) or search(after, used + [action["area"]]):
                return True
        return False

    return search(s, used)
