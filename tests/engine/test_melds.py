"""Melds: detection, the I-9 choice, comparison (RULES.md section 4, I-3 I-4 I-5 I-9)."""

from __future__ import annotations

import random

import pytest

from coinche.engine.cards import (
    ALL_TRUMP,
    CLUBS,
    FULL_DECK,
    HEARTS,
    NO_TRUMP,
    SPADES,
    parse_card,
    parse_cards,
)
from coinche.engine.melds import (
    Meld,
    best_meld,
    best_melds,
    compare_teams,
    hand_melds,
    is_valid_declaration,
    meld_key,
    melds_points,
    parse_meld,
)


def names(melds: tuple[Meld, ...] | list[Meld]) -> list[str]:
    return [m.name for m in melds]


def m(text: str) -> Meld:
    return parse_meld(text)


# --- parsing and naming -----------------------------------------------------------


def test_parse_runs_and_squares() -> None:
    t = m("tierce AH")
    assert (t.kind, t.cards, t.top, t.points) == ("tierce", parse_cards("AH KH QH"), parse_card("AH"), 20)
    assert m("cinquante KD").cards == parse_cards("KD QD JD TD")
    assert m("cinquante KD").points == 50
    assert m("cent AS").cards == parse_cards("AS KS QS JS TS")
    assert m("cent AS").points == 100
    assert m("tierce 9C").cards == parse_cards("9C 8C 7C")
    j = m("carre J")
    assert j.is_square() and not t.is_square()
    assert j.cards == parse_cards("JS JH JD JC")
    assert j.top == parse_card("JS")
    assert j.points == 200
    assert m("carre 9").points == 150
    assert {m(f"carre {r}").points for r in "ATKQ"} == {100}


