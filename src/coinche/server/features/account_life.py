"""What an account's start and end change beyond its own rows, nothing of HTTP.

A guest who signs up gives their player to the account; a guest who logs in to an account
hands it their solo games in progress. Either way the guest is retired: the table sockets
opened with their cookie close (a hub event on each of their games in progress), and the
free deals this process counted for them are read again. A guest's daily challenge of the
day becomes the new account's (ranked under its name). A deleted account's free deals are
read again too (its player is a guest's no more), and its games in progress are given up,
its bots' too; a bot its owner deletes gives up its games the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Final

from ..infra.hub import Hub
from ..live.free_deals import FreeDeals
from ..live.tables import Tables
from ..table.live_table import LiveTable, TableError
from ..table.spec import Step
from .accounts import Account, AccountService
from .bots import Bots

GUEST_RETIRED: Final = "retired"
"""The hub event a table's sockets hear when a guest seated there became an account: the
sockets opened with the guest's cookie close (``{"kind": "retired", "player": ...}``)."""

SignedUp = Callable[[str, str], Awaitable[None]]
"""Told that a guest (first) made an account playing as a player (second):
``DailyChallenge.signed_up``."""

GiveUp = Callable[[str, str], Awaitable[None]]
"""Gives up a game in progress (table, player) as its player would: ``Friends.give_up``."""


class AccountLife:
    """Sign-up, log-in and deletion of an account, with what they change at the tables:
    each is one call of the account pages."""

    def __init__(
        self,
        accounts: AccountService,
        tables: Tables,
        free_deals: FreeDeals,
        hub: Hub,
        signed_up: SignedUp,
        give_up: GiveUp,
        bots: Bots,
    ) -> None:
        self._accounts = accounts
        self._bots = bots
        self._tables = tables
        self._free_deals = free_deals
        self._hub = hub
        self._signed_up = signed_up
        self._give_up = give_up

    async def sign_up(self, name: str, password: str, confirm: str, email: str, guest: str) -> tuple[Account, str]:
        """A new account playing as the guest's player ``guest``, and its session's token
        (``AccountService.sign_up``; ``AccountError``: nothing changed). The guest's
        sockets close, and its daily challenge of the day is the account's."""
        account, token = await self._accounts.sign_up(name, password, confirm, email, guest)
        self._free_deals.forget(account.player)
        if account.player == guest:
            await self._retire_sockets(guest)
        await self._signed_up(guest, account.player)
        return account, token

    async def log_in(self, name: str, password: str, guest: str | None) -> tuple[Account, str]:
        """The account and a new session's token (``AccountService.log_in``;
        ``AccountError``: nothing changed). The browser's guest ``guest``, if another
        player, is retired: its solo games in progress become the account's
        (``adopt_solo_games``) and its sockets close."""
        account, token = await self._accounts.log_in(name, password)
        if guest is not None and guest != account.player:
            await self._accounts.retire_guest(guest)  # first: a socket losing its seat sees why
            await self.adopt_solo_games(guest, account.player)
            self._free_deals.forget(guest)
            await self._retire_sockets(guest)
        self._free_deals.forget(account.player)
        return account, token

    async def delete(self, account: Account, password: str) -> None:
        """Delete ``account`` once its password is given (``AccountError``: nothing
        changed). Its games in progress are given up first (``give_up``: a computer takes
        the seat, a game alone with computers ends), so that no later step of theirs copies
        the name the deletion takes out of the tables (``personal_data.erase``)."""
        await self._accounts.check_own_password(account, password)
        for bot in await self._bots.bots_of(account.id):  # its bots go with it
            await self._give_up_games(bot.account.player)
        await self._give_up_games(account.player)
        await self._accounts.delete(account)
        self._free_deals.forget(account.player)

    async def delete_bot(self, owner: Account, bot_id: str) -> bool:
        """``owner`` deletes its bot ``bot_id`` (the bots' page): as an account's deletion,
        its games in progress are given up first, then its name leaves the tables
        (``AccountService.erasers``); whether it was ``owner``'s bot."""
        bot = next((b.account for b in await self._bots.bots_of(owner.id) if b.account.id == bot_id), None)
        if bot is None:
            return False
        await self._give_up_games(bot.player)
        return await self._bots.delete_bot(owner.id, bot_id, self._accounts.erasers)

    async def _give_up_games(self, player: str) -> None:
        for table_id in await self._tables.games_in_progress(player):
            try:
                await self._give_up(table_id, player)
            except TableError:  # over or left meanwhile: nothing to give up
                continue

    async def adopt_solo_games(self, guest: str, player: str) -> None:
        """The guest's solo games in progress become the account's ``player``'s, as at
        sign-up: a ``seat`` step in each table's log (every process reads it; the replay
        knows who played what). A friends' table (its host's controls name players) and a
        daily challenge (one attempt per player) keep their seats."""
        for table_id in await self._tables.games_in_progress(guest):
            live = await self._tables.table(table_id, fresh=True)
            if live is None or not live.spec.kind.follows_its_player:
                continue

            async def check(live: LiveTable) -> Step | None:
                seat = live.seat_of(guest)
                if seat is None or live.seat_of(player) is not None or live.game.is_over:
                    return None
                return Step(live.seq, "seat", seat, seat_data=replace(live.seats[seat], player=player))

            try:
                await self._tables.write(table_id, None, check)
            except TableError:  # gone meanwhile (given up, finished elsewhere): nothing to adopt
                continue

    async def _retire_sockets(self, guest: str) -> None:
        """Close the table sockets opened with ``guest``'s cookie, in every process."""
        for table_id in await self._tables.games_in_progress(guest):
            await self._hub.signal(table_id, {"kind": GUEST_RETIRED, "player": guest})
