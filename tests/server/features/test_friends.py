"""Friends' tables (issue 17): a table made by a signed-in host, found by its code, seats
taken by guests and accounts, the host's controls, a whole deal played by several people,
and every refusal: a full table, a seat during a deal, another seat's moves or cards, the
host's controls in other hands."""

from __future__ import annotations

import asyncio
import contextlib
import html
import inspect
import itertools
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from friends_helpers import Person, Player, drain
from server_helpers import MAX_MESSAGES, check_no_leak, is_my_turn, live_table, parts_of
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from coinche.server.features.friends import CODE_ALPHABET, Friends, clean_code, clean_person_name, new_code

# On both databases: a whole deal, the host's seats, a dropped player's seat kept and
# given back, leaving. The rest (names, codes, clocks, messages) is the same on either.


def people(client: TestClient, *names: str) -> list[Person]:
    return [Person(client, name) for name in names]


def play_deal(players: dict[int, Player], live_seq: Any) -> dict[str, Any]:
    """The people at ``players`` (by seat) play legal moves until the deal is over; the
    last state of the first of them."""
    first = next(iter(players.values()))
    state = first.latest_state()
    for _ in range(500):
        if state["awaiting_next_deal"] or state["game"]["winner"] is not None:
            return state
        to_move = state["game"]["deal"]["to_move"]
        if to_move in players:
            mover = players[to_move]
            mine = drain(mover, state["seq"])
            if is_my_turn(mine):
                mover.act(mine)
        state = drain(first, live_seq() if live_seq() > state["seq"] else state["seq"] + 1)
    raise AssertionError("the deal never ended")


def test_codes_have_no_look_alikes() -> None:
    for bad in "01ILOU":
        assert bad not in CODE_ALPHABET
    code = new_code()
    assert len(code) == 6 and clean_code(code.lower()) == code
    assert clean_code(f" {code[:3]}-{code[3:]} ") == code
    assert clean_code("ABC") is None and clean_code("OOOOOO") is None


@pytest.mark.parametrize("text", ["Paul", "Marie-Claire", "Zoé", "Jean  Pierre", "李雷", "O'Neil"])
def test_names_people_give(text: str) -> None:
    assert clean_person_name(text) == " ".join(text.split())


@pytest.mark.parametrize("text", ["", "   ", "<script>", "a" * 21, "x\u202ey", "bob\x00", "a&b"])
def test_names_refused(text: str) -> None:
    assert clean_person_name(text) is None


@pytest.mark.both_databases
def test_a_guest_joins_by_code_and_three_people_play_a_deal(client: TestClient) -> None:
    host, paul, marie = people(client, "Hote", "Paul", "Marie")
    host.sign_up()
    table_id, code = host.make_table()
    # The invitation shows the seats, with a button for each computer's.
    page = paul.get(f"/rejoindre/{code}")
    assert (page.status_code == 200 and "S&#39;asseoir en Nord" in page.text) or "asseoir en Nord" in page.text
    r = paul.take_seat(code, 2)
    assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"
    r = marie.post("/rejoindre/" + code, {"name": "Marie", "seat": "1"}, f"/rejoindre/{code}")
    assert r.status_code == 303
    live = live_table(client, table_id)
    assert [s.kind for s in live.seats] == ["human", "human", "human", "bot"]
    assert live.seats[2].name == "Paul" and not live.started
    with host.connect(table_id) as h, paul.connect(table_id) as p, marie.connect(table_id) as m:
        lobby = h.next_state()
        assert lobby["game"] is None and lobby["table"]["friends"]["you_host"]
        assert lobby["table"]["friends"]["code"] == code
        # Only the host starts the game.
        refused = p.answer(p.send("host", op="start"))
        assert refused["type"] == "error" and refused["code"] == "not_host"
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        seats = {0: h, 2: p, 1: m}
        for player in seats.values():
            state = drain(player, live_table(client, table_id).seq)
            assert state["game"] is not None
        last = play_deal(seats, lambda: live_table(client, table_id).seq)
        assert last["awaiting_next_deal"]
        deals = live_table(client, table_id).game.deals
        for seat, player in seats.items():
            states = [msg for msg in player.messages if msg["type"] == "state" and msg["game"] is not None]
            assert check_no_leak(states, deals, seat) == len(states)
    assert parts_of(client).free_deals.left  # guests used none of their free deals


