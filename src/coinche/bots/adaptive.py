"""Adaptive: one strength knob from Débutant (0.0) to Expert (1.0), moved after every deal
toward the level at which the human wins about half the time.

Each decision is taken by one of the three levels, drawn at random with weights that slide
with the knob: 0.0 is always the beginner, 0.5 always the confirmed player, 1.0 always the
expert, and levels in between mix the two neighbours. After each deal the knob moves up
when the human's team scored more than the bots' team and down when it scored less, by a
step that shrinks as the knob settles, so it converges to the human's level.

The raw score of a deal is mostly the cards dealt: a player dealt poor cards loses deals
however well they play. On the site the knob follows the human's score *against the deal's
double-dummy par* instead (``follows_par``, ``observe_against_par``): above par is a deal
their side played better than the other, whatever the cards.
"""

from __future__ import annotations

from ..engine.deal import View
from ..engine.messages import Message
from .base import Bot, Decision
from .beginner import BeginnerBot
from .confirmed import ConfirmedBot
from .expert import ExpertBot

PAR_SHARE = 0.5
"""What the knob reads a deal against: this share of its double-dummy par. Real play falls
short of the par (the auction stops below the best contract, the play is not double dummy):
against the whole par, the side dealt the cards was below it 93 % of the time, so the knob
went down with good cards; against half of it, the side dealt the cards is above it about as
often as below (50 % of 259 deals of confirmed players, classic and online; a quarter: 66 %,
three quarters: 28 %)."""

LEVEL_NAMES = ("Beginner", "Intermediate", "Expert")
"""The three levels' English names (the site's words: ``level.*`` of the catalogues)."""
KNOB_LEVELS = ("beginner", "confirmed", "expert")
"""The three levels the knob moves along, 0.0, 0.5 and 1.0 (the bots' load names)."""


def level_span(level: float) -> tuple[int, ...]:
    """Which of the three levels a knob value plays, as indexes of ``KNOB_LEVELS``: one level at
    0.0, 0.5 and 1.0, else the two neighbours it mixes."""
    x = level * 2
    if x in (0.0, 1.0, 2.0):
        return (int(x),)
    low = min(int(x), 1)
    return (low, low + 1)


def _level_name(index: int) -> Message:
    """The name of one of the three levels, translatable."""
    if index == 0:
        return Message.of("bot.level_beginner")
    if index == 1:
        return Message.of("bot.level_confirmed")
    return Message.of("bot.level_expert")


class AdaptiveBot(Bot):
    name = "adaptive"

    def __init__(
        self,
        seed: int | None = None,
        level: float = 0.5,
        human_seat: int | None = None,
        step: float = 0.1,
        expert_samples: int = 60,
        follows_par: bool = False,
    ) -> None:
        super().__init__(seed)
        self.level = min(1.0, max(0.0, level))
        self.human_seat = human_seat
        self.step = step
        self.follows_par = follows_par
        """The knob moves by ``observe_against_par`` only, not by the raw result."""
        self.deals = 0
        sub = None if seed is None else seed * 3
        self.levels: tuple[Bot, Bot, Bot] = (
            BeginnerBot(seed=sub),
            ConfirmedBot(seed=None if sub is None else sub + 1),
            ExpertBot(seed=None if sub is None else sub + 2, samples=expert_samples),
        )

    @property
    def label(self) -> str:
        """The level in English, e.g. ``Adaptive: between Intermediate and Expert``."""
        names = [LEVEL_NAMES[i] for i in level_span(self.level)]
        return "Adaptive: " + (names[0] if len(names) == 1 else f"between {names[0]} and {names[1]}")

    def _pick(self) -> Bot:
        x = self.level * 2  # 0..2 along beginner, confirmed, expert
        low = min(int(x), 1)
        return self.levels[low + 1] if self.rng.random() < x - low else self.levels[low]

    def tag(self, reason: Message) -> Message:
        """``reason`` behind the level that gave it: ``[Adaptive: between Intermediate and Expert] ...``."""
        names = [_level_name(i) for i in level_span(self.level)]
        if len(names) == 1:
            levels = Message.of("bot.adaptive_one", level=names[0])
        else:
            levels = Message.of("bot.adaptive_two", low=names[0], high=names[1])
        return Message.of("bot.adaptive", levels=levels, reason=reason)

    def choose(self, view: View) -> Decision:
        decision = self._pick().choose(view)
        reason = decision.reason or Message.of("bot.only_legal_action")
        private = decision.full_reason or reason
        return Decision.reasoned(decision.action, self.tag(reason), self.tag(private))

    def observe_result(self, view: View) -> None:
        """Move the knob (unless it ``follows_par``): up when the human's team won the
        deal, down when it lost."""
        result = view.result
        for bot in self.levels:
            bot.observe_result(view)
        if result is None or result.contract is None or self.follows_par:
            return
        human_team = self._human_team(view)
        self._move(result.score[human_team] - result.score[1 - human_team])

    def observe_against_par(self, view: View, par: int) -> int | None:
        """Move the knob by the human's deal against what its cards allow: ``PAR_SHARE``
        of its par (``par``: team 0's, as ``analysis.par_margin``): up when their team's
        margin beat it, down when it fell short. Returns that difference (None for a deal
        nobody took)."""
        result = view.result
        if result is None or result.contract is None:
            return None
        human_team = self._human_team(view)
        expected = round(PAR_SHARE * (par if human_team == 0 else -par))
        against = result.score[human_team] - result.score[1 - human_team] - expected
        self._move(against)
        return against

    def _human_team(self, view: View) -> int:
        return (self.human_seat & 1) if self.human_seat is not None else 1 - (view.seat & 1)

    def _move(self, diff: int) -> None:
        if diff == 0:
            return
        self.deals += 1
        step = max(self.step / (1 + self.deals / 20), 0.02)
        self.level = min(1.0, max(0.0, self.level + (step if diff > 0 else -step)))
