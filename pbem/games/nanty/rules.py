"""Nanty Narking on the kernel's Rules protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.envelope import Event, NewEvent
from events.rng import Rng
from events.rules import GameConfig, InvalidAction, Outcome, Prompt
from events.snapshots import MadeFromData
from pbem.games.nanty import engine
from pbem.games.nanty.data import Catalog, catalog, load_data
from pbem.games.nanty.effects import Ctx, Stop, draw, place_agent
from pbem.games.nanty.events import EVENT_TYPES
from pbem.games.nanty.evolve import apply
from pbem.games.nanty.options import OPTIONS
from pbem.games.nanty.position import position
from pbem.games.nanty.readings import new_game_options, readings
from pbem.games.nanty.setup_position import setup_events
from pbem.games.nanty.scoring import final
from pbem.games.nanty.state import BANK, Player, Spot, State
from pbem.games.nanty.view import build_view

VARIANTS = ("standard", "classic")


def grenadier_rule(options: Mapping[str, Any], data_value: bool) -> bool:
    value = options.get("grenadiers_disable_powers", data_value)
    if not isinstance(value, bool):
        raise InvalidAction("Nanty Narking: the option grenadiers_disable_powers is true or false, "
                            f"not {value!r}.")
    return value


def variant(options: Mapping[str, Any]) -> str:
    value = options.get("personalities", "standard")
    if value not in VARIANTS:
        raise InvalidAction(f"Nanty Narking: the option personalities is standard or classic, not {value!r}.")
    return str(value)


class NantyRules:
    name = "nanty"
    title = "Nanty Narking"
    version = "2"
    min_seats = 2
    max_seats = 4
    event_types = EVENT_TYPES
    option_choices = OPTIONS  # offered in words on the new-game page
    made_from_data = (MadeFromData(Catalog, lambda cat: cat.data, catalog),)  # snapshots name it by the data
    # Offered to every player from the start, so that setting an order tells nothing about a hand.
    standing_order_topics = {engine.INTERRUPT_TOPIC: "When you are asked whether to stop another player's card "
                             "removing or moving an agent: play an interrupt card if you hold one (always), or let "
                             "it happen (never)."}

    def options(self, chosen: Mapping[str, Any]) -> dict[str, Any]:
        """Every option a new game is played under, recorded whole (``events.rules.RecordsOptions``)."""
        return new_game_options(chosen)

    def load_data(self, override: Mapping[str, Any] | None) -> Mapping[str, Any]:
        return load_data(override)

    def initial_state(self, config: GameConfig) -> State:
        data = config.data or load_data(None)
        cat = catalog(data)
        n = len(config.seats)
        if not self.min_seats <= n <= self.max_seats:
            raise InvalidAction(f"Nanty Narking is for 2 to 4 players, not {n}.")
        g = cat.game
        zeros = tuple(0 for _ in range(n))
        return State(cat=cat, names=tuple(s.name for s in config.seats), variant=variant(config.options),
                     players=tuple(Player() for _ in range(n)), spots=tuple(Spot(agents=zeros) for _ in cat.area_ids),
                     bank=g["bank"], grenadiers=g["grenadiers"], citizens=g["citizens"],
                     grenadiers_disable=grenadier_rule(config.options, bool(g["grenadiers_disable_powers"])),
                     readings=readings(config.options))

    def setup(self, config: GameConfig, rng: Rng) -> list[NewEvent]:
        state = self.initial_state(config)
        ctx = Ctx(state, rng)
        cat = state.cat
        n = state.n
        piles = [rng.shuffle(sorted(c.id for c in cat.cards.values() if c.border == b)) for b in ("first", "second")]
        if not cat.game["first_border_on_top"]:
            piles.reverse()
        ctx.emit("DeckShuffled", {"order": piles[0] + piles[1]}, server=True)
        ctx.emit("EventsShuffled", {"order": rng.shuffle(sorted(cat.events))}, server=True)
        people = rng.shuffle(sorted(p["id"] for p in cat.personalities[state.variant]))
        for seat in range(n):
            ctx.emit("PersonalityDealt", {"seat": seat, "personality": people[seat]}, to=seat, reveals=True)
        ctx.emit("PersonalitiesDealt", {"count": n})
        ctx.emit("PersonalitiesSetAside", {"personalities": sorted(people[n:])}, server=True)
        for seat in range(n):
            ctx.emit("MoneyMoved", {"from": BANK, "to": seat, "amount": cat.game["start_money"], "why": "setup"})
        for area in cat.area_ids:
            if cat.areas[area].start:
                for seat in range(n):
                    place_agent(ctx, seat, area, "setup")
        for seat in range(n):
            draw(ctx, seat, cat.game["hand_size"])
        try:
            engine.start_turn(ctx, rng.randint(0, n - 1))
            ctx.commit()
        except Stop:   # pragma: no cover - no personality is met at the start
            pass
        return ctx.events

    def position(self, state: State) -> Mapping[str, Any]:
        """The whole position in the game's own words (``docs/nanty-positions.md``)."""
        return position(state)

    def setup_from(self, config: GameConfig, position: Mapping[str, Any], rng: Rng) -> list[NewEvent]:
        """The first events of a game begun from ``position``: the decks and the personalities set aside for the
        server, each personality and hand to its holder, the table to everyone. Nothing is drawn.

        :raises InvalidAction: naming the field that is not a position of this game, or a position where nobody
            could act.
        """
        state = self.initial_state(config)
        events = setup_events(config, state, position)
        after = state
        for event in events:
            after = apply(after, event.type, event.payload)
        who = engine.acting(after)
        if who is None or not engine.legal_actions(after, who[0]):
            raise InvalidAction("The position's turn: nobody could act in it (a question that has no answer?).")
        return events

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
        return final(state) if state.phase == "over" else None

    def parse(self, state: State, text: str) -> dict[str, Any]:
        from pbem.games.nanty.commands import parse_command
        return parse_command(state, text)

    def format(self, state: State, action: Mapping[str, Any]) -> str:
        from pbem.games.nanty.commands import format_action
        return format_action(state, action)

    def describe(self, event: Event, seat: int | None) -> str:
        from pbem.games.nanty.describe import describe
        return describe(event, seat)

    def repeats(self, event: Event, seat: int | None) -> bool:
        """Whether the event's line, for ``seat``, repeats another line of the same command (the log says it once)."""
        from pbem.games.nanty.describe import repeats
        return repeats(event, seat)


RULES = NantyRules()