def seated_table(client: TestClient, *guests: tuple[str, int], **form: str) -> tuple[Person, list[Person], str, str]:
    """A host (signed up, at seat 0) and guests at the given seats; (host, guests, id, code)."""
    host = Person(client, "Hote")
    host.sign_up()
    table_id, code = host.make_table(**form)
    friends_ = []
    for name, seat in guests:
        person = Person(client, name)
        assert person.take_seat(code, seat).status_code == 303
        friends_.append(person)
    return host, friends_, table_id, code


def test_a_fifth_person_is_told_the_table_is_full(client: TestClient) -> None:
    _host, guests, table_id, code = seated_table(client, ("Paul", 1), ("Marie", 2), ("Léa", 3))
    fifth = Person(client, "Tom")
    page = fifth.get(f"/rejoindre/{code}")
    assert page.status_code == 200 and "La table est complète" in page.text
    assert "S&#39;asseoir" not in page.text and "asseoir en" not in page.text
    r = fifth.take_seat(code, 1)
    assert r.status_code == 409 and "complète" in r.text
    assert [s.player for s in live_table(client, table_id).seats].count(None) == 0
    # The seated people go straight to the table.
    assert guests[0].get(f"/rejoindre/{code}").headers["location"] == f"/table/{table_id}"


def test_codes_typed_any_way_and_unknown_codes(client: TestClient) -> None:
    _host, _, _table_id, code = seated_table(client)
    visitor = Person(client, "Tom")
    r = visitor.get(f"/rejoindre?code={code[:3].lower()}-{code[3:].lower()}")
    assert r.status_code == 303 and r.headers["location"] == f"/rejoindre/{code}"
    assert visitor.get("/rejoindre").status_code == 200
    assert "Code de la table" in visitor.get("/rejoindre").text
    assert visitor.get("/rejoindre?code=<b>x</b>").status_code == 400
    assert "<b>x</b>" not in visitor.get("/rejoindre?code=<b>x</b>").text
    other = "".join("A" if ch != "A" else "B" for ch in code)
    assert visitor.get(f"/rejoindre/{other}").status_code == 404
    assert visitor.get("/rejoindre/" + "Z" * 300).status_code == 404


def test_only_a_signed_in_player_makes_a_table(client: TestClient) -> None:
    guest = Person(client, "Tom")
    r = guest.get("/amis")
    assert r.status_code == 303 and r.headers["location"].startswith("/connexion?next=/amis")
    host = Person(client, "Hote")
    host.sign_up()
    for bad in ({"level_1": "adaptive"}, {"level_2": "grandmaster"}, {"late_joins": "yes"}, {"nonsense": "1"}):
        assert host.post("/amis", {"profile": "classic", "target": "1000", **bad}, "/amis").status_code == 400
    with host.acting() as c:  # no CSRF token: refused
        assert c.post("/amis", data={"profile": "classic"}, follow_redirects=False).status_code == 403


def test_names_are_checked_and_shown_escaped(client: TestClient) -> None:
    _host, _, _table_id, code = seated_table(client)
    bad = Person(client, "<img src=x>")
    r = bad.take_seat(code, 1)
    assert r.status_code == 400 and "<img src=x>" not in r.text
    ok = Person(client, "O'Neil")
    assert ok.take_seat(code, 1).status_code == 303
    text = Person(client, "Tom").get(f"/rejoindre/{code}").text
    assert "O&#39;Neil" in text or "O&#x27;Neil" in text


