"""A Study in Emerald as a player reads it: the board, the hand as cards, the table, in the game's words.

Built only from a view (``view.build_view``), never from the state; see ``pbem.games.presentation``.
A card is named by the number the commands accept (``using 310``): the card's ``id`` in the view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from pbem.games.drawing import WIDTH, text
from pbem.games.drawing import svg as drawing
from pbem.games.presentation import LINE_WIDTH, wrap_text

COLOURS = ("#b03a2e", "#1f5fa8", "#276b2b", "#7d3c98", "#8f5600")  # each at least 4.5:1 on the board's #f7f4ec
COLOUR_NAMES = ("red", "blue", "green", "purple", "orange")

SYMBOLS = {  # symbol -> (one, many) words; "{n}" is the count
    "cube": ("place a cube", "place {n} cubes"),
    "claim": ("claim a card", "claim {n} cards"),
    "retrieve": ("retrieve a cube", "retrieve {n} cubes"),
    "move": ("move an agent", "move {n} agents"),
    "assassinate": ("assassinate", "assassinate"),
    "bomb": ("bomb 1", "bomb {n}"),
    "resto": ("Restorationist marker +1", "Restorationist marker +{n}"),
    "loyal": ("Loyalist marker +1", "Loyalist marker +{n}"),
    "insanity": ("sanity roll when claimed", "sanity roll when claimed"),
    "agent": ("1 agent when claimed", "{n} agents when claimed"),
    "vp_neutral": ("1 VP", "{n} VP"),
    "vp_resto": ("1 Restorationist VP", "{n} Restorationist VP"),
    "vp_loyal": ("1 Loyalist VP", "{n} Loyalist VP"),
    "kill_vp": ("assassination box 1 VP", "assassination box {n} VP"),
}

EFFECTS = {
    "black_hand": "royalty you assassinated score 2 more Restorationist VP each",
    "change_of_heart": "you change sides",
    "cthulhu": "eliminate the agents in a city",
    "draw_two": "draw two cards",
    "duchess": "claim the top card of a city",
    "fenians": "as a bomb, each of your agents in the city counts twice",
    "freemasons": "discard any cards from your hand, then draw that many plus one",
    "mrs_hudson": "discard any cards from your hand, then draw that many plus one",
    "hide_royalty": "hide the Royalty card of a city",
    "holy_brotherhood": "one cube back from Limbo for each of your agents on the board",
    "infernal_machine": "a bomb",
    "lestrade": "all cubes of one player in a city go back to their stock",
    "irene_adler": "replace an agent of another player in a city with one of yours",
    "golovinski": "the Loyalist marker moves 2",
    "mi_go": "take your agents off cities onto Mi-Go",
    "okhrana": "two cubes of other players go to Limbo",
    "peoples_will": "all your cubes in Limbo go back to your stock",
    "pinkerton": "place an agent in a city",
    "sherlock": "stop an assassination of one of your agents",
    "shoggoth": "eliminate an agent of another player in a city",
    "freud": "regain your sanity; the Restorationist marker moves 2",
    "leopold": "zombies, and the Zombie and Vampire cards, leave the game",
    "terrors": "a player rolls the sanity die",
    "third_section": "remove the top card of a city",
    "vampires": "replace an agent of another player in a city with one of yours",
    "burtsev": "look at a player's Secret Identity card",
    "yog_sothoth": "take agents from cities",
    "zombies": "your zombies spread and attack",
}

STEPS = {
    "end_of_turn": "Your two actions are done: play free actions, or end your turn (done).",
    "move": "Go on with your action: move your agents.",
    "retrieve": "Go on with your action: take your cubes back.",
    "assassinate_more": "Go on with your action: assassinate again, or stop (done).",
    "yog": "Go on with Yog-Sothoth: take agents from cities, or stop (done).",
    "zombie_place": "Go on with Zombies: place your zombies.",
    "zombie_remove": "Go on with Zombies: remove zombies.",
}

SECTIONS = {"cities": "Cities", "royalty": "Royalty cards", "starting_cards": "Starting cards",
            "game_cards": "Game cards", "game": "Game settings", "sanity_die": "The sanity die"}
FIELDS = {"text_type": "kind of text", "text": "text effect", "copies": "number of copies", "vp": "VP",
          "faces": "faces"}


def _words(key: Any) -> str:
    return str(key).replace("_", " ")


def _count(n: Any, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def card(face: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A card as a player reads it: the number commands accept, the name, what it does."""
    if not face:
        return None
    does = []
    for sym, n in (face.get("symbols") or {}).items():
        if sym == "kill_vp_type" or not n:
            continue
        one, many = SYMBOLS.get(sym, (_words(sym), _words(sym) + " {n}"))
        does.append((one if n == 1 else many).format(n=n))
    text = ""
    if face.get("text"):
        effect = EFFECTS.get(str(face["text"]), _words(face["text"]))
        text = f"{face.get('text_type') or 'text'}: {effect}" if face.get("text_type") else effect
    out: dict[str, Any] = {"number": face.get("id"), "name": str(face.get("name", "?")),
                           "does": ", ".join(does), "text": text}
    if face.get("kind") == "royalty":
        out["does"] = f"defence {face.get('defence', '?')}, {face.get('vp', '?')} VP"
    if face.get("kind") == "city":
        out["does"] = ("city card: " + out["does"]) if out["does"] else "city card"
    return out


