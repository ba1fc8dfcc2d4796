"""The guests' free deals: each deal dealt to a guest counts one, in the database (an account
has no limit); a void deal (four passes) or a deal not dealt gives it back. Every state
message shows what is left, so each process keeps the counts it last read."""

from __future__ import annotations

from collections.abc import Sequence

from ..infra.config import Settings
from ..infra.database import Database
from ..infra.store import Store
from ..table.live_table import LiveTable
from ..table.spec import Step
from .events import DealEnded
from .registry import LiveTables

DEALS_CACHE = 20_000
"""Players whose count of free deals played is kept in memory."""


class FreeDeals:
    """The free deals of each guest: counted, given back, and read as last seen here; it
    listens to the registry for the deals dealt and the void deals."""

    def __init__(self, store: Store, db: Database, settings: Settings, registry: LiveTables) -> None:
        self._store = store
        self._db = db
        self._settings = settings
        self._deals_played: dict[str, int | None] = {}  # oldest first: a bounded cache
        """Free deals each player has used (None: an account, no limit), as last read here."""
        registry.on(DealEnded, self._give_back_void_deal)
        registry.follow(self._moved)

    def _moved(self, live: LiveTable, step: Step) -> None:
        """A deal dealt counted free deals, in the database: read them again (an account has
        none to read)."""
        if live.spec.kind.uses_free_deals and step.kind == "deal":
            for player in live.human_players:
                if not self._unlimited(player):
                    self.forget(player)

    async def _give_back_void_deal(self, event: DealEnded) -> None:
        """A void deal (four passes) stored here gives its free deals back."""
        live = event.table
        if not event.again and live.void_deal_ended and live.spec.kind.uses_free_deals:
            await self.give_back(live.human_players)

    async def left(self, player: str, fresh: bool = False) -> int | None:
        """The free deals ``player`` has left, None without limit (a player with an account);
        ``fresh``: read from the database, else as this process last read them (what pages
        and states show; the limit itself is enforced by ``use`` in the database)."""
        if fresh or player not in self._deals_played:
            self._remember(player, await self._db(self._store.free_deals_used, player))
        used = self._deals_played[player]
        return None if used is None else max(0, self._settings.free_deals - used)

    def forget(self, player: str) -> None:
        """The player's account changed (made, deleted): read their free deals again."""
        self._deals_played.pop(player, None)

    async def use(self, players: Sequence[str]) -> bool:
        """Count a free deal for each player as a deal is dealt to them; False (none counted)
        if one of them has none left. A player this process knows has an account is not
        asked of the database (accounts have no limit: a table of bots and people with
        accounts deals without a write)."""
        used: list[str] = []
        for player in players:
            if self._unlimited(player):
                continue
            had = await self._db(self._store.use_free_deal, player, self._settings.free_deals)
            if had is None:
                self._remember(player, None)
                continue
            if not had:
                await self.give_back(used)
                return False
            used.append(player)
            self.forget(player)
        return True

    async def give_back(self, players: Sequence[str]) -> None:
        """Give back the free deal counted for each player (a void deal, a deal not dealt)."""
        for player in players:
            if self._unlimited(player):
                continue
            await self._db(self._store.give_back_free_deal, player)
            self.forget(player)

    def _unlimited(self, player: str) -> bool:
        """This process knows ``player`` has an account (an account made since is read
        again: ``forget``)."""
        return player in self._deals_played and self._deals_played[player] is None

    def _remember(self, player: str, played: int | None) -> None:
        """Keep a player's count (the most recent ``DEALS_CACHE`` players: a visitor without a
        cookie is a new player at each visit, so the cache must not grow without end)."""
        cache = self._deals_played
        cache.pop(player, None)
        cache[player] = played
        while len(cache) > DEALS_CACHE:
            del cache[next(iter(cache))]
