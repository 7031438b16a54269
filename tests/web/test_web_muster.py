"""Starting a game from the web: the organiser's new-game page, the invitations by mail, the muster page.

Mails go through the outbox to a real SMTP server on loopback, and every link followed is the one a
mail carried.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from delivery import Inbox, free_port, smtp_server, text_of
from pbem.organising import muster, organisers
from pbem.instance.links import Links
from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.transport import SMTPTransport
from pbem.service import Service
from web.conftest import csrf_of, settings_of, text

PLAYERS = [("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cy", "cy@example.org")]


class Post:
    """The loopback SMTP server, and the mails it received so far."""

    def __init__(self, service: Service) -> None:
        self.service, self.inbox, self.port = service, Inbox(), free_port()
        self.server = smtp_server(self.inbox, self.port)

    def deliver(self) -> None:
        self.service.write_owed_mail()  # as the worker: what the pages owe composed, then sent
        dispatch(self.service.store, SMTPTransport("127.0.0.1", self.port, "none"), "pbem <pbem@localhost>",
                 max_attempts=3, retry_seconds=1)

    def to(self, address: str) -> list[Any]:
        self.deliver()
        return [m for m in self.inbox.messages if address in str(m["To"])]

    def link(self, address: str, label: str) -> str:
        """The path of the link labelled ``label`` in the newest mail to ``address`` that has one."""
        for mail in reversed(self.to(address)):
            found = re.findall(rf"^{label}: http://[^/]+(\S+?)\r?$", text_of(mail), re.M)
            if found:
                return str(found[-1])
        raise AssertionError(f"no mail to {address} has a link {label!r}")


@pytest.fixture
def post(service: Service) -> Any:
    found = Post(service)
    yield found
    found.server.stop()


def form(csrf: str, game: str = "emerald", players: list[tuple[str, str]] = PLAYERS, **extra: Any) -> dict[str, Any]:
    rows = players + [("", "")] * (6 - len(players))
    return {"csrf": csrf, "game": game, "turn_hours": "48", "interrupt_hours": "12", "name": "Olive",
            "player_name": [r[0] for r in rows], "player_email": [r[1] for r in rows], **extra}


def new_game_page(client: FlaskClient, service: Service, post: Post) -> str:
    """The operator invites Olive; she follows the link in her mail."""
    assert service.notifier is not None
    organisers.invite(service.store, service.notifier, "olive@example.org")
    path = post.link("olive@example.org", "Create a game")
    assert client.get(path).status_code == 200
    return path


def answer(client: FlaskClient, path: str, choice: str) -> Any:
    page = client.get(path)
    assert page.status_code == 200 and "Nothing is recorded until you press the button" in text(page)
    return client.post(path.split("?")[0], data={"csrf": csrf_of(text(page)), "answer": choice})


def own_post(client: FlaskClient, links: Links, path: str, choice: str) -> Any:
    """An answer posted through a link with its own valid form token (as a reloaded old page would)."""
    token = path.split("?")[0].rsplit("/", 1)[1]
    return client.post(path.split("?")[0], data={"csrf": links.csrf(token), "answer": choice})


def test_an_organiser_creates_a_game_and_it_starts_when_everyone_has_accepted(client: FlaskClient, service: Service,
                                                                               post: Post, links: Links) -> None:
    path = new_game_page(client, service, post)
    page = text(client.get(path))
    for title in ("A Study in Emerald (2nd edition)", "A Study in Emerald (1st edition)", "Nanty Narking"):
        assert title in page
    assert "Free card actions after a turn&#39;s last action" in page and "free_actions" not in page.split("<form")[0]
    created = client.post(path, data=form(csrf_of(page), **{"opt.emerald.free_actions_after_last_action": "no"}))
    assert created.status_code == 303
    muster_page = created.headers["Location"]
    shown = text(client.get(muster_page))
    assert "waiting for the players" in shown and "ann@example.org" in shown and "has not answered yet" in shown

    # three invitations, each naming the others by name only
    for name, address in PLAYERS:
        mails = post.to(address)
        assert len(mails) == 1 and mails[0]["Subject"] == "[pbem] Invitation: Emerald with Ann, Ben and Cy"
        body = text_of(mails[0])
        assert "Olive invites you to play A Study in Emerald (2nd edition)" in body
        assert all(n in body for n, _ in PLAYERS)
        # what the invitation page and docs/organising.md promise: the options, the time limits, the policies
        flat = " ".join(body.split())
        assert "Free card actions after a turn's last action: Not allowed" in flat
        assert "Time for a turn: 48 hours" in flat and "Time for an out-of-turn decision: 12 hours" in flat
        assert "When a player is away: An away player's own clock stops, up to 14 days in this game" in flat
        assert "When a player is silent: After 3 missed deadlines in a row" in flat
        assert not [a for _, a in PLAYERS if a != address and a in mails[0].as_string()]

    assert "You accepted" in text(answer(client, post.link("ann@example.org", "Accept"), "accept"))
    declined = answer(client, post.link("ben@example.org", "Decline"), "decline")
    assert "You declined" in text(declined)
    assert "Ben declined" in str(post.to("olive@example.org")[-1]["Subject"])
    assert "You accepted" in text(answer(client, post.link("cy@example.org", "Accept"), "accept"))
    assert muster.listing(service.store)[0]["accepted"] == 2

    # the organiser invites Dee in Ben's place; Ben's link stops working
    shown = text(client.get(muster_page))
    assert "Invite someone in place of Ben" in shown
    replaced = client.post(muster_page.split("?")[0], data={"csrf": csrf_of(shown), "what": "replace", "slot": "1",
                                                            "name": "Dee", "email": "dee@example.org"})
    assert replaced.status_code == 200 and "Dee was invited to place 2" in text(replaced)
    old = post.link("ben@example.org", "Accept")
    assert client.get(old).status_code == 200 and "withdrawn" in text(client.get(old))
    refused = own_post(client, links, old, "accept")
    assert refused.status_code == 410 and "withdrawn" in text(refused) and "Nothing was changed" in text(refused)
    assert "Dee" not in text(refused) and "dee@" not in text(refused)

    before = service.store.query("SELECT count(*) AS n FROM games")[0]["n"]
    started = answer(client, post.link("dee@example.org", "Accept"), "accept")
    assert "the game has started" in text(started)
    found = muster.listing(service.store)[0]
    assert found["status"] == "started" and service.store.query("SELECT count(*) AS n FROM games")[0]["n"] == before + 1
    game = service.store.query("SELECT * FROM games WHERE game_id = ?", (found["game_id"],))[0]
    assert game["organiser"] == "olive@example.org" and game["status"] == "running"
    assert [p["email"] for p in service.players(game["game_id"])] == ["ann@example.org", "dee@example.org",
                                                                      "cy@example.org"]
    options = service.load(game["game_id"]).config.options
    # the organiser's choice, the game's other options at their defaults, and the delivery layer's
    chosen = service.kernel.games["emerald"].options({"free_actions_after_last_action": False})  # type: ignore[attr-defined]
    assert options == {**chosen, "turn_hours": 48.0, "interrupt_hours": 12.0, "name": "Emerald with Ann, Dee and Cy"}
    assert options["free_actions_after_last_action"] is False
    first = [m for address in ("ann@example.org", "dee@example.org", "cy@example.org")
             for m in post.to(address) if "(setup)" in str(m["Subject"])]
    # the first player's mail went out, its subject the game's name and the setup's decision
    assert [str(m["Subject"]).strip() for m in first] == [
        "[Emerald with Ann, Dee and Cy] Place one of your agents in a city (setup)"]
    assert "Everyone accepted" in str(post.to("olive@example.org")[-1]["Subject"])
    assert muster.verify(service.store, found["muster_id"]) is None

    # answered links are spent; the muster page now leads to the game's organiser page
    seq = service.store.last(found["muster_id"])[0]
    spent = own_post(client, links, post.link("ann@example.org", "Decline"), "decline")
    assert spent.status_code == 409 and "The game has started" in text(spent)
    assert service.store.last(found["muster_id"])[0] == seq
    assert "Organise the game" in text(client.get(muster_page))


def test_the_same_form_sent_twice_opens_one_muster_and_invites_each_player_once(
        client: FlaskClient, service: Service, post: Post) -> None:
    path = new_game_page(client, service, post)
    page = text(client.get(path))
    form_id = re.search(r'name="form" value="([0-9a-f]{16})"', page)
    assert form_id is not None
    sent = form(csrf_of(page), form=form_id[1])
    first, second = client.post(path, data=sent), client.post(path, data=sent)  # a double click
    assert first.status_code == second.status_code == 303
    # both lead to the one muster (each link is signed when made: two made a second apart differ in their signature)
    links = client.application.extensions["pbem.links"]
    opened = [links.read("muster", r.headers["Location"].split("?")[0].rsplit("/", 1)[1]).subject
              for r in (first, second)]
    assert opened[0] == opened[1]
    assert len(muster.listing(service.store)) == 1
    assert all(len(post.to(address)) == 1 for _, address in PLAYERS)
    # the page shown again is a new form: it asks for another game
    again = text(client.get(path))
    assert re.search(r'name="form" value="([0-9a-f]{16})"', again)[1] != form_id[1]  # type: ignore[index]
    client.post(path, data=form(csrf_of(again), form=re.search(r'name="form" value="([0-9a-f]{16})"', again)[1]))  # type: ignore[index]
    assert len(muster.listing(service.store)) == 2


def test_bad_input_gives_a_clear_error_and_writes_nothing(client: FlaskClient, service: Service,
                                                          post: Post) -> None:
    path = new_game_page(client, service, post)
    csrf = csrf_of(text(client.get(path)))
    events = service.store.query("SELECT count(*) AS n FROM events")[0]["n"]
    mails = service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"]
    six = [(f"P{i}", f"p{i}@example.org") for i in range(6)]
    cases = [
        (form(csrf, players=[("Ann", "ann@example.org"), ("Ben", "ben(at)example.org")]), "is not an email address"),
        (form(csrf, players=six[:5], game="nanty"), "Nanty Narking is for 2 to 4 players, not 5"),
        (form(csrf, players=[("Ann", "ann@example.org")]), "is for 2 to 5 players, not 1"),
        (form(csrf, players=[("Ann", "ann@example.org"), ("Ann2", "ANN@example.org")]), "is given twice"),
        (form(csrf, players=[("Ann", "ann@example.org"), ("ann", "b@example.org")]), "Two players are called"),
        (form(csrf, turn_hours="soon"), "The time for a turn must be a number of hours"),
        (form(csrf, turn_hours=" 48 "), "The time for a turn must be a number of hours"),  # digits only
        (form(csrf, turn_hours="9999"), "between a quarter of an hour"),
        (form(csrf, game="chess"), "Choose one of the games offered"),
        (form(csrf, game="nanty", **{"opt.nanty.personalities": "modern"}), "Personalities: choose one"),
        (form(csrf, vacation="sometimes"), "When a player is away: choose one of the policies offered"),
        (form(csrf, vacation="allowance", vacation_days="two"), "An allowance is a whole number of days from 0 to 365"),
        (form(csrf, vacation="allowance", vacation_days="400"), "An allowance is a whole number of days from 0 to 365"),
        (form(csrf, vacation="allowance", vacation_days=" 5 "), "An allowance is a whole number of days from 0 to 365"),
        (form(csrf, vacation="pause", autopilot_after=" 2"), "Autopilot after must be a whole number of missed"),
        (form(csrf, vacation="pause", autopilot_after="51"), "Autopilot after must be a whole number of missed"),
        (form(csrf, vacation="pause", autopilot_after="-1"), "from 0 (never) to 50"),
    ]
    for data, expected in cases:
        refused = client.post(path, data=data)
        alert = re.findall(r'<div class="alert".*?</div>', text(refused), re.S)
        assert refused.status_code == 400 and expected in text(refused), (expected, alert)
        assert "Nothing was created and nobody was mailed" in text(refused)
    refilled = text(client.post(path, data=form(csrf, vacation="allowance", vacation_days="two", autopilot_after="5")))
    assert 'name="vacation" value="allowance" checked' in refilled and 'value="two"' in refilled
    assert 'name="autopilot_after" value="5"' in refilled and "ann@example.org" in refilled
    from io import BytesIO
    for content, expected in [(b"game = [1,", "is not valid TOML"), (b"\xff\xfe", "is not text"),
                              (b"[game]\nagents = -3\n", "does not fit A Study in Emerald"),
                              (b"when = 1979-05-27T07:32:00Z\n", "holds a date")]:
        refused = client.post(path, data={**form(csrf), "data": (BytesIO(content), "fix.toml")},
                              content_type="multipart/form-data")
        assert refused.status_code == 400 and expected in text(refused), (expected, text(refused)[-2000:])
    refused = client.post(path, data={**form(csrf), "csrf": "forged"})
    assert refused.status_code == 403
    assert service.store.query("SELECT count(*) AS n FROM events")[0]["n"] == events
    assert service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"] == mails
    assert service.store.query("SELECT count(*) AS n FROM musters")[0]["n"] == 0


def test_the_seat_policies_chosen_on_the_page_are_the_game_s(client: FlaskClient, service: Service,
                                                              post: Post) -> None:
    path = new_game_page(client, service, post)
    page = text(client.get(path))
    assert "When a player is away or silent" in page
    assert 'name="vacation" value="allowance" checked' in page and 'name="vacation_days" value="14"' in page
    assert 'name="autopilot_after" value="3"' in page
    assert "The game&#39;s clocks stop while anyone is away" in page
    created = client.post(path, data=form(csrf_of(page), vacation="pause", vacation_days="9", autopilot_after="2"))
    assert created.status_code == 303
    shown = text(client.get(created.headers["Location"]))
    for words in ("When a player is away", "The game&#39;s clocks stop while anyone is away",
                  "After 2 missed deadlines in a row, their seat goes on autopilot"):
        assert words in shown
    assert "vacation" not in shown.split("<main")[-1] and "autopilot_after" not in shown

    for _, address in PLAYERS:
        body = text_of(post.to(address)[0])
        assert "When a player is away: The game's clocks stop while anyone is away" in " ".join(body.split())
        assert "When a player is silent: After 2 missed deadlines in a row" in " ".join(body.split())
    invitation = text(client.get(post.link("ann@example.org", "Accept")))
    assert "The game&#39;s clocks stop while anyone is away" in invitation and "After 2 missed deadlines" in invitation
    for _, address in PLAYERS:
        answer(client, post.link(address, "Accept"), "accept")

    game_id = muster.listing(service.store)[0]["game_id"]
    first = service.store.read(game_id, 0, 1)[0]
    assert first.type == "pbem.GameCreated"
    assert first.payload["options"]["vacation"] == "pause" and first.payload["options"]["autopilot_after"] == 2
    assert "vacation_days" not in first.payload["options"]  # the days are an allowance's only
    assert service.load(game_id).config.options["vacation"] == "pause"


def test_an_allowance_of_days_chosen_on_the_page_is_the_game_s(client: FlaskClient, service: Service,
                                                                post: Post) -> None:
    path = new_game_page(client, service, post)
    created = client.post(path, data=form(csrf_of(text(client.get(path))), vacation="allowance", vacation_days="5",
                                          autopilot_after="0"))
    assert created.status_code == 303
    shown = text(client.get(created.headers["Location"]))
    assert "up to 5 days in this game" in shown and "never goes on autopilot" in shown
    found = muster.get(service.store, muster.listing(service.store)[0]["muster_id"])
    assert {k: found.options[k] for k in ("vacation", "vacation_days", "autopilot_after")} == {
        "vacation": "allowance", "vacation_days": 5, "autopilot_after": 0}


def test_a_data_override_file_is_checked_and_kept_for_the_game(client: FlaskClient, service: Service,
                                                                post: Post) -> None:
    from io import BytesIO
    path = new_game_page(client, service, post)
    data = {**form(csrf_of(text(client.get(path))), game="nanty"),
            "data": (BytesIO(b"[game]\ngrenadiers_disable_powers = false\n"), "fix.toml")}
    created = client.post(path, data=data, content_type="multipart/form-data")
    assert created.status_code == 303
    found = muster.get(service.store, muster.listing(service.store)[0]["muster_id"])
    assert found.data_override == {"game": {"grenadiers_disable_powers": False}}
    assert "corrected by the organiser" in text(client.get(created.headers["Location"]))


def test_forged_and_foreign_links_are_refused(client: FlaskClient, service: Service, post: Post,
                                              app: Flask) -> None:
    path = new_game_page(client, service, post)
    assert client.get(path[:-3] + "abc").status_code == 403
    links = app.extensions["pbem.links"]
    assert client.get(f"/new/{links.make('home', organisers.organiser_id('olive@example.org'))}").status_code == 403
    stranger = links.make("newgame", organisers.organiser_id("mallory@example.org"))  # signed, but never invited
    assert client.get(f"/new/{stranger}").status_code == 403
    client.post(path, data=form(csrf_of(text(client.get(path)))))
    invitation = post.link("ann@example.org", "Accept").split("?")[0]
    muster_id = muster.listing(service.store)[0]["muster_id"]
    # a character of the signature changed (not the last: its low bits are base64's padding, which decoding drops)
    assert client.get(invitation[:-10] + ("x" if invitation[-10] != "x" else "y") + invitation[-9:]).status_code == 403
    assert client.get(f"/invitation/{links.make('invite', f'{muster_id}.9.2')}").status_code == 404
    assert client.get(f"/muster/{links.make('muster', 'muster-0000000000')}").status_code == 404
    assert client.get(f"/games/{muster_id}").status_code == 404  # a muster's stream is no game
    assert client.get(f"/api/games/{muster_id}").status_code == 404


def test_the_organiser_cancels_and_everyone_is_told(client: FlaskClient, service: Service, post: Post,
                                                    links: Links) -> None:
    path = new_game_page(client, service, post)
    page = client.post(path, data=form(csrf_of(text(client.get(path)))))
    muster_page = page.headers["Location"].split("?")[0]
    answer(client, post.link("ann@example.org", "Accept"), "accept")
    shown = text(client.get(muster_page))
    cancelled = client.post(muster_page, data={"csrf": csrf_of(shown), "what": "cancel", "reason": "Ben is away"})
    assert "every invited player was told" in text(cancelled)
    for _, address in PLAYERS:
        body = " ".join(text_of(post.to(address)[-1]).split())
        assert "it was cancelled" in body and "Ben is away" in body
    late = post.link("cy@example.org", "Accept")
    assert "cancelled" in text(client.get(late))
    assert own_post(client, links, late, "accept").status_code == 410


def test_the_api_shows_the_muster_and_answers_an_invitation(client: FlaskClient, service: Service,
                                                            post: Post) -> None:
    path = new_game_page(client, service, post)
    muster_page = client.post(path, data=form(csrf_of(text(client.get(path))))).headers["Location"].split("?")[0]
    shown = client.get("/api" + muster_page).get_json()
    assert [i["email"] for i in shown["invitations"]] == [a for _, a in PLAYERS]
    token = post.link("ben@example.org", "Accept").split("?")[0]
    mine = client.get("/api" + token).get_json()
    assert mine["you"]["email"] == "ben@example.org" and all("email" not in i for i in mine["invitations"])
    answered = client.post("/api" + token, json={"answer": "decline"})
    assert answered.status_code == 200 and answered.get_json()["you"]["status"] == "declined"
    again = client.post("/api" + token, json={"answer": "accept"})
    assert again.status_code == 409 and again.get_json()["error"] == "spent"


def test_open_sign_up_is_off_by_default_and_never_tells_whether_an_address_is_known(app: Flask, client: FlaskClient,
                                                                                     service: Service) -> None:
    assert settings_of(app)["organisers"] == "invited"
    page = text(client.get("/new"))
    assert "by invitation" in page and "<form" not in page
    assert client.post("/new", data={"email": "x@example.org"}).status_code == 403
    app.config["PBEM_SETTINGS"] = type(settings_of(app))(settings_of(app).instance,
                                                          {**settings_of(app).values, "organisers": "open"})
    answers = []
    for address in ("new@example.org", "new@example.org", "new@example.org"):
        page = text(client.get("/new"))
        answered = client.post("/new", data={"email": address, "csrf": csrf_of(page),
                                             "nonce": re.search(r'name="nonce" value="(\w+)"', page).group(1)})
        answers.append((answered.status_code, re.findall(r"<div.*?</div>", text(answered), re.S)))
    answers = [(status, "".join(found)) for status, found in answers]
    assert len(set(answers)) == 1 and answers[0][0] == 200 and "is on its way" in answers[0][1]
    assert [r["kind"] for r in service.store.query("SELECT kind FROM outbox WHERE to_addr = 'new@example.org'")] == \
        ["organiser"]  # one link an hour
    page = text(client.get("/new"))
    bad = client.post("/new", data={"email": "nobody", "csrf": csrf_of(page),
                                    "nonce": re.search(r'name="nonce" value="(\w+)"', page).group(1)})
    assert bad.status_code == 400 and "is not an email address" in text(bad)


def test_the_organiser_names_the_game_and_the_invitations_and_the_game_carry_the_name(
        client: FlaskClient, service: Service, post: Post) -> None:
    path = new_game_page(client, service, post)
    page = text(client.get(path))
    assert 'name="title"' in page and "Name of the game" in page
    refused = client.post(path, data=form(csrf_of(page), title="x" * 81))
    assert refused.status_code == 400 and "at most 80 characters" in text(refused)
    assert muster.listing(service.store) == [] and post.to("ann@example.org") == []
    created = client.post(path, data=form(csrf_of(page), title=" Friday   game "))
    assert created.status_code == 303
    for _, address in PLAYERS:
        [invitation] = post.to(address)
        assert invitation["Subject"] == "[pbem] Invitation: Friday game"
        assert "\u201cFriday game\u201d" in text_of(invitation)
    for _, address in PLAYERS:
        answer(client, post.link(address, "Accept"), "accept")
    game_id = muster.listing(service.store)[0]["game_id"]
    assert service.store.query("SELECT name FROM games WHERE game_id = ?", (game_id,))[0]["name"] == "Friday game"
