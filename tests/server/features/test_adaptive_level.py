"""The adaptive level on a luck-free signal (issue 33, item 5): at an adaptive table each
finished deal's double-dummy par is stored as a ``par`` step once the workers computed it,
and the knob moves by the player's score against it, not by the raw score; a table read
again from its log has the same knob; the table's state says what the level follows."""

from __future__ import annotations

import pytest
from server_helpers import call, parts_of
from starlette.testclient import TestClient
from test_daily import account
from test_player_stats import person, play_to_end

from coinche.bots.adaptive import PAR_SHARE, AdaptiveBot
from coinche.bots.analysis import par_margin, par_of_deal
from coinche.bots.base import Decision
from coinche.engine.rules import RuleSet
from coinche.server.features.adaptive_level import AdaptiveLevel
from coinche.server.table.live_table import LiveTable
from coinche.server.table.spec import Seat, Step
from coinche.server.web.seat_state import level_follows

RULES = RuleSet.profile("classic", target=3000)
ADAPTIVE = Seat("bot", level="adaptive")


def adaptive_of(client: TestClient) -> AdaptiveLevel:
    feature = client.app.state.adaptive_level  # type: ignore[attr-defined]
    assert isinstance(feature, AdaptiveLevel)
    return feature


def deals_over(count: int) -> object:
    return lambda live: sum(d.is_over for d in live.game.deals) >= count


def test_the_knob_follows_the_score_against_each_deals_par(client: TestClient) -> None:
    anne = account(client, "Anne")
    parts = parts_of(client)
    spec = call(client, parts.tables.create_table, RULES, (person(anne), ADAPTIVE, ADAPTIVE, ADAPTIVE), "adaptive")
    assert spec.adaptive_par
    play_to_end(client, spec.id, seed=11, until=deals_over(3))  # type: ignore[arg-type]
    call(client, adaptive_of(client).settle)
    live = call(client, parts.tables.table, spec.id)
    assert live is not None
    pars = [step.par for step in live.steps if step.kind == "par"]
    over = [n for n, deal in enumerate(live.game.deals, start=1) if deal.is_over]
    assert not live.game.is_over
    assert sorted(n for n, _ in pars) == over  # one par step a finished deal
    # Each par is the analysis's, and the knob moved by the score against it alone.
    by_hand = AdaptiveBot(level=0.5, human_seat=0, follows_par=True)
    for number, par in pars:
        deal = live.game.deals[number - 1]
        sides = par_of_deal(deal.rules, deal.dealer, deal.dealt)["sides"]
        assert par == par_margin([(s["team"], s["score"]) for s in sides])  # type: ignore[index]
        view = deal.view(1)
        by_hand.observe_result(view)  # the raw score moves nothing
        against = by_hand.observe_against_par(view, par)
        assert live.against_par[number] == against
        result = deal.result()
        if result is not None and result.contract is not None:
            assert against == result.score[0] - result.score[1] - round(PAR_SHARE * par)
    assert live.adaptive_level == pytest.approx(by_hand.level)
    # Read again from the log: the same knob, the same scores against par.
    parts.registry.forget(spec.id)
    again = call(client, parts.tables.table, spec.id)
    assert again is not None
    assert again.adaptive_level == live.adaptive_level and again.against_par == live.against_par
    # The state says what the level follows, and the last deal's score against its par.
    last = live.against_par[max(live.against_par)]
    shown = level_follows("fr", live)
    assert shown is not None and "par" in shown["why"]
    if last is not None:
        sign = "+" if last > 0 else "\u2212" if last < 0 else ""
        assert shown["summary"] == f"Dernière donne : {sign}{abs(last)} face au par."
    english = level_follows("en", live)
    assert english is not None and "against par" in english["summary"] + english["why"]


