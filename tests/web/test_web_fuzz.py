"""Every route, fed arbitrary input: never a server error, and a refusal (or a GET) never writes.

The routes are read from the app's URL map, so a new route is fuzzed without a change here.
Each example gets a fresh game (an open undo request, a move that may be taken back): a new one, or the one
the last example left as it found it (it was refused, and a refusal writes nothing), and a request to one route: its path parts, query and form fields (or JSON body) drawn from valid
values, near misses (unicode digits, huge numbers, control characters, empty) and any text.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from flask import Flask
from hypothesis import HealthCheck, given, settings, strategies as st
from werkzeug.routing import Rule

from events.handling import Cause
from pbem.organising import muster, organisers
from pbem.service import Player, Service
from web.conftest import ANN, BEN

EXAMPLES = 40  # per route and method: about 40 of them, well under a minute in all

DIGITISH = ["²", "⑦", "٣", "１２", "9" * 12, "9" * 5000, "-1", "1e309", "nan", "inf", "0x1f", "1_000", " 7 "]
NEAR_MISSES = ["", " ", "0", "1", "2", "\x00", "\r\n", "\x1b[0m", "../../etc/passwd", "%2F", "approve", "refuse", "pause", "resume",
               "extend", "undo-approve", "undo-refuse", "always", "never", "ask", "highdie.contest", "public",
               "all", "bet 1", "bet ²", "play ⑦", "One-Click"]
ANY_TEXT = st.one_of(st.sampled_from(DIGITISH), st.sampled_from(NEAR_MISSES), st.text(max_size=40),
                     st.text(alphabet=st.characters(categories=["Nd", "No", "Cc", "Zs"]), max_size=12))
QUERY = ["at", "turn", "as", "seq", "undone", "answer"]
FORM = ["csrf", "seq", "text", "choice", "what", "hours", "reason", "request", "topic", "answer", "List-Unsubscribe",
        "timezone", "slot", "email", "name", "game", "player_name", "player_email", "turn_hours", "nonce"]
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | ANY_TEXT,
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3),
                    max_leaves=8)


class Setting:
    """A fresh game with something to undo and an open undo request; the valid values of its links."""

    made = 0

    def __init__(self, service: Service, app: Flask) -> None:
        links = app.extensions["pbem.links"]
        cat = Player("cat@example.org", "Cat")
        Setting.made += 1
        self.game = service.create_game("highdie", [ANN, BEN, cat], seed="fuzz",
                                        game_id=f"fuzz{Setting.made}").after.game_id
        for seat, points in ((0, 3), (1, 2)):
            service.act_as(self.game, seat, f"bet {points}", cause=Cause("cli"))
        request = service.request_undo(self.game, 0, "a slip", cause=Cause("cli")).events[0].payload["request"]
        seq = service.store.last(self.game)[0]
        self.seq = str(seq)
        self.tokens = [links.play(self.game, 0, seq), links.play(self.game, 1, seq), links.play(self.game, 1, 1),
                       links.make("organiser", self.game), links.undo(self.game, request, 1),
                       links.undo(self.game, request, 2), links.make("home", service.player_id(BEN.email)),
                       links.make("unsubscribe", f"{self.game}.1")]
        assert service.notifier is not None  # a muster of the game's players: its organiser's and invitees' links
        organisers.invite(service.store, service.notifier, "olive@example.org")
        found = muster.open_muster(service, organiser="olive@example.org", organiser_name="Olive",
                                   game_type="highdie", title="Highdie", players=[ANN, BEN, cat], options={},
                                   data_override=None, days=7, cause=Cause("cli"))
        self.tokens += [links.make("newgame", organisers.organiser_id("olive@example.org")),
                        links.make("muster", found.muster_id)] + [
            links.make("invite", f"{found.muster_id}.{i.slot}.{i.invitation}") for i in found.invitations]
        self.csrfs = [links.csrf(t) for t in self.tokens]
        self.request = request


def routes(app: Flask) -> list[tuple[Rule, str]]:
    found = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((rule, method))
    return found


def path_value(name: str, setting: Setting) -> st.SearchStrategy[str]:
    valid = {"token": setting.tokens, "game_id": [setting.game], "seq": ["1", setting.seq, "0"],
             "name": ["nosuch.eml"]}.get(name, [])
    return st.one_of(st.sampled_from(valid), ANY_TEXT) if valid else ANY_TEXT


def field_value(name: str, setting: Setting) -> st.SearchStrategy[str]:
    valid = {"csrf": setting.csrfs, "seq": [setting.seq, "1"], "request": [setting.request],
             "answer": ["approve", "refuse", "always", "never", "accept", "decline"],
             "what": ["pause", "extend", "undo-refuse", "replace", "cancel"], "slot": ["0", "1", "9"],
             "email": ["dee@example.org", "ann@example.org"], "game": ["highdie", "nanty"],
             "hours": ["1", "0.5", "99999"], "text": ["bet 1", "pass", "undo"], "topic": ["highdie.contest"],
             "as": ["public", "all", "0", "5"], "timezone": ["Europe/Berlin", "UTC", "europe/berlin"]}.get(name, [])
    return st.one_of(st.sampled_from(valid), ANY_TEXT) if valid else ANY_TEXT


def requests(rule: Rule, method: str, setting: Setting) -> st.SearchStrategy[dict[str, Any]]:
    """The parts of one request to ``rule``: path values, query, and a form or a JSON body."""
    path = st.fixed_dictionaries({name: path_value(name, setting) for name in sorted(rule.arguments)})
    def fields(names: list[str], draw: Callable[[st.SearchStrategy[Any]], Any]) -> dict[str, str]:
        """Some of the route's field names, each valid or not, and now and then one of any name."""
        drawn: dict[str, str] = draw(st.dictionaries(ANY_TEXT, ANY_TEXT, max_size=1))
        for name in draw(st.lists(st.sampled_from(names), max_size=len(names), unique=True)):
            drawn[name] = draw(field_value(name, setting))
        return drawn

    @st.composite
    def build(draw: Callable[[st.SearchStrategy[Any]], Any]) -> dict[str, Any]:
        parts: dict[str, Any] = {"path": draw(path), "query": fields(QUERY, draw)}
        if method == "POST":
            if rule.rule.startswith("/api/"):
                parts["body"] = draw(st.one_of(JSON.map(json.dumps), ANY_TEXT))
                parts["type"] = draw(st.sampled_from(["application/json", "application/json; charset=utf-8",
                                                      "application/json-patch+json", "text/plain", ""]))
            else:
                parts["form"] = fields(FORM, draw)
        return parts

    return build()