@pytest.mark.both_databases
def test_the_host_controls_the_seats_and_nobody_else(client: TestClient) -> None:
    host, (paul,), table_id, code = seated_table(client, ("Paul", 1))
    with host.connect(table_id) as h, paul.connect(table_id) as p:
        for sent in (
            p.send("host", op="start"),
            p.send("host", op="level", seat=2, level="expert"),
            p.send("host", op="free", seat=0),
            p.send("host", op="move", seat=0, to=3),
        ):
            answer = p.answer(sent)
            assert answer["type"] == "error" and answer["code"] == "not_host", answer
        assert h.answer(h.send("host", op="level", seat=2, level="expert"))["type"] == "ack"
        assert live_table(client, table_id).seats[2].level == "expert"
        refused = h.answer(h.send("host", op="level", seat=2, level="adaptive"))
        assert refused["code"] == "bad_level"
        # Move Paul to the host's partner's seat, then free it.
        assert h.answer(h.send("host", op="move", seat=1, to=2))["type"] == "ack"
        assert live_table(client, table_id).seats[2].name == "Paul"
        malformed = h.answer(h.send("host", op="move", seat=1, to=7))
        assert malformed["code"] == "malformed"
        assert h.answer(h.send("host", op="free", seat=2))["type"] == "ack"
        assert live_table(client, table_id).seats[2].kind == "bot"
        # Paul's connection ends: he has no seat any more.
        with pytest.raises(WebSocketDisconnect):
            for _ in range(50):
                p.receive()
    # He comes back by the link, takes a seat, and moves himself before the start.
    assert paul.take_seat(code, 3).status_code == 303
    with paul.connect(table_id) as p:
        p.next_state()
        assert p.answer(p.send("sit", seat=1))["type"] == "ack"
        assert live_table(client, table_id).seats[1].name == "Paul"
        assert p.answer(p.send("sit", seat=0))["code"] == "seat_taken"


def test_no_seat_is_taken_during_a_deal_and_late_friends_wait_for_its_end(client: TestClient) -> None:
    host, (_paul,), table_id, code = seated_table(client, ("Paul", 2))
    with host.connect(table_id) as h:
        h.next_state()
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        late = Person(client, "Léa")
        page = late.get(f"/rejoindre/{code}")
        assert "La partie a commencé" in page.text
        assert late.take_seat(code, 1).status_code == 409
        assert h.answer(h.send("host", op="free", seat=2))["code"] == "in_progress"
        assert h.answer(h.send("host", op="move", seat=0, to=1))["code"] == "in_progress"
    live = live_table(client, table_id)
    assert [s.kind for s in live.seats] == ["human", "bot", "human", "bot"]
    # Between deals a late friend takes a computer's seat (the host allowed it).
    live.game.current  # noqa: B018 - the deal in progress
    assert not live.game.awaiting_deal


def test_the_game_waits_for_the_host_and_guests_use_no_free_deal(client: TestClient) -> None:
    _host, (paul,), table_id, _code = seated_table(client, ("Paul", 2))
    with paul.connect(table_id) as p:
        state = p.next_state()
        assert state["game"] is None and not state["awaiting_next_deal"]
        assert state["table"]["friends"]["you_host"] is False
        assert state["table"]["friends"]["host_seat"] == 0
        names = [s.get("name") for s in state["table"]["seats"]]
        assert names == ["Hote", None, "Paul", None]
        assert "Hote" in state["table"]["seat_names"][0]
        refused = p.answer(p.send("action", action={"call": "pass"}))
        assert refused["code"] in ("not_started", "malformed")
    guest = live_table(client, table_id).seats[2].player
    assert guest is not None
    assert call_free(client, guest) == 3


def call_free(client: TestClient, player: str) -> int | None:
    from server_helpers import call

    return call(client, parts_of(client).free_deals.left, player, True)


@contextlib.contextmanager
def started_with_paul(client: TestClient) -> Iterator[tuple[Player, Player, str]]:
    """The host (seat 0) and Paul (seat 2) connected to their friends' table, and the game
    started by the host: (the host's connection, Paul's, the table)."""
    host, (paul,), table_id, _code = seated_table(client, ("Paul", 2))
    with host.connect(table_id) as h, paul.connect(table_id) as p:
        h.next_state()
        p.next_state()
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        yield h, p, table_id


def wait_for(player: Player, predicate: Any, limit: int = 2000) -> dict[str, Any]:
    """The first message (from now) for which ``predicate`` is true."""
    for _ in range(limit):
        msg = player.receive()
        if predicate(msg):
            return msg
    raise AssertionError("never came")


