"""Card play: which cards are legal (RULES.md section 3), per profile, and the lead.

Every position is a real deal: four hands of eight cards (all 32 dealt once), an auction
driven with ``parse_call``, then cards played with ``Deal.apply``. Unless a test says
otherwise the dealer is seat 3, so seat 0 speaks first, takes ``80H`` and leads trick 1.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from coinche.engine.actions import ANNOUNCE, COINCHE, PASS, is_declaration, parse_call
from coinche.engine.cards import NO_TRUMP, card_str, cards_of, parse_card, parse_cards
from coinche.engine.deal import Deal, Phase
from coinche.engine.errors import IllegalAction
from coinche.engine.rules import RuleSet

PROFILES = ("classic", "federation", "house", "online")
FORCED_UNDERTRUMP = ("classic", "house", "online")
SA_TA_RULES = (
    RuleSet.profile("classic"),
    RuleSet.profile("house"),
    RuleSet.profile("online", sa_ta=True),
)


# --- helpers ------------------------------------------------------------------------


def start(
    rules: RuleSet | str,
    hands: Sequence[str],
    contract: str = "80H",
    dealer: int = 3,
    calls: Sequence[str] | None = None,
) -> Deal:
    """A deal with the given hands (seat 0 first) after an auction: by default seat
    dealer + 1 bids ``contract`` and the three others pass."""
    if isinstance(rules, str):
        rules = RuleSet.profile(rules)
    d = Deal(rules, dealer, tuple(parse_cards(h) for h in hands))
    for call in calls if calls is not None else (contract, "pass", "pass", "pass"):
        d.apply(parse_call(call))
    assert d.phase is Phase.PLAY
    return d


def skip_declarations(d: Deal) -> None:
    """Melds (classic, federation) are declared before the first card: declare nothing."""
    acts = d.legal_actions()
    while acts and all(is_declaration(a) for a in acts):
        d.apply(acts[-1])  # the last choice declares nothing
        acts = d.legal_actions()


def legal(d: Deal) -> set[str]:
    """The cards the player to move may play (belote announcements left out)."""
    skip_declarations(d)
    return {card_str(a) for a in d.legal_actions() if a < ANNOUNCE}


def announceable(d: Deal) -> set[str]:
    """The cards the player to move may play while announcing belote."""
    skip_declarations(d)
    return {card_str(a - ANNOUNCE) for a in d.legal_actions() if ANNOUNCE <= a < 2 * ANNOUNCE}


def play(d: Deal, cards: str) -> None:
    """Play the cards in order; a ``+`` suffix announces belote/rebelote (``KH+``)."""
    for word in cards.split():
        skip_declarations(d)
        if word.endswith("+"):
            d.apply(parse_card(word[:-1]) + ANNOUNCE)
        else:
            d.apply(parse_card(word))


def cards(text: str) -> set[str]:
    return {card_str(c) for c in cards_of(parse_cards(text))}


def hand(d: Deal, seat: int) -> set[str]:
    return {card_str(c) for c in cards_of(d.hands[seat])}


def snapshot(d: Deal) -> tuple[object, ...]:
    return (tuple(d.view(s) for s in range(4)), tuple(d.legal_actions()), d.to_move, repr(d))


def refused(d: Deal, action: int | str) -> IllegalAction:
    """Apply an illegal action: it must raise ``IllegalAction`` and change nothing."""
    skip_declarations(d)
    if isinstance(action, str):
        action = parse_card(action[:-1]) + ANNOUNCE if action.endswith("+") else parse_card(action)
    before = snapshot(d)
    with pytest.raises(IllegalAction) as info:
        d.apply(action)
    assert snapshot(d) == before
    return info.value


# --- positions ------------------------------------------------------------------------

# Trump led (hearts): seat 2 must overtake its partner's 9H with JH.
TRUMP_LED = (
    "9H 7S 8S 9S AD KD QD 7C",
    "AH 7H TS JS 7D 8D 8C 9C",
    "JH 8H AS KS 9D TD TC JC",
    "TH QH KH QS JD AC KC QC",
)

# Spade led by seat 0, seat 1 cuts with TH; seat 2 has no spade and only 8H 7H.
UNDERTRUMP = (
    "7S 8S QH KH AD KD 7C 8C",
    "TH JH QD 9D 7D AC TC JC",
    "8H 7H JD TD 8D KC QC 9C",
    "9S TS JS QS KS AS 9H AH",
)

# As UNDERTRUMP, but seat 2 holds 9H (beats TH) instead of 8H.
OVERTRUMP = (
    "7S 8S QH KH AD KD 7C 8C",
    "TH JH QD 9D 7D AC TC JC",
    "9H 7H JD TD 8D KC QC 9C",
    "9S TS JS QS KS AS 8H AH",
)

# Seat 1 wins a spade with AS; seats 2 and 3 have no spade but hold trumps.
MUST_CUT = (
    "7S 8S 9S TS 7D 8D 7C 8C",
    "JS QS KS AS 9D TD 9C TC",
    "JH 9H AH 7H JD QD JC QC",
    "TH KH QH 8H KD AD KC AC",
)

# Seat 1 wins a spade with AS, seat 2 follows, seat 3 (void) has its partner master.
PARTNER_MASTER_PLAIN = (
    "7S 8S 9S TS JS 7D 8D 7C",
    "AS KS QH 8H TH 9D TD 9C",
    "QS 9H AH JD QD JC QC TC",
    "JH 7H KH KD AD 8C KC AC",
)

# Seat 1 cuts the spade lead with AH, seat 2 follows, seat 3 (void) has JH above and
# 7H KH below its partner's trump.
PARTNER_MASTER_TRUMP = (
    "7S 8S 9S TS JS 7D 8D 7C",
    "9H AH QH 8H TH 9D TD 9C",
    "QS AS KS JD QD JC QC TC",
    "JH 7H KH KD AD 8C KC AC",
)

# Seat 1 cuts with TH, seat 2 (opponent) must undertrump with 8H, seat 3 (void in
# spades) still has its partner master: free.
PARTNER_MASTER_AFTER_UNDERTRUMP = (
    "7S 8S 9S TS JS QS KS AS",
    "TH JH QD 9D 7D AC TC JC",
    "8H 7H JD TD 8D KC QC 9C",
    "9H AH QH KH AD KD 7C 8C",
)

# Seat 1 has neither spades nor hearts; seat 2 has no spade.
NO_TRUMPS = (
    "7S JH 9H AH TH KH QH 8H",
    "7D 8D 9D TD 7C 8C 9C TC",
    "7H JD QD KD AD JC QC KC",
    "8S 9S TS JS QS KS AS AC",
)

ALL_POSITIONS = (
    TRUMP_LED,
    UNDERTRUMP,
    OVERTRUMP,
    MUST_CUT,
    PARTNER_MASTER_PLAIN,
    PARTNER_MASTER_TRUMP,
    PARTNER_MASTER_AFTER_UNDERTRUMP,
    NO_TRUMPS,
)


@pytest.mark.parametrize("hands", ALL_POSITIONS)
def test_positions_are_full_deals(hands: tuple[str, ...]) -> None:
    masks = [parse_cards(h) for h in hands]
    assert all(m.bit_count() == 8 for m in masks)
    assert masks[0] | masks[1] | masks[2] | masks[3] == (1 << 32) - 1


# --- rule 1: leading ------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_leader_may_lead_any_card(profile: str) -> None:
    d = start(profile, TRUMP_LED)
    assert d.to_move == 0
    assert legal(d) == hand(d, 0)


# --- rule 2: trump led ----------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_trump_led_must_go_over_even_the_partner(profile: str) -> None:
    d = start(profile, TRUMP_LED)
    play(d, "9H")
    # Seat 1 cannot beat 9H: any trump.
    assert legal(d) == {"AH", "7H"}
    play(d, "7H")
    # Seat 2's partner (seat 0) wins with 9H, yet seat 2 must overtake with JH.
    assert legal(d) == {"JH"}
    err = refused(d, "8H")
    assert err.rule == "must_go_higher"
    assert "must play higher than 9H with JH" in str(err)
    err = refused(d, "AS")
    assert err.rule == "follow_suit"
    play(d, "JH")
    # Seat 3 cannot beat JH: any trump, with the belote on KH and QH.
    assert legal(d) == {"TH", "QH", "KH"}
    assert announceable(d) == {"QH", "KH"}


@pytest.mark.parametrize("profile", PROFILES)
def test_trump_led_without_trumps_any_card_and_winner_leads_next(profile: str) -> None:
    d = start(profile, TRUMP_LED)
    play(d, "9H 7H JH KH+")
    # Seat 2 won trick 1 with JH and leads trick 2.
    assert d.tricks[0].winner == 2
    assert d.to_move == 2
    assert d.trick_leader == 2
    assert legal(d) == hand(d, 2)
    play(d, "8H")
    assert legal(d) == {"TH", "QH"}  # both beat 8H
    # The belote was announced with KH: QH carries no further announcement.
    assert announceable(d) == set()
    play(d, "QH")
    # Seat 0 has no trump left: any card.
    assert legal(d) == hand(d, 0)
    assert "9H" not in hand(d, 0)
    play(d, "7C")
    assert legal(d) == {"AH"}  # must beat QH
    play(d, "AH")
    assert d.tricks[1].winner == 1
    assert d.to_move == 1
    assert legal(d) == hand(d, 1)


# --- rule 3: plain suit led ------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_plain_suit_follow_without_duty_to_win(profile: str) -> None:
    d = start(profile, TRUMP_LED)
    play(d, "9H 7H JH KH+ 8H QH 7C AH")
    play(d, "TS")
    assert legal(d) == {"AS", "KS"}  # KS is allowed although AS would win
    err = refused(d, "9D")
    assert err.rule == "follow_suit"
    assert "must follow suit (S) with AS KS" in str(err)
    play(d, "KS")
    assert legal(d) == {"QS"}
    play(d, "QS")
    assert legal(d) == {"7S", "8S", "9S"}  # no duty to win (no spade beats TS anyway)
    err = refused(d, "AD")
    assert err.rule == "follow_suit"


# --- rule 4: void in the plain suit led ------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_must_cut_when_an_opponent_wins_and_no_trump_in_trick(profile: str) -> None:
    d = start(profile, MUST_CUT)
    play(d, "7S")
    assert legal(d) == {"JS", "QS", "KS", "AS"}
    play(d, "AS")
    # Seat 2: no spade, opponent (seat 1) master with a plain card: must trump.
    assert legal(d) == {"JH", "9H", "AH", "7H"}
    err = refused(d, "JD")
    assert err.rule == "must_trump"
    assert "must trump" in str(err)
    assert "JH 9H AH 7H" in str(err)
    play(d, "7H")
    # Seat 3: opponent (seat 2) master with 7H; every trump of seat 3 beats it.
    assert legal(d) == {"TH", "KH", "QH", "8H"}
    err = refused(d, "KD")
    assert err.rule == "must_overtrump"
    assert "must overtrump (7H)" in str(err)


@pytest.mark.parametrize("profile", PROFILES)
def test_overtrump_forced_in_every_profile(profile: str) -> None:
    d = start(profile, OVERTRUMP)
    play(d, "7S")
    assert legal(d) == {"TH", "JH"}  # must cut, any trump
    play(d, "TH")
    assert legal(d) == {"9H"}
    err = refused(d, "7H")
    assert err.rule == "must_overtrump"
    assert "must overtrump (TH) with 9H" in str(err)
    err = refused(d, "KC")
    assert err.rule == "must_overtrump"
    play(d, "9H")
    # Seat 3 holds spades: follows suit, no need to overtrump.
    assert legal(d) == {"9S", "TS", "JS", "QS", "KS", "AS"}


@pytest.mark.parametrize("profile", FORCED_UNDERTRUMP)
def test_undertrump_forced(profile: str) -> None:
    d = start(profile, UNDERTRUMP)
    play(d, "7S TH")
    assert legal(d) == {"8H", "7H"}
    err = refused(d, "KC")
    assert err.rule == "must_undertrump"
    assert "must undertrump" in str(err)
    assert "TH" in str(err)
    play(d, "8H")


def test_undertrump_optional_in_federation() -> None:
    d = start("federation", UNDERTRUMP)
    play(d, "7S TH")
    # Cannot beat TH: may discard instead of undertrumping.
    assert legal(d) == hand(d, 2)
    play(d, "KC")
    assert d.trick == [parse_card(c) for c in ("7S", "TH", "KC")]


def test_undertrump_is_a_table_option() -> None:
    d = start(RuleSet.profile("classic", undertrump="optional"), UNDERTRUMP)
    play(d, "7S TH")
    assert legal(d) == hand(d, 2)
    d = start(RuleSet.profile("federation", undertrump="forced"), UNDERTRUMP)
    play(d, "7S TH")
    assert legal(d) == {"8H", "7H"}


@pytest.mark.parametrize("profile", PROFILES)
def test_partner_master_with_a_plain_card_free_discard(profile: str) -> None:
    d = start(profile, PARTNER_MASTER_PLAIN)
    play(d, "7S")
    assert legal(d) == {"AS", "KS"}
    play(d, "AS")
    assert legal(d) == {"QS"}
    play(d, "QS")
    # Seat 3: no spade, partner (seat 1) master: any card, trump or discard.
    assert legal(d) == hand(d, 3)
    play(d, "8C")
    assert d.tricks[0].winner == 1


@pytest.mark.parametrize("profile", PROFILES)
def test_partner_master_with_a_trump_undertrump_allowed(profile: str) -> None:
    d = start(profile, PARTNER_MASTER_TRUMP)
    play(d, "7S")
    assert legal(d) == {"9H", "AH", "QH", "8H", "TH"}  # must cut
    play(d, "AH")
    assert legal(d) == {"QS", "AS", "KS"}
    play(d, "QS")
    # Seat 3: partner master with AH: discard, overtrump (JH) or undertrump (7H, KH).
    assert legal(d) == hand(d, 3)
    play(d, "7H")
    assert d.tricks[0].winner == 1


@pytest.mark.parametrize("profile", PROFILES)
def test_partner_master_even_after_an_opponent_undertrumped(profile: str) -> None:
    d = start(profile, PARTNER_MASTER_AFTER_UNDERTRUMP)
    play(d, "7S TH")
    if profile == "federation":
        assert legal(d) == hand(d, 2)
    else:
        assert legal(d) == {"8H", "7H"}
    play(d, "8H")
    assert legal(d) == hand(d, 3)
    play(d, "7C")
    assert d.tricks[0].winner == 1


@pytest.mark.parametrize("profile", PROFILES)
def test_void_without_trumps_any_card(profile: str) -> None:
    d = start(profile, NO_TRUMPS)
    play(d, "7S")
    # Seat 1: no spade, no trump, opponent master: any card.
    assert legal(d) == hand(d, 1)
    play(d, "TD")
    # Seat 2: no spade, partner master: any card.
    assert legal(d) == hand(d, 2)
    play(d, "7H")
    # Seat 3: follows spades.
    assert legal(d) == cards("8S 9S TS JS QS KS AS")


# --- SA and TA ------------------------------------------------------------------------


@pytest.mark.parametrize("rules", SA_TA_RULES, ids=lambda r: r.name)
def test_sa_follow_suit_no_duty_to_win_no_belote(rules: RuleSet) -> None:
    d = start(rules, TRUMP_LED, "80SA")
    assert d.contract is not None and d.contract.trump == NO_TRUMP
    play(d, "9H")
    assert legal(d) == {"AH", "7H"}
    play(d, "7H")
    assert legal(d) == {"JH", "8H"}  # no duty to go over
    play(d, "8H")
    assert legal(d) == {"TH", "QH", "KH"}
    assert announceable(d) == set()  # no belote in SA
    err = refused(d, "KH+")
    assert err.rule == "no_belote"
    err = refused(d, "AC")
    assert err.rule == "follow_suit"


@pytest.mark.parametrize("rules", SA_TA_RULES, ids=lambda r: r.name)
def test_sa_void_any_card_no_cutting(rules: RuleSet) -> None:
    d = start(rules, MUST_CUT, "80SA")
    play(d, "7S AS")
    assert legal(d) == hand(d, 2)  # hearts are no trump: no duty to cut
    play(d, "7H")
    assert legal(d) == hand(d, 3)
    play(d, "KD")
    assert d.tricks[0].winner == 1  # 7H did not cut


@pytest.mark.parametrize("rules", SA_TA_RULES, ids=lambda r: r.name)
def test_ta_must_go_higher_in_suit_led_even_over_partner(rules: RuleSet) -> None:
    d = start(rules, TRUMP_LED, "80TA")
    play(d, "9H")
    assert legal(d) == {"AH", "7H"}  # neither beats 9H at TA
    play(d, "7H")
    assert legal(d) == {"JH"}
    err = refused(d, "8H")
    assert err.rule == "must_go_higher"
    assert "must play higher than 9H with JH" in str(err)
    play(d, "JH")
    assert legal(d) == {"TH", "QH", "KH"}
    assert announceable(d) == {"QH", "KH"}


@pytest.mark.parametrize("rules", SA_TA_RULES, ids=lambda r: r.name)
def test_ta_plain_suit_order_and_no_cutting(rules: RuleSet) -> None:
    d = start(rules, MUST_CUT, "80TA")
    play(d, "9S")
    # TA order J 9 A 10 K Q 8 7: only JS beats 9S.
    assert legal(d) == {"JS"}
    err = refused(d, "AS")
    assert err.rule == "must_go_higher"
    play(d, "JS")
    # Seats 2 and 3 have no spade: any card, no cutting at TA.
    assert legal(d) == hand(d, 2)
    play(d, "JH")
    assert legal(d) == hand(d, 3)
    play(d, "KD")
    assert d.tricks[0].winner == 1


@pytest.mark.parametrize("rules", SA_TA_RULES, ids=lambda r: r.name)
def test_ta_without_a_higher_card_any_card_of_the_suit(rules: RuleSet) -> None:
    d = start(rules, MUST_CUT, "80TA")
    play(d, "9S JS JH KD")
    # Seat 1 won trick 1 and leads AS; seats 2 and 3 have no spade.
    assert d.to_move == 1
    play(d, "AS 9H 8H")
    # Seat 0 holds 7S 8S TS: none beats AS at TA, so any of them.
    assert legal(d) == {"7S", "8S", "TS"}
    assert refused(d, "7D").rule == "follow_suit"
    play(d, "7S")
    assert d.tricks[1].winner == 1


# --- refused moves --------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_refused_moves_change_nothing(profile: str) -> None:
    d = start(profile, TRUMP_LED)
    # Leading a card not held.
    err = refused(d, "JH")
    assert err.rule == "not_in_hand"
    # A belote announcement on a card that is not a belote card.
    err = refused(d, "9H+")
    assert err.rule == "no_belote"
    # A call in the play phase.
    err = refused(d, PASS)
    assert err.rule == "not_a_card"
    err = refused(d, COINCHE)
    play(d, "9H 7H")
    err = refused(d, "AS")
    assert err.rule == "follow_suit"
    err = refused(d, "8H")
    assert err.rule == "must_go_higher"
    err = refused(d, "TH")
    assert err.rule == "not_in_hand"
    # The legal move still works afterwards.
    play(d, "JH")
    assert len(d.trick) == 3


@pytest.mark.parametrize("profile", FORCED_UNDERTRUMP)
def test_refused_undertrump_changes_nothing(profile: str) -> None:
    d = start(profile, UNDERTRUMP)
    play(d, "7S")
    assert refused(d, "QD").rule == "must_trump"
    play(d, "TH")
    assert refused(d, "JD").rule == "must_undertrump"
    play(d, "7H")
    assert d.tricks == [] and len(d.trick) == 3


def test_illegal_action_is_a_value_error_with_a_rule() -> None:
    d = start("classic", OVERTRUMP)
    play(d, "7S TH")
    err = refused(d, "7H")
    assert isinstance(err, ValueError)
    assert err.rule == "must_overtrump"
    assert str(err).startswith("7H is illegal")


def test_non_int_action_is_refused() -> None:
    d = start("online", TRUMP_LED)
    before = snapshot(d)
    with pytest.raises(IllegalAction) as info:
        d.apply("9H")  # type: ignore[arg-type]
    assert info.value.rule == "not_an_action"
    with pytest.raises(IllegalAction):
        d.apply(True)
    assert snapshot(d) == before


# --- the lead -------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_seat_after_dealer_leads_trick_one(dealer: int) -> None:
    first = (dealer + 1) % 4
    # Seat first + 1 takes: the lead stays with dealer + 1.
    calls = ["pass", "100S", "pass", "pass", "pass"]
    d = start("online", TRUMP_LED, dealer=dealer, calls=calls)
    assert d.contract is not None and d.contract.taker == (first + 1) % 4
    assert d.to_move == first
    assert d.trick_leader == first
    assert legal(d) == hand(d, first)


@pytest.mark.parametrize("profile", ["classic", "house"])
@pytest.mark.parametrize("dealer", range(4))
def test_taker_of_a_generale_does_not_get_the_lead(profile: str, dealer: int) -> None:
    first = (dealer + 1) % 4
    calls = ["pass", "generaleH", "pass", "pass", "pass"]
    d = start(profile, TRUMP_LED, dealer=dealer, calls=calls)
    assert d.contract is not None
    assert d.contract.kind == "generale"
    assert d.contract.taker == (first + 1) % 4
    assert d.to_move == first
    assert legal(d) == hand(d, first)


@pytest.mark.parametrize("profile", PROFILES)
def test_capot_taker_does_not_get_the_lead(profile: str) -> None:
    d = start(profile, TRUMP_LED, dealer=0, calls=["pass", "capotH", "pass", "pass", "pass"])
    assert d.contract is not None and d.contract.kind == "capot" and d.contract.taker == 2
    assert d.to_move == 1


@pytest.mark.parametrize("profile", PROFILES)
def test_trick_winner_leads_each_trick_to_the_end(profile: str) -> None:
    d = start(profile, TRUMP_LED)
    while not d.is_over:
        skip_declarations(d)
        if not d.trick and d.tricks:
            assert d.to_move == d.tricks[-1].winner
            assert d.trick_leader == d.tricks[-1].winner
        d.apply(min(a for a in d.legal_actions() if a < ANNOUNCE))
    assert len(d.tricks) == 8
    for prev, nxt in zip(d.tricks, d.tricks[1:], strict=False):
        assert nxt.leader == prev.winner
    assert d.tricks[0].leader == 0
    res = d.result()
    assert res is not None
    assert sum(res.card_points) == 162


# --- belote announcements (RULES.md section 1) -----------------------------------------


def _finish(d: Deal) -> None:
    while not d.is_over:
        skip_declarations(d)
        d.apply(min(a for a in d.legal_actions() if a < ANNOUNCE))


@pytest.mark.parametrize(
    ("profile", "counts"), [("classic", True), ("federation", True), ("online", True), ("house", False)]
)
def test_rebelote_only_counts_except_where_it_must_be_announced_first(profile: str, counts: bool) -> None:
    d = start(profile, TRUMP_LED)
    play(d, "9H 7H JH KH")  # KH without announcing
    assert announceable(d) == set()  # seat 2 to move; seat 3 keeps QH announceable
    play(d, "8H")
    assert announceable(d) == {"QH"}
    play(d, "QH+")
    assert [(b.seat, b.at, b.counts) for b in d.belotes] == [(3, "rebelote", counts)]
    _finish(d)
    res = d.result()
    assert res is not None
    assert res.belote == (0, 20 if counts else 0)


@pytest.mark.parametrize("profile", PROFILES)
def test_belote_announced_on_the_first_card_counts(profile: str) -> None:
    d = start(profile, TRUMP_LED)
    play(d, "9H 7H JH KH+")
    assert [(b.seat, b.at, b.counts) for b in d.belotes] == [(3, "belote", True)]
    play(d, "8H")
    assert announceable(d) == set()  # nothing more to announce with QH
    _finish(d)
    res = d.result()
    assert res is not None
    assert res.belote == (0, 20)


@pytest.mark.parametrize("profile", PROFILES)
def test_an_unannounced_belote_scores_nothing(profile: str) -> None:
    d = start(profile, TRUMP_LED)
    _finish(d)
    res = d.result()
    assert res is not None
    assert res.belote == (0, 0)
    assert d.belotes == []
