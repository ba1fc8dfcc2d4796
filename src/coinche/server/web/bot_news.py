"""The bots' audience of the feed: what a table's step says to the bots at one seat (the
events of the bot API's stream, ``docs/bot-api.md``), rendered once for every bot stream
that holds the seat. Nothing here does I/O.

A step's news holds every event the step may call for (the deal that ended, the game's end,
the seat's turn, the wait for the next deal); each stream sends those it has not told yet
(``bot_stream.py``). The seat's view is rendered only where the table stands for the seat:
a deal's final view only at the step that ended it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from ...engine.wire import view_to_json
from ..table.live_table import LiveTable
from .messages import BotDealOver, BotDealWait, BotGameOver, BotTurn, BotTurnGame

BOT_RESYNC: Final = "resync"
"""Handed to the bot streams of a table the feed rendered none of the steps of (read back
whole): the stream reads the table."""


@dataclass(frozen=True, eq=False)
class BotNews:
    """The events of one step for one seat (see the module)."""

    seq: int
    """The table's step (its count of steps once the step is stored)."""
    seat: int
    deals_over: int
    """The deals ended at this step."""
    deal_over: BotDealOver | None
    """The ``deal_over`` of the last deal ended, when it ended at this step (else None: the
    streams told it with an earlier step)."""
    game_over: BotGameOver | None
    actions: int
    """The table's count of actions (a step that is no move does not tell a turn again)."""
    turn: BotTurn | None
    """The seat must act: its ``turn``."""
    deals: int
    """The deals dealt (the wait for the next deal is told once per deal)."""
    deal_wait: BotDealWait | None

    @property
    def silent(self) -> bool:
        """Nothing in it a stream could tell (a step of another seat's, mid-deal)."""
        return self.deal_over is None and self.game_over is None and self.turn is None and self.deal_wait is None


Heard = BotNews | None | Literal["resync"]
"""What the feed hands a bot stream for a step: the seat's news, None when the bot holds no
seat there any more, or ``BOT_RESYNC``."""


def bot_news(live: LiveTable, seat: int, before: BotNews | None, time_ms: int) -> BotNews:
    """The news of ``live``'s last step for ``seat`` (``before``: the seat's news of an
    earlier step, None when there is none)."""
    game = live.game
    done = live.deals_over
    ended = before is None or before.seq != live.seq - 1 or before.deals_over != done
    deal_over = _deal_over(live, seat, done) if done and ended else None
    game_over = None
    turn = None
    if game.is_over:
        game_over = BotGameOver(live.id, list(game.totals), game.winner)
    elif live.person_to_move() == seat:
        turn = _turn(live, seat, time_ms)
    deal_wait = None
    if live.started and game.awaiting_deal:
        deal_wait = BotDealWait(live.id, live.seq)
    return BotNews(live.seq, seat, done, deal_over, game_over, len(live.action_seqs), turn, len(game.deals), deal_wait)


def _deal_over(live: LiveTable, seat: int, number: int) -> BotDealOver:
    deal = live.game.deals[number - 1]
    result = deal.result()
    score = list(result.score) if result is not None else None
    return BotDealOver(live.id, number, view_to_json(deal.view(seat)), score)


def _turn(live: LiveTable, seat: int, time_ms: int) -> BotTurn:
    view = live.game.view(seat)
    game = BotTurnGame(view.deal_number, view.target, list(view.totals), [list(h) for h in view.history], view.winner)
    return BotTurn(live.id, live.seq, seat, view_to_json(view.deal), game, time_ms)
