"""Your mistakes as puzzles (issue 50): a person's costly decisions kept from their deals,
shown from what they could know then, judged on the workers' values, and retired once
solved on three different days."""

from __future__ import annotations

import html
import random
import re
from datetime import timedelta
from typing import Any

from friends_helpers import Person
from server_helpers import (
    Clock,
    Human,
    MakeClient,
    another_visitor,
    call,
    create_solo,
    hidden_cards,
    post_form,
)
from sqlalchemy import select
from starlette.testclient import TestClient

from coinche.bots.accuracy import costly
from coinche.bots.analysis import step_indices
from coinche.bots.loading import load_bot
from coinche.engine.cards import card_str, cards_of
from coinche.engine.deal import Deal, random_hands
from coinche.engine.rules import RuleSet
from coinche.server.compute.job_kinds import analyse
from coinche.server.features.mistakes import (
    PER_DEAL,
    SOLVED_DAYS,
    MistakeRow,
    mistake_job,
    read_mistake,
    run_mistake,
)
from coinche.server.table import i18n

MAX_DEALS = 6


def mistakes(client: TestClient, player: str | None = None) -> list[MistakeRow]:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        query = select(MistakeRow)
        if player is not None:
            query = query.where(MistakeRow.player_id == player)
        return list(s.scalars(query))


def play_until_a_mistake(c: TestClient) -> tuple[str, list[MistakeRow]]:
    """Deals of a solo table played at random until the person has made a mistake."""
    table_id = create_solo(c, "classic", 3000, "beginner")
    with c.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, max_deals=1)
        state = None
        for n in range(1, MAX_DEALS + 1):
            human.max_deals = n
            state = human.play_game(state)
            call(c, c.app.state.accuracies.settle)  # type: ignore[attr-defined]
            found = mistakes(c)
            if found:
                return table_id, found
    raise AssertionError(f"no mistake in {MAX_DEALS} deals played at random")


def shown_cards(page: str) -> set[str]:
    return set(re.findall(r'data-card="([2-9TJQKA][SHDC])"', page))


def test_a_persons_mistakes_come_back_as_their_own_puzzles(make_client: MakeClient) -> None:
    clock = Clock()
    client = make_client(free_deals=100, deal_accuracy=True, clock=clock)
    person = Person(another_visitor(client), "Erreur")
    person.sign_up()
    with person.acting() as c:
        table_id, found = play_until_a_mistake(c)
        me = c.app.state.parts.registry.get(table_id).seats  # type: ignore[attr-defined]
        player = next(s.player for s in me if s.kind == "human")
        assert {m.player_id for m in found} == {player}  # the person's only, never a computer's
        by_deal: dict[int, int] = {}
        for m in found:
            by_deal[m.deal] = by_deal.get(m.deal, 0) + 1
        assert max(by_deal.values()) <= PER_DEAL
        listing = html.unescape(c.get("/mes-erreurs").text)
        assert i18n.gettext("fr", "mistakes.list_title") in listing
        mistake = found[0]
        url = f"/mes-erreurs/{mistake.id}"
        assert f'href="{url}"' in listing

        # The position as the person saw it: no card of another hand is named.
        row = c.app.state.mistakes  # type: ignore[attr-defined]
        stored = call(c, row.get, mistake.id)
        position = stored.position
        hidden = hidden_cards(position, mistake.seat)
        page = html.unescape(c.get(url).text)
        assert not shown_cards(page) & hidden
        assert not [code for code in hidden if i18n.card_name("fr", code) in page]
        english = html.unescape(c.get(f"/my-mistakes/{mistake.id}").text)
        assert not shown_cards(english) & hidden
        mine = {card_str(x) for x in cards_of(position.hands[mistake.seat])}
        if mistake.kind == "card":
            assert {code for code, _ in stored.values} <= mine

        # Not an answer of the position: the page again, nothing counted.
        field = "card" if mistake.kind == "card" else "call"
        bad = post_form(c, url, {field: "ZZ"}, page=url)
        assert bad.status_code == 400
        assert mistakes(c, player)[0].tries == 0 or all(m.tries == 0 for m in mistakes(c, player))

        # The best answer solves it, once a day; three days and it leaves the list.
        best = stored.values[0][0]
        for day in range(SOLVED_DAYS):
            for _ in range(2):  # twice the same day counts once
                r = post_form(c, url, {field: best}, page=url)
                assert r.status_code == 200, r.text
                text = html.unescape(r.text)
                assert "Bien joué" in text
            if mistake.kind == "card":
                assert "Pli " in text  # the solver's line, said as tricks
            if day < SOLVED_DAYS - 1:
                assert url in c.get("/mes-erreurs").text
            clock.now += timedelta(days=1)
        kept = next(m for m in mistakes(c, player) if m.id == mistake.id)
        assert kept.retired and len(kept.solved_days) == SOLVED_DAYS and kept.tries == 2 * SOLVED_DAYS
        assert url not in c.get("/mes-erreurs").text

    # Nobody else opens it, nor answers it.
    stranger = another_visitor(client)
    assert stranger.get(url).status_code == 404
    assert post_form(stranger, url, {field: best}).status_code in (403, 404)


def test_a_wrong_answer_is_shown_why(make_client: MakeClient) -> None:
    client = make_client(free_deals=100, deal_accuracy=True)
    person = Person(another_visitor(client), "Encore")
    person.sign_up()
    with person.acting() as c:
        _table_id, found = play_until_a_mistake(c)
        mistake = found[0]
        url = f"/my-mistakes/{mistake.id}"
        stored: Any = call(c, c.app.state.mistakes.get, mistake.id)  # type: ignore[attr-defined]
        worst = stored.values[-1][0]
        field = "card" if mistake.kind == "card" else "call"
        if stored.solves(worst):
            return  # every answer as good as the best: nothing wrong to give
        r = post_form(c, url, {field: worst}, page=url)
        assert r.status_code == 200
        text = html.unescape(r.text)
        assert "Not yet" in text and ("The best:" in text or "The expert values" in text)
        assert next(m for m in mistakes(c) if m.id == mistake.id).solved_days == []


def test_every_costly_decision_of_random_deals_gets_its_values_and_line() -> None:
    """The workers' part on the positions of random deals of every profile, the first
    trick's declarations (classic) included: the values, the best first, and a card's line
    played out by the engine to the deal's end, said trick by trick."""
    for profile in ("classic", "online", "federation", "house"):
        rules = RuleSet.profile(profile)
        for seed in range(6):
            rng = random.Random(seed)
            deal = Deal(rules, seed & 3, random_hands(rng))
            bots = [load_bot("random", seed=seed * 4 + s) for s in range(4)]
            while not deal.is_over:
                deal.apply(bots[deal.to_move].choose(deal.view(deal.to_move)).action)
            analysis = analyse(rules, deal.dealer, deal.dealt, deal.log)
            index_of = step_indices(deal.log)
            for d in costly(analysis):
                data = read_mistake(run_mistake(mistake_job(deal, index_of[d["step"]]).args))
                assert data["kind"] == d["kind"] and data["values"][0][1] == max(v for _, v in data["values"])
                if d["kind"] == "card":
                    assert data["line"][0] in d["best"] and len(data["line"]) >= 1
