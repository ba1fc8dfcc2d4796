"""Expert: search. Perfect-information Monte Carlo over sampled deals, scored by the
double-dummy solver, with the contract in view.

The modules, in the order of one decision:

* ``deals``: for the card play, the unseen cards dealt consistent with everything seen
  (voids, failures to overtrump, belote, shown melds), each deal weighted by how well it
  explains the auction and the cards the other seats chose (``play_model``);
* ``auction``: calls. For every call, the expected score of the deal from the hand
  evaluator's estimate of the team's points, corrected by what self-play measured
  (``calibration``); the best call is made (pass included);
* ``card_play``: cards. Ask the solver the value of every candidate card in every deal;
* ``outcome``: card points turned into the deal's score margin (made or failed, coinche,
  belote, melds: RULES.md section 5), what both of them maximise.
"""

from __future__ import annotations

from ...engine.actions import DECLARE_BASE, card_of, is_announce, is_card
from ...engine.cards import card_str
from ...engine.deal import View
from ...engine.messages import Message
from ..base import Bot, Decision, with_belote
from .auction import appraise, decide_call
from .card_play import choose_card
from .config import ExpertConfig
from .reasons import call_reason, card_reason

__all__ = ["ExpertBot", "ExpertConfig", "NoPlayModelExpertBot", "UniformExpertBot"]


class ExpertBot(Bot):
    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = ExpertConfig.samples,
        inference: bool = True,
        play_inference: bool = True,
        explain: bool = False,
    ) -> None:
        super().__init__(seed)
        self.config = ExpertConfig(samples=samples, inference=inference, play_inference=play_inference)
        self.explain = explain
        """Add the player's reason (``reasons``) as the private reason: it names the
        seat's own cards, for a hint. Off for play: the same moves, no time spent."""

    # The public reason never names a hidden card (only the card played); the private
    # one, when ``explain`` is on, names the seat's own cards and the figures decided on.

    def choose(self, view: View) -> Decision:
        acts = view.legal_actions
        if len(acts) == 1:
            only = Message.of("bot.only_legal_action")
            if self.explain and is_card(acts[0]):
                detail = Message.of("bot.card_reason", played=card_str(card_of(acts[0])), reason=only)
                return Decision.reasoned(acts[0], only, detail)
            return Decision.reasoned(acts[0], only)
        return super().choose(view)

    def choose_call(self, view: View) -> Decision:
        appraisal = appraise(view, self.config)  # the calls are deterministic: no chance taken
        decision = decide_call(appraisal, self.config)
        if not self.explain:
            return decision
        assert decision.reason is not None
        return Decision.reasoned(decision.action, decision.reason, call_reason(appraisal, decision.action))

    def choose_declaration(self, view: View) -> Decision:
        return Decision.reasoned(DECLARE_BASE, Message.of("bot.declare_all"))

    def choose_card(self, view: View) -> Decision:
        acts = view.legal_actions
        cards = [a for a in acts if not is_announce(a)]
        if len(cards) == 1:
            only = Message.of("bot.only_legal_card")
            detail = Message.of("bot.card_reason", played=card_str(cards[0]), reason=only) if self.explain else None
            return Decision.reasoned(with_belote(cards[0], acts), only, detail)
        return choose_card(view, cards, acts, self.config, self.rng, card_reason if self.explain else None)


class UniformExpertBot(ExpertBot):
    """The expert without inference: sampled deals are weighted uniformly (to measure
    what the inference earns)."""

    name = "expert-uniform"

    def __init__(self, seed: int | None = None, samples: int = ExpertConfig.samples) -> None:
        super().__init__(seed, samples=samples, inference=False)


class NoPlayModelExpertBot(ExpertBot):
    """The expert without the play model: sampled deals are weighted by the auction only
    (to measure what reading the cards played earns)."""

    name = "expert-no-play-model"

    def __init__(self, seed: int | None = None, samples: int = ExpertConfig.samples) -> None:
        super().__init__(seed, samples=samples, play_inference=False)
