"""A Study in Emerald (1st edition) on the kernel's Rules protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.envelope import Event, NewEvent
from events.rng import Rng
from events.rules import GameConfig, InvalidAction, Outcome, Prompt
from events.snapshots import MadeFromData
from pbem.games.emerald1 import engine
from pbem.games.emerald1.data import Catalog, catalog, load_data
from pbem.games.emerald1.effects import Ctx, draw, turn_top
from pbem.games.emerald1.events import EVENT_TYPES
from pbem.games.emerald1.evolve import PLANS, plan
from pbem.games.emerald1.options import OPTIONS, readings, recorded
from pbem.games.emerald1.scoring import final_scores
from pbem.games.emerald1.state import LOYALIST, RESTORATIONIST, State
from pbem.games.emerald1.view import build_view


class Emerald1Rules:
    name = "emerald1"
    title = "A Study in Emerald (1st edition)"
    version = "2"  # 2: the state holds the game's readings (options and revision); snapshots of 1 are passed over
    min_seats = 2
    max_seats = 5
    event_types = EVENT_TYPES
    made_from_data = (MadeFromData(Catalog, lambda cat: cat.data, catalog),)  # snapshots name it by the data
    option_choices = OPTIONS  # offered in words on the new-game page
    # Offered to every player from the start, so that setting an order tells nothing about what they hold.
    standing_order_topics = {engine.INTERRUPT_TOPIC: "When another player attacks: reveal a double agent or use "
                             "Master of Disguise if you can stop it (always), or let it happen (never)."}

    def load_data(self, override: Mapping[str, Any] | None) -> Mapping[str, Any]:
        return load_data(override)

    def options(self, chosen: Mapping[str, Any]) -> dict[str, Any]:
        """The options a new game records: each option's chosen reading or its default, and the rules' revision."""
        return recorded(chosen)

    def initial_state(self, config: GameConfig) -> State:
        n = len(config.seats)
        if not self.min_seats <= n <= self.max_seats:
            raise InvalidAction(f"A Study in Emerald (1st edition) is for 2 to 5 players, not {n}.")
        return State(catalog(config.data or load_data(None)), tuple(s.name for s in config.seats),
                     readings(config.options))

    def setup(self, config: GameConfig, rng: Rng) -> list[NewEvent]:
        state = self.initial_state(config)
        ctx = Ctx(state, rng)
        cat, n = state.cat, state.n
        g = cat.game
        ids = [LOYALIST] * g["identities"]["loyalist"] + [RESTORATIONIST] * g["identities"]["restorationist"]
        dealt = rng.shuffle(ids)
        for seat in range(n):
            ctx.emit("IdentityDealt", {"seat": seat, "identity": dealt[seat]}, to=seat, reveals=True)
        ctx.emit("IdentitiesDealt", {"count": n})
        per = g["stack_size"][str(n)]
        pool = rng.shuffle(list(cat.game_card_ids))
        stacks = {city: pool[i * per:(i + 1) * per] for i, city in enumerate(cat.city_ids)}
        ctx.emit("StacksDealt", {"stacks": stacks}, server=True)
        ctx.emit("CardsBoxed", {"cards": sorted(pool[len(cat.city_ids) * per:])}, server=True)
        for city in cat.city_ids:
            turn_top(ctx, city)
        ctx.emit("PEDeckShuffled", {"order": rng.shuffle(list(cat.pe_ids))}, server=True)
        for _ in range(g["pe_on_display"]):
            ctx.emit("PEDisplayed", {"card": ctx.s.pe_deck[0]}, reveals=True)
        ctx.emit("DoubleAgentsShuffled", {"order": rng.shuffle(list(range(1, g["double_agents"] + 1)))}, server=True)
        each = g["double_agents_each"][str(n)]
        for seat in range(n):
            take = sorted(ctx.s.da_pool[:each])
            ctx.emit("DoubleAgentsTaken", {"seat": seat, "agents": take, "why": "setup"}, to=seat, reveals=True)
            ctx.emit("DoubleAgentsCount", {"seat": seat, "count": len(take), "why": "setup"})
        ctx.emit("SanityShuffled", {"order": rng.shuffle(["sane"] * g["sanity_sane"] + ["mad"] * g["sanity_mad"])},
                 server=True)
        for seat in range(n):
            ctx.emit("DeckShuffled", {"seat": seat, "order": rng.shuffle(list(cat.initial_ids(seat)))}, server=True)
            draw(ctx, seat, g["hand_size"])
        ctx.emit("FirstPlayerChosen", {"seat": rng.randint(0, n - 1)})
        return ctx.events

    def position(self, state: State) -> Mapping[str, Any]:
        """The whole position in the game's words (``docs/emerald1-positions.md``)."""
        from pbem.games.emerald1.position import position
        return position(state)

    def setup_from(self, config: GameConfig, position: Mapping[str, Any], rng: Rng) -> list[NewEvent]:
        """A game begun from ``position``: checked like data, then given as its first events."""
        from pbem.games.emerald1.from_position import setup_from
        return setup_from(config, position, self.initial_state(config))

    def evolve(self, state: State, event: Event) -> State:
        found = PLANS.get(event.type) or plan(event.type)
        if found is None:  # an event that only tells (a count, a foiled attack): nothing changes
            return state
        handler, fields, players = found
        payload = event.payload
        seat = (payload.get("seat") if players == 1 and (type(payload) is dict or isinstance(payload, Mapping))
                else None)
        new = state.next_owning(fields, players, seat)
        handler(new, payload)
        return new

    def prompts(self, state: State) -> Mapping[int, Prompt]:
        return engine.prompts(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return engine.legal_actions(state, seat)

    decide = staticmethod(engine.decide)  # likewise

    # ``build_view`` itself, not a method calling it: the view of every seat is asked for after every action.
    view = staticmethod(build_view)

    def outcome(self, state: State) -> Outcome | None:
        return final_scores(state) if state.phase == "over" else None

    def parse(self, state: State, text: str) -> dict[str, Any]:
        from pbem.games.emerald1.commands import parse_command
        return parse_command(state, text)

    def format(self, state: State, action: Mapping[str, Any]) -> str:
        from pbem.games.emerald1.commands import format_action
        return format_action(state, action)

    def describe(self, event: Event, seat: int | None) -> str:
        from pbem.games.emerald1.describe import describe
        return describe(event, seat)

    def repeats(self, event: Event, seat: int | None) -> bool:
        """Whether the event's line, for ``seat``, repeats another line of the same command (the log says it once)."""
        from pbem.games.emerald1.describe import repeats
        return repeats(event, seat)


RULES = Emerald1Rules()
