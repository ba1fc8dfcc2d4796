"""The coach of the first real deals: at each of a newcomer's turns against the computer
(their first three deals) and at every turn of whoever switched it on, one short tip on
their own table socket (``coach``), in their language, that names no card they may not
know."""

from __future__ import annotations

import random
from typing import Any

import pytest
from server_helpers import (
    MAX_MESSAGES,
    Human,
    MakeClient,
    call,
    check_no_leak,
    create_solo,
    is_my_turn,
    live_table,
    new_guest,
    parts_of,
    post_form,
    raw_receive,
    request,
)
from starlette.testclient import TestClient

from coinche.bots.base import Decision, play_card
from coinche.engine.actions import card_of, is_card, make_bid
from coinche.engine.cards import card_str
from coinche.engine.deal import Deal, Phase, View, random_hands
from coinche.engine.messages import Message
from coinche.engine.rules import RuleSet
from coinche.server.features.accounts import AccountStore
from coinche.server.features.coach import Coach
from coinche.server.features.coach.tips import tip
from coinche.server.infra.rows.ratings import PlayerStatsRow
from coinche.server.infra.store import new_id
from coinche.server.table import i18n

FIRST_DEALS = 3
"""A newcomer's deals coached unasked (the site's default)."""

FRENCH_MARKS = (" : ", "é", "è", "à", "ê")
"""French text has them (its colon is spaced), English text has none."""


def coach_of(client: TestClient) -> Coach:
    coach = client.app.state.coach  # type: ignore[attr-defined]
    assert isinstance(coach, Coach)
    return coach


def _call(record: Any) -> Any:
    return record.get("call") if isinstance(record, dict) else record


def declaring(state: dict[str, Any]) -> bool:
    """The seat's turn is the choice of its melds (no tip is given for it)."""
    return any("declare" in a for a in state["game"]["deal"]["legal_actions"])


class Coached(Human):
    """A ``Human`` that, at each of its turns, reads the coach's tip for it (``coached``)
    or checks that none came before it acts (``coached`` False)."""

    coached: bool = True
    tips: list[tuple[dict[str, Any], dict[str, Any]]]

    def until_my_move(self, state: dict[str, Any] | None = None) -> dict[str, Any]:
        state = super().until_my_move(state)
        if self.coached and is_my_turn(state) and not declaring(state):
            self.tips.append((state, self.tip_for(state)))
        return state

    def act(self, state: dict[str, Any]) -> dict[str, Any]:
        """As ``Human``, but the person opens the auction when nobody has bid (every
        deal is played out, none is four passes)."""
        deal = state["game"]["deal"]
        bids = [a for a in deal["legal_actions"] if a.get("call") not in (None, "pass", "coinche", "surcoinche")]
        if deal["phase"] == "auction" and bids and all(_call(c) == "pass" for c in deal["calls"]):
            rng, self.rng = self.rng, None
            try:
                self.ws.send_json(request("action", action=bids[0]))
                me = state["table"]["you"]
                for _ in range(MAX_MESSAGES):
                    reply = self.next_state()
                    if reply.get("last") and reply["last"]["seat"] == me:
                        return reply
            finally:
                self.rng = rng
        return super().act(state)

    def tip_for(self, state: dict[str, Any]) -> dict[str, Any]:
        """The coach's message for the turn ``state`` starts (the next message: nothing
        else comes while the table waits for the person)."""
        for _ in range(MAX_MESSAGES):
            msg = self.receive()
            if msg["type"] == "coach" and msg["seq"] == state["seq"]:
                return msg
            assert msg["type"] in ("ack", "coach", "clock"), msg
        raise AssertionError("no tip")


