"""The daily challenge's comparison (issue 18 item 2): each deal compared once played,
others' results hidden before; the par; past days with their final ranking, hands and the
expert's result; nothing shows a day's deals early; no hints; the ranking kept in the
database."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import pytest
from server_helpers import Human, call, parts_of
from starlette.testclient import TestClient
from test_daily import DAY, FAST, NOW, Clock, account, daily_of, start

from coinche.bots.analysis import analyse_deal, best_contracts
from coinche.engine.cards import SUIT_MASKS, card_str, cards_of
from coinche.engine.dealing import hands_from_seed
from coinche.engine.rules import RuleSet
from coinche.engine.scoring import parse_contract
from coinche.server.features.daily.model import DEALS, FIRST_DEALER, day_hands
from coinche.server.features.daily.store import ChallengeStore
from coinche.server.table.days import day_end, day_of, next_day
from coinche.server.table.live_table import TableError
from coinche.server.table.matchpoints import Standing


def today_now() -> tuple[str, datetime]:
    """The test's day and moment, as the servers' clock (``Clock``) shows them: a test run
    at midnight does not see its day end under it."""
    return DAY, NOW


def play_deals(client: TestClient, table_id: str, deals: int, seed: int = 7) -> dict[str, Any]:
    """Play the first ``deals`` deals of the attempt at ``table_id``; the last state."""
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        return Human(ws, rng=random.Random(seed), max_deals=deals).play_game()


def test_a_deal_is_compared_once_played_and_hidden_before(make_client: Any) -> None:
    client = make_client(clock=Clock(), **FAST)
    day, now = today_now()
    anne = account(client, "Anne")
    anne_table = start(client, anne, False, now)
    last = play_deals(client, anne_table, 1)
    assert last["awaiting_next_deal"] and last["game"]["deal_number"] == 1
    daily = daily_of(client)
    call(client, daily.settle)

    # Anne has played deal 1, not deal 2: the first is compared, the second hidden.
    page = client.get(f"/defi/{day}/donne/1")
    assert page.status_code == 200, page.text
    assert "Votre résultat" in page.text and "% des points de match" in page.text
    assert f"/table/{anne_table}/donne/1" in page.text  # the review of her own deal
    assert "Le par (double mort)" in page.text and "Nord-Sud" in page.text and "Est-Ouest" in page.text
    assert "Les mains" not in page.text  # the day is not over: no hands on this page
    hidden = client.get(f"/defi/{day}/donne/2")
    assert hidden.status_code == 403 and "restent cachés" in hidden.text
    assert client.get(f"/table/{anne_table}/donne/2").status_code == 404  # not played yet

    # Bruno has not played: every deal of today is hidden from him, and Anne's review too.
    account(client, "Bruno")
    for n in range(1, DEALS + 1):
        assert client.get(f"/defi/{day}/donne/{n}").status_code == 403
    assert client.get(f"/table/{anne_table}/donne/1").status_code == 404
    english = client.get(f"/challenge/{day}/deal/1")
    assert english.status_code == 403 and "stay hidden" in english.text

    # The par is each side's best contract, solved once for the day and stored.
    found = call(client, daily.day, day)
    assert found is not None
    par = call(client, daily.par, day, 1)
    assert par is not None and [s["team"] for s in par["sides"]] == [0, 1]
    assert call(client, daily.db, daily.store.par, day, 1) == par

    # Nothing of today reveals the day's seed or its hands: not the pages, not the table.
    for path in ("/defi", f"/defi/{day}", "/challenge", f"/table/{anne_table}"):
        text = client.get(path).text
        assert found.seed.hex() not in text
    assert client.get(f"/defi/{next_day(day)}").status_code == 404  # tomorrow: no page
    assert call(client, daily.db, daily.store.expert_table, day) is None  # no expert before the end


def test_the_field_and_matchpoints_of_three_players(make_client: Any) -> None:
    client = make_client(clock=Clock(), **FAST)
    day, now = today_now()
    players = []
    for i, name in enumerate(("Anne", "Bruno", "Carla")):
        player = account(client, name)  # signed in as them from now on
        players.append(player)
        table_id = start(client, player, False, now)
        play_deals(client, table_id, DEALS, seed=11 if i < 2 else 12)  # Anne and Bruno play alike
    daily = daily_of(client)
    call(client, daily.settle)
    field = call(client, daily.deal_field, day, 1)
    assert sum(line.count for line in field) == 3
    standings = call(client, daily.ranking, day, now)
    assert {s.player for s in standings} == set(players)
    by = {s.player: s for s in standings}
    assert by[players[0]].percents == by[players[1]].percents
    # Hand-computed from the three scores of each deal: 1 per player beaten, 0.5 per tie, of 2.
    results = call(client, daily.results, day)
    for n in range(1, DEALS + 1):
        scores = {r.player: r.score for r in results if r.deal == n}
        for p in players:
            others = [scores[q] for q in players if q != p]
            expected = 100 * sum(1.0 if scores[p] > o else 0.5 if scores[p] == o else 0.0 for o in others) / 2
            assert by[p].percents[n - 1] == pytest.approx(expected)
    # The ranking page reads the stored lines (the names, the average).
    page = client.get(f"/defi/{day}")
    assert "Anne" in page.text and "Carla" in page.text and "3 joueurs classés" in page.text
    assert 'href="/joueur/Anne"' in page.text and ">1000<" in page.text  # new accounts' rating
    assert client.get("/joueur/Anne").status_code == 200


def test_a_past_day_shows_its_final_ranking_hands_and_the_expert(make_client: Any) -> None:
    clock = Clock()
    client = make_client(clock=clock, **FAST)
    day = DAY
    anne = account(client, "Anne")
    table_id = start(client, anne, False, clock())
    play_deals(client, table_id, DEALS)
    daily = daily_of(client)
    call(client, daily.settle)
    clock.moment += timedelta(days=1)  # the next day: the day played is over
    call(client, daily.finish_days, day_of(clock()))
    call(client, daily.settle)
    expert = call(client, daily.expert_results, day)
    assert [e["deal"] for e in expert] == [1, 2, 3, 4]
    page = client.get(f"/defi/{day}")
    assert page.status_code == 200 and "Classement final" in page.text
    found = call(client, daily.day, day)
    assert found is not None and found.seed.hex() in page.text  # revealed
    assert "en cours de jeu" not in page.text  # the expert's four results are shown
    deal = client.get(f"/defi/{day}/donne/1")
    assert deal.status_code == 200 and "Les mains" in deal.text and "Le résultat de l" in deal.text
    for seat_hand in day_hands(found.seed, day, 1):
        for c in cards_of(seat_hand):
            assert f'data-card="{card_str(c)}"' in deal.text
    # The expert's table plays South too, with the same computers: the same cards.
    live = call(client, parts_of(client).tables.table, expert[0]["table"])
    assert live is not None and live.game.deals[0].dealt == day_hands(found.seed, day, 1)
    # A visitor without an attempt sees a past day's deals as well.
    client.cookies.clear()
    assert client.get(f"/challenge/{day}/deal/3").status_code == 200
    stored = call(client, daily.db, daily.store.ranking_state, day)
    assert stored is not None and stored[1]  # final


def test_bad_addresses_are_404(make_client: Any) -> None:
    client = make_client(clock=Clock(), **FAST)
    day, _now = today_now()
    for path in (
        "/defi/2026-13-45",
        "/defi/hier",
        "/defi/1999-01-01",  # no such day made
        "/defi/2099-01-01",
        f"/defi/{day}/donne/0",
        f"/defi/{day}/donne/5",
        f"/defi/{day}/donne/01",
        f"/defi/{day}/deal/1",  # the English word at the French address
        f"/challenge/{day}/donne/1",
        f"/defi/{day}/donne/" + "9" * 400,
        "/defi/%3Cscript%3E",
    ):
        r = client.get(path)
        assert r.status_code == 404, path
        assert "Traceback" not in r.text
    assert client.get("/defi?jour=2026-01-05", follow_redirects=False).headers["location"] == "/defi/2026-01-05"


def test_no_hints_at_a_challenge_table(make_client: Any) -> None:
    client = make_client(clock=Clock(), **FAST)
    _day, now = today_now()
    anne = account(client, "Anne")
    table_id = start(client, anne, False, now)
    with pytest.raises(TableError) as refused:
        call(client, parts_of(client).computers.hint, table_id, anne)
    assert refused.value.code == "no_hints"


def test_the_stored_ranking_keeps_the_newest(tmp_path: Any) -> None:
    from coinche.server.infra.store import Store

    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    challenge = ChallengeStore(store)
    challenge.ensure_day("2026-12-01", "online", 1)
    newer = [Standing("a", 1, 75.0, (75.0, None, None, None)), Standing("b", 2, 25.0, (25.0, None, None, None))]
    assert challenge.save_standings("2026-12-01", newer, 2, False)
    assert not challenge.save_standings("2026-12-01", newer[:1], 1, False)  # older: refused
    assert [line.player for line in challenge.standings("2026-12-01", 10)] == ["a", "b"]
    assert [line.player for line in challenge.standings("2026-12-01", 1, "b")] == ["a", "b"]  # own line added
    assert challenge.save_standings("2026-12-01", newer, 2, True)
    assert not challenge.save_standings("2026-12-01", newer, 2, True)  # final, as many results: kept
    assert not challenge.save_standings("2026-12-01", newer, 3, False)  # final: never back to not final
    assert challenge.ranking_state("2026-12-01") == (2, True)
    assert challenge.save_standings("2026-12-01", newer, 3, True)  # a result after midnight: not lost
    assert challenge.ranking_state("2026-12-01") == (3, True)
    store.close()


@pytest.mark.parametrize("profile", ["online", "classic", "federation", "house"])
def test_each_side_s_best_contract_is_one_it_makes(profile: str) -> None:
    rules = RuleSet.profile(profile)
    rng = random.Random(profile)
    for _ in range(6):
        hands = hands_from_seed(rng.randbytes(32), 3)
        rows = analyse_deal(rules, 3, hands)
        for side in best_contracts(rules, hands, rows):
            bids = [row.best_bid[s] for row in rows for s in (side.team, side.team + 2) if row.best_bid[s] is not None]
            sweeps = [row.sweep[s] for row in rows for s in (side.team, side.team + 2) if row.sweep[s] is not None]
            assert (side.call is None) == (not bids and not sweeps)
            if side.call is None:
                assert side.score == (0, 0)
                continue
            assert side.taker is not None and side.taker % 2 == side.team
            parse_contract(side.call, rules, side.taker)
            # A made contract scores at least its value: the best scores at least the highest bid made.
            assert side.score[side.team] >= max(bids, default=0)


def test_the_par_of_a_deal_of_four_long_suits() -> None:
    """South holds the eight spades, West the hearts, North the diamonds, East the clubs;
    South leads. With spades South wins every trick (the others cannot follow, nor ruff),
    and likewise West with hearts once South's lead is ruffed: each side's best is the sweep
    by the one who holds the trumps. RULES.md 5.4 (online, no générale): a made capot is
    V 250 + the sweep's 250 + the belote 20 = 520; 5.1 (classic): a made générale is
    500 + 500 + 20 = 1020; the defense scores nothing."""
    hands = (SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2], SUIT_MASKS[3])
    online = RuleSet.profile("online")
    ns, ew = best_contracts(online, hands, analyse_deal(online, 3, hands))
    assert (ns.call, ns.taker, ns.score) == ("capotS", 0, (520, 0))
    assert (ew.call, ew.taker, ew.score) == ("capotH", 1, (0, 520))
    classic = RuleSet.profile("classic")
    ns, ew = best_contracts(classic, hands, analyse_deal(classic, 3, hands))
    assert (ns.call, ns.taker, ns.score) == ("generaleS", 0, (1020, 0))
    assert (ew.call, ew.taker) == ("generaleH", 1)


def test_the_pages_name_each_seat_as_the_table_does(make_client: Any) -> None:
    """The table says "Preneur : Ouest": the challenge's pages say "par Ouest" too (the
    seats as ``seating`` places them for the day's rules, not a layout of their own)."""
    clock = Clock()
    client = make_client(clock=clock, **FAST)
    anne = account(client, "Anne")
    table_id = start(client, anne)
    last = play_deals(client, table_id, DEALS)
    names = last["table"]["seat_names"]
    assert last["table"]["direction"] == "anticlockwise" and names[1] != "Ouest" and names[3] == "Ouest"
    results = {r.deal: r for r in call(client, daily_of(client).results, DAY, anne)}
    clock.moment = day_end(DAY)  # the day is over: its hands are shown too
    takers = set()
    for n in range(1, DEALS + 1):
        page = client.get(f"/defi/{DAY}/donne/{n}")
        assert page.status_code == 200, page.text
        assert f"Donneur : {names[(FIRST_DEALER + n - 1) % 4]}." in page.text
        taker = results[n].taker
        if taker is not None:
            takers.add(taker)
            assert f"par {names[taker]}" in page.text
        for seat in range(4):
            assert f"<dt>{names[seat]}</dt>" in page.text
    assert takers  # some deal was taken (the check above did run)