def counts(service: Service) -> tuple[int, int]:
    events = service.store.query("SELECT count(*) AS n FROM events")[0]["n"]
    outbox = service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"]
    return int(events), int(outbox)


def url_for_rule(rule: Rule, values: dict[str, str], app: Flask) -> str:
    adapter = app.url_map.bind("localhost")
    return str(adapter.build(rule.endpoint, values, force_external=False, append_unknown=False))


def test_every_route_answers_arbitrary_input_without_a_server_error_and_a_refusal_writes_nothing(
        app: Flask, service: Service) -> None:
    client = app.test_client()
    checked = []
    # On PostgreSQL a quarter of the examples: the inputs are the same (derandomized) and what the engine changes is
    # each route's SQL, which a few examples per route reach; the whole set there took over two minutes.
    examples = EXAMPLES if type(service.store).__name__ == "SQLiteEventStore" else EXAMPLES // 4
    fresh: list[Setting | None] = [None]  # a game no request has written to since it was made
    for rule, method in routes(app):
        @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(data=st.data())
        def one_route(data: st.DataObject) -> None:
            setting = fresh[0] or Setting(service, app)
            fresh[0] = None  # taken: a request that writes spends it, and the next example makes another
            parts = data.draw(requests(rule, method, setting))
            try:
                url = url_for_rule(rule, parts["path"], app)
            except Exception:  # a value the rule's converter will not even build (e.g. "/" in a token)
                url = rule.rule
            before = counts(service)
            if "body" in parts:
                response = client.open(url, method=method, query_string=parts["query"], data=parts["body"],
                                       content_type=parts["type"] or None)
            else:
                response = client.open(url, method=method, query_string=parts["query"], data=parts.get("form"))
            assert response.status_code < 500, (method, url, parts, response.get_data(as_text=True)[:500])
            if response.status_code >= 400 or method == "GET":  # a GET only shows (mail scanners open links)
                assert counts(service) == before, (method, url, parts, response.status_code)
                fresh[0] = setting  # nothing written: the game is as fresh as it was, for the next example

        one_route()
        checked.append(f"{method} {rule.rule}")
    assert len(checked) >= 25 and "POST /organise/<token>" in checked and "POST /invitation/<token>" in checked and "POST /api/play/<token>" in checked