@pytest.mark.both_databases
def test_a_dropped_player_is_replaced_after_the_grace_period_and_comes_back(make_client: Any) -> None:
    client = make_client(grace_seconds=0.5, idle_warning_seconds=60, idle_move_seconds=120)
    host, (paul,), table_id, _code = seated_table(client, ("Paul", 2))
    with host.connect(table_id) as h:
        h.next_state()
        with paul.connect(table_id) as p:
            p.next_state()
            wait_for(h, lambda m: m["type"] == "presence" and m["seats"][2]["presence"] == "here")
            assert h.answer(h.send("host", op="start"))["type"] == "ack"
        # Paul's connection dropped: away at once, replaced after the grace period.
        away = wait_for(h, lambda m: m["type"] == "presence" and m["seats"][2]["presence"] == "away")
        assert away["seats"][2]["name"] == "Paul"
        replaced = wait_for(h, lambda m: m["type"] == "state" and m["last"] and m["last"].get("seat_change"))
        assert replaced["last"]["text"] == "Nord (Paul, invité) est remplacé par l'ordinateur"
        assert replaced["table"]["seats"][2]["presence"] == "replaced"
        # The computer plays his moves, marked as such, while the host plays hers.
        live = live_table(client, table_id)
        state = h.latest_state()
        for _ in range(200):
            if any(s.played_by == "away" for s in live.steps):
                break
            state = h.act(state) if is_my_turn(state) else h.next_state()
        assert any(s.played_by == "away" and s.seat == 2 for s in live.steps)
        # He comes back: the seat is his again, with the whole table in view.
        with paul.connect(table_id) as p:
            back = p.next_state()
            assert back["full"] and back["table"]["you"] == 2
            assert live.seats[2].stand_in is None
            said = wait_for(h, lambda m: m["type"] == "state" and m["last"] and m["last"].get("seat_change"))
            assert said["last"]["text"] == "Nord (Paul, invité) reprend sa place"
            # He plays his own next decision (the computer does not).
            seats = {0: h, 2: p}
            before = len([s for s in live.steps if s.seat == 2 and s.kind == "action" and s.played_by is None])
            for _ in range(400):
                if live.game.awaiting_deal or live.game.is_over:
                    break
                mover = seats.get(live.game.to_move)
                if mover is None:
                    h.next_state()
                    continue
                mine = drain(mover, live.seq)
                if is_my_turn(mine):
                    mover.act(mine)
                if len([s for s in live.steps if s.seat == 2 and s.kind == "action" and s.played_by is None]) > before:
                    break
            assert any(s.seat == 2 and s.kind == "action" and s.played_by is None for s in live.steps)


def test_an_idle_player_is_warned_then_the_computer_plays_one_move(make_client: Any) -> None:
    client = make_client(grace_seconds=60, idle_warning_seconds=0.4, idle_move_seconds=0.8)
    with started_with_paul(client) as (h, p, table_id):
        live = live_table(client, table_id)
        # Whoever is to play shows a clock, at every seat's page.
        clock = wait_for(h, lambda m: m["type"] == "clock")
        assert clock["seat"] in (0, 2) and clock["seconds"] in (0, 1) and clock["seq"] >= live.seq - 1
        assert wait_for(p, lambda m: m["type"] == "clock" and m["seq"] == clock["seq"])["seat"] == clock["seat"]
        # Neither of the two acts: the first whose turn comes is warned.
        first = wait_for(h, lambda m: m["type"] == "notice")
        idle = first["seat"]
        assert first["kind"] == "idle_warning" and idle in (0, 2)
        watcher, sleeper = (p, h) if idle == 0 else (h, p)
        warning = first if sleeper is h else wait_for(p, lambda m: m["type"] == "notice")
        assert warning["seat"] == idle and "l'ordinateur jouera pour vous" in warning["text"]
        other = first if watcher is h else wait_for(p, lambda m: m["type"] == "notice")
        assert other["seat"] == idle and other["text"].startswith("On attend ")
        played = wait_for(watcher, lambda m: m["type"] == "state" and m["last"] and m["last"].get("played_by"))
        assert played["last"]["played_by"] == "idle" and played["last"]["seat"] == idle
        assert played["last"]["text"].startswith("Temps écoulé")
        assert live.seats[idle].stand_in is None  # one move only: the seat stays the person's
        told = wait_for(sleeper, lambda m: m["type"] == "state" and m.get("played_for_you"))
        assert told["played_for_you"]["count"] == 1
        assert told["played_for_you"]["text"].startswith("Votre temps était écoulé : l'ordinateur a joué pour vous ")


