"""A played deal again with another bot in one seat (``bots.compare``): the same bot plays
the same deal; another leaves it at its first different choice, and at a card the solver's
values say what the difference is worth."""

from __future__ import annotations

from coinche.bots.analysis import card_values
from coinche.bots.base import Bot, Decision
from coinche.bots.compare import replay_as
from coinche.bots.loading import load_bot
from coinche.engine.actions import card_of, is_card
from coinche.engine.deal import Deal, Phase, View
from played_deals import played_deal


def test_the_same_bot_in_the_seat_plays_the_same_deal() -> None:
    for seed in range(6):
        original = played_deal("classic", seed)
        others = [load_bot("beginner", seed=s) for s in range(4)]
        same = replay_as(
            original.rules,
            original.dealer,
            original.dealt,
            original.log,
            1,
            load_bot("confirmed", seed=seed * 4 + 1),
            others,
        )
        assert same.first is None and same.values is None
        assert same.deal.log == original.log and same.deal.is_over


class LastCard(Bot):
    """Calls as the bot it wraps, plays the last legal card: a deal that differs in the play."""

    def __init__(self, inner: Bot) -> None:
        super().__init__()
        self.inner = inner

    def choose(self, view: View) -> Decision:
        if view.phase is Phase.AUCTION:
            return self.inner.choose(view)
        return Decision(view.legal_actions[-1])


def test_another_bot_leaves_the_deal_at_its_first_different_choice() -> None:
    differed = cards = 0
    for seed in range(12):
        original = played_deal("classic", seed)
        others = [load_bot("confirmed", seed=100 + s) for s in range(4)]
        seat = seed % 4
        bot = load_bot("random", seed=seed) if seed % 2 else LastCard(load_bot("confirmed", seed=seed * 4 + seat))
        compared = replay_as(original.rules, original.dealer, original.dealt, original.log, seat, bot, others)
        assert compared.deal.is_over
        if compared.first is None:
            continue
        differed += 1
        first = compared.first
        assert compared.deal.log[:first] == original.log[:first]
        assert compared.deal.log[first] != original.log[first]
        before = Deal.from_log(original.rules, original.dealer, original.dealt, original.log[:first])
        assert before.to_move == seat  # the bot's own choice, never another seat's
        played = original.log[first]
        if isinstance(played, int) and is_card(played):
            cards += 1
            assert compared.values == card_values(before)
            chosen = compared.deal.log[first]
            assert isinstance(chosen, int) and card_of(chosen) in compared.values and card_of(played) in compared.values
        else:
            assert compared.values is None
    assert differed >= 6 and cards >= 1, (differed, cards)
