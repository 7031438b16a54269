"""A Study in Emerald (1st edition)'s computer player: the sampler of what a seat cannot see, and the evaluation.

Hidden from a seat: the other players' hands and face-down discards, every deck's order (its own too), the Game
Card boxes under their top cards and the cards left out, the Permanent Effect deck, the face-down Double-agent
and Sanity counters, the other players' counters and secret identities (until revealed, or seen with Vladimir
Burtsev), and the cards removed face down with The Third Section. A sampled world deals them again among what
the log leaves possible: a deck holds what was shuffled into it less what was drawn; a card or counter another
player was seen to play or reveal was theirs; counters and cards are turned from the top of their piles.
Left out: what a player's moves suggest, and which of a player's piles held a card that left it without the
log saying where (an agent's card lost to madness or Cthulhu): the hand is tried first, then the deck.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from pbem.bots.hidden import Contradiction, Token, is_token
from pbem.bots.estimate import shares_with_sides
from pbem.bots.knowledge import Knowledge, SeenEvent
from pbem.bots.skeleton import Skeleton, sample_with
from pbem.games.emerald1.moves import can_claim
from pbem.games.emerald1 import engine
from pbem.games.emerald1.rules import RULES
from pbem.games.emerald1.scoring import discs_on_board, final_scores, score
from pbem.games.emerald1.state import LOYALIST, RESTORATIONIST, Player, State, other_side

NAME = "emerald1"

# A withheld event comes first, and its public twin after it says how many and whose.
TWINS = {"CardsDrawnCount": "CardsDrawn", "DoubleAgentsCount": "DoubleAgentsTaken",
         "DoubleAgentsReturnedCount": "DoubleAgentsReturned", "DoubleAgentStolenCount": "DoubleAgentStolen",
         "CardsDiscardedCount": "CardsDiscarded", "CardRemovedHidden": "CardRemovedFace"}
PILES = ("hand", "deck", "discard")


class Emerald1Skeleton(Skeleton[State]):
    rules = RULES

    def __init__(self, knowledge: Knowledge) -> None:
        super().__init__(knowledge)
        g = self.state.cat.game
        self.identities = self.hidden.pool([LOYALIST] * g["identities"]["loyalist"]
                                           + [RESTORATIONIST] * g["identities"]["restorationist"])
        self.waiting: SeenEvent | None = None         # a withheld event until its public twin
        self.reshuffling: tuple[int, bool] | None = None  # whose deck the next server-only shuffle is
        self.dealt_decks = 0
        self.looking = -1                              # whose side a withheld IdentitySeen shows
        self.flipped_of: dict[Token, Token] = {}       # a side seen of a player who had changed sides
        self.taken: dict[int, list[Token]] = {}        # the counters each player drew last, face down to us
        self.counters_dealt = False
        self.removed_by: dict[Token, int] = {}         # a card removed face down, unseen: who removed it

    # --- folding --------------------------------------------------------------------------

    def feed(self, event: SeenEvent) -> None:
        name = event.type.split(".", 1)[1]
        p = event.payload
        if p is None:
            if name in TWINS.values():
                self.waiting = event
                return
            self._withheld(name, event)
            return
        if name in TWINS and self.waiting is not None and self.waiting.type.endswith("." + TWINS[name]):
            waiting, self.waiting = self.waiting, None
            filled = self._twin(TWINS[name], p)
            if TWINS[name] == "CardRemovedFace" and is_token(filled["card"]):
                self._removed_face(filled["seat"], filled["card"])
            else:
                self.apply(waiting, filled)
        self._shown(name, p)
        self.apply(event)

    def _withheld(self, name: str, event: SeenEvent) -> None:
        s = self.state
        cat = s.cat
        g = cat.game
        h = self.hidden
        if name == "IdentityDealt":
            seat = int(event.visibility.seats[0])
            self.apply(event, {"seat": seat, "identity": h.tokens(self.identities, 1, str)[0]})
        elif name == "StacksDealt":
            self.box = h.pool(cat.game_card_ids)
            per = g["stack_size"][str(s.n)]
            self.apply(event, {"stacks": {city: h.tokens(self.box, per) for city in cat.city_ids}})
        elif name == "CardsBoxed":
            self.apply(event, {"cards": h.tokens(self.box, len(self.box.items) - self.box.open)})
        elif name == "PEDeckShuffled":
            self.apply(event, {"order": h.shuffle(cat.pe_ids)})
        elif name == "DoubleAgentsShuffled":
            if not self.counters_dealt:  # the start: every counter; later, those left in the pool
                self.counters_dealt = True
                self.apply(event, {"order": h.shuffle(range(1, g["double_agents"] + 1))})
            else:
                self.apply(event, {"order": h.shuffle(list(s.da_pool))})
        elif name == "SanityShuffled":
            self.apply(event, {"order": h.shuffle(["sane"] * g["sanity_sane"] + ["mad"] * g["sanity_mad"], str)})
        elif name == "DeckShuffled":
            self._deck_shuffled(event)
        elif name == "IdentitySeen":
            target = s.players[self.looking]
            side: Token = target.identity
            if target.flipped and is_token(side):
                flipped = h.placeholder()  # stands for the other side of the identity
                self.flipped_of[flipped] = side
                side = flipped
            elif target.flipped:
                side = other_side(side)
            self.apply(event, {"seat": int(event.visibility.seats[0]), "target": self.looking, "side": side})
        else:
            raise NotImplementedError(f"the 1st edition Emerald sampler does not know the withheld event {name}")

    def _deck_shuffled(self, event: SeenEvent) -> None:
        s = self.state
        if self.reshuffling is not None:
            (seat, with_discard), self.reshuffling = self.reshuffling, None
            pl = s.players[seat]
            items = list(pl.deck) + (list(pl.discard) if with_discard else [])
        else:  # the start: every player's ten cards, seat after seat
            seat, self.dealt_decks = self.dealt_decks, self.dealt_decks + 1
            items = list(s.cat.initial_ids(seat))
        self.apply(event, {"seat": seat, "order": self.hidden.shuffle(items)})
        gone = set(items)  # the placeholders stand for the shuffled cards: they leave the discard pile
        self.state = _with_player(self.state, seat, discard=[c for c in self.state.players[seat].discard
                                                             if c not in gone])

    def _twin(self, name: str, p: Mapping[str, Any]) -> dict[str, Any]:
        """The payload of a withheld event, now that its public twin says how many and whose."""
        s = self.state
        seat = p["seat"]
        pl = s.players[seat]
        if name == "CardsDrawn":
            return {"seat": seat, "cards": list(pl.deck[:p["count"]])}
        if name == "DoubleAgentsTaken":
            take = list(s.da_pool[:p["count"]])
            self.taken[seat] = take
            return {"seat": seat, "agents": take, "why": p.get("why", "")}
        if name == "DoubleAgentsReturned":  # which of the counters just drawn went back, nobody else saw
            drawn = [a for a in self.taken.get(seat, []) if a in pl.double_agents] or list(pl.double_agents)
            mixed = self._mix(seat, "double_agents", drawn)
            return {"seat": seat, "agents": mixed[:p["count"]]}
        if name == "DoubleAgentStolen":  # which counter was taken, only the two players saw
            victim = p["from_seat"]
            mixed = self._mix(victim, "double_agents", list(s.players[victim].double_agents))
            return {"seat": seat, "from_seat": victim, "agent": mixed[0] if mixed else None}
        if name == "CardsDiscarded":  # all but the shown card face down: any of the rest of the hand
            shown = p["shown"]
            if shown not in pl.hand:
                self.bind(self._take(seat, "hand", shown), shown)
            rest = list(self.state.players[seat].hand)
            rest.remove(shown)
            mixed = self._mix(seat, "hand", rest)
            return {"seat": seat, "cards": mixed[:p["count"] - 1] + [shown]}
        # CardRemovedFace: any card of the hand, face down
        mixed = self._mix(seat, "hand", list(pl.hand))
        return {"seat": seat, "card": mixed[0]}

    def _removed_face(self, seat: int, card: Token) -> None:
        """The rules' fold of a card removed face down, for a card the seat did not see: the rules ask which card
        it was (a Necronomicon's points stay until the end), so that is counted when it gets its value (``remap``)."""
        hand = list(self.state.players[seat].hand)
        hand.remove(card)
        new = _with_player(self.state, seat, hand=hand)
        new.removed_secret = [*self.state.removed_secret, card]
        self.state = new
        self.removed_by[card] = seat

    def _mix(self, seat: int, field: str, items: list[Any]) -> list[Token]:
        """``items`` of one of the player's lists, put in one pool: which of them went where, the seat did not
        see. They are replaced in the list by placeholders that may each be any of them (returned in order)."""
        if not items:
            return []
        mixed = self.hidden.shuffle(items)
        swap = dict(zip(items, mixed)) if len(set(items)) == len(items) else None
        old = getattr(self.state.players[seat], field)
        if swap is not None:
            new = [swap.get(x, x) for x in old]
        else:  # the same value twice (never for cards and counters): replace one at a time
            new, left = [], list(zip(items, mixed))
            for x in old:
                hit = next((i for i, (v, _) in enumerate(left) if v == x), None)
                new.append(left.pop(hit)[1] if hit is not None else x)
        self.state = _with_player(self.state, seat, **{field: new})
        return mixed

    def _shown(self, name: str, p: Mapping[str, Any]) -> None:
        """Bind the placeholders a shown event reveals, before the rules fold it."""
        s = self.state
        h = self.hidden
        if name == "IdentityDealt":
            h.bind(h.tokens(self.identities, 1, str)[0], p["identity"])
        elif name == "IdentityRevealed":
            self._identity(p["seat"], p["identity"], False)
        elif name == "IdentitySeen":
            self._identity(p["target"], p["side"], s.players[p["target"]].flipped)
        elif name == "GameEnded":
            for seat, side in p["sides"].items():
                self._identity(int(seat), side, s.players[int(seat)].flipped)
        elif name == "IdentityLooked":
            self.looking = p["target"]
        elif name == "DiscardReshuffled":
            self.reshuffling = (p["seat"], True)
        elif name == "TopTurned":
            stack = s.stacks[p["city"]]
            if p["card"] not in stack and stack and is_token(stack[0]):
                self.bind(stack[0], p["card"])
        elif name == "PEDisplayed":
            if p["card"] not in s.pe_deck and s.pe_deck and is_token(s.pe_deck[0]):
                self.bind(s.pe_deck[0], p["card"])
        elif name == "SanityDrawn":
            if p["result"] != "none" and s.sanity_pool and is_token(s.sanity_pool[0]):
                self.bind(s.sanity_pool[0], p["result"])
        elif name == "CardsDrawn":
            for place, card in zip(s.players[p["seat"]].deck, p["cards"]):
                if is_token(place):
                    self.bind(place, card)
        elif name == "DoubleAgentsTaken":
            for place, agent in zip(s.da_pool, p["agents"]):  # the top counters, face down: in any order
                if is_token(place):
                    self.bind(place, agent)
        elif name in ("DoubleAgentStolen", "DoubleAgentRevealed"):
            owner = p["from_seat"] if name == "DoubleAgentStolen" else p["seat"]
            if "agent" in p and p["agent"] not in s.players[owner].double_agents:
                self.bind(h.pick(s.players[owner].double_agents, p["agent"]), p["agent"])
        elif name == "CardsPlayed":
            for card in p["cards"]:
                if card not in self.state.players[p["seat"]].hand:
                    self.bind(self._take(p["seat"], "hand", card), card)
        elif name in ("CardClaimed", "CardTransferred") and p.get("from_seat") is not None:
            where = p.get("from", "")
            if where in PILES:
                pile = getattr(s.players[p["from_seat"]], where)
                if p["card"] not in pile:
                    self.bind(self._take(p["from_seat"], where, p["card"]), p["card"])
                if where == "deck":  # the rules shuffle that deck again (hand_card_lost)
                    self.reshuffling = (p["from_seat"], False)
        elif name == "CardGone":
            self._gone(p)

    def _gone(self, p: Mapping[str, Any]) -> None:
        s = self.state
        card = p["card"]
        if p.get("from_seat") is not None:
            pl = s.players[p["from_seat"]]
            if any(card in getattr(pl, w) for w in PILES):
                return
            for where in PILES:  # the log does not say which pile: the first that could hold it
                pile = getattr(pl, where)
                if any(is_token(t) and t not in self.hidden.bound and self.hidden.could_be(t, card) for t in pile):
                    self.bind(self.hidden.pick(pile, card), card)
                    return
        elif p.get("city"):
            stack = s.stacks[p["city"]]
            if card not in stack and stack and is_token(stack[0]):
                self.bind(stack[0], card)

    def _take(self, seat: int, where: str, value: Any) -> Token:
        """The placeholder in one of the player's piles that ``value`` is shown leaving. When none of that pile
        could be it, one that could in another of their piles takes the place of one of this pile: the seat saw
        neither, only how many each pile held (a face-down discard, say, kept one card and not another)."""
        h = self.hidden
        pl = self.state.players[seat]
        pile = getattr(pl, where)
        try:
            return h.pick(pile, value)
        except Contradiction:
            pass
        out = [t for t in pile if is_token(t) and t not in h.bound]
        for other in PILES:
            there = getattr(pl, other)
            if other == where or not out:
                continue
            try:
                found = h.pick(there, value)
            except Contradiction:
                continue
            swap = out[0]
            self.state = _with_player(self.state, seat, **{where: [found if x == swap else x for x in pile],
                                                           other: [swap if x == found else x for x in there]})
            return found
        raise Contradiction(f"{value!r} is shown leaving a pile where nothing could have been it")

    def _identity(self, seat: int, side: str, flipped: bool) -> None:
        token = self.state.players[seat].identity
        if is_token(token):
            self.bind(token, other_side(side) if flipped else side)

    # --- placeholders to values -----------------------------------------------------------

    def remap(self, state: State, values: Mapping[Token, Any]) -> State:
        values = self._with_sides(values)
        new = state.successor(memo=False)
        players = []
        for pl in state.players:
            twin = pl.copy()
            twin.hand = _sub(pl.hand, values)
            twin.deck = _sub(pl.deck, values)
            twin.discard = _sub(pl.discard, values)
            twin.double_agents = _sub(pl.double_agents, values)
            twin.identity = values.get(pl.identity, pl.identity)
            if any(is_token(v) for v in pl.seen.values()):
                twin.seen = {k: values.get(v, v) for k, v in pl.seen.items()}
            players.append(twin)
        new.players = players
        new.stacks = {c: _sub(st, values) for c, st in state.stacks.items()}
        new.boxed = sorted(_sub(state.boxed, values))
        new.pe_deck = _sub(state.pe_deck, values)
        new.da_pool = _sub(state.da_pool, values)
        new.sanity_pool = _sub(state.sanity_pool, values)
        new.removed_secret = _sub(state.removed_secret, values)
        if self.removed_by:
            for card, seat in self.removed_by.items():
                value = values.get(card)
                if value is not None and card in state.removed_secret and _necronomicon(state, value):
                    new.players[seat].hidden_necronomicons += 1  # a copy made above
        return new

    def _with_sides(self, values: Mapping[Token, Any]) -> Mapping[Token, Any]:
        if not self.flipped_of:
            return values
        out = dict(values)
        for flipped, identity in self.flipped_of.items():
            known = out.get(identity, self.hidden.bound.get(identity))
            if known is not None and flipped not in out:
                out[flipped] = other_side(known)
        return out


def _sub(items: list[Any], values: Mapping[Token, Any]) -> list[Any]:
    return [values.get(x, x) for x in items] if any(is_token(x) for x in items) else items


def _necronomicon(state: State, card: Any) -> bool:
    # As the rules' fold of a card removed face down counts it (revision 2 only).
    return state.readings.revision >= 2 and state.cat.cards[card].name == "Necronomicon"


def _with_player(state: State, seat: int, **changes: Any) -> State:
    new = state.successor()
    players = list(state.players)
    twin: Player = players[seat].copy()
    for k, v in changes.items():
        setattr(twin, k, v)
    players[seat] = twin
    new.players = players
    return new


SKELETON = Emerald1Skeleton


def sample(knowledge: Knowledge, rng: random.Random) -> State:
    """A full state consistent with everything ``knowledge``'s seat knows, its hidden parts drawn at random."""
    return sample_with(Emerald1Skeleton, knowledge, rng)  # type: ignore[no-any-return]


def to_act(state: State) -> int | None:
    """The seat that must decide now (None once the game is over): the search asks at every step, and the rules'
    prompts also word the question."""
    who = engine.acting(state)
    return who[0] if who is not None else None


# --- evaluation -----------------------------------------------------------------------------

def evaluate(state: State, seat: int) -> float:
    """The seat's chance of winning, estimated: a finished game gives its result (a shared win counts 1/k); else
    each player's score if the game ended now, by their side (the lowest player's side eliminated), with a little
    for the discs and cubes on the board, as shares that add up to 1: the nearer the end, the more the lead counts."""
    return values(state)[seat]


def values(state: State) -> tuple[float, ...]:
    """``evaluate`` for every seat at once."""
    n = state.n
    if state.phase == "over":
        won = final_scores(state).winners
        return tuple((1.0 / len(won) if i in won else 0.0) for i in range(n))
    sides = [state.players[i].side for i in range(n)]
    scores = [score(state, i, sides[i], final=True) + _board(state, i) for i in range(n)]
    target = state.cat.game["victory_target"][str(n)]
    near = max(score(state, i) for i in range(n)) / target
    return shares_with_sides(scores, sides, 2.0 + 6.0 * (1.0 - min(1.0, near)), LOYALIST)


def _board(state: State, seat: int) -> float:
    """What the seat's pieces promise: every place it could claim now (a city's points, or a card), a little for
    each cube on the board and for each disc (agents, cities, royal persons)."""
    value = 0.3 * discs_on_board(state, seat)
    for place, row in state.cubes.items():
        if not row[seat]:
            continue
        value += 0.15 * row[seat]
        if place.startswith(("card:", "city:")) and can_claim(state, seat, place):
            city = place[5:] if place.startswith("city:") else None
            value += 0.6 * (1.0 + (state.cat.city[city]["vp"] if city else 0))
    return value