def test_parse_is_lenient_on_case_and_returns_interned_melds() -> None:
    assert m("  Tierce ah ") is m("tierce AH")
    assert m("CARRE j") is m("carre J")
    assert m("carré 10") is m("carre T")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("carre 7", "7s or four 8s"),
        ("carre 8", "7s or four 8s"),
        ("carre X", "rank"),
        ("carre JH", "rank"),
        ("quinte AH", "unknown kind"),
        ("tierce ZZ", "not a card"),
        ("tierce 8H", "only 1 below"),
        ("cent TS", "only 3 below"),
        ("tierce", "expected a kind and a card"),
        ("tierce AH KH", "expected a kind and a card"),
        ("", "expected a kind and a card"),
    ],
)
def test_parse_errors(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        parse_meld(text)


def test_full_deck_melds_round_trip() -> None:
    every = hand_melds(FULL_DECK)
    # 6 squares, and per suit 6 tierces + 5 cinquantes + 4 cents.
    assert len(every) == 6 + 4 * (6 + 5 + 4)
    assert len(set(every)) == len(every)
    for meld in every:
        assert parse_meld(meld.name) == meld
        assert parse_meld(meld.name).name == meld.name
        assert str(meld) == meld.name


# --- detection ---------------------------------------------------------------------


def test_no_meld_hands() -> None:
    assert best_melds(0, HEARTS) == ()
    assert hand_melds(0) == []
    hand = parse_cards("AH KH JH 9S 8S AC TD 7D")
    assert hand_melds(hand) == []
    assert best_melds(hand, HEARTS) == ()


def test_squares_of_seven_and_eight_are_not_melds() -> None:
    hand = parse_cards("7S 7H 7D 7C 8S 8H 8D 8C")
    assert hand_melds(hand) == []
    assert best_melds(hand, SPADES) == ()


def test_hand_melds_lists_every_position_and_length() -> None:
    hand = parse_cards("AH KH QH JH TH")
    assert sorted(names(hand_melds(hand))) == sorted(
        ["cent AH", "cinquante AH", "cinquante KH", "tierce AH", "tierce KH", "tierce QH"]
    )
    six = hand_melds(parse_cards("AS KS QS JS TS 9S"))
    assert {x.name for x in six if x.kind == "cent"} == {"cent AS", "cent KS"}


def test_square_of_jacks_beats_tierce_sharing_jack() -> None:
    hand = parse_cards("JS JH JD JC QH KH")
    assert {"carre J", "tierce KH"} <= set(names(hand_melds(hand)))
    assert names(best_melds(hand, HEARTS)) == ["carre J"]
    assert melds_points(best_melds(hand, HEARTS)) == 200


def test_square_of_jacks_beats_cinquante_and_rest_is_free() -> None:
    hand = parse_cards("KH QH JH TH JS JD JC")
    assert names(best_melds(hand, CLUBS)) == ["carre J"]
    # With AH the cards left beside the square make a tierce of their own.
    hand = parse_cards("AH KH QH JH TH JS JD JC")
    assert names(best_melds(hand, CLUBS)) == ["carre J", "tierce AH"]
    assert melds_points(best_melds(hand, CLUBS)) == 220


def test_run_of_eight_is_cent_plus_tierce() -> None:
    hand = parse_cards("AH KH QH JH TH 9H 8H 7H")
    best = best_melds(hand, SPADES)
    assert names(best) == ["cent AH", "tierce 9H"]
    assert melds_points(best) == 120


def test_run_of_six_is_cent_on_top_five() -> None:
    hand = parse_cards("KS QS JS TS 9S 8S AD 7C")
    best = best_melds(hand, HEARTS)
    assert names(best) == ["cent KS"]
    assert best[0].cards == parse_cards("KS QS JS TS 9S")  # 8S is free


def test_run_of_seven_is_cent_on_top_five() -> None:
    best = best_melds(parse_cards("AD KD QD JD TD 9D 8D"), NO_TRUMP)
    assert names(best) == ["cent AD"]


def test_square_may_take_the_top_of_a_long_run() -> None:
    # Carre A takes AH; K..9 is still a run of five: 200 beats cent AH alone.
    hand = parse_cards("AH KH QH JH TH 9H AS AD")
    assert names(best_melds(hand, HEARTS)) == ["cent AH"]
    hand = parse_cards("AH KH QH JH TH 9H AS AD AC")
    assert names(best_melds(hand, HEARTS)) == ["carre A", "cent KH"]


def test_two_cents_beat_a_square_of_queens() -> None:
    hand = parse_cards("AH KH QH JH TH AD KD QD JD TD QS QC")
    assert names(best_melds(hand, SPADES)) == ["cent AH", "cent AD"]
    assert names(best_melds(hand, 2)) == ["cent AD", "cent AH"]  # trump diamonds: trump run first


def test_equal_points_prefers_the_higher_best_meld() -> None:
    # Square Q (100) against the two tierces that need QH and QD (40).
    hand = parse_cards("KH QH JH KD QD JD QS QC")
    assert names(best_melds(hand, NO_TRUMP)) == ["carre Q"]
    # A run of 6 Q..8: cent QC (top five) and cent JC tie on points; the higher top wins.
    hand = parse_cards("QC JC TC 9C 8C 7C")
    assert names(best_melds(hand, NO_TRUMP)) == ["cent QC"]


def _brute_force(hand: int, trump: int) -> tuple[int, list[tuple[int, ...]]]:
    """Best (points, keys strongest first) over every disjoint subset of hand_melds."""
    cands = hand_melds(hand)
    best: tuple[int, list[tuple[int, ...]]] = (0, [])

    def walk(i: int, used: int, chosen: list[Meld]) -> None:
        nonlocal best
        if i == len(cands):
            k = (melds_points(chosen), sorted((meld_key(x, trump) for x in chosen), reverse=True))
            best = max(best, k)
            return
        walk(i + 1, used, chosen)
        if not used & cands[i].cards:
            walk(i + 1, used | cands[i].cards, [*chosen, cands[i]])

    walk(0, 0, [])
    return best


def test_best_melds_matches_brute_force() -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 300:
        # Bias towards meld-rich hands: a few long runs and squares in 8 to 12 cards.
        hand = 0
        for c in rng.sample(range(32), rng.randint(8, 12)):
            hand |= 1 << c
        if not hand_melds(hand) or len(hand_melds(hand)) > 14:
            continue
        trump = rng.randrange(6)
        best = best_melds(hand, trump)
        assert is_valid_declaration(hand, best) is None
        got = (melds_points(best), [meld_key(x, trump) for x in best])
        assert got == _brute_force(hand, trump)
        checked += 1


def test_best_melds_matches_brute_force_on_every_suit_pattern() -> None:
    for pattern in range(256):
        hand = pattern << 8  # hearts
        best = best_melds(hand, HEARTS)
        assert (melds_points(best), [meld_key(x, HEARTS) for x in best]) == _brute_force(hand, HEARTS)


def test_best_melds_matches_brute_force_with_squares_and_long_runs() -> None:
    rng = random.Random(11)
    for _ in range(150):
        # Two squares plus two long runs that cross them: the hard clashes.
        hand = 0
        for rank in rng.sample(range(2, 8), 2):
            hand |= 0x01010101 << rank
        for suit in rng.sample(range(4), 2):
            length = rng.randint(3, 8)
            low = rng.randint(0, 8 - length)
            hand |= ((1 << length) - 1) << (suit * 8 + low)
        trump = rng.randrange(6)
        best = best_melds(hand, trump)
        assert is_valid_declaration(hand, best) is None
        assert (melds_points(best), [meld_key(x, trump) for x in best]) == _brute_force(hand, trump)


def test_best_melds_is_deterministic_and_sorted() -> None:
    hand = parse_cards("AH KH QH AS KS QS 9D 9C")
    for trump in range(6):
        best = best_melds(hand, trump)
        assert best == best_melds(hand, trump)
        keys = [meld_key(x, trump) for x in best]
        assert keys == sorted(keys, reverse=True)
    assert names(best_melds(hand, HEARTS)) == ["tierce AH", "tierce AS"]
    assert names(best_melds(hand, SPADES)) == ["tierce AS", "tierce AH"]


# --- comparison ---------------------------------------------------------------------


def test_square_beats_any_run() -> None:
    assert compare_teams([m("cent AH")], [m("carre Q")], HEARTS) == 1
    assert compare_teams([m("carre Q")], [m("cent AH"), m("cent AS")], HEARTS) == 0


def test_squares_by_points_then_rank() -> None:
    assert compare_teams([m("carre A")], [m("carre T")], SPADES) == 0
    assert compare_teams([m("carre K")], [m("carre T")], SPADES) == 1
    assert compare_teams([m("carre Q")], [m("carre K")], SPADES) == 1
    assert compare_teams([m("carre 9")], [m("carre A")], SPADES) == 0
    assert compare_teams([m("carre 9")], [m("carre J")], SPADES) == 1


def test_runs_by_length_then_top() -> None:
    assert compare_teams([m("cinquante JD")], [m("tierce AH")], HEARTS) == 0
    assert compare_teams([m("cinquante AS")], [m("cent JC")], HEARTS) == 1
    assert compare_teams([m("tierce KH")], [m("tierce QH")], SPADES) == 0
    assert compare_teams([m("tierce 9H")], [m("tierce KD")], HEARTS) == 1


def test_same_top_different_suits_trump_run_wins() -> None:
    assert compare_teams([m("tierce AH")], [m("tierce AS")], SPADES) == 1
    assert compare_teams([m("tierce AH")], [m("tierce AS")], HEARTS) == 0
    # Neither run is trump: exact tie.
    assert compare_teams([m("tierce AH")], [m("tierce AS")], CLUBS) is None


@pytest.mark.parametrize("trump", [NO_TRUMP, ALL_TRUMP])
def test_no_trump_run_bonus_at_sa_and_ta(trump: int) -> None:
    assert compare_teams([m("cent AH")], [m("cent AS")], trump) is None
    assert meld_key(m("cent AH"), trump) == meld_key(m("cent AS"), trump)


def test_exact_tie_and_missing_melds() -> None:
    assert compare_teams([m("tierce KD"), m("tierce KC")], [m("tierce KS")], HEARTS) is None
    assert compare_teams([], [], HEARTS) is None
    assert compare_teams([m("tierce 9S")], [], HEARTS) == 0
    assert compare_teams([], [m("tierce 9S")], HEARTS) == 1


def test_best_meld() -> None:
    assert best_meld([], HEARTS) is None
    assert best_meld([m("tierce AH"), m("carre Q"), m("cent AS")], HEARTS) == m("carre Q")
    assert best_meld([m("tierce AS"), m("tierce AH")], HEARTS) == m("tierce AH")
    assert best_meld([m("tierce AS"), m("tierce AD")], HEARTS) == m("tierce AS")  # tie: first


def test_melds_points() -> None:
    assert melds_points([]) == 0
    assert melds_points([m("carre J"), m("cent AH"), m("cinquante KS"), m("tierce 9D")]) == 370


# --- declarations -------------------------------------------------------------------


def test_valid_declarations() -> None:
    hand = parse_cards("JS JH JD JC QH KH 9D 8D")
    assert is_valid_declaration(hand, []) is None
    assert is_valid_declaration(hand, [m("carre J")]) is None
    assert is_valid_declaration(hand, [m("tierce KH")]) is None
    # Declaring fewer melds than held is allowed.
    run = parse_cards("AH KH QH JH TH 9H 8H 7H")
    assert is_valid_declaration(run, [m("cent AH"), m("tierce 9H")]) is None
    assert is_valid_declaration(run, [m("tierce QH")]) is None


def test_invalid_declarations() -> None:
    hand = parse_cards("JS JH JD JC QH KH 9D 8D")
    assert is_valid_declaration(hand, [m("carre J"), m("tierce KH")]) == "JH is used by two melds"
    assert is_valid_declaration(hand, [m("tierce AH")]) == "tierce AH is not in the hand"
    assert is_valid_declaration(hand, [m("carre Q")]) == "carre Q is not in the hand"
    assert is_valid_declaration(hand, [m("carre J"), m("carre J")]) == "JS is used by two melds"
    run = parse_cards("AH KH QH JH TH 9H 8H 7H")
    assert is_valid_declaration(run, [m("cent AH"), m("cinquante JH")]) == "TH is used by two melds"
    bogus = Meld("tierce", parse_cards("AH QH JH"), parse_card("AH"), 20)
    reason = is_valid_declaration(run, [bogus])
    assert reason is not None and "not a meld" in reason