def test_each_step_that_starts_a_clock_is_followed_by_it_once(make_client: Any) -> None:
    """The clock a step starts comes right after the step, at every seat, once: the feed
    sends it with the step (one write), not also as a passing event."""
    client = make_client(grace_seconds=60, idle_warning_seconds=60, idle_move_seconds=120)
    with started_with_paul(client) as (h, p, table_id):
        live = live_table(client, table_id)
        seats = {0: h, 2: p}
        moves = 0
        while moves < 10 and not live.game.awaiting_deal:
            mover = seats.get(live.game.to_move)
            if mover is None:
                h.next_state()
                continue
            state = drain(mover, live.seq)
            if is_my_turn(state):
                mover.act(state)
                moves += 1
        for person in (h, p):
            drain(person, live.seq)
            shown = [m for m in person.messages if m["type"] in ("state", "clock")]
            clocks = [m for m in shown if m["type"] == "clock"]
            assert len(clocks) >= moves, "a clock for each person's turn"
            assert len({c["seq"] for c in clocks}) == len(clocks), "no clock twice"
            for before, after in itertools.pairwise(shown):
                if after["type"] == "clock":
                    assert before["type"] == "state" and before["seq"] == after["seq"], (before["seq"], after)


def test_the_idle_clock_set_at_each_step_is_a_timer(make_client: Any) -> None:
    """A table with the idle clock sets one at every step and stops it at the next: a
    timer, which stops without waking anything (not a task that sleeps, to be woken only to
    be cancelled a step later)."""
    client = make_client(grace_seconds=60, idle_warning_seconds=30, idle_move_seconds=60)
    with started_with_paul(client) as (_h, _p, table_id):
        clocks = parts_of(client).attendance._idle
        deadline = time.monotonic() + 20  # the computers play until a person's turn comes
        while table_id not in clocks and time.monotonic() < deadline:
            time.sleep(0.01)
        assert table_id in clocks and isinstance(clocks[table_id][1], asyncio.TimerHandle)


def test_quick_messages_reach_the_other_seats_and_are_limited(make_client: Any) -> None:
    client = make_client(say_limit="3 per minute")
    host, (paul,), table_id, _code = seated_table(client, ("Paul", 2))
    with host.connect(table_id) as h, paul.connect(table_id) as p:
        h.next_state()
        p.next_state()
        assert p.answer(p.send("say", phrase="bravo"))["type"] == "ack"
        said = wait_for(h, lambda m: m["type"] == "say")
        said_by_paul = "Nord (Paul, invité) : Bravo !"
        assert said == {"type": "say", "seat": 2, "phrase": "bravo", "text": "Bravo !", "said": said_by_paul}
        assert p.answer(p.send("say", phrase="<script>"))["code"] == "bad_phrase"
        assert p.answer(p.send("say", phrase=["x"]))["code"] == "malformed"
        for _ in range(2):
            assert p.answer(p.send("say", phrase="thanks"))["type"] == "ack"
        assert p.answer(p.send("say", phrase="thanks"))["code"] == "say_limit"