def _label(c: Mapping[str, Any] | None) -> str:
    return f"{c['name']} ({c['number']})" if c else "none"


def _turn_words(view: Mapping[str, Any], names: Sequence[str]) -> str:
    phase = view.get("phase")
    if phase == "over":
        return "The game is over."
    if phase == "setup":
        return "Setup: the players place their first agents."
    turn, active = view.get("turn") or 1, view.get("active")
    who = names[active] if isinstance(active, int) and 0 <= active < len(names) else "?"
    done = view.get("actions_done") or 0
    doing = f"action {done + 1} of 2" if done < 2 else "both actions done"
    return f"Turn {turn}: {who} to play, {doing}."


def _asked(view: Mapping[str, Any]) -> str | None:
    prompt = view.get("prompt")
    if not prompt:
        return None
    step = view.get("step") or {}
    name = step.get("step") if isinstance(step, Mapping) else None
    if prompt.get("kind") == "turn" and name:
        return STEPS.get(str(name), "Go on with your action.")
    return str(prompt.get("text", ""))


def _side(entry: Mapping[str, Any]) -> str:
    if not entry.get("revealed") and not entry.get("identity_card"):
        return "secret"
    side = entry.get("side") or entry.get("identity_card") or "revealed"
    return _words(side).capitalize()


