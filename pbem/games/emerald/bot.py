"""A Study in Emerald's computer player: the sampler of what a seat cannot see, and the evaluation of a position.

Hidden from a seat: the other players' hands, every deck's order (its own too), the cards under the top of each
Game Card space and those left in the box, and the other players' secret identities (until revealed, or seen
with Vladimir Burtsev). A sampled world deals them again among what the log leaves possible: a deck holds the
cards that were shuffled into it, less those drawn; a card another player was seen to play was in their hand; a
space's stack holds its own city and royalty cards until they are turned up; an identity is drawn from those
the box still holds. Left out: what a player's moves suggest about their side.
"""

from __future__ import annotations

import math
import random
from typing import Any, Mapping

from pbem.bots.hidden import Token, is_token
from pbem.bots.knowledge import Knowledge, SeenEvent
from pbem.bots.skeleton import Skeleton, sample_with
from pbem.games.emerald import engine
from pbem.games.emerald.rules import RULES
from pbem.games.emerald.scoring import adjusted
from pbem.games.emerald.state import LOYALIST, RESTORATIONIST, State, replace, without

NAME = "emerald"


class EmeraldSkeleton(Skeleton[State]):
    rules = RULES

    def __init__(self, knowledge: Knowledge) -> None:
        super().__init__(knowledge)
        g = self.state.cat.game
        self.identities = self.hidden.pool([LOYALIST] * g["identities"]["loyalist"]
                                           + [RESTORATIONIST] * g["identities"]["restorationist"])
        self.drawing: SeenEvent | None = None  # another player's draw, until its public count says how many
        # a server-only shuffle names nobody: the rules shuffle the decks seat after seat at the start, and later
        # right after saying in public whose discard pile it is (DiscardReshuffled)
        self.reshuffling: int | None = None
        self.dealt_decks = 0
        self.looking = -1  # whose identity a withheld IdentitySeen shows: the public IdentityLooked before it
        self.shuffled: tuple[int, ...] = ()
        self.last_shuffled = -1

    def feed(self, event: SeenEvent) -> None:
        name = event.type.split(".", 1)[1]
        p = event.payload
        s = self.state
        if p is None:
            if name == "CardsDrawn":
                self.drawing = event
                return
            self.apply(event, self._fill(name, event))
            if name == "DeckShuffled":  # the shuffled cards leave the discard pile (they are placeholders now)
                seat = self.last_shuffled
                pl = self.state.players[seat]
                self.state = self.state.with_player(seat, discard=without(pl.discard, self.shuffled))
            return
        if name == "CardsDrawnCount" and self.drawing is not None:
            pl = s.players[p["seat"]]
            self.apply(self.drawing, {"seat": p["seat"], "cards": list(pl.deck[:p["count"]])})
            self.drawing = None
        elif name == "DiscardReshuffled":
            self.reshuffling = p["seat"]
        elif name == "IdentityLooked":
            self.looking = p["target"]
        elif name == "CardRevealed":
            top = s.city(p["city"]).stack[0]
            if is_token(top):
                self.bind(top, p["card"])
        elif name == "CardsDrawn":
            for place, card in zip(s.players[p["seat"]].deck, p["cards"]):
                if is_token(place):
                    self.bind(place, card)
        elif name == "CardsPlayed":
            hand = s.players[p["seat"]].hand
            for card in p["cards"]:
                if card not in hand:
                    self.bind(self.hidden.pick(self.state.players[p["seat"]].hand, card), card)
        elif name == "CardRemoved":
            self._removed(p)
        elif name == "IdentityDealt":
            token = self.hidden.tokens(self.identities, 1, str)[0]
            self.hidden.bind(token, p["identity"])
        elif name in ("IdentityRevealed", "IdentitySeen"):
            seat = p["seat"] if name == "IdentityRevealed" else p["target"]
            if is_token(s.players[seat].identity):
                self.bind(s.players[seat].identity, p["identity"])
        elif name == "GameEnded":
            for seat, side in p["sides"].items():
                pl = self.state.players[int(seat)]
                if is_token(pl.identity):
                    flipped = RESTORATIONIST if side == LOYALIST else LOYALIST
                    self.bind(pl.identity, flipped if pl.flipped else side)
        self.apply(event)

    def _removed(self, p: Mapping[str, Any]) -> None:
        card, where = p["card"], p["from"]
        s = self.state
        if where == "stack":
            stack = s.city(p["city"]).stack
            if card not in stack and stack and is_token(stack[0]):
                self.bind(stack[0], card)  # the stack is shown from the top as it leaves
        elif where in ("hand", "deck"):
            pile = getattr(s.players[p["seat"]], where)
            if card not in pile:
                self.bind(self.hidden.pick(pile, card), card)

    @staticmethod
    def _withheld_seat(event: SeenEvent) -> int:
        return int(event.visibility.seats[0]) if event.visibility.seats else -1

    def _fill(self, name: str, event: SeenEvent) -> dict[str, Any]:
        s = self.state
        cat = s.cat
        if name == "StacksDealt":
            per = cat.game["cards_per_space"][str(s.n)]
            box = self.hidden.pool(cat.game_card_ids)
            stacks = {}
            for city in cat.city_ids:
                dealt = self.hidden.tokens(box, per)
                stacks[city] = self.hidden.shuffle([cat.city_card[city], cat.royalty_card[city]] + dealt)
            self.box = box
            return {"stacks": stacks}
        if name == "CardsBoxed":
            return {"cards": self.hidden.tokens(self.box, len(self.box.items) - self.box.open)}
        if name == "IdentityDealt":
            return {"seat": self._withheld_seat(event), "identity": self.hidden.tokens(self.identities, 1, str)[0]}
        if name == "DeckShuffled":
            if self.reshuffling is not None:
                seat, cards = self.reshuffling, list(s.players[self.reshuffling].discard)
                self.reshuffling = None
            else:
                seat, cards = self.dealt_decks, list(cat.starting_ids(self.dealt_decks))
                self.dealt_decks += 1
            self.shuffled, self.last_shuffled = tuple(cards), seat
            return {"seat": seat, "order": self.hidden.shuffle(cards)}
        if name == "IdentitySeen":
            target = self.looking
            return {"seat": self._withheld_seat(event), "target": target,
                    "identity": s.players[target].identity}
        raise NotImplementedError(f"the A Study in Emerald sampler does not know the withheld event {name}")

    def remap(self, state: State, values: Mapping[Token, Any]) -> State:
        players = tuple(replace(pl, hand=_sub(pl.hand, values), deck=_sub(pl.deck, values),
                                identity=values.get(pl.identity, pl.identity),
                                seen=tuple((t, values.get(i, i)) for t, i in pl.seen))
                        for pl in state.players)
        cities = tuple(replace(c, stack=_sub(c.stack, values)) if any(is_token(x) for x in c.stack) else c
                       for c in state.cities)
        return replace(state, players=players, cities=cities, boxed=tuple(sorted(_sub(state.boxed, values))))


