"""What a call says (issue 32, item 4): the raise table of RULES.md section 8 and the
``classic`` seed, and the expert's own reading (the strength its card play expects, its
partner table), made from the auction alone."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.bots.call_reading import example_holding, read_call, read_calls
from coinche.bots.expert.auction import partner_context
from coinche.bots.expert.calibration import calibration
from coinche.bots.expert.deals import PASS_SLACK, auction_likelihood, hand_strength, pass_ceiling, promised_strength
from coinche.bots.knowledge import parse_auction
from coinche.engine.actions import parse_call
from coinche.engine.cards import HEARTS, NO_TRUMP, SPADES, parse_card
from coinche.engine.deal import Deal
from coinche.engine.messages import Message
from coinche.engine.rules import RuleSet

CLASSIC = RuleSet.profile("classic")


def calls(text: str) -> list[int]:
    return [parse_call(x) for x in text.split()]


def ids(message: Message) -> list[str]:
    """The ids of a message and of the messages inside it."""
    out = [message.id]
    for _, value in message.params:
        if isinstance(value, Message):
            out += ids(value)
    return out


@pytest.mark.parametrize(
    ("auction", "promise", "hands", "extra"),
    [
        ("80H pass 90H", "meaning.raise.one", "meaning.raise.one_hands", "meaning.raise.or_nine"),
        ("80H pass 100H", "meaning.raise.two", "meaning.raise.two_hands", "meaning.raise.or_jack"),
        ("80H pass 110H", "meaning.raise.three", "meaning.raise.three_hands", None),
    ],
)
def test_a_raise_promises_tricks_as_the_seeds_table_says(
    auction: str, promise: str, hands: str, extra: str | None
) -> None:
    said = read_call(CLASSIC, 3, calls(auction), 2).said
    found = ids(said)
    assert found[0] == "meaning.raise" and promise in found and hands in found
    assert (extra in found) if extra else not {"meaning.raise.or_nine", "meaning.raise.or_jack"} & set(found)


def test_the_seeds_words_for_a_raise_of_twenty() -> None:
    """ "+20 : deux plis de plus — 2 As hors atout — ou 1 As et 2 atouts dont le 9 — ou 3
    atouts dont le 9 et l'As", and the one exception: the trump Jack or the belote."""
    text = read_call(CLASSIC, 3, calls("80H pass 100H"), 2).said.text
    assert text.startswith("100H raises the partner's 80H: two more tricks")
    assert (
        "two side Aces; or an Ace and two trumps including the 9; or three trumps including the 9 and the Ace" in text
    )
    assert "the trump Jack or the belote" in text


def test_openings_overcalls_passes_and_the_stakes() -> None:
    readings = read_calls(CLASSIC, 3, calls("pass 80S 90H pass pass coinche surcoinche"))
    assert [r.said.id for r in readings] == [
        "meaning.pass_open",
        "meaning.open",
        "meaning.overcall",
        "meaning.pass_opponent",
        "meaning.pass_partner",
        "meaning.coinche",
        "meaning.surcoinche",
    ]
    assert [r.seat for r in readings] == [0, 1, 2, 3, 0, 1, 2]
    assert readings[5].said.args["factor"] == 2 and readings[6].said.args["factor"] == 4
    assert [m.id for m in readings[5].expert] == ["meaning.expert_nothing"]
    change = read_call(CLASSIC, 3, calls("80S pass 90H"), 2).said
    assert change.id == "meaning.change"
    again = read_call(CLASSIC, 3, calls("80S 90H 100S"), 2).said
    assert again.id == "meaning.raise"  # a raise of the partner's 80S by two steps, over the opponents' 90H
    own = read_call(CLASSIC, 3, calls("80S 90H pass pass 100S"), 4).said
    assert own.id == "meaning.again"


def test_the_expert_reads_what_its_own_logic_uses() -> None:
    """The strength its card play expects (``promised_strength``, against the partner's bid
    before the call) and, as partner, the calibration's worth of the caller's hand."""
    auction = calls("80H pass 100H pass")
    reading = read_call(CLASSIC, 3, auction, 2)
    strength, partner = reading.expert
    assert strength.id == "meaning.expert_strength"
    assert strength.args["example"] == example_holding(HEARTS, promised_strength(80, auction[2]))
    info = parse_auction(auction[:3], 3, CLASSIC)
    context = partner_context(info, 0, HEARTS)
    assert context == "raised:20"
    assert partner.args["points"] == round(calibration().partner_points(CLASSIC, HEARTS, context))


def test_a_later_call_does_not_change_the_reading_of_an_earlier_one() -> None:
    first = read_call(CLASSIC, 3, calls("80S pass"), 0)
    later = read_call(CLASSIC, 3, calls("80S pass 110S pass pass 120H"), 0)
    assert first == later


