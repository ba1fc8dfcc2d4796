"""Messages a person reads: a stable id, its parameters, and the English text.

The engine's refusals (``IllegalAction``), the scoring's explanation lines and the
calculator's complaints are ``Message`` values, so the web layer can render them from a
French or English catalogue keyed by ``id`` while the CLI prints ``text``. Parameters are
plain ``str`` or ``int``; cards and calls in them are in record notation (``JH``, ``90H``),
lists of cards space-separated, so a catalogue can name them in words.

``ENGLISH`` below is the source catalogue: every id the engine uses has its template
here (a test checks that each template formats with the parameters it is given).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, NamedTuple, Union

Param = Union[str, int, "Message"]
"""A parameter: a number, a word in record notation, or a nested message (rendered in
the same language)."""


class Message(NamedTuple):
    """One translatable line: ``id`` names its template, ``params`` fill it. A named tuple,
    as scoring makes a dozen of them per deal on the engine's hot path."""

    id: str
    params: tuple[tuple[str, Param], ...] = ()

    @staticmethod
    def of(message_id: str, **params: Param) -> Message:
        """The message ``message_id`` with ``params`` (a test checks every id the engine
        uses against ``ENGLISH`` and its parameters, so it is not checked here)."""
        return _new_tuple(Message, (message_id, tuple(params.items())))  # Message(...) without its __new__

    @property
    def args(self) -> dict[str, Param]:
        return dict(self.params)

    @property
    def text(self) -> str:
        """The English text (what the CLI prints)."""
        return render(self, ENGLISH)

    def __str__(self) -> str:
        return self.text


_new_tuple = tuple.__new__


def render(
    message: Message, catalogue: Mapping[str, str], shown: Callable[[str, str | int], object] | None = None
) -> str:
    """``message`` in the language of ``catalogue`` (falls back to English per id), nested
    messages too; ``shown(name, value)``, when given, writes each plain parameter the way
    that language writes it (cards and calls in words, say)."""
    template = catalogue.get(message.id) or ENGLISH[message.id]
    args = {
        k: render(v, catalogue, shown) if isinstance(v, Message) else v if shown is None else shown(k, v)
        for k, v in message.params
    }
    return template.format(**args)