def coached(ws: Any, rng: random.Random | None = None, on: bool = True) -> Coached:
    human = Coached(ws, rng=rng or random.Random(1), max_deals=1)
    human.coached = on
    human.tips = []
    return human


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_guests_first_deal_has_a_tip_at_each_turn(make_client: MakeClient, lang: str) -> None:
    client = make_client(coach_deals=FIRST_DEALS, coach_bot="confirmed")
    client.cookies.set("lang", lang)
    table_id = create_solo(client, "classic", 1000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = coached(ws)
        human.play_game()
    topics = [t["topic"] for _, t in human.tips]
    assert "auction" in topics and "play" in topics, topics
    for state, t in human.tips:
        phase = state["game"]["deal"]["phase"]
        assert t["topic"] == ("auction" if phase == "auction" else "play"), (phase, t)
        said = " ".join(filter(None, (t["text"], t["trick"])))
        assert any(m in said for m in FRENCH_MARKS) == (lang == "fr"), t
        if t["topic"] == "play" and state["game"]["deal"]["tricks"]:
            assert t["trick"], t  # what happened at the last trick
    with_trick = [t for _, t in human.tips if t["trick"]]
    assert with_trick and all(("dernier pli" if lang == "fr" else "last trick") in t["trick"] for t in with_trick)
    check_no_leak(human.messages, live_table(client, table_id).game.deals, 0)


def _deals_used(client: TestClient, player: str, count: int) -> None:
    store = parts_of(client).store
    for _ in range(count):
        assert store.use_free_deal(player, 100)


def test_the_fourth_deal_has_no_tip_unless_the_coach_is_switched_on(make_client: MakeClient) -> None:
    client = make_client(coach_deals=FIRST_DEALS, coach_bot="confirmed", free_deals=10)
    player, _ = new_guest(client)
    _deals_used(client, player, FIRST_DEALS)  # the next deal dealt is their fourth
    table_id = create_solo(client, "classic", 1000, "beginner")
    assert 'id="coach-button" class="tool" aria-pressed="false"' in client.get(f"/table/{table_id}").text
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = coached(ws, on=False)
        state = human.until_my_move()
        assert is_my_turn(state)
        live = live_table(client, table_id)
        assert not call(client, coach_of(client).coached, live, player)
        assert not [m for m in human.messages if m["type"] == "coach"]
        ws.send_json(request("coach", on=True))
        human.coached = True
        assert human.tip_for(state)["seq"] == state["seq"]  # the turn in front of them, at once
        human.play_game(human.act(state) if not declaring(state) else state)
    assert len(human.tips) > 4
    assert call(client, coach_of(client).switched_on, player)
    # remembered for the next table, and shown on its page
    table_id = create_solo(client, "classic", 1000, "beginner")
    assert 'id="coach-button" class="tool" aria-pressed="true"' in client.get(f"/table/{table_id}").text
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = coached(ws)
        state = human.until_my_move()
        assert human.tips and human.tips[0][0]["seq"] == state["seq"]
        off = request("coach", on=False)
        ws.send_json(off)
        for _ in range(MAX_MESSAGES):
            if raw_receive(ws) == {"type": "ack", "id": off["id"], "seq": state["seq"]}:
                break
    assert not call(client, coach_of(client).switched_on, player)


def test_a_solo_table_started_with_coach_1_switches_it_on(make_client: MakeClient) -> None:
    client = make_client(coach_deals=FIRST_DEALS, coach_bot="confirmed", free_deals=10)
    player, _ = new_guest(client)
    _deals_used(client, player, FIRST_DEALS)
    r = post_form(client, "/solo", {"profile": "classic", "target": "1000", "level": "beginner", "coach": "1"})
    assert r.status_code == 303, r.text
    table_id = r.headers["location"].removeprefix("/table/")
    assert call(client, coach_of(client).switched_on, player)
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = coached(ws)
        human.until_my_move()
        assert human.tips
    bad = post_form(client, "/solo", {"profile": "classic", "target": "1000", "level": "beginner", "coach": "yes"})
    assert bad.status_code == 400


def test_an_account_is_coached_for_its_first_three_deals(make_client: MakeClient) -> None:
    client = make_client(coach_deals=FIRST_DEALS)
    parts = parts_of(client)
    account = AccountStore(parts.store).create("Nouvelle", None, "a long enough password", new_id(12))
    coach = coach_of(client)
    assert call(client, coach.newcomer, account.player)
    with parts.store.session() as s, s.begin():
        s.add(PlayerStatsRow(player_id=account.player, mu=25.0, sigma=8.0, deals_played=FIRST_DEALS - 1))
    assert call(client, coach.newcomer, account.player)
    with parts.store.session() as s, s.begin():
        row = s.get(PlayerStatsRow, account.player)
        assert row is not None
        row.deals_played = FIRST_DEALS
    assert not call(client, coach.newcomer, account.player)


def test_the_coach_request_is_checked(client: TestClient) -> None:
    table_id = create_solo(client, "classic", 1000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = coached(ws, on=False)
        human.next_state()
        ws.send_json({"type": "coach", "id": "c1", "on": "yes"})
        error = human.receive()
        while error["type"] == "coach":
            error = human.receive()
        assert error["type"] == "error" and error["code"] == "malformed" and error["id"] == "c1", error


@pytest.mark.parametrize("seed", ["one", "two"])
def test_no_tip_of_the_expert_names_a_card_the_seat_may_not_know(make_client: MakeClient, seed: str) -> None:
    """Whole deals against the expert's own reasons, every message checked against the
    engine's view of the seat at that step."""
    client = make_client(coach_deals=FIRST_DEALS, table_seed=seed)
    table_id = create_solo(client, "classic", 1000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = coached(ws, rng=random.Random(seed))
        human.play_game()
    assert len(human.tips) >= 8
    check_no_leak(human.messages, live_table(client, table_id).game.deals, 0)


def _positions(seed: int, deals: int) -> list[View]:
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        deal = Deal(RuleSet.profile(("classic", "federation")[d % 2]), rng.randrange(4), random_hands(rng))
        deal.apply(make_bid(80, rng.randrange(4)))
        while not deal.is_over:
            view = deal.view(deal.to_move)
            out.append(view)
            deal.apply(rng.choice(view.legal_actions))
    return out


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_card_tip_names_the_seats_own_cards_and_the_cards_played_only(lang: str) -> None:
    checked = 0
    for view in _positions(3, 30):
        if view.phase is not Phase.PLAY or not is_card(view.legal_actions[0]):
            continue
        card = card_of(view.legal_actions[-1])
        decision: Decision = play_card(card, view.legal_actions, Message.of("bot.only_legal_card"))
        said = tip(lang, view, decision, True)
        text = " ".join(filter(None, (said.text, said.trick)))
        known = {card_str(c) for c in range(32) if view.hand >> c & 1}
        known |= {card_str(c) for t in view.tricks for c in t.cards} | {card_str(c) for c in view.trick}
        for c in range(32):
            code = card_str(c)
            if code in known:
                continue
            for name in (i18n.card_name(lang, code), i18n.card_short(lang, code)):
                assert name.casefold() not in text.casefold(), (code, text)
        checked += 1
    assert checked > 100


def test_a_tip_not_ready_when_the_person_plays_is_never_sent(make_client: MakeClient) -> None:
    """The person plays at once, before the expert has thought: the tips of the turns they
    played are dropped (none comes after its turn is over), and a turn the person waits at
    gets its tip."""
    client = make_client(coach_deals=FIRST_DEALS, bot_workers=2)
    table_id = create_solo(client, "classic", 1000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = coached(ws, rng=None, on=False)
        state = human.until_my_move()
        for _ in range(6):
            state = human.until_my_move(human.act(state))
        assert is_my_turn(state) and not declaring(state)
        assert human.tip_for(state)["seq"] == state["seq"]
    latest = 0
    for message in human.messages:
        if message["type"] == "state":
            latest = message["seq"]
        elif message["type"] == "coach":
            assert message["seq"] == latest, f"a tip for step {message['seq']} sent at step {latest}"