def test_the_card_play_weights_a_bid_against_the_partners_earlier_bid() -> None:
    """An opening of 80 read after the partner raised it to 110 still asks the strength of
    an opening (40: the trump Jack and 9 hold 42), not the nothing that the partner's later
    bid would leave of it: South holding them is e**8 times likelier than South void."""
    info = parse_auction(calls("80H pass 110H pass pass pass"), 3, CLASSIC)
    void = _hands("7S 8S 9S TS 7D 8D 9D TD", "JH 9H QH KH JS JD QD KD")
    jack_nine = _hands("JH 9H 9S TS 7D 8D 9D TD", "7S 8S QH KH JS JD QD KD")
    view = Deal(CLASSIC, 3, void).view(1)  # West reads: its own calls are not weighed
    ratio = auction_likelihood(view, info, jack_nine) / auction_likelihood(view, info, void)
    assert ratio == pytest.approx(math.exp(40**2 / 200))


def test_the_card_play_reads_a_pass_after_the_partners_opening() -> None:
    """North passes South's 80 spades: the pass denies a hand that would have bid 90 in
    another suit (50 of strength, and 15 more of slack): a North with five hearts to the
    Jack and 9 and three Aces (94 in hearts, 29 too many) is exp(-29**2 / 200) as likely
    as a weak North; after a coinche, a pass only declines the surcoinche and is not read."""
    strong, weak = "JH 9H AH TH KH AS AD AC", "7H 8H QH 7D 8D 7C 8C TC"
    south, east = "JS 9S 8S 7S QD KD QC KC", "TS KS QS JD 9D TD 9C JC"

    def deal(north: str, west: str) -> tuple[int, ...]:
        return tuple(sum(1 << parse_card(c) for c in hand.split()) for hand in (south, west, north, east))

    view = Deal(CLASSIC, 3, deal(weak, strong)).view(1)  # West reads: its own calls are not weighed
    assert hand_strength(deal(strong, weak)[2], HEARTS) == 94
    info = parse_auction(calls("80S pass pass pass"), 3, CLASSIC)
    ratio = auction_likelihood(view, info, deal(strong, weak)) / auction_likelihood(view, info, deal(weak, strong))
    assert ratio == pytest.approx(math.exp(-(29**2) / 200))
    coinched = parse_auction(calls("80S coinche pass pass pass"), 3, CLASSIC)
    assert auction_likelihood(view, coinched, deal(strong, weak)) == auction_likelihood(
        view, coinched, deal(weak, strong)
    )


def test_a_pass_reads_as_the_card_play_reads_it() -> None:
    """The reading says what the card play denies after a pass: over the partner's opening,
    a hand of the partner's suit beyond its ceiling (``pass_ceiling``: 55); before any bid,
    any suit beyond 55; after a coinche, nothing (the pass declines the surcoinche)."""
    over_partner = read_call(CLASSIC, 3, calls("80S pass pass"), 2)
    line = over_partner.expert[0]
    assert line.id == "meaning.expert_pass_trump" and line.args["trump"] == "S"
    ceiling = pass_ceiling(80, 80, 160)
    assert ceiling == 55 == pass_ceiling(0, 0, 160)
    assert line.args["example"] == example_holding(SPADES, ceiling + 1)
    opening = read_call(CLASSIC, 3, calls("pass"), 0).expert[0]
    assert opening.id == "meaning.expert_pass_suit"
    coinched = read_call(CLASSIC, 3, calls("80S coinche pass"), 2)
    assert all(m.id not in ("meaning.expert_pass_trump", "meaning.expert_pass_suit") for m in coinched.expert)
    assert pass_ceiling(160, 0, 160) is None  # nothing left to bid: nothing denied
    assert pass_ceiling(160, 0, 180) == 40 + 90 + PASS_SLACK  # the house rules' 170 was open


def _hands(south: str, west: str) -> tuple[int, ...]:
    """South and West as given; North with the 7, 8, Ace and 10 of hearts and two Aces;
    East all the clubs."""
    north = "7H 8H AH TH AS AD KS QS"
    east = "7C 8C 9C TC JC QC KC AC"
    return tuple(sum(1 << parse_card(c) for c in hand.split()) for hand in (south, west, north, east))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([SPADES, HEARTS, NO_TRUMP, NO_TRUMP + 1]), st.integers(min_value=-10, max_value=110))
def test_the_example_holding_reaches_the_strength(trump: int, strength: int) -> None:
    """The example is a kind of hand: never a suit's card named, and it reaches the strength
    asked for (or says nothing can)."""
    message = example_holding(trump, strength)
    if message.id == "meaning.holding_beyond":
        return
    text = message.text
    for word in ("hearts", "spades", "diamonds", "clubs"):
        assert word not in text


@pytest.mark.parametrize("strength", [0, 24, 40, 50, 60, 70])
def test_the_fewest_cards_that_reach_a_strength(strength: int) -> None:
    """The opening of 80 (strength 40) reads as the trump Jack and 9: 42, two cards; no
    single card reaches 40."""
    text = example_holding(HEARTS, strength).text
    if strength == 40:
        assert text == "the trump Jack and 9"
    if strength == 0:
        assert text == "no card at all"
    jack_nine = sum(1 << parse_card(c) for c in ("JH", "9H"))
    assert hand_strength(jack_nine, HEARTS) == 42
