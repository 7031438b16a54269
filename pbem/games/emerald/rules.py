"""A Study in Emerald (2nd edition) on the kernel's Rules protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.envelope import Event, NewEvent
from events.rng import Rng
from events.rules import GameConfig, InvalidAction, Outcome, Prompt
from events.snapshots import MadeFromData
from pbem.games.emerald import engine
from pbem.games.emerald.data import Catalog, catalog, load_data
from pbem.games.emerald.effects import Ctx, draw, turn_top
from pbem.games.emerald.events import EVENT_TYPES
from pbem.games.emerald.options import OPTIONS, REVISION, reading, revision
from pbem.games.emerald.position import position
from pbem.games.emerald.position_check import setup_from
from pbem.games.emerald.evolve import apply
from pbem.games.emerald.scoring import final_scores
from pbem.games.emerald.state import LOYALIST, RESTORATIONIST, City, Player, State
from pbem.games.emerald.view import build_view
from pbem.games.options import complete


def readings(options: Mapping[str, Any]) -> dict[str, Any]:
    """The state's fields that say how a table reads the rules, from the game's recorded options."""
    return {"free_after_actions": bool(reading(options, "free_actions_after_last_action")),
            "scoring_action_kept": reading(options, "action_card_with_points") == "identity",
            "cthulhu_takes_royalty": bool(reading(options, "cthulhu_takes_royalty")),
            "sherlock_stops_replacement": bool(reading(options, "sherlock_stops_replacement")),
            "assassination_clears_cubes": bool(reading(options, "agent_assassination_clears_cubes")),
            "cthulhu_shows_cards": bool(reading(options, "cthulhu_shows_cards")),
            "revision": revision(options)}


class EmeraldRules:
    name = "emerald"
    title = "A Study in Emerald (2nd edition)"
    version = "2"  # the state holds how the table reads the rules: older snapshots are passed over
    min_seats = 2
    max_seats = 5
    event_types = EVENT_TYPES
    option_choices = OPTIONS  # offered in words on the new-game page
    made_from_data = (MadeFromData(Catalog, lambda cat: cat.data, catalog),)  # snapshots name it by the data
    # Offered to every player from the start, so that setting an order tells nothing about a hand.
    standing_order_topics = {engine.INTERRUPT_TOPIC: "When one of your agents is targeted: play Sherlock Holmes "
                             "or Vampires if you hold one that can stop it (always), or let it happen (never)."}

    def load_data(self, override: Mapping[str, Any] | None) -> Mapping[str, Any]:
        return load_data(override)

    def options(self, chosen: Mapping[str, Any]) -> dict[str, Any]:
        """Every option with its chosen value or its default, and the rules revision a new game is played under."""
        return complete(OPTIONS, chosen, fixed={"revision": REVISION})

    def initial_state(self, config: GameConfig) -> State:
        data = config.data or load_data(None)
        cat = catalog(data)
        n = len(config.seats)
        if not self.min_seats <= n <= self.max_seats:
            raise InvalidAction(f"A Study in Emerald is for 2 to 5 players, not {n}.")
        g = cat.game
        zeros = tuple(0 for _ in range(n))
        players = tuple(Player(stock_agents=g["agents"], stock_cubes=g["cubes"] - g["cubes_in_limbo"],
                               limbo=g["cubes_in_limbo"], sanity=g["sanity_tokens"]) for _ in range(n))
        cities = tuple(City(cubes=zeros, agents=zeros, zombies=zeros) for _ in cat.city_ids)
        return State(cat=cat, names=tuple(s.name for s in config.seats), players=players, cities=cities,
                     zombie_supply=g["zombies"], sanity_stock=max(0, g["sanity_stock"] - n * g["sanity_tokens"]),
                     **readings(config.options))

    def setup(self, config: GameConfig, rng: Rng) -> list[NewEvent]:
        state = self.initial_state(config)
        ctx = Ctx(state, rng)
        cat = state.cat
        n = state.n
        per = cat.game["cards_per_space"][str(n)]
        pool = rng.shuffle(list(cat.game_card_ids))
        stacks: dict[str, list[int]] = {}
        for i, city in enumerate(cat.city_ids):
            dealt = pool[i * per:(i + 1) * per]
            stacks[city] = rng.shuffle([cat.city_card[city], cat.royalty_card[city]] + dealt)
        ctx.emit("StacksDealt", {"stacks": stacks}, server=True)
        ctx.emit("CardsBoxed", {"cards": sorted(pool[len(cat.city_ids) * per:])}, server=True)
        for city in cat.city_ids:
            turn_top(ctx, city)
        ids = [LOYALIST] * cat.game["identities"]["loyalist"] + [RESTORATIONIST] * cat.game["identities"]["restorationist"]
        dealt_ids = rng.shuffle(ids)
        for seat in range(n):
            ctx.emit("IdentityDealt", {"seat": seat, "identity": dealt_ids[seat]}, to=seat, reveals=True)
        ctx.emit("IdentitiesDealt", {"count": n})
        for seat in range(n):
            order = rng.shuffle(list(cat.starting_ids(seat)))
            ctx.emit("DeckShuffled", {"seat": seat, "order": order}, server=True)
            draw(ctx, seat, cat.game["hand_size"])
        ctx.emit("FirstPlayerChosen", {"seat": rng.randint(0, n - 1)})
        return ctx.events

    def position(self, state: State) -> Mapping[str, Any]:
        """The whole position in the players' words (``docs/emerald-positions.md``)."""
        return position(state)

    def setup_from(self, config: GameConfig, position: Mapping[str, Any], rng: Rng) -> list[NewEvent]:
        """The first events of a game begun from ``position``; ``InvalidAction`` names a refused field."""
        return setup_from(self.initial_state(config), config, position)

    def evolve(self, state: State, event: Event) -> State:
        return apply(state, event.type, event.payload)

    def prompts(self, state: State) -> Mapping[int, Prompt]:
        return engine.prompts(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return engine.legal_actions(state, seat)

    def decide(self, state: State, seat: int, action: Mapping[str, Any], rng: Rng) -> list[NewEvent]:
        return engine.decide(state, seat, action, rng)

    def view(self, state: State, seat: int | None) -> Mapping[str, Any]:
        return build_view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return final_scores(state)

    def parse(self, state: State, text: str) -> dict[str, Any]:
        from pbem.games.emerald.commands import parse_command
        return parse_command(state, text)

    def format(self, state: State, action: Mapping[str, Any]) -> str:
        from pbem.games.emerald.commands import format_action
        return format_action(state, action)

    def describe(self, event: Event, seat: int | None) -> str:
        from pbem.games.emerald.describe import describe
        return describe(event, seat)

    def repeats(self, event: Event, seat: int | None) -> bool:
        """Whether the event's line, for ``seat``, repeats another line of the same command (the log says it once)."""
        from pbem.games.emerald.describe import repeats
        return repeats(event, seat)


RULES = EmeraldRules()