def test_a_par_is_stored_once_and_never_after_the_game(client: TestClient) -> None:
    """Told twice of a deal's end (a table read again before its bookkeeping was booked):
    one par step. Once the game is over, no par is stored: the level the game was rated
    against is final."""
    anne = account(client, "Anne")
    parts = parts_of(client)
    spec = call(client, parts.tables.create_table, RULES, (person(anne), ADAPTIVE, ADAPTIVE, ADAPTIVE), "adaptive")
    play_to_end(client, spec.id, seed=12, until=deals_over(1))  # type: ignore[arg-type]
    feature = adaptive_of(client)
    call(client, feature.settle)
    live = call(client, parts.tables.table, spec.id)
    assert live is not None
    steps = len(live.steps)

    async def again(table: LiveTable) -> None:
        await feature._store_par(table, 1)

    call(client, again, live)
    assert len(live.steps) == steps and not live.wants_par(1)
    live = play_to_end(client, spec.id, seed=12)  # to the end of the game
    call(client, feature.settle)
    live = call(client, parts.tables.table, spec.id)
    assert live is not None and live.game.is_over
    last = len(live.game.deals)
    assert live.steps[-1].kind == "action" and not live.wants_par(last) and last not in live.against_par


def test_a_table_of_before_follows_the_raw_score(client: TestClient) -> None:
    """A table made before the par (``adaptive_par`` false) keeps its knob on the raw score,
    and gets no par step: its log reads as it always did."""
    anne = account(client, "Anne")
    parts = parts_of(client)
    spec = call(client, parts.tables.create_table, RULES, (person(anne), ADAPTIVE, ADAPTIVE, ADAPTIVE), "adaptive")
    store = parts.store
    from sqlalchemy import update

    from coinche.server.infra.rows.tables import TableRow

    with store.engine.begin() as conn:
        conn.execute(update(TableRow).where(TableRow.id == spec.id).values(adaptive_par=False))
    parts.registry.forget(spec.id)
    play_to_end(client, spec.id, seed=13, until=deals_over(2))  # type: ignore[arg-type]
    call(client, adaptive_of(client).settle)
    live = call(client, parts.tables.table, spec.id)
    assert live is not None and not live.spec.adaptive_par
    assert not [s for s in live.steps if s.kind == "par"] and level_follows("en", live) is None
    by_hand = AdaptiveBot(level=0.5, human_seat=0)
    for deal in live.game.deals:
        if deal.is_over:
            by_hand.observe_result(deal.view(1))
    assert live.adaptive_level == pytest.approx(by_hand.level)


def test_a_par_stored_while_a_computer_thinks_does_not_restart_it(client: TestClient) -> None:
    """A par comes back whenever its analysis is done, often while a computer thinks on the
    next deal: its move, chosen at the step before the par, is still stored (at the next
    step); a move of anyone else since makes it stale."""
    anne = account(client, "Anne")
    parts = parts_of(client)
    spec = call(client, parts.tables.create_table, RULES, (person(anne), ADAPTIVE, ADAPTIVE, ADAPTIVE), "adaptive")

    def computer_to_move_after_a_deal(live: LiveTable) -> bool:
        return sum(d.is_over for d in live.game.deals) >= 1 and live.bot_to_move() is not None

    play_to_end(client, spec.id, seed=13, until=computer_to_move_after_a_deal)
    call(client, adaptive_of(client).settle)
    live = call(client, parts.tables.table, spec.id)
    assert live is not None and live.bot_to_move() is not None
    turn = parts.computers._bot_turn(live, live.bot_to_move())
    decision = Decision(turn.view.legal_actions[0])

    async def par(table: LiveTable) -> Step | None:
        return Step(table.seq, "par", 0, par=(1, 0))

    call(client, parts.tables.write, spec.id, None, par)
    assert live.seq == turn.seq + 1 and not live.moved_on_since(turn.seq)
    step = parts.computers._bot_step(live, turn, decision)
    assert step is not None and step.seq == live.seq and step.action == decision.action

    async def move(table: LiveTable) -> Step | None:
        return parts.computers._bot_step(table, turn, decision)

    call(client, parts.tables.write, spec.id, None, move)
    assert live.moved_on_since(turn.seq) and parts.computers._bot_step(live, turn, decision) is None