ENGLISH: Final[dict[str, str]] = {
    # --- refused actions (IllegalAction; the part after "illegal." is its rule id) ---
    "illegal.not_an_action": "{action} is not an action",
    "illegal.game_over": "the game is over",
    "illegal.no_deal": "no deal is in progress",
    "illegal.deal_not_over": "the current deal is not over",
    "illegal.deal_over": "{action} is illegal: the deal is over",
    "illegal.auction_over": "{action} is illegal: the auction is over",
    "illegal.not_a_call": "{action} is not a call",
    "illegal.coinche_no_bid": "coinche is illegal: there is no bid to coinche",
    "illegal.coinche_twice": "coinche is illegal: the contract is already coinched",
    "illegal.coinche_own_team": "coinche is illegal: only an opponent of the bidder (seat {bidder}) may coinche",
    "illegal.surcoinche_no_coinche": "surcoinche is illegal: the contract is not coinched",
    "illegal.surcoinche_twice": "surcoinche is illegal: already surcoinched",
    "illegal.surcoinche_defense": "surcoinche is illegal: only the bidding team may surcoinche",
    "illegal.bid_after_coinche": "{call} is illegal: nobody may bid after a coinche",
    "illegal.no_sa_ta": "{call} is illegal: SA and TA contracts are not played at this table",
    "illegal.no_generale": "{call} is illegal: générale is not played at this table",
    "illegal.bid_value": "{call} is illegal: bids are multiples of 10 from 80 to {max_bid}",
    "illegal.bid_too_low": "{call} is illegal: a bid must be higher than the current bid {current}",
    "illegal.declare_first": "{action} is illegal: seat {seat} first declares its melds (or nothing)",
    "illegal.no_such_declaration": "declaration #{index} does not exist (0..{last})",
    "illegal.declare_not_now": (
        "seat {seat} cannot declare {melds}: melds are declared with the first card, and only where the rules "
        "have melds"
    ),
    "illegal.bad_declaration": "seat {seat} cannot declare: {problem}",
    "meld.not_a_meld": "{meld} is not a meld",
    "meld.not_in_hand": "{meld} is not in the hand",
    "meld.card_twice": "{card} is used by two melds",
    "illegal.not_a_card": "{action} is illegal: a card must be played",
    "illegal.not_in_hand": "{card} is illegal: it is not in the player's hand",
    "illegal.no_belote": "{card} cannot announce belote: it is not a belote card now",
    "illegal.follow_suit": "{card} is illegal: must follow suit ({suit}) with {cards}",
    "illegal.must_go_higher": "{card} is illegal: must play higher than {winner} with {cards}",
    "illegal.must_overtrump": "{card} is illegal: must overtrump ({winner}) with {cards}",
    "illegal.must_undertrump": "{card} is illegal: must undertrump (cannot beat {winner}) with {cards}",
    "illegal.must_trump": "{card} is illegal: must trump (no {suit}, an opponent is winning) with {cards}",
    # --- the scoring's explanation lines (DealResult.lines, DealScore.lines) ---
    "score.void": "void deal: four passes",
    "score.contract": "contract {call}",
    "score.contract_coinched": "contract {call}, coinched (x2)",
    "score.contract_surcoinched": "contract {call}, surcoinched (x{multiplier})",
    "score.sweep_transfers_melds": "taker sweep: the defense's {melds} meld points pass to the takers",
    "score.capot_made": "capot: made, the takers won all 8 tricks",
    "score.capot_failed": "capot: failed, the takers did not win all 8 tricks",
    "score.generale_made": "générale: made, the taker won all 8 tricks alone",
    "score.generale_failed": "générale: failed, the taker did not win all 8 tricks alone",
    "score.totals": "takers: cards + belote = {takers}; defense: cards + belote = {defense}",
    "score.totals_with_melds": (
        "takers: cards + belote + melds = {takers}; defense: cards + belote + melds = {defense}"
    ),
    "score.below_contract": "failed: {total} is below the contract {value}",
    "score.not_beating_defense": "failed: {total} reaches {value} but does not beat the defense's {defense}",
    "score.cards_not_beating_defense": ("failed: the takers' {takers} card points do not beat the defense's {defense}"),
    "score.made": "made: {total} reaches the contract {value}",
    "score.takers_flat": "takers: 160 + {value} x {multiplier} + {belote} belote = {total}",
    "score.defense_flat": "defense: 160 + {value} x {multiplier} + {belote} belote = {total}",
    "score.defense_belote_only": "defense: its belote only = {total}",
    "score.takers_belote_only": "takers: their belote only = {total}",
    "score.takers": "takers: {value} contract + {base} + {melds} melds + {belote} belote = {total}",
    "score.defense": "defense: {points} card points + {melds} melds + {belote} belote = {total}",
    "score.takers_multiplied": (
        "takers: ({value} contract + {base} + {melds} melds + {belote} belote) x {multiplier} = {total}"
    ),
    "score.takers_multiplied_belote_after": (
        "takers: ({value} contract + {base} + {melds} melds) x {multiplier} + {belote} belote = {total}"
    ),
    "score.defense_failed": "defense: {base} + {value} contract + {melds} melds + {belote} belote = {total}",
    "score.defense_failed_multiplied": (
        "defense: ({base} + {value} contract + {melds} melds + {belote} belote) x {multiplier} = {total}"
    ),
    "score.defense_failed_multiplied_belote_after": (
        "defense: ({base} + {value} contract + {melds} melds) x {multiplier} + {belote} belote = {total}"
    ),
    "score.rounding_nearest10": (
        "rounding to the nearest 10: takers {takers} -> {rounded_takers}, defense {defense} -> {rounded_defense}"
    ),
    "score.rounding_house": (
        "rounding attack up from 6, defense up from 7: takers {takers} -> {rounded_takers}, "
        "defense {defense} -> {rounded_defense}"
    ),
    "score.result": "score: takers {takers}, defense {defense}",
    # --- the calculator's complaints (ScoringError; the part after "calc." is its id) ---
    "calc.no_generale": "{contract}: the {profile} rules have no générale",
    "calc.unknown_contract": "unknown contract {contract} (expected e.g. 90H, 120SA, capotS, generaleTA)",
    "calc.bid_value": "{contract}: a bid is a multiple of 10 from 80 to {max_bid} under the {profile} rules",
    "calc.no_sa_ta": "{contract}: SA and TA contracts are not played under these {profile} rules",
    "calc.unknown_sweep": "unknown sweep {sweep} (expected taker, taker-alone or defense)",
    "calc.points_range": "the takers' points must be between 0 and {total}, not {points}",
    "calc.points_sum": "the card points of both teams must add up to {total}, not {points}",
    "calc.taker_sweep_points": "a taker sweep gives the takers all {total} points, not {points}",
    "calc.defense_sweep_points": "a defense sweep leaves the takers 0 points, not {points}",
    "calc.negative_belotes": "a number of belotes cannot be negative",
    "calc.too_many_belotes": "a {trump} contract has at most {most} belote(s) in all, not {count}",
    "calc.melds_multiple": "{team} melds must be a non-negative multiple of 10, not {melds}",
    "calc.no_melds": "melds are not played under the {profile} rules, yet {team} melds are {melds}",
    "calc.deal_melds_most": "{team} melds cannot exceed {most} points (what a deal can hold), not {melds}",
    "calc.team_melds_most": "{team} melds cannot exceed {most} points (what a team can hold), not {melds}",
    "calc.both_melds_most": "the melds of both teams cannot exceed {most} points (what a deal can hold), not {melds}",
    "calc.one_team_melds": (
        "under the {profile} rules the team with the best meld takes every meld: only one team can have melds"
    ),
    "calc.multiplier": "multiplier {multiplier} is not 1, 2 or {surcoinche}",
    "team.takers": "the takers'",
    "team.defense": "the defense's",
    # --- the computer players' reasons (the expert's; shown with a hint) ---
    "bot.only_legal_action": "only legal action",
    "bot.only_legal_card": "only legal card",
    "bot.declare_all": "declares all its melds",
    "bot.no_consistent_deal": "no consistent deal found",
    "bot.chance_made": "contract made in {percent}% of {samples} sampled deals, expected {expected} for the team",
    "bot.chance_set": "contract set in {percent}% of {samples} sampled deals, expected {expected} for the team",
    "bot.pass_no_contract": "pass: no contract beats {expected} expected",
    "bot.bid_estimate": (
        "{call}: about {points} card points expected in {trump}, contract made {percent}% of the time,"
        " {expected} expected score"
    ),
    "bot.coinche_estimate": "coinche: the {call} contract fails about {percent}% of the time, {expected} expected",
    "bot.pass_estimate": "pass: {expected} expected in defence, the contract fails about {percent}% of the time",
    "bot.surcoinche_estimate": "surcoinche: the contract is made about {percent}% of the time",
    "bot.pass_made_rate": "pass: the contract is made only about {percent}% of the time",
    # the expert's reasons for the player it advises (a hint: expert/reasons.py)
    "bot.why_call": "{call}: {why}",
    "bot.why_play": "{played}: {why}",
    "bot.why_bid": (
        "with {cards}, your team makes about {points} points; the contract is made about {times} times in 10"
    ),
    "bot.why_bid_plain": "your team makes about {points} points; the contract is made about {times} times in 10",
    "bot.why_bid_partner": (
        "with {cards} and your partner's bid, your team makes about {points} points;"
        " the contract is made about {times} times in 10"
    ),
    "bot.why_bid_partner_plain": (
        "with your partner's bid, your team makes about {points} points; the contract is made about {times} times in 10"
    ),
    "bot.why_unvalued": "a bid the expert did not weigh",
    "bot.why_surcoinche": "the contract is made about {times} times in 10",
    "bot.why_coinche": "with {cards}, the {current} fails about {times} times in 10",
    "bot.why_coinche_plain": "the {current} fails about {times} times in 10",
    "bot.why_pass_no_surcoinche": "the contract is made only about {times} times in 10, too seldom to surcoinche",
    "bot.why_pass_coinched": "the {current} is coinched",
    "bot.why_pass_defence": "the {current} fails only about {times} times in 10, too seldom to coinche",
    "bot.why_pass_bid": (
        "with {cards}, your team would make about {points} points; {call} would be made only about {times} times in 10"
    ),
    "bot.why_pass_bid_plain": (
        "your team would make about {points} points; {call} would be made only about {times} times in 10"
    ),
    "bot.why_pass_weak": (
        "with {cards}, your team makes only about {points} points at {trump}, your best trump;"
        " a bid needs at least {value}"
    ),
    "bot.why_pass_weak_plain": (
        "your team makes only about {points} points at {trump}, your best trump; a bid needs at least {value}"
    ),
    "bot.why_pass_ours": (
        "your team holds the {current}, made about {held} times in 10; {call} would be made about {times} times in 10"
    ),
    "bot.why_pass_no_bid": "no bid is left to make",
    "bot.why_card": "{what}; {chance}",
    "bot.why_chance_made": "the contract is made in about {count} of the {samples} deals tried",
    "bot.why_chance_set": "the contract fails in about {count} of the {samples} deals tried",
    "bot.fact_lead_master_trump": "it is the master trump, and draws the trumps",
    "bot.fact_lead_trump": "it draws the trumps",
    "bot.fact_lead_master": "it is the master card of its suit",
    "bot.fact_lead": "it opens this suit",
    "bot.fact_lead_low": "a small card, which gives away few points",
    "bot.fact_ruff": "it ruffs the trick",
    "bot.fact_win_last": "it takes the trick",
    "bot.fact_win_master": "it is the master card: it wins the trick unless it is ruffed",
    "bot.fact_win": "it wins the trick so far",
    "bot.fact_overtake": "it takes over your partner's trick",
    "bot.fact_partner_points": "your partner holds the trick: add points to it",
    "bot.fact_partner": "your partner holds the trick",
    "bot.fact_cannot_win": "you cannot win this trick",
    # the reasons of every level (beginner, confirmed, adaptive), and their parts
    "bot.pass": "pass",
    "bot.with_belote": "{reason} (belote)",
    "bot.card_reason": "{played}: {reason}",
    "bot.with_detail": "{reason} ({detail})",
    "bot.list": "{first}, {rest}",
    "bot.adaptive": "[Adaptive: {levels}] {reason}",
    "bot.adaptive_one": "{level}",
    "bot.adaptive_two": "between {low} and {high}",
    "bot.level_beginner": "Beginner",
    "bot.level_confirmed": "Intermediate",
    "bot.level_expert": "Expert",
    "bot.random_action": "a random legal action",
    "bot.pass_partner_bid": "pass: my partner bid",
    "bot.pass_no_good_suit": "pass: no good suit",
    "bot.pass_too_high": "pass: the bid is too high for me",
    "bot.support_partner": "{call}: I support my partner",
    "bot.support_partner_jack": "{call}: I hold the Jack of trumps",
    "bot.long_suit": "{call}: a long suit",
    "bot.long_suit_jack": "{call}: the Jack and a long suit",
    "bot.random_card": "played without thinking",
    "bot.aces_first": "Aces first",
    "bot.trumps_as_taker": "trumps as taker",
    "bot.small_card": "a small card",
    "bot.take_with_best": "take it with my best card",
    "bot.partner_has_it": "partner has it",
    "bot.cannot_win": "cannot win",
    "bot.surcoinche_ceiling": "surcoinche: our estimate {estimate} clearly makes {value}",
    "bot.pass_hold": "pass: I hold the contract",
    "bot.pass_nothing_to_add": "pass: nothing to add",
    "bot.pass_not_enough": "pass: not enough tricks",
    "bot.capot_every_trick": "{call}: every trick ({reason})",
    "bot.bid_reason": "{call}: {reason}",
    "bot.one_trick_in": "1 trick in {trump}",
    "bot.tricks_in": "{count} tricks in {trump}",
    "bot.one_more_trick": "1 more trick in {trump}",
    "bot.more_tricks": "{count} more tricks in {trump}",
    "bot.raise_one": "raise partner's {call} by 1 trick",
    "bot.raise_many": "raise partner's {call} by {count} tricks",
    "bot.coinche_aces": "coinche: Aces against {call}",
    "bot.coinche_aces_count": "coinche: {count} Aces against {call}",
    "bot.coinche_jacks": "coinche: Jacks against {call}",
    "bot.coinche_jacks_count": "coinche: {count} Jacks against {call}",
    "bot.coinche_sweep": "coinche: they cannot win every trick of the {call}",
    "bot.coinche_sweep_jack": "coinche: the trump Jack is a sure trick against the {call}",
    "bot.coinche_trumps": "coinche: strong trumps against {call}",
    "bot.coinche_trumps_count": "coinche: {count} trumps with {cards} against {call}",
    "bot.coinche_trumps_held": "coinche: {cards} of trumps against {call}",
    "bot.coinche_control": "coinche: trump control and side Aces against {call}",
    "bot.coinche_control_count": "coinche: the trump Jack and {count} Aces against {call}",
    "bot.note_jack": "the Jack",
    "bot.note_nine": "the 9",
    "bot.note_nine_guarded": "the 9 guarded",
    "bot.note_nine_bare": "the bare 9",
    "bot.note_ace": "the Ace",
    "bot.note_ten": "the 10",
    "bot.note_belote": "the belote",
    "bot.note_trumps": "{count} trumps",
    "bot.note_side": "side {cards}",
    "bot.note_cards": "{cards}",
    "bot.note_void": "void in {suit}",
    "bot.note_melds": "melds {points}",
    "bot.nothing_special": "nothing special",
    "bot.generale_let_taker": "générale: let the taker win every trick",
    "bot.draw_master_trump": "draw trumps with the master trump",
    "bot.draw_trumps": "draw trumps",
    "bot.return_trump": "return a trump to the taker",
    "bot.cash_partner_suit": "cash partner's {suit}",
    "bot.lead_partner_suit": "lead partner's {suit}",
    "bot.cash_master": "cash a master card",
    "bot.lead_low": "lead low in {suit}",
    "bot.feed_partner": "partner is master: add points",
    "bot.overtake_partner": "take over the partner's trick with a master card",
    "bot.partner_may_win": "partner may win: play low",
    "bot.win_cheaply": "win the trick cheaply",
    "bot.win_trick": "win the trick",
    "bot.not_worth_trump": "not worth a trump: play low",
    "bot.win_unbeatable": "win with a card they cannot beat",
    "bot.ruff": "ruff",
    "bot.must_go_over": "must go over",
    "bot.cannot_win_low": "cannot win: play low",
    # --- what a call says (bots.call_reading): the rules' terms, then the expert's reading ---
    "meaning.open": (
        "{call} opens the auction: the team undertakes to make at least "
        "{value} points with this trump; a bid never names a card"
    ),
    "meaning.raise": "{call} raises the partner's {earlier}: {promise} ({hands})",
    "meaning.raise.one": "one more trick",
    "meaning.raise.two": "two more tricks",
    "meaning.raise.three": "three more tricks",
    "meaning.raise.one_hands": "a side Ace, or two trumps including the 9",
    "meaning.raise.two_hands": (
        "two side Aces; or an Ace and two trumps including the 9; or three trumps including the 9 and the Ace"
    ),
    "meaning.raise.three_hands": (
        "three Aces; or two Aces and the 10 of one of their suits; or two Aces and two "
        "trumps including the 9; or four trumps including the 9, the Ace and the 10"
    ),
    "meaning.raise.or_nine": "{hands}; or the lone trump 9",
    "meaning.raise.or_jack": "{hands}; or else the trump Jack or the belote",
    "meaning.raise_many": "{call} raises the partner's {earlier} by {count} steps: as many more tricks",
    "meaning.again": "{call} bids its own trump again, above its {earlier}: more than its first bid promised",
    "meaning.change": "{call} names another trump than the partner's {current}: it prefers its own",
    "meaning.overcall": "{call} outbids the opponents' {current}: it disputes the contract",
    "meaning.capot": "{call}: the team undertakes to win all eight tricks",
    "meaning.generale": "{call}: the bidder undertakes to win all eight tricks alone, the partner none",
    "meaning.coinche": (
        "coinche: tells the takers of {current} that they will fail; the contract's "
        "stakes are multiplied by {factor} and nobody may bid any more"
    ),
    "meaning.surcoinche": (
        "surcoinche: the takers answer that they will make their {current}; "
        "the stakes are multiplied by {factor} and the auction is closed"
    ),
    "meaning.pass_open": "pass before any bid: no hand to open",
    "meaning.pass_partner": "pass over the partner's {current}: no further trick to promise",
    "meaning.pass_own": "pass: stays at its own {current}",
    "meaning.pass_opponent": "pass: does not dispute the opponents' {current}",
    "meaning.pass_coinched": "pass: leaves the {current} coinched as it is",
    "meaning.expert_strength": (
        "the expert's card play reads a hand at least as strong in {trump} as this one: {example}"
    ),
    "meaning.expert_partner": (
        "as partner, the expert's auction counts this hand alone as worth about {points} "
        "of the {total} points in {trump} (a hand it knows nothing of: {unknown})"
    ),
    "meaning.raise_plain": "{call} raises the partner's {earlier}: {promise}",
    "meaning.expert_partner_suit": (
        "as partner, the expert's auction counts this hand alone as worth about {points} of the {total} points in a"
        " suit (a hand it knows nothing of: {unknown})"
    ),
    "meaning.expert_pass_trump": (
        "the expert's card play reads a hand as strong in {trump} as this one as unlikely: {example}"
    ),
    "meaning.expert_pass_suit": (
        "the expert's card play reads a hand as strong in any suit as this one as unlikely: {example}"
    ),
    "meaning.expert_nothing": "the expert reads nothing of the hand into it",
    "meaning.holding_beyond": "more than any hand of eight cards",
    "meaning.holding_nothing": "no card at all",
    "meaning.and": "{first} and {last}",
    "meaning.part.trumps_jack": "the trump Jack",
    "meaning.part.trumps_nine": "the trump 9",
    "meaning.part.trumps_ace": "the trump Ace",
    "meaning.part.trumps_jack_nine": "the trump Jack and 9",
    "meaning.part.trumps_jack_ace": "the trump Jack and Ace",
    "meaning.part.trumps_nine_ace": "the trump 9 and Ace",
    "meaning.part.trumps_jack_nine_ace": "the trump Jack, 9 and Ace",
    "meaning.part.other_trumps": "{count} other trumps",
    "meaning.part.other_trumps_one": "another trump",
    "meaning.part.trumps": "{count} trumps",
    "meaning.part.trumps_one": "a trump",
    "meaning.part.side_aces": "{count} side Aces",
    "meaning.part.side_aces_one": "a side Ace",
    "meaning.part.side_tens": "{count} Tens with their Ace",
    "meaning.part.side_tens_one": "a Ten with its Ace",
    "meaning.part.aces": "{count} Aces",
    "meaning.part.aces_one": "an Ace",
    "meaning.part.tens": "{count} Tens",
    "meaning.part.tens_one": "a Ten",
    "meaning.part.jacks": "{count} Jacks",
    "meaning.part.jacks_one": "a Jack",
    "meaning.part.nines": "{count} 9s",
    "meaning.part.nines_one": "a 9",
    # The bases named inside the takers' and defense's lines ({base} above).
    "base.card_points": "{points} card points",
    "base.flat": "{points} (flat)",
    "base.flat_sweep": "{points} (flat, sweep)",
    "base.forfeit": "{points} ({kind} forfeit)",
    "base.sweep_forfeit": "{points} (sweep forfeit)",
    "base.failure": "{points}",
    "base.defense_sweep": "{points} (defense sweep)",
}
