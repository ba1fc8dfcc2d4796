"""End of the game (RULES.md section 6), dealer rotation and void deals.

Deals are scripted: ``Game(rules, first_dealer=0, auto_deal=False)`` and
``game.next_deal(hands)``, with hands built so that the play is forced enough to know the
result. A seat holding all eight hearts in a hearts contract wins every trick; each seat
plays the first legal card in the order its hand is written. Targets are small
(``target`` is a table option) so that one or a few deals reach them.

With ``first_dealer=0`` the dealer of deal k (from 1) is seat k - 1 and seat k leads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from coinche.engine.actions import ANNOUNCE, PASS, is_declaration, parse_call
from coinche.engine.cards import parse_card, parse_cards
from coinche.engine.deal import DealResult
from coinche.engine.errors import IllegalAction
from coinche.engine.game import Game
from coinche.engine.rules import RuleSet

SUIT_HANDS = {
    "H": "JH 9H AH TH KH QH 8H 7H",
    "S": "7S 8S 9S TS JS QS KS AS",
    "D": "7D 8D 9D TD JD QD KD AD",
    "C": "7C 8C 9C TC JC QC KC AC",
}


# --- hands ------------------------------------------------------------------------------


def seated(by_offset: Sequence[str], first: int) -> list[str]:
    """Hands given from seat ``first`` on (playing order) to hands by seat."""
    out = [""] * 4
    for k, h in enumerate(by_offset):
        out[(first + k) % 4] = h
    return out


def sweep_hands(x: int) -> list[str]:
    """Seat x holds all the hearts, the others one plain suit each: in a hearts contract
    seat x wins every trick, and with KH QH it has the belote."""
    return seated([SUIT_HANDS["H"], SUIT_HANDS["S"], SUIT_HANDS["D"], SUIT_HANDS["C"]], x)


def belote_failure_hands(x: int) -> list[str]:
    """Seat x (leading) holds six hearts and AD AC; seat x + 1 holds KH QH. In a hearts
    contract seat x wins every trick; seat x + 1 plays KH then QH on its JH and 9H."""
    return seated(
        [
            "JH 9H AH TH 8H 7H AD AC",
            "KH QH 7S 8S 9S TS JS QS",
            "KS AS 7D 8D 9D TD JD QD",
            "KD 7C 8C 9C TC JC QC KC",
        ],
        x,
    )


def split_hands(x: int) -> list[str]:
    """Seat x (leading) wins seven trump tricks; seat x + 1 keeps AS for the last trick,
    which brings its team AS 11 + 10 for the last trick = 21 card points."""
    return seated(
        [
            "JH 9H AH TH KH QH 8H 7S",
            "7H KS QS JS TS 9S 8S AS",
            "AD KD QD JD TD 9D 8D 7D",
            "AC KC QC JC TC 9C 8C 7C",
        ],
        x,
    )


# --- playing --------------------------------------------------------------------------


def play_deal(
    game: Game,
    hands: Sequence[str],
    calls: str,
    announce: Iterable[int] = (),
    declare: Iterable[int] = (),
) -> DealResult:
    """Deal ``hands`` (by seat), make the ``calls`` from dealer + 1 on, and play: each seat
    plays the first legal card in the order its hand is written. Seats in ``announce``
    announce their belote; seats in ``declare`` declare all their melds, others none."""
    order = [[parse_card(w) for w in h.split()] for h in hands]
    announce, declare = set(announce), set(declare)
    deal = game.next_deal([parse_cards(h) for h in hands])
    for call in calls.split():
        game.apply(parse_call(call))
    while not deal.is_over:
        seat = deal.to_move
        acts = game.legal_actions()
        if all(is_declaration(a) for a in acts):
            game.apply(acts[0] if seat in declare else acts[-1])
            continue
        c = next(c for c in order[seat] if c in acts)
        game.apply(c + ANNOUNCE if seat in announce and c + ANNOUNCE in acts else c)
    res = deal.result()
    assert res is not None
    return res


def profile(name: str, target: int) -> RuleSet:
    return RuleSet.profile(name, target=target)


def new_game(rules: RuleSet, first_dealer: int = 0) -> Game:
    return Game(rules, first_dealer=first_dealer, auto_deal=False)


# --- the archetypes score what we think -----------------------------------------------


@pytest.mark.parametrize(
    ("name", "sweep_taker", "sweep_taker_belote", "set_award", "split_taker"),
    [
        ("classic", 330, 350, 330, 221),
        ("federation", 330, 350, 240, 220),
        ("house", 240, 260, 240, 220),
        ("online", 330, 350, 240, 221),
    ],
)
def test_archetype_scores(
    name: str, sweep_taker: int, sweep_taker_belote: int, set_award: int, split_taker: int
) -> None:
    rules = profile(name, 10000)
    # Deal 1: dealer 0, seat 1 has all hearts and takes: a sweep by the taker alone.
    g = new_game(rules)
    res = play_deal(g, sweep_hands(1), "80H pass pass pass")
    assert res.sweep == "taker_alone" and res.made
    assert res.score == (0, sweep_taker)
    g = new_game(rules)
    res = play_deal(g, sweep_hands(1), "80H pass pass pass", announce=[1])
    assert res.belote == (0, 20)
    assert res.score == (0, sweep_taker_belote)
    # Seat 2 takes, seat 1 (defense) holds all hearts: the takers fail, swept.
    g = new_game(rules)
    res = play_deal(g, sweep_hands(1), "pass 80H pass pass pass")
    assert res.sweep == "defense" and res.made is False
    assert res.score == (0, set_award)
    # Seat 2 takes 80H and holds KH QH; seat 1 sweeps with six hearts and two aces.
    g = new_game(rules)
    res = play_deal(g, belote_failure_hands(1), "pass 80H pass pass pass", announce=[2])
    assert res.sweep == "defense" and res.made is False
    assert res.belote == (20, 0)
    assert res.score == (20, set_award)  # the takers (team 0) keep their belote
    # Seat 1 takes and wins seven tricks, seat 2 takes the last with AS.
    g = new_game(rules)
    res = play_deal(g, split_hands(1), "80H pass pass pass")
    assert res.made
    assert res.card_points == (21, 141)
    assert res.score == ({"house": 20, "federation": 20}.get(name, 21), split_taker)


# --- dealer rotation and void deals ---------------------------------------------------


@pytest.mark.parametrize("first_dealer", range(4))
def test_dealer_rotates_every_deal_also_after_a_void_deal(first_dealer: int) -> None:
    g = new_game(profile("online", 10000), first_dealer=first_dealer)
    assert g.awaiting_deal
    assert g.next_dealer == first_dealer
    for k in range(6):
        dealer = (first_dealer + k) % 4
        assert g.next_dealer == dealer
        if k % 2 == 0:
            res = play_deal(g, sweep_hands(0), "pass pass pass pass")
            assert res.contract is None
            assert res.score == (0, 0)
        else:
            play_deal(g, sweep_hands((dealer + 1) % 4), "80H pass pass pass")
        assert g.deals[-1].dealer == dealer
        assert g.infos[-1].dealer == dealer
    assert [d.dealer for d in g.deals] == [(first_dealer + k) % 4 for k in range(6)]


def test_void_deal_scores_nothing() -> None:
    g = new_game(profile("classic", 100))
    res = play_deal(g, sweep_hands(1), "pass pass pass pass")
    assert res.contract is None
    assert g.history == [(0, 0)]
    assert g.totals == [0, 0]
    assert g.winner is None
    assert g.awaiting_deal
    # The next deal is dealt by the next seat, who is dealer + 1 of the void deal.
    d = g.next_deal([parse_cards(h) for h in sweep_hands(2)])
    assert d.dealer == 1
    assert d.to_move == 2


def test_void_deals_with_auto_deal_rotate_the_dealer() -> None:
    g = Game(RuleSet.profile("online"), seed=5, first_dealer=2)
    assert g.current is not None and g.current.dealer == 2
    for k in range(5):
        for _ in range(4):
            g.apply(PASS)
        assert g.history[-1] == (0, 0)
        assert g.current.dealer == (2 + k + 1) % 4
        assert g.current.to_move == (2 + k + 2) % 4
    assert g.totals == [0, 0]
    assert len(g.deals) == 6


def test_next_deal_refused_while_a_deal_runs_or_after_the_end() -> None:
    g = new_game(profile("online", 100))
    g.next_deal([parse_cards(h) for h in sweep_hands(1)])
    with pytest.raises(IllegalAction):
        g.next_deal([parse_cards(h) for h in sweep_hands(1)])
    for call in ["80H", "pass", "pass", "pass"]:
        g.apply(parse_call(call))
    while g.current is not None and not g.current.is_over:
        g.apply(g.legal_actions()[0])
    assert g.winner == 1
    assert g.is_over
    assert g.legal_actions() == []
    with pytest.raises(IllegalAction):
        g.next_deal([parse_cards(h) for h in sweep_hands(1)])
    with pytest.raises(IllegalAction):
        g.apply(PASS)


# --- first to reach wins (every profile) ----------------------------------------------


@pytest.mark.parametrize("name", ["classic", "federation", "house", "online"])
def test_first_team_to_reach_the_target_wins(name: str) -> None:
    g = new_game(profile(name, 550))
    play_deal(g, sweep_hands(1), "80H pass pass pass")  # team 1
    assert g.winner is None
    play_deal(g, sweep_hands(2), "80H pass pass pass")  # team 0
    assert g.winner is None
    play_deal(g, sweep_hands(3), "160H pass pass pass")  # team 1 passes 550
    assert g.totals[1] >= 550 > g.totals[0]
    assert g.winner == 1
    assert g.view(0).winner == 1


@pytest.mark.parametrize("name", ["classic", "federation", "house", "online"])
def test_reaching_the_target_exactly_wins(name: str) -> None:
    rules = profile(name, 10000)
    g = new_game(rules)
    score = play_deal(g, sweep_hands(1), "80H pass pass pass").score[1]
    g = new_game(profile(name, score))
    play_deal(g, sweep_hands(1), "80H pass pass pass")
    assert g.totals == [0, score]
    assert g.winner == 1
    g = new_game(profile(name, score + 1))
    play_deal(g, sweep_hands(1), "80H pass pass pass")
    assert g.winner is None


# --- both reach: higher total; tie: play on (online) ----------------------------------


def _online_both_reach(v1: int, target: int) -> Game:
    """Deal 1: team 1 sweeps v1 H (250 + v1). Deal 2: seat 3 (team 1) takes 100H, is
    coinched by seat 0 and fails, keeping its belote: team 0 160 + 200 = 360, team 1 20."""
    g = new_game(profile("online", target))
    play_deal(g, sweep_hands(1), f"{v1}H pass pass pass")
    assert g.totals == [0, 250 + v1]
    assert g.winner is None
    play_deal(g, belote_failure_hands(2), "pass 100H coinche pass pass pass", announce=[3])
    assert g.history[-1] == (360, 20)
    return g


def test_online_both_reach_higher_total_wins() -> None:
    g = _online_both_reach(80, 345)
    assert g.totals == [360, 350]
    assert g.winner == 0
    g = _online_both_reach(100, 355)
    assert g.totals == [360, 370]
    assert g.winner == 1


def test_online_tie_plays_on() -> None:
    g = _online_both_reach(90, 350)
    assert g.totals == [360, 360]
    assert g.winner is None
    assert g.awaiting_deal
    play_deal(g, sweep_hands(3), "pass 80H pass pass pass")  # seat 0 takes, seat 3 sweeps
    assert g.history[-1] == (0, 240)
    assert g.winner == 1


# --- classic: not thanks to this deal's melds or belote -------------------------------


def test_classic_passing_only_thanks_to_the_belote_plays_on() -> None:
    g = new_game(profile("classic", 340))
    res = play_deal(g, sweep_hands(1), "80H pass pass pass", announce=[1])
    assert res.score == (0, 350)  # 80 + 250 + 20: 330 without the belote
    assert g.winner is None
    # One more deal: team 0 sweeps 330, team 1 keeps 350 and now wins.
    play_deal(g, sweep_hands(2), "80H pass pass pass")
    assert g.totals == [330, 350]
    assert g.winner == 1


def test_classic_passing_with_the_card_points_wins_despite_a_belote() -> None:
    g = new_game(profile("classic", 330))
    play_deal(g, sweep_hands(1), "80H pass pass pass", announce=[1])
    assert g.winner == 1


def test_classic_passing_only_thanks_to_the_melds_plays_on() -> None:
    g = new_game(profile("classic", 400))
    res = play_deal(g, sweep_hands(1), "80H pass pass pass", declare=[1])
    # All eight hearts: a cent (A K Q J 10) and a tierce (9 8 7), I-3.
    assert res.melds == (0, 120)
    assert res.score == (0, 450)
    assert g.winner is None
    play_deal(g, sweep_hands(2), "80H pass pass pass")
    assert g.winner == 1


def test_classic_coinched_melds_are_part_of_the_deal_bonus() -> None:
    # 80H coinched, swept with 120 melds: (80 + 250 + 120) x 2 = 900; without the melds
    # 660. The target 700 is passed only thanks to the (doubled) melds.
    g = new_game(profile("classic", 700))
    res = play_deal(g, sweep_hands(1), "80H coinche pass pass pass", declare=[1])
    assert res.score == (0, 900)
    assert g.winner is None
    g = new_game(profile("classic", 660))
    play_deal(g, sweep_hands(1), "80H coinche pass pass pass", declare=[1])
    assert g.winner == 1


def test_classic_both_pass_higher_total_wins() -> None:
    g = new_game(profile("classic", 351))
    play_deal(g, sweep_hands(1), "80H pass pass pass")
    play_deal(g, sweep_hands(2), "80H pass pass pass")
    assert g.totals == [330, 330]
    assert g.winner is None
    # Seat 3 takes and makes, seat 0 wins the last trick: 221 and 21.
    play_deal(g, split_hands(3), "80H pass pass pass")
    assert g.totals == [351, 551]
    assert g.winner == 1


# --- house: no exit in defense, more points than the other team ------------------------


def _house_defense_crosses() -> Game:
    """Team 1 reaches 310 as the defense of a made contract (target 300)."""
    g = new_game(profile("house", 300))
    play_deal(g, sweep_hands(1), "130H pass pass pass")  # team 1: 130 + 162 -> 290
    assert g.totals == [0, 290]
    play_deal(g, split_hands(2), "80H pass pass pass")  # team 0 makes: 220; team 1: 20
    assert g.history[-1] == (220, 20)
    assert g.totals == [220, 310]
    return g


def test_house_cannot_win_in_defense_of_a_made_contract() -> None:
    g = _house_defense_crosses()
    assert g.winner is None


def test_house_wins_as_takers_who_made() -> None:
    g = _house_defense_crosses()
    play_deal(g, sweep_hands(3), "80H pass pass pass")  # team 1 takes and makes
    assert g.winner == 1


def test_house_wins_in_defense_by_making_the_takers_fail() -> None:
    g = _house_defense_crosses()
    # Dealer 2: seat 3 has all hearts, seat 0 (team 0) takes 80H and is swept.
    play_deal(g, sweep_hands(3), "pass 80H pass pass pass")
    assert g.history[-1] == (0, 240)
    assert g.winner == 1


def test_house_takers_crossing_with_fewer_points_than_the_defense_play_on() -> None:
    g = new_game(profile("house", 490))
    # Team 1 takes 160H coinched by seat 2 and sweeps: 160 x 2 + 160 = 480.
    play_deal(g, sweep_hands(1), "160H coinche pass pass pass")
    assert g.totals == [0, 480]
    # Team 0 makes 80H, team 1 gets 20 in defense: 500, no exit in defense.
    play_deal(g, split_hands(2), "80H pass pass pass")
    assert g.totals == [220, 500]
    assert g.winner is None
    # Dealer 2: seat 0 (team 0) has all hearts, takes 110H: 110 + 162 -> 270 = 490.
    play_deal(g, sweep_hands(0), "pass 110H pass pass pass")
    assert g.totals == [490, 500]
    assert g.winner is None  # team 0 made and passed, but team 1 has more
    # Dealer 3: seat 0 sweeps again, 80H: 240 more, team 0 now ahead.
    play_deal(g, sweep_hands(0), "80H pass pass pass")
    assert g.totals == [730, 500]
    assert g.winner == 0


# --- federation: belote validation (I-8) --------------------------------------------


def _federation_reached_by_belote() -> Game:
    """Team 1 reaches 520 only with its belote, in a deal where it failed and was swept."""
    g = new_game(profile("federation", 520))
    res = play_deal(g, sweep_hands(1), "capotH pass pass pass")  # 252 + 250 -> 500
    assert res.made
    assert g.totals == [0, 500]
    # Dealer 1: seat 3 takes 80H with KH QH, seat 2 sweeps: team 0 240, team 1 20.
    play_deal(g, belote_failure_hands(2), "pass 80H pass pass pass", announce=[3])
    assert g.history[-1] == (240, 20)
    assert g.totals == [240, 520]
    return g


def test_federation_reaching_only_through_belote_in_a_failed_deal_is_not_a_win() -> None:
    g = _federation_reached_by_belote()
    assert g.winner is None
    assert g.awaiting_deal


def test_federation_victory_validated_by_a_trick_in_a_later_deal() -> None:
    g = _federation_reached_by_belote()
    # Dealer 2: seat 3 (team 1) leads with all hearts; seat 0 takes 80H and fails.
    play_deal(g, sweep_hands(3), "pass 80H pass pass pass")
    assert g.winner == 1


def test_federation_no_trick_no_validation() -> None:
    g = _federation_reached_by_belote()
    # Dealer 2: seat 0 holds all hearts; seat 1 (team 1) takes 80H and is swept.
    play_deal(g, sweep_hands(0), "pass pass 80H pass pass pass")
    assert g.history[-1] == (240, 0)
    assert g.totals == [480, 520]
    assert g.winner is None
    # Dealer 3: seat 1 (team 1) holds all hearts and takes: it wins tricks, validated.
    play_deal(g, sweep_hands(1), "pass 80H pass pass pass")
    assert g.winner == 1


def test_federation_reaching_with_card_points_needs_no_validation() -> None:
    g = new_game(profile("federation", 500))
    play_deal(g, sweep_hands(1), "capotH pass pass pass")
    assert g.winner == 1


@pytest.mark.parametrize("name", ["classic", "house", "online"])
def test_no_belote_validation_outside_federation(name: str) -> None:
    # Team 1 reaches the target with a failed deal's belote; only federation asks for a
    # later trick. (classic: the belote of that deal never wins; house: failed takers
    # never win; online: it wins at once.)
    rules = profile(name, 10000)
    g = new_game(rules)
    play_deal(g, sweep_hands(1), "80H pass pass pass")
    first = g.totals[1]
    g = new_game(profile(name, first + 20))
    play_deal(g, sweep_hands(1), "80H pass pass pass")
    play_deal(g, belote_failure_hands(2), "pass 80H pass pass pass", announce=[3])
    assert g.totals[1] == first + 20
    assert g.totals[0] < first + 20
    expected = {"classic": None, "house": None, "online": 1}[name]
    assert g.winner == expected