class EmeraldPresentation:
    name = "emerald"
    short_name = "Emerald"
    web_template = "web/games/emerald.html"
    mail_html_template = "mail/games/emerald.html"

    def scene(self, view: Mapping[str, Any]) -> dict[str, Any]:
        players = list(view.get("players") or [])
        names = [str(p.get("name", f"seat {i}")) for i, p in enumerate(players)]
        seat = view.get("seat")
        cities = []
        for c in view.get("cities") or []:
            agents, cubes, zombies = (list(c.get(k) or []) for k in ("agents", "cubes", "zombies"))
            here = []
            for i, name in enumerate(names):
                a = agents[i] if i < len(agents) else 0
                u = cubes[i] if i < len(cubes) else 0
                z = zombies[i] if i < len(zombies) else 0
                if a or u or z:
                    here.append({"seat": i, "name": name, "colour": COLOURS[i % 5], "agents": a, "cubes": u,
                                 "zombies": z})
            cities.append({"key": f"city:{c.get('id')}", "name": str(c.get("name", "?")), "defence": c.get("defence", "?"), "players": here,
                           "top": card(c.get("top")), "royalty": card(c.get("royalty")),
                           "cards_left": c.get("cards_left", 0)})
        table = []
        for i, p in enumerate(players):
            table.append({
                "seat": i, "name": names[i], "colour": COLOURS[i % 5], "colour_name": COLOUR_NAMES[i % 5],
                "you": seat is not None and i == seat, "vp": p.get("vp", 0),
                "agents": p.get("agents_in_stock", 0), "cubes": p.get("cubes_in_stock", 0),
                "limbo": p.get("limbo", 0), "sanity": p.get("sanity", 0), "hand": p.get("hand_size", 0),
                "deck": p.get("deck_size", 0), "side": _side(p), "kills": len(p.get("kills") or []),
                "mi_go": p.get("mi_go_agents", 0), "yog": p.get("yog_sothoth_agents", 0),
                "kept": [card(k) for k in p.get("kept") or []],
                "change_of_heart": bool(p.get("change_of_heart"))})
        tracks = view.get("tracks") or {}
        you = view.get("you")
        mine = None
        if you:
            seen = [f"{names[s['seat']] if s.get('seat', -1) < len(names) else '?'} is "
                    f"{_words(s.get('identity_card', '?')).capitalize()}" for s in you.get("seen") or []]
            kinds = you.get("vp_by_type") or {}
            mine = {"identity": _words(you.get("identity_card") or "not dealt yet").capitalize(),
                    "side": _words(you.get("side") or "").capitalize(),
                    "hand": [card(c) for c in you.get("hand") or []],
                    "deck": you.get("deck_size", 0), "discard": [card(c) for c in you.get("discard") or []],
                    "vp_by_kind": ", ".join(f"{_words(k)} {n}" for k, n in kinds.items()),
                    "seen": seen}
        return {
            "game": "emerald", "over": view.get("phase") == "over", "turn": view.get("turn"),
            "turn_words": _turn_words(view, names), "asked": _asked(view),
            "cities": cities, "players": table, "you": mine,
            "tracks": {"resto": tracks.get("restorationist", 0), "loyal": tracks.get("loyalist", 0),
                       "max": tracks.get("max", 0)},
            "victory_target": view.get("victory_target"),
            "supply": f"{view.get('zombie_supply', 0)} zombies in the supply, "
                      f"{view.get('sanity_stock', 0)} sanity tokens in the stock",
            "removed": [card(c) for c in view.get("removed") or []],
            "uses_assumed_data": bool(view.get("uses_assumed_data") or view.get("assumed")),
        }

    def turn_label(self, view: Mapping[str, Any]) -> str | None:
        """The turn in a few words for a mail's subject: ``turn 6, action 2 of 2``."""
        phase = view.get("phase")
        if phase == "over":
            return None
        if phase == "setup":
            return "setup"
        done = view.get("actions_done") or 0
        return f"turn {view.get('turn') or 1}, " + (f"action {done + 1} of 2" if done < 2 else "both actions done")

    # ---- text ------------------------------------------------------------------------------

    def text_board(self, scene: Mapping[str, Any]) -> list[str]:
        lines = [scene["turn_words"]]
        t = scene["tracks"]
        lines.append(f"Tracks: Restorationist {t['resto']}, Loyalist {t['loyal']} (of {t['max']})"
                     + (f"; victory at {scene['victory_target']} VP" if scene.get("victory_target") else ""))
        lines.append("")
        lines.append("CITIES (a = agents, c = cubes, z = zombies; top: the card to claim)")
        for c in scene["cities"]:
            head = f"{c['name']} (def {c['defence']})"
            who = " | ".join(f"{p['name'][:10]} " + " ".join(
                f"{n}{k}" for n, k in ((p["agents"], "a"), (p["cubes"], "c"), (p["zombies"], "z")) if n)
                for p in c["players"]) or "-"
            top = f"top: {_label(c['top'])}"
            if c.get("royalty"):
                top += f"; royalty: {_label(c['royalty'])}"
            lines += _fit(f"{head:<24}{who}", "  " + top)
        lines.append("")
        lines.append("PLAYERS")
        for p in scene["players"]:
            text = (f"{p['name'][:16]}{' (you)' if p['you'] else ''}: {p['vp']} VP; stock {p['agents']}a "
                    f"{p['cubes']}c; Limbo {p['limbo']}c; hand {p['hand']}; sanity {p['sanity']}; {p['side']}")
            if p["kept"]:
                text += "; kept: " + ", ".join(_label(k) for k in p["kept"])
            lines += wrap_text(text, "    ")
        you = scene.get("you")
        if you:
            lines.append("")
            lines += wrap_text(f"YOU: {you['identity']}" + (f" (now {you['side']})" if you["side"]
                                                        and you["side"] != you["identity"] else "")
                           + f"; deck {you['deck']}, discard {len(you['discard'])}"
                           + (f"; VP {you['vp_by_kind']}" if you["vp_by_kind"] else ""), "    ")
            if you["seen"]:
                lines += wrap_text("Identities you have seen: " + "; ".join(you["seen"]), "    ")
            lines.append("YOUR HAND (commands use the number on the left):")
            for c in you["hand"] or []:
                lines += wrap_text(f"{c['number']:>5}  {c['name']}: " + "; ".join(x for x in (c["does"], c["text"]) if x),
                               " " * 11)
            if not you["hand"]:
                lines.append("    (empty)")
        return [line.rstrip() for line in lines]

    # ---- SVG -------------------------------------------------------------------------------

    def svg(self, scene: Mapping[str, Any], links: Mapping[str, str] | None = None) -> str:
        """The two tracks, each marker on its space, readable on a phone (``pbem.games.drawing``); the cities are
        the page's cards (``templates/web/games/emerald.html``), each a link to its choices when in ``links``."""
        t = scene["tracks"]
        steps = max(1, int(t["max"] or 1))
        w = (WIDTH - 8) / (steps + 1)
        parts: list[str] = []
        for r, (label, value, colour) in enumerate((("Restorationist", t["resto"], "#7a2e1d"),
                                                     ("Loyalist", t["loyal"], "#1f4d3a"))):
            y = r * 50
            parts.append(text(4, y + 16, f"{label} track: {value} of {t['max']}", 13, "bold", colour, "start"))
            for i in range(steps + 1):
                on = i == value
                parts.append(f'<rect x="{4 + i * w:.1f}" y="{y + 24}" width="{w - 2:.1f}" height="18" rx="2" '
                             f'fill="{colour if on else "#ffffff"}" stroke="{colour}"/>')
        said = (f"The tracks: Restorationist {t['resto']}, Loyalist {t['loyal']}, of {t['max']}. "
                + str(scene["turn_words"]))
        return drawing(parts, 96, said, False, max_width=560)

    # ---- choices -------------------------------------------------------------------------

    def group(self, view: Mapping[str, Any],
              legal: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[tuple[str, str]]]]:
        """The legal actions by kind (claim, place cubes, ...), each said in words with card names."""
        said = _Sayer(view)
        groups: dict[str, list[tuple[str, str]]] = {}
        for entry in legal:
            action = entry.get("action") or {}
            kind = str(action.get("kind", ""))
            title = GROUPS.get(kind, "Other actions")
            groups.setdefault(title, []).append((str(entry["text"]), said.action(action, str(entry["text"]))))
        order = list(dict.fromkeys(GROUPS.values()))
        return sorted(groups.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))

    def part_of(self, view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, str] | None:
        """A long group by card, then target: ``("with Informer (301)", "1 cube in Berlin")``."""
        said = _Sayer(view)
        kind = action.get("kind")
        if kind == "place":
            return f"with {said.using(action.get('cards'))}", (f"{_count(action.get('count'), 'cube')} in "
                                                                f"{said.city(action.get('city'))}")
        if kind == "claim":
            return (f"with {said.using(action.get('cards'))}",
                    " and ".join(said.city(c) for c in action.get("cities") or []))
        if kind == "assassinate":
            card = said.card(action.get("card"))
            return f"with {card}", said.action(action, "").replace(f", with {card}", "")
        return None

    def touches(self, view: Mapping[str, Any], action: Mapping[str, Any]) -> list[str]:
        """The cities and cards an action is about (``city:paris``, ``card:310``): what a player clicks to find it."""
        keys = [f"city:{action[f]}" for f in ("city", "from", "to")
                if isinstance(action.get(f), str) and action.get(f) != "limbo"]
        keys += [f"city:{c}" for c in action.get("cities") or [] if isinstance(c, str)]
        for f in ("cards", "bombs", "resto", "loyal"):
            keys += [f"card:{n}" for n in action.get(f) or [] if isinstance(n, int)]
        if isinstance(action.get("card"), int):
            keys.append(f"card:{action['card']}")
        return keys

    def pick_name(self, view: Mapping[str, Any], key: str) -> str:
        kind, _, ident = key.partition(":")
        said = _Sayer(view)
        if kind == "card" and ident.isdigit():
            return said.card(int(ident))
        return said.city(ident)

    # ---- assumed data ----------------------------------------------------------------------

    def assumed(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        groups: dict[str, dict[str, list[str]]] = {}
        for key in view.get("assumed") or []:
            section, _, rest = str(key).partition(".")
            record, _, field = rest.rpartition(".")
            title = SECTIONS.get(section, _words(section).capitalize())
            what = _record_name(section, record) if record else _words(field).capitalize()
            fields = groups.setdefault(title, {}).setdefault(what, [])
            if record:
                fields.append(FIELDS.get(field, _words(field)))
        return [{"title": title, "items": [{"what": what, "fields": fields} for what, fields in items.items()]}
                for title, items in groups.items()]


GROUPS = {  # action kind -> the group it is offered in, in this order on the page
    "place_agent": "Place an agent", "claim": "Claim cards", "place": "Place cubes", "markers": "Move the track markers",
    "assassinate": "Assassinate", "move": "Move agents", "move_agent": "Move an agent", "retrieve": "Retrieve cubes",
    "take_cube": "Take a cube back", "play": "Play a card's text", "interrupt": "Stop it with a card",
    "migo_return": "Mi-Go", "yog_take": "Yog-Sothoth", "zombie_kill": "Zombies", "zombie_place": "Zombies",
    "discard": "Discard cards", "done": "Pass or stop", "pass": "Pass or stop", "skip": "Pass or stop",
    "decline": "Pass or stop",
}
ENDINGS = {"pass": "pass: this action does nothing", "done": "done: stop here (end the turn or the action)",
           "skip": "skip this", "decline": "decline: let it happen"}


class _Sayer:
    """Says an action in words, with the names the view gives to cards, cities and players."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        faces: list[Any] = list((view.get("you") or {}).get("hand") or [])
        for c in view.get("cities") or []:
            faces += [c.get("top"), c.get("royalty")]
        for p in view.get("players") or []:
            faces += list(p.get("kept") or [])
        self.cards = {f["id"]: str(f.get("name", "?")) for f in faces if isinstance(f, Mapping) and "id" in f}
        self.cities = {str(c.get("id")): str(c.get("name")) for c in view.get("cities") or [] if c.get("id")}
        self.names = [str(p.get("name", f"seat {i}")) for i, p in enumerate(view.get("players") or [])]

    def card(self, n: Any) -> str:
        return f"{self.cards[n]} ({n})" if n in self.cards else f"card {n}"

    def using(self, cards: Any) -> str:
        return ", ".join(self.card(c) for c in cards or [])

    def city(self, c: Any) -> str:
        return "Limbo" if c == "limbo" else self.cities.get(str(c), _words(c).title())

    def player(self, s: Any) -> str:
        return self.names[s] if isinstance(s, int) and 0 <= s < len(self.names) else f"seat {s}"

    def action(self, a: Mapping[str, Any], text: str) -> str:
        kind = a.get("kind")
        n = a.get("count")
        if kind in ENDINGS:
            return ENDINGS[str(kind)]
        if kind == "place_agent":
            return f"an agent in {self.city(a.get('city'))}"
        if kind == "place":
            return f"{_count(n, 'cube')} in {self.city(a.get('city'))}, with {self.using(a.get('cards'))}"
        if kind == "claim":
            where = " and ".join(self.city(c) for c in a.get("cities") or [])
            return f"the top card of {where}, with {self.using(a.get('cards'))}"
        if kind == "markers":
            parts = [f"{track} marker with {self.using(a.get(key))}"
                     for track, key in (("Restorationist", "resto"), ("Loyalist", "loyal")) if a.get(key)]
            return "; ".join(parts)
        if kind == "assassinate":
            target = a.get("target")
            whom = "the Royalty card" if target == "royalty" else f"an agent of {self.player(target)}"
            bombs = f", bombs {self.using(a.get('bombs'))}" if a.get("bombs") else ""
            return f"{whom} in {self.city(a.get('city'))}, with {self.card(a.get('card'))}{bombs}"
        if kind == "move":
            return f"{_count(n, 'agent')}, with {self.using(a.get('cards'))}"
        if kind == "move_agent":
            return f"an agent from {self.city(a.get('from'))} to {self.city(a.get('to'))}"
        if kind == "retrieve":
            return f"{_count(n, 'cube')}, with {self.using(a.get('cards'))}"
        if kind == "take_cube":
            return f"a cube from {self.city(a.get('from'))}"
        if kind == "discard":
            return self.using(a.get("cards"))
        if kind == "interrupt":
            return f"use {self.card(a.get('card'))}"
        if kind == "play":
            _, _, args = text.partition(":")
            return self.card(a.get("card")) + (f": {args.strip()}" if args.strip() else "")
        if kind == "migo_return":
            return f"return the Mi-Go agents to {self.city(a.get('city'))}"
        if kind == "yog_take":
            return f"take an agent from {self.city(a.get('city'))}"
        if kind == "zombie_kill":
            return f"kill an agent of {self.player(a.get('player'))} in {self.city(a.get('city'))}"
        if kind == "zombie_place":
            return f"place a zombie in {self.city(a.get('city'))}"
        return text


def _record_name(section: str, record: str) -> str:
    if section in ("game_cards", "starting_cards"):
        return f"card {record}"
    return _words(record).title()


def _fit(first: str, second: str) -> list[str]:
    """One line when it fits in 78 columns, else two."""
    joined = f"{first}  {second.strip()}"
    if len(joined) <= LINE_WIDTH:
        return [joined]
    return wrap_text(first, " " * 24) + wrap_text(second, "    ")


PRESENTATION = EmeraldPresentation()

__all__ = ["PRESENTATION", "EmeraldPresentation", "card"]
