"""Reading a position back (``docs/emerald-positions.md``): every field checked like data, then the game's first
events, each hidden as a deal's would be.

A refused position raises ``InvalidAction`` naming the field (``players[1].hand``, ``cities.Paris.agents``). The
events: the Game Card spaces and the box (server only), the face-up cards, each identity to its player, each deck
(server only) and hand (to its player), what Vladimir Burtsev showed (to the looker), Change of Heart and reveals,
and ``emerald.PositionSet`` with everything public.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from events.envelope import NewEvent, Visibility
from events.rules import GameConfig, InvalidAction
from pbem.games.emerald.data import Catalog
from pbem.games.emerald.position import EFFECTS, POINTS, STEPS, THEN
from pbem.games.emerald.state import LOYALIST, RESTORATIONIST, State

TOP = {"turn", "first_player", "playing", "actions_done", "setup_placements", "tracks", "zombies_in_supply",
       "sanity_tokens_in_stock", "zombie_and_vampire_cards_out", "out_of_the_game", "in_the_box", "step",
       "waiting_for", "placing_agents", "players", "cities"}
PLAYER = {"seat", "name", "identity", "change_of_heart", "revealed", "sanity", "hand", "deck", "discard",
          "beside_identity", "agents_in_stock", "cubes_in_stock", "cubes_in_limbo", "points", "assassinations",
          "mi_go_agents", "mi_go_since_turn", "yog_sothoth_agents", "black_hand", "royalty_hidden",
          "identities_seen"}
OPTIONAL_PLAYER = {"mi_go_since_turn"}
CITY = {"cards", "royalty", "cubes", "agents", "zombies"}
IDENTITIES = (LOYALIST, RESTORATIONIST)


def _words(table: Mapping[str, str]) -> dict[str, str]:
    return {words: key for key, words in table.items()}


class Reader:
    """Checks one position against a game's catalog and seats; each check names the field it reads."""

    def __init__(self, state: State) -> None:
        self.s = state
        self.cat: Catalog = state.cat
        self.n = state.n
        self.cities = {name.casefold(): cid for cid, name in self.cat.city_names.items()}

    @staticmethod
    def fail(where: str, what: str) -> InvalidAction:
        return InvalidAction(f"position: {where}: {what}")

    def table(self, value: Any, where: str, known: set[str], optional: set[str] | None = None) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, "must be a table")
        for key in value:
            if key not in known:
                raise self.fail(f"{where}.{key}" if where else str(key), f"unknown field (known: {', '.join(sorted(known))})")
        missing = sorted(known - (optional or set()) - set(value))
        if missing:
            raise self.fail(f"{where}.{missing[0]}" if where else missing[0], "missing")
        return value

    def number(self, value: Any, where: str, lo: int = 0, hi: int = 10_000) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"must be a whole number, not {value!r}")
        if not lo <= value <= hi:
            raise self.fail(where, f"must be between {lo} and {hi}, not {value}")
        return value

    def flag(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"must be true or false, not {value!r}")
        return value

    def seat(self, value: Any, where: str) -> int:
        return self.number(value, where, 0, self.n - 1)

    def seats(self, value: Any, where: str, width: int | None = None) -> list[int]:
        items = self.listed(value, where, width)
        return [self.seat(v, f"{where}[{i}]") for i, v in enumerate(items)]

    def listed(self, value: Any, where: str, width: int | None = None) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, "must be a list")
        if width is not None and len(value) != width:
            raise self.fail(where, f"must hold {width} entries (one for each player, in seat order), not {len(value)}")
        return value

    def counts(self, value: Any, where: str) -> list[int]:
        return [self.number(v, f"{where}[{i}]", 0, 100) for i, v in enumerate(self.listed(value, where, self.n))]

    def cards(self, value: Any, where: str) -> list[int]:
        out = []
        for i, card in enumerate(self.listed(value, where)):
            self.number(card, f"{where}[{i}]", 1, 10_000)
            if card not in self.cat.cards:
                raise self.fail(f"{where}[{i}]", f"there is no card {card}")
            out.append(card)
        return out

    def city(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or value.casefold() not in self.cities:
            raise self.fail(where, f"unknown city {value!r} (cities: {', '.join(self.cat.city_names.values())})")
        return self.cities[value.casefold()]

    def word(self, value: Any, where: str, words: Mapping[str, str]) -> str:
        if value not in words:
            raise self.fail(where, f"one of {', '.join(repr(w) for w in words)}, not {value!r}")
        return words[value]


def read(state: State, position: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The public part (``emerald.PositionSet``'s payload) and each player's hidden part, checked."""
    r = Reader(state)
    g = r.cat.game
    top = r.table(position, "", TOP, {"setup_placements", "step", "waiting_for", "placing_agents"})
    queue = r.seats(top.get("setup_placements", []), "setup_placements")
    turn = r.number(top["turn"], "turn", 0 if queue else 1)
    tracks = r.table(top["tracks"], "tracks", {RESTORATIONIST, LOYALIST})
    public: dict[str, Any] = {
        "phase": "setup" if queue else "play", "turn": turn, "first": r.seat(top["first_player"], "first_player"),
        "active": r.seat(top["playing"], "playing"), "actions_done": r.number(top["actions_done"], "actions_done", 0, 2),
        "setup_queue": queue,
        "resto_track": r.number(tracks[RESTORATIONIST], f"tracks.{RESTORATIONIST}", 0, g["track_max"]),
        "loyal_track": r.number(tracks[LOYALIST], f"tracks.{LOYALIST}", 0, g["track_max"]),
        "zombie_supply": r.number(top["zombies_in_supply"], "zombies_in_supply", 0, g["zombies"]),
        "sanity_stock": r.number(top["sanity_tokens_in_stock"], "sanity_tokens_in_stock"),
        "leopold": r.flag(top["zombie_and_vampire_cards_out"], "zombie_and_vampire_cards_out"),
        "removed": r.cards(top["out_of_the_game"], "out_of_the_game"),
        "boxed": r.cards(top["in_the_box"], "in_the_box"),
    }
    if "step" in top:
        public["step"] = _step(r, top["step"])
    if "waiting_for" in top:
        public["interrupt"] = _interrupt(r, top["waiting_for"])
    public["owed"] = [[r.seat(r.table(e, f"placing_agents[{i}]", {"seat", "agents"})["seat"], f"placing_agents[{i}].seat"),
                       r.number(e["agents"], f"placing_agents[{i}].agents", 1, g["agents"])]
                      for i, e in enumerate(r.listed(top.get("placing_agents", []), "placing_agents"))]
    players = r.listed(top["players"], "players", r.n)
    hidden = []
    public["players"] = []
    for seat, entry in enumerate(players):
        shown, secret = _player(r, seat, entry)
        public["players"].append(shown)
        hidden.append(secret)
    cities = r.table(top["cities"], "cities", set(r.cat.city_names.values()))
    public["cities"] = {}
    for name, entry in cities.items():
        public["cities"][r.city(name, f"cities.{name}")] = _city(r, name, entry)
    _check_whole(r, public, hidden)
    return public, hidden


def _step(r: Reader, value: Any) -> dict[str, Any]:
    raw = r.table(value, "step", {"doing", "left", "taken", "cities"}, {"left", "taken", "cities"})
    name = r.word(raw["doing"], "step.doing", _words(STEPS))
    need = {"move": {"left"}, "retrieve": {"left"}, "zombie_place": {"left"}, "yog": {"taken"},
            "zombie_remove": {"cities"}}.get(name, set())
    extra = sorted(set(raw) - {"doing"} - need)
    if extra or need - set(raw):
        raise r.fail(f"step.{(extra or sorted(need - set(raw)))[0]}",
                     f"{'not a field of' if extra else 'needed by'} the step {raw['doing']!r}")
    step: dict[str, Any] = {"step": name}
    if "left" in need:
        step["left"] = r.number(raw["left"], "step.left", 1, 100)
    if "taken" in need:
        step["taken"] = r.number(raw["taken"], "step.taken", 0, 100)
    if "cities" in need:
        cities = r.listed(raw["cities"], "step.cities")
        if not cities:
            raise r.fail("step.cities", "must name at least one city")
        step["cities"] = [r.city(c, f"step.cities[{i}]") for i, c in enumerate(cities)]
    return step


def _interrupt(r: Reader, value: Any) -> dict[str, Any]:
    where = "waiting_for"
    raw = r.table(value, where, {"asked", "by", "effect", "city", "target", "card", "still_to_ask", "then",
                                 "zombie_cities_left"}, {"target", "card", "still_to_ask", "zombie_cities_left"})
    kind = r.word(raw["effect"], f"{where}.effect", _words(EFFECTS))
    effect: dict[str, Any] = {"type": kind, "seat": r.seat(raw["by"], f"{where}.by"),
                              "city": r.city(raw["city"], f"{where}.city")}
    need = {"cthulhu": {"still_to_ask"}, "zombie": {"target"}}.get(kind, {"target", "card"})
    then = r.word(raw["then"], f"{where}.then", _words(THEN))
    need = need | ({"zombie_cities_left"} if then == "zombies" else set())
    given = set(raw) - {"asked", "by", "effect", "city", "then"}
    if given != need:
        field = sorted(given ^ need)[0]
        raise r.fail(f"{where}.{field}", f"{'needed' if field in need else 'not a field'} for {raw['effect']!r}"
                                         f" then {raw['then']!r}")
    if "target" in need:
        effect["victim"] = r.seat(raw["target"], f"{where}.target")
    if "card" in need:
        effect["card"] = r.cards([raw["card"]], f"{where}.card")[0]
    if "still_to_ask" in need:
        effect["queue"] = r.seats(raw["still_to_ask"], f"{where}.still_to_ask")
    cont: dict[str, Any] = {"then": then}
    if then == "zombies":
        cont["cities"] = [r.city(c, f"{where}.zombie_cities_left[{i}]")
                          for i, c in enumerate(r.listed(raw["zombie_cities_left"], f"{where}.zombie_cities_left"))]
    return {"seat": r.seat(raw["asked"], f"{where}.asked"), "effect": effect, "cont": cont}


def _player(r: Reader, seat: int, value: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    where = f"players[{seat}]"
    raw = r.table(value, where, PLAYER, OPTIONAL_PLAYER)
    if raw["seat"] != seat:
        raise r.fail(f"{where}.seat", f"the players are listed in seat order: this is seat {seat}")
    if not isinstance(raw["name"], str):
        raise r.fail(f"{where}.name", "must be a name")
    g = r.cat.game
    points = r.table(raw["points"], f"{where}.points", {"neutral", RESTORATIONIST, LOYALIST})
    kills = []
    for i, k in enumerate(r.listed(raw["assassinations"], f"{where}.assassinations")):
        at = f"{where}.assassinations[{i}]"
        k = r.table(k, at, {"card", "agent_of", "points", "kind"})
        if k["agent_of"] == seat:
            raise r.fail(f"{at}.agent_of", "a player never assassinates their own agent")
        kills.append({"card": r.cards([k["card"]], f"{at}.card")[0], "victim": r.seat(k["agent_of"], f"{at}.agent_of"),
                      "vp": r.number(k["points"], f"{at}.points", 0, 100),
                      "type": r.word(k["kind"], f"{at}.kind", _words(POINTS))})
    migo = r.number(raw["mi_go_agents"], f"{where}.mi_go_agents", 0, g["agents"])
    if bool(migo) != ("mi_go_since_turn" in raw):
        raise r.fail(f"{where}.mi_go_since_turn", "given when, and only when, there are agents on Mi-Go")
    seen = []
    for i, e in enumerate(r.listed(raw["identities_seen"], f"{where}.identities_seen")):
        e = r.table(e, f"{where}.identities_seen[{i}]", {"seat", "identity"})
        if e["seat"] == seat:
            raise r.fail(f"{where}.identities_seen[{i}].seat", "Vladimir Burtsev looks at another player's card")
        seen.append((r.seat(e["seat"], f"{where}.identities_seen[{i}].seat"),
                     r.word(e["identity"], f"{where}.identities_seen[{i}].identity", {w: w for w in IDENTITIES})))
    shown = {
        "stock_agents": r.number(raw["agents_in_stock"], f"{where}.agents_in_stock", 0, g["agents"]),
        "stock_cubes": r.number(raw["cubes_in_stock"], f"{where}.cubes_in_stock", 0, g["cubes"]),
        "limbo": r.number(raw["cubes_in_limbo"], f"{where}.cubes_in_limbo", 0, g["cubes"]),
        "sanity": r.number(raw["sanity"], f"{where}.sanity", 0, g["sanity_tokens"]),
        "vp_neutral": r.number(points["neutral"], f"{where}.points.neutral", -1000, 1000),
        "vp_resto": r.number(points[RESTORATIONIST], f"{where}.points.{RESTORATIONIST}", -1000, 1000),
        "vp_loyal": r.number(points[LOYALIST], f"{where}.points.{LOYALIST}", -1000, 1000),
        "kills": kills, "migo": migo,
        "migo_turn": r.number(raw["mi_go_since_turn"], f"{where}.mi_go_since_turn", 0) if migo else -1,
        "yog": r.number(raw["yog_sothoth_agents"], f"{where}.yog_sothoth_agents", 0, g["agents"]),
        "black_hand": r.flag(raw["black_hand"], f"{where}.black_hand"),
        "kept": r.cards(raw["beside_identity"], f"{where}.beside_identity"),
        "hidden_royalty": r.cards(raw["royalty_hidden"], f"{where}.royalty_hidden"),
        "discard": r.cards(raw["discard"], f"{where}.discard"),
    }
    secret = {"identity": r.word(raw["identity"], f"{where}.identity", {w: w for w in IDENTITIES}),
              "flipped": r.flag(raw["change_of_heart"], f"{where}.change_of_heart"),
              "revealed": r.flag(raw["revealed"], f"{where}.revealed"),
              "hand": r.cards(raw["hand"], f"{where}.hand"), "deck": r.cards(raw["deck"], f"{where}.deck"),
              "seen": seen}
    return shown, secret


def _city(r: Reader, name: str, value: Any) -> dict[str, Any]:
    where = f"cities.{name}"
    raw = r.table(value, where, CITY, {"royalty"})
    cid = r.city(name, where)
    stack = r.cards(raw["cards"], f"{where}.cards")
    for i, card in enumerate(stack):
        c = r.cat.cards[card]
        if c.kind in ("city", "royalty") and c.city != cid:
            raise r.fail(f"{where}.cards[{i}]", f"{c.name} belongs to the Game Card space of "
                                                f"{r.cat.city_names[c.city]}")
        if c.kind == "start":
            raise r.fail(f"{where}.cards[{i}]", "a starting card is never on the board")
    if stack and r.cat.cards[stack[0]].kind == "royalty":
        raise r.fail(f"{where}.cards[0]", "a face-up Royalty card slides to the Royalty slot")
    royalty = 0
    if "royalty" in raw:
        royalty = r.cards([raw["royalty"]], f"{where}.royalty")[0]
        if r.cat.royalty_card[cid] != royalty:
            raise r.fail(f"{where}.royalty", f"the Royalty slot of {name} holds only its own Royalty card, "
                                             f"{r.cat.cards[r.cat.royalty_card[cid]].label}")
    return {"stack": stack, "royalty": royalty, "cubes": r.counts(raw["cubes"], f"{where}.cubes"),
            "agents": r.counts(raw["agents"], f"{where}.agents"),
            "zombies": r.counts(raw["zombies"], f"{where}.zombies")}


def _check_whole(r: Reader, public: dict[str, Any], hidden: list[dict[str, Any]]) -> None:
    """What holds across fields: every card once, pieces conserved, a game not over, a decision that fits."""
    cat, g, n = r.cat, r.cat.game, r.n
    places: list[tuple[int, str]] = [(c, "out_of_the_game") for c in public["removed"]]
    places += [(c, "in_the_box") for c in public["boxed"]]
    for card in public["boxed"]:
        if cat.cards[card].kind == "start":
            raise r.fail("in_the_box", f"card {card} is a starting card: it is never boxed")
    for name, cid in ((cat.city_names[cid], cid) for cid in cat.city_ids):
        city = public["cities"][cid]
        places += [(c, f"cities.{name}") for c in city["stack"] + ([city["royalty"]] if city["royalty"] else [])]
    for seat in range(n):
        shown, secret = public["players"][seat], hidden[seat]
        for pile, cards in (("hand", secret["hand"]), ("deck", secret["deck"]), ("discard", shown["discard"]),
                            ("beside_identity", shown["kept"])):
            for card in cards:
                owner = cat.cards[card].seat
                if owner >= 0 and owner != seat:
                    raise r.fail(f"players[{seat}].{pile}", f"card {card} is a starting card of seat {owner}")
                places.append((card, f"players[{seat}].{pile}"))
        for field, cards in (("royalty_hidden", shown["hidden_royalty"]),
                             ("assassinations", [k["card"] for k in shown["kills"]])):
            for card in cards:
                if card not in shown["kept"] or field == "royalty_hidden" and cat.cards[card].kind != "royalty":
                    raise r.fail(f"players[{seat}].{field}", f"card {card} is not a "
                                 f"{'Royalty card ' if field == 'royalty_hidden' else 'card '}beside their identity")
    counted = Counter(card for card, _ in places)
    twice = sorted(c for c, k in counted.items() if k > 1)
    if twice:
        where = [w for c, w in places if c == twice[0]]
        raise r.fail(where[1], f"card {twice[0]} is in more than one place (also in {where[0]})")
    expected = {cid for cid, c in cat.cards.items() if c.kind != "start" or c.seat < n}
    if set(counted) != expected:
        stray = sorted(set(counted) - expected)
        if stray:
            raise r.fail(next(w for c, w in places if c == stray[0]), f"card {stray[0]} is not in a {n}-player game")
        raise r.fail("cards", f"missing from every place: {', '.join(map(str, sorted(expected - set(counted))))}")
    trophies = Counter(k["victim"] for p in public["players"] for k in p["kills"])
    for seat, p in enumerate(public["players"]):
        cubes = p["stock_cubes"] + p["limbo"] + sum(c["cubes"][seat] for c in public["cities"].values())
        if cubes != g["cubes"]:
            raise r.fail(f"players[{seat}].cubes_in_stock", f"stock, Limbo and cities hold {cubes} cubes, not "
                                                           f"{g['cubes']}")
        agents = p["stock_agents"] + p["migo"] + p["yog"] + trophies[seat] + \
            sum(c["agents"][seat] for c in public["cities"].values())
        if agents != g["agents"]:
            raise r.fail(f"players[{seat}].agents_in_stock", f"stock, cities, Mi-Go, Yog-Sothoth and the "
                                                            f"assassins' cards hold {agents} agents, not {g['agents']}")
    zombies = sum(sum(c["zombies"]) for c in public["cities"].values())
    if public["leopold"] and zombies or not public["leopold"] and zombies + public["zombie_supply"] != g["zombies"]:
        raise r.fail("zombies_in_supply", f"with {zombies} on the board the supply holds "
                                          f"{g['zombies'] - zombies if not public['leopold'] else 'no'} zombies"
                                          + (" (the Society of Leopold removed them for good)" if public["leopold"] else ""))
    if 3 * n <= g["sanity_stock"]:
        total = sum(p["sanity"] for p in public["players"]) + public["sanity_stock"]
        if total != g["sanity_stock"]:
            raise r.fail("sanity_tokens_in_stock", f"the players and the stock hold {total} Sanity tokens, not "
                                                   f"{g['sanity_stock']}")
    identities = Counter(h["identity"] for h in hidden)
    for side, count in identities.items():
        if count > g["identities"][side]:
            raise r.fail("players", f"{count} {side} identity cards, and the game has {g['identities'][side]}")
    _check_live(r, public, hidden)


def _check_live(r: Reader, public: dict[str, Any], hidden: list[dict[str, Any]]) -> None:
    """A game that is not over, with a decision that fits whose turn it is."""
    g, n = r.cat.game, r.n
    for seat, h in enumerate(hidden):
        side = h["identity"] if not h["flipped"] else (RESTORATIONIST if h["identity"] == LOYALIST else LOYALIST)
        if h["revealed"] and side == RESTORATIONIST:
            raise r.fail(f"players[{seat}].revealed", "a revealed Restorationist ends the game")
        p = public["players"][seat]
        total = p["vp_neutral"] + p["vp_resto"] + p["vp_loyal"] + sum(k["vp"] for k in p["kills"]) + \
            abs(public["resto_track"] - public["loyal_track"])
        if total >= g["victory_target"][str(n)]:
            raise r.fail(f"players[{seat}].points", f"{total} points reach the target: the game would be over")
    if g["track_max"] in (public["resto_track"], public["loyal_track"]):
        raise r.fail("tracks", "a marker at the end of its track ends the game")
    step = public.get("step", {})
    if public["actions_done"] == 2 and step.get("step") != "end_of_turn":
        raise r.fail("actions_done", "after two actions only the end of turn is left (step.doing = \"end of turn\")")
    if public["phase"] == "setup" and (step or "interrupt" in public or public["actions_done"]):
        raise r.fail("setup_placements", "while agents are placed for setup, no action is going on")
    window = public.get("interrupt")
    if window and window["effect"]["seat"] != public["active"]:
        raise r.fail("waiting_for.by", "the player who acts is the one whose turn it is (playing)")


def setup_from(state: State, config: GameConfig, position: Mapping[str, Any]) -> list[NewEvent]:
    """The first events of a game begun from ``position`` (checked), given its initial state."""
    public, hidden = read(state, position)
    events: list[NewEvent] = []

    def emit(name: str, payload: Mapping[str, Any], vis: Visibility = Visibility.public(), reveals: bool = False) -> None:
        events.append(NewEvent("emerald." + name, dict(payload), vis, reveals))

    cities = public["cities"]
    emit("StacksDealt", {"stacks": {cid: c["stack"] for cid, c in cities.items()}}, Visibility.server())
    emit("CardsBoxed", {"cards": public["boxed"]}, Visibility.server())
    for cid, c in cities.items():
        if c["stack"]:
            emit("CardRevealed", {"city": cid, "card": c["stack"][0]}, reveals=True)
    for seat, h in enumerate(hidden):
        emit("IdentityDealt", {"seat": seat, "identity": h["identity"]}, Visibility.to(seat), reveals=True)
    emit("IdentitiesDealt", {"count": len(hidden)})
    for seat, h in enumerate(hidden):
        if h["deck"]:
            emit("DeckShuffled", {"seat": seat, "order": h["deck"]}, Visibility.server())
        if h["hand"]:
            emit("CardsDrawn", {"seat": seat, "cards": h["hand"]}, Visibility.to(seat), reveals=True)
            emit("CardsDrawnCount", {"seat": seat, "count": len(h["hand"])})
        for target, identity in h["seen"]:
            emit("IdentityLooked", {"seat": seat, "target": target})
            emit("IdentitySeen", {"seat": seat, "target": target, "identity": identity}, Visibility.to(seat),
                 reveals=True)
    for seat, h in enumerate(hidden):
        if h["flipped"]:
            emit("SideChanged", {"seat": seat})
        if h["revealed"]:
            side = h["identity"] if not h["flipped"] else (RESTORATIONIST if h["identity"] == LOYALIST else LOYALIST)
            emit("IdentityRevealed", {"seat": seat, "identity": h["identity"], "side": side, "why": "position"},
                 reveals=True)
    shown = {k: v for k, v in public.items() if k not in ("cities", "boxed")}   # the box and stacks are hidden
    emit("PositionSet", shown | {"cities": {cid: {k: v for k, v in c.items() if k != "stack"}
                                            for cid, c in cities.items()}})
    return events