@pytest.mark.both_databases
def test_leaving_gives_the_seat_to_the_computer_for_the_rest_of_the_game(client: TestClient) -> None:
    host, (paul,), table_id, _code = seated_table(client, ("Paul", 2))
    with host.connect(table_id) as h:
        h.next_state()
        assert h.answer(h.send("leave"))["code"] == "host_stays"  # until the game starts
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        with paul.connect(table_id) as p:
            p.next_state()
            sent = p.send("leave")
            with pytest.raises(WebSocketDisconnect) as closed:  # his seat is gone: the socket closes
                assert p.answer(sent)["type"] == "ack"
                for _ in range(MAX_MESSAGES):  # a presence event may come before the close
                    p.receive()
            assert closed.value.code == 4404
        left = wait_for(h, lambda m: m["type"] == "state" and m["last"] and m["last"].get("seat_change"))
        assert left["last"]["text"].startswith("Nord (Paul, invité) quitte la table")
    live = live_table(client, table_id)
    assert live.seats[2].kind == "bot" and live.seats[2].level == "expert"
    # His page no longer opens the table.
    with paul.acting() as c:
        assert c.get(f"/table/{table_id}").status_code == 404


@pytest.mark.parametrize("name", ["Hote", " HOTE ", "hote", "Ｈｏｔｅ", "Нote", "Marcel", "MarceI"])
def test_a_guest_may_not_take_an_accounts_name(client: TestClient, name: str) -> None:
    """A guest's name equal to an account's (after the account look-up's normalisation) or
    looking like one (TR39 skeleton: a Cyrillic Н, a capital I for an l) is refused, with a
    message; the seat stays the computer's."""
    Person(client, "Marcel").sign_up()
    _host, _, table_id, code = seated_table(client)
    r = Person(client, name).take_seat(code, 1)
    assert r.status_code == 400, r.status_code
    assert "Ce nom est celui d'un compte" in html.unescape(r.text)
    assert live_table(client, table_id).seats[1].kind == "bot"
    assert Person(client, "Paul").take_seat(code, 1).status_code == 303


def test_guests_are_marked_at_the_seat_the_lobby_and_the_invitation(client: TestClient) -> None:
    """A guest's name shows as a guest's wherever it shows: the seats the table sends
    (``guest``), the seats' names ("Nord (Paul, invité)"), the invitation page; an
    account's name shows plain."""
    host, _, table_id, code = seated_table(client, ("Paul", 2))
    lea = Person(client, "Lea")
    lea.sign_up()
    assert lea.take_seat(code, 1).status_code == 303
    with host.connect(table_id) as h:
        state = h.next_state()
    seats = state["table"]["seats"]
    assert seats[2]["name"] == "Paul" and seats[2]["guest"] is True
    assert "guest" not in seats[0] and "guest" not in seats[1]
    assert state["table"]["seat_names"][2] == "Nord (Paul, invité)"
    assert state["table"]["seat_names"][1] == "Est (Lea)"
    text = re.sub(r"<[^>]+>", "", html.unescape(Person(client, "Tom").get(f"/rejoindre/{code}").text))
    assert "Paul (invité)" in text and "Lea (invité)" not in text
    assert live_table(client, table_id).seats[2].guest and not live_table(client, table_id).seats[1].guest


@pytest.mark.parametrize("name", ["\u202eHote", "Ho\u200bte", "Hote\x00", "H" * 10_000, "\ufdfa" * 20])
def test_hostile_guest_names_are_refused_plainly(client: TestClient, name: str) -> None:
    """An RTL override, a zero-width space, NUL, a huge name, a ligature NFKC makes 18 long:
    a refusal with a message (or, for the ligature, a plain seat), never an error page."""
    _host, _, table_id, code = seated_table(client)
    r = Person(client, name).take_seat(code, 1)
    if name == "\ufdfa" * 20:  # an Arabic ligature is a letter: a guest's name like any other
        assert r.status_code == 303
        return
    assert r.status_code == 400 and "Donnez un nom de 1 à 20" in html.unescape(r.text)
    assert live_table(client, table_id).seats[1].kind == "bot"


