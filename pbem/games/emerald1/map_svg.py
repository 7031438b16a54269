"""The 1st edition's map drawn small: every city, every route with its gold cost, who controls what, whose agents
are where, readable on a 375-pixel phone (``pbem.games.drawing``); the cities in words beside it are the page's
(``templates/web/games/emerald1.html``).

The printed map is not in the rulebook's text: an assumed layout of 1882 geography, kept apart for the phone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games.drawing import linked, pill, svg, text, title

HEIGHT = 318
COST_SIZE = 12
# Each city's centre on the drawing (340 units wide).
SPOTS = {"washington": (52, 150), "london": (72, 62), "the_hague": (156, 24), "paris": (150, 124),
         "berlin": (236, 80), "st_petersburg": (272, 24), "zurich": (206, 170), "vienna": (282, 134),
         "madrid": (70, 236), "rome": (176, 252), "constantinople": (270, 214), "cairo": (262, 298)}
# Where a junction's three arms meet, and where a route's cost sits along it, from its first city by name order.
JUNCTIONS = {("london", "madrid", "washington"): (112, 178), ("cairo", "madrid", "rome"): (158, 294)}
ALONG = {("madrid", "paris"): 0.3, ("rome", "zurich"): 0.55, ("constantinople", "vienna"): 0.55}


def route_key(cities: Sequence[str]) -> str:
    """A route as the page names it for a click: ``route:berlin-vienna`` (its cities in order)."""
    return "route:" + "-".join(sorted(str(c) for c in cities))


def _cost(x: float, y: float, n: Any, said: str) -> str:
    return (f'<g>{title(said)}<circle cx="{x:.0f}" cy="{y:.0f}" r="10" fill="#ffffff" '
            f'stroke="#6b5d3f" stroke-width="1.5"/>' + text(x, y + 4.5, str(n), COST_SIZE, "bold", "#1d1d1d")
            + "</g>")


def draw(scene: Mapping[str, Any], links: Mapping[str, str] | None = None) -> str:
    """The map: routes and junctions with their costs, then the cities (a city or a route in ``links`` is a
    link to the choices about it)."""
    links = links or {}
    spot = {str(c["id"]): SPOTS.get(str(c["id"]), (170, HEIGHT / 2)) for c in scene["cities"]}
    parts: list[str] = []
    for r in scene["routes"]:
        ids = [str(c) for c in r["cities"]]
        named = "–".join(r["names"])
        said = f"{named}: {r['cost']} gold"
        link = links.get(r.get("key", ""))
        if len(ids) == 2:
            first, second = sorted(ids)
            (x1, y1), (x2, y2) = spot.get(first, (0, 0)), spot.get(second, (0, 0))
            t = ALONG.get((first, second), 0.5)
            drawn = (f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#8a7f6a" stroke-width="3"/>'
                     + _cost(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t, r["cost"], said))
        else:
            pts = [spot.get(c, (0, 0)) for c in ids]
            jx, jy = JUNCTIONS.get(tuple(sorted(ids)), (sum(p[0] for p in pts) / len(pts),  # type: ignore[arg-type]
                                                         sum(p[1] for p in pts) / len(pts)))
            drawn = "".join(f'<line x1="{jx:.0f}" y1="{jy:.0f}" x2="{x}" y2="{y}" stroke="#8a7f6a" stroke-width="3" '
                            'stroke-dasharray="7 4"/>' for x, y in pts)
            drawn += _cost(jx, jy, r["cost"], f"junction: {said}")
        parts.append(linked(drawn, link, f"The route {named}, {r['cost']} gold"))
    for c in scene["cities"]:
        x, y = spot[str(c["id"])]
        name = str(c["name"])
        link = links.get(c.get("key", ""))
        drawn = pill(x, y, name, c["owner_colour"] or "#1f4d3a", bool(c["owner"]), bool(link),
                     "#d9d4c7" if c["destroyed"] else None)
        pips = [a["colour"] for a in c["agents"]][:8]
        px = x - 4.5 * len(pips)
        for colour in pips:  # the agents here, one square each in their owner's colour
            drawn += f'<rect x="{px:.0f}" y="{y + 13}" width="7" height="7" fill="{colour}" stroke="#ffffff"/>'
            px += 9
        parts.append(linked(f"<g>{title(_city_title(c))}{drawn}</g>", link, name))
    label = "The map: every city and route, with its cost in gold. " + str(scene["turn_words"])
    return svg(parts, HEIGHT, label, bool(links))


def _city_title(c: Mapping[str, Any]) -> str:
    said = f"{c['name']}: {c['vp']} VP, defence {c['defence']}"
    if c["owner"]:
        said += f"; controlled by {c['owner']}"
    if c["agents"]:
        said += "; agents: " + ", ".join(f"{a['name']} ({a['owner']})" for a in c["agents"])
    return said + ("; destroyed" if c["destroyed"] else "")
