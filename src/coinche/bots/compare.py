"""A played deal again, with another bot in one seat ("Rejouer comme l'expert", issue 32).

The other seats repeat what was played for as long as the deal is the same; from the first
entry where the bot in ``seat`` chooses otherwise, they are played by the bots given (the
deal is then a "what if"). The comparison says where the two deals first differ, and at a
card what the difference is worth: the solver's value of each legal card for the seat's
team there (``analysis.card_values``); at a call, the two deals' scores say it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.actions import is_card
from ..engine.cards import CardSet
from ..engine.deal import Deal, LogEntry, Phase
from ..engine.rules import RuleSet
from .analysis import card_values
from .base import Bot

MAX_ENTRIES = 400
"""A deal has at most a few hundred entries: past this the replay is refused."""


@dataclass(frozen=True)
class Comparison:
    """The deal as the bot played it in ``seat``, and where it first left the original."""

    deal: Deal
    """The replayed deal, over."""
    first: int | None
    """The index in both logs of the first entry that differs (None: the same deal)."""
    values: dict[int, int] | None
    """At a first difference that is a card: each legal card's double-dummy value there
    (points the seat's team takes from there on)."""


def replay_as(
    rules: RuleSet,
    dealer: int,
    hands: Sequence[CardSet],
    log: Sequence[LogEntry],
    seat: int,
    bot: Bot,
    others: Sequence[Bot],
) -> Comparison:
    """Deal ``hands`` again with ``bot`` in ``seat`` (see the module); ``others[s]`` plays
    seat ``s`` once the deal has left ``log``."""
    deal = Deal(rules, dealer, hands)
    first: int | None = None
    values: dict[int, int] | None = None
    while not deal.is_over:
        i = len(deal.log)
        if i >= MAX_ENTRIES:
            raise RuntimeError("the replayed deal does not end")
        mover = deal.to_move
        same = first is None and i < len(log)
        before: Deal | None = None
        if mover == seat:
            action = bot.choose(deal.view(mover)).action
            if same:
                before = deal.copy()
            deal.apply(action)
        elif same:
            deal.replay_entry(log[i])
        else:
            deal.apply(others[mover].choose(deal.view(mover)).action)
        if same and deal.log[i] != log[i]:
            first = i
            played = deal.log[i]
            if before is not None and isinstance(played, int) and is_card(played) and before.phase is Phase.PLAY:
                values = card_values(before)
    return Comparison(deal, first, values)
