"""What each call of a deal says (``bots.call_reading``), as the table and the review show
it: in the words of the rules the table plays, then what the expert reads into it.

A computer's calls may be asked about at any moment: the reading comes from the auction
alone, so it shows no card. A person's call is read only once the deal is over (the
computer's reading of a partner's call is for learning after the deal, not a signal
passed during it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...bots.call_reading import read_call
from ...engine.actions import Action, call_str
from ...engine.rules import RuleSet
from ..table import i18n
from ..table.live_table import LiveTable


def meaning_json(lang: str, rules: RuleSet, dealer: int, calls: Sequence[Action], index: int) -> dict[str, Any]:
    """Call ``index`` of ``calls`` read, in ``lang``: ``said`` (the rules' terms) and
    ``expert`` (its reading, one sentence each)."""
    reading = read_call(rules, dealer, calls, index)
    return {
        "index": index,
        "seat": reading.seat,
        "call": call_str(reading.call),
        "said": i18n.render(lang, reading.said),
        "expert": [i18n.render(lang, m) for m in reading.expert],
    }


def deal_meanings(lang: str, live: LiveTable, n: int) -> dict[str, Any] | None:
    """Every call of deal ``n`` (1-based) of the table: read when a computer made it or the
    deal is over; for a person's call of a deal in progress, ``later`` (when it will be). None: no such deal."""
    deals = live.game.deals
    if not 1 <= n <= len(deals):
        return None
    deal = deals[n - 1]
    calls = list(deal.auction.calls)
    over = deal.is_over
    computers = {i for i, seat in enumerate(live.seats) if seat.kind == "bot"}
    later = i18n.gettext(lang, "table.meaning.later")
    out = []
    for index in range(len(calls)):
        seat = (deal.dealer + 1 + index) & 3
        if over or seat in computers:
            out.append(meaning_json(lang, deal.rules, deal.dealer, calls, index))
        else:
            out.append({"index": index, "seat": seat, "call": call_str(calls[index]), "later": later})
    return {"deal": n, "over": over, "heading": i18n.gettext(lang, "table.meaning.expert"), "calls": out}