def test_the_next_deal_says_who_dealt_it_to_the_others(client: TestClient) -> None:
    with started_with_paul(client) as (h, p, table_id):
        seats = {0: h, 2: p}
        for player in seats.values():
            drain(player, live_table(client, table_id).seq)
        seq = lambda: live_table(client, table_id).seq  # noqa: E731
        last = play_deal(seats, seq)
        assert last["awaiting_next_deal"]
        # Paul goes on: the host is told who dealt the next deal, in her words.
        assert p.answer(p.send("next_deal"))["type"] == "ack"
        dealt = drain(h, seq())
        assert not dealt["awaiting_next_deal"] and dealt["game"]["deal_number"] == 2
        assert dealt["dealt_by"] == {"seat": 2, "text": "Nord (Paul, invité) a lancé la donne suivante."}
        mine = drain(p, seq())
        assert mine["dealt_by"]["seat"] == 2 and mine["dealt_by"]["text"] == "Vous avez lancé la donne suivante."
        # Later states of the same deal still say it (a page that missed the deal's state).
        later = play_deal(seats, seq)
        assert later["awaiting_next_deal"] and later["dealt_by"]["seat"] == 2


def test_a_person_back_is_told_what_the_computer_played_for_them(make_client: Any) -> None:
    client = make_client(grace_seconds=0.3, idle_warning_seconds=60, idle_move_seconds=120)
    host, (paul,), table_id, _code = seated_table(client, ("Paul", 2))
    with host.connect(table_id) as h:
        h.next_state()
        with paul.connect(table_id) as p:
            p.next_state()
            wait_for(h, lambda m: m["type"] == "presence" and m["seats"][2]["presence"] == "here")
            assert h.answer(h.send("host", op="start"))["type"] == "ack"
        wait_for(h, lambda m: m["type"] == "state" and m["last"] and m["last"].get("seat_change"))
        live = live_table(client, table_id)
        state = h.latest_state()
        assert state["played_for_you"] is None  # the host played her own moves
        for _ in range(400):
            if len([s for s in live.steps if s.played_by == "away" and s.seat == 2]) >= 2:
                break
            state = h.act(state) if is_my_turn(state) else h.next_state()
        by_computer = [s for s in live.steps if s.played_by == "away" and s.seat == 2]
        assert len(by_computer) >= 2
        with paul.connect(table_id) as p:
            back = p.next_state()
            told = back["played_for_you"]
            assert told is not None and told["count"] == len([s for s in live.steps if s.played_by and s.seat == 2])
            assert told["text"].startswith("Pendant votre absence, l'ordinateur a joué pour vous : ")
            assert told["until"] == max(s.seq for s in live.steps if s.played_by and s.seat == 2)
            # Once he acts himself, it is no longer said.
            seats = {0: h, 2: p}
            for _ in range(400):
                if any(s.seat == 2 and s.kind == "action" and s.played_by is None for s in live.steps):
                    break
                if live.game.awaiting_deal or live.game.is_over:
                    break
                mover = seats.get(live.game.to_move)
                if mover is None:
                    h.next_state()
                    continue
                mine = drain(mover, live.seq)
                if is_my_turn(mine):
                    mover.act(mine)
            if any(s.seat == 2 and s.kind == "action" and s.played_by is None for s in live.steps):
                assert drain(p, live.seq)["played_for_you"] is None


def test_a_host_may_play_without_the_clock(make_client: Any) -> None:
    client = make_client(grace_seconds=60, idle_warning_seconds=0.4, idle_move_seconds=0.8)
    host, (paul,), table_id, _code = seated_table(client, ("Paul", 2), idle_clock="")
    assert not live_table(client, table_id).spec.kind.idle_clock
    with host.connect(table_id) as h, paul.connect(table_id) as p:
        h.next_state()
        p.next_state()
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        parts = client.app.state.parts  # type: ignore[attr-defined]
        assert parts.attendance.clock(table_id) is None


def test_friends_are_built_on_what_they_use_not_on_the_tables_parts(client: TestClient) -> None:
    """``services.py`` builds the feature on its narrow dependencies (the tables' store, the
    tables, who is here, the rate limits, the hub), and the pages ask the application for
    it: no bag of every part to reach through."""
    friends = client.app.state.friends  # type: ignore[attr-defined]
    assert isinstance(friends, Friends)
    used = set(inspect.signature(Friends).parameters)
    assert used == {"store", "db", "settings", "tables", "attendance", "rate_limits", "hub"}
    assert not any("parts" in name for name in vars(friends))