def _sub(items: tuple[Any, ...], values: Mapping[Token, Any]) -> tuple[Any, ...]:
    return tuple(values.get(x, x) for x in items) if any(is_token(x) for x in items) else items


SKELETON = EmeraldSkeleton


def sample(knowledge: Knowledge, rng: random.Random) -> State:
    """A full state consistent with everything ``knowledge``'s seat knows, its hidden parts drawn at random."""
    return sample_with(EmeraldSkeleton, knowledge, rng)  # type: ignore[no-any-return]


def to_act(state: State) -> int | None:
    """The seat that must decide now (None once the game is over): the search asks at every step, and the rules'
    prompts also word the question."""
    who = engine.acting(state)
    return who[0] if who is not None else None


# --- evaluation -----------------------------------------------------------------------------

def evaluate(state: State, seat: int) -> float:
    """The seat's chance of winning, estimated: a finished game gives its result (a shared win counts 1/k); else
    each player's final score if the game ended now (sides, tracks and the lowest side's penalty as at the end),
    with a little for the claims and kills their pieces make likely, as shares that add up to 1: the nearer the
    end, the more the lead counts."""
    return values(state)[seat]


def values(state: State) -> tuple[float, ...]:
    """``evaluate`` for every seat at once."""
    n = state.n
    if state.phase == "over":
        from pbem.games.emerald.scoring import final_scores
        won = final_scores(state).winners
        return tuple((1.0 / len(won) if i in won else 0.0) for i in range(n))
    rows = adjusted(state)
    cat = state.cat
    g = cat.game
    before = [rows[i]["before_penalty"] for i in range(n)]
    low = min(before)
    losing = LOYALIST if any(rows[i]["side"] == LOYALIST for i in range(n) if before[i] == low) else RESTORATIONIST
    scores = []
    for i in range(n):
        side = rows[i]["side"]
        score = before[i] - (g["lowest_side_penalty"] if side == losing else 0)
        score += 0.5 if side == RESTORATIONIST else 0.0  # they win ties
        score += _board(state, i, side)
        scores.append(score)
    target = g["victory_target"][str(n)]
    near = max(max(state.total_vp(i) for i in range(n)) / target,
               max(state.resto_track, state.loyal_track) / g["track_max"])
    spread = 2.0 + 6.0 * (1.0 - min(1.0, near))
    top = max(scores)
    weights = [math.exp((v - top) / spread) for v in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


def _board(state: State, seat: int, side: str) -> float:
    """What the seat's pieces and hand promise, worth less than what claiming it gives (so a claim is taken): the top
    card of each city it could claim (its points for the seat's side and a card for its deck; more with a claim card
    in hand), a little for every cube and agent in a city, less for every cube in Limbo, its sanity, and the cards it
    has claimed (a stronger deck)."""
    cat = state.cat
    pl = state.players[seat]
    claims = any(cat.cards[c].sym("claim") for c in pl.hand)
    value = 0.3 * pl.sanity - 0.05 * pl.limbo + 0.6 * (len(pl.hand) + len(pl.deck) + len(pl.discard) - 10)
    own = "vp_resto" if side == RESTORATIONIST else "vp_loyal"
    for city, c in zip(cat.city_ids, state.cities):
        if not c.cubes[seat] and not c.agents[seat]:
            continue
        value += 0.05 * c.cubes[seat] + 0.3 * c.agents[seat]
        if c.stack and c.cubes[seat] and state.has_most(city, seat):
            top = cat.cards[c.stack[0]]
            value += (0.4 if claims else 0.2) * (0.5 + top.sym("vp_neutral") + top.sym(own))
    return value
