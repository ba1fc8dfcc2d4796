"""Bot accounts (issue 31): programs that play on the site through the bot API
(``docs/bot-api.md``), each owned by a person's account.

A bot is an account like a person's (a player, a name, a rating, games in the history),
with three differences kept here: its owner (``AccountRow.bot_owner_id``), its name, which
ends with the robot mark (``names.BOT_MARK``) wherever it is shown (no person's name may hold it:
``accounts.check_name`` takes letters, digits, ``-`` and ``_`` only) while it is found and
kept unique by the name without the mark (a person cannot take a bot's name, nor a bot a
person's), and its way in: no password, tokens (``bot_tokens``, only their SHA-256 kept:
shown once to the owner, revoked by deleting them). An owner deleting their account
deletes their bots.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import Select, delete, func, select, update
from sqlalchemy.orm import Session

from ..infra.database import Database
from ..infra.db import aware
from ..infra.rows.people import AccountRow, BotTokenRow, PlayerRow
from ..infra.rows.ratings import PlayerStatsRow
from ..infra.store import Store, new_id
from ..table.names import bot_name, clean_name, name_key, name_skeleton, search_key
from ..table.ratings import Rating
from .accounts import Account, AccountError, Eraser, check_name, remove_account, token_hash

BOT_NAME_MAX: Final = 16
"""A bot's name without its mark (the column holds 24 with it)."""
MAX_BOTS: Final = 5
"""Bots one account may own."""
MAX_TOKENS: Final = 5
"""Tokens one bot may have at once."""
TOKEN_PREFIX: Final = "cbot_"
"""A token starts so (a secret found in a log or a repository is recognised as one)."""
NO_PASSWORD: Final = "!bot"
"""A bot's password hash: no password is ever verified against it (not an argon2 hash)."""
USED_EVERY: Final = timedelta(minutes=5)
"""A token's last use is written at most this often (not at every move)."""
TRUSTED_FOR: Final = timedelta(seconds=5)
"""How long a process trusts its last reading of a token (a bot's moves do not each read
it): a token revoked in any process is refused everywhere within this."""
_OWNER: Final = AccountRow.__table__.alias("owner")
"""The accounts again, as a bot's owner (made once: an alias is a few hundred objects in
reference cycles, garbage for the collector at each request that made one)."""
TRUSTED_KEPT: Final = 10_000
"""Tokens a process trusts at once (a bounded cache)."""


@dataclass(frozen=True)
class BotToken:
    id: str
    created_at: datetime
    used_at: datetime | None


@dataclass(frozen=True)
class Bot:
    """A bot as its owner's page lists it."""

    account: Account
    tokens: tuple[BotToken, ...]
    rating: int | None
    games: int


@dataclass(frozen=True)
class BotStanding:
    """A line of the bots' leaderboard."""

    name: str
    owner: str
    rating: int
    games: int
    won: int


class BotStore:
    """The bots' rows (blocking calls: run them with ``Database``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._used: dict[str, datetime] = {}
        """When each token's use was last written here (bounded: tokens are few)."""
        self._trusted: dict[str, tuple[Account, datetime]] = {}
        """The bot of each token read lately (its SHA-256), and when (``TRUSTED_FOR``)."""

    def create(self, owner: Account, base: str) -> Account:
        """A new bot of ``owner`` named ``base`` (shown with the mark). ``AccountError``:
        the name's (``name_length``, ``name_chars``, ``name_taken``, ``name_confusable``),
        ``too_many_bots``, ``not_a_person`` (a bot owns no bot)."""
        base = clean_name(base)
        check_name(base)
        if len(base) > BOT_NAME_MAX:
            raise AccountError("name_length")
        skeleton = name_skeleton(base)
        with self.store.session() as s, s.begin():
            self.store.backend.lock(s, f"name-skeleton:{skeleton}")
            if s.scalar(select(AccountRow.bot_owner_id).where(AccountRow.id == owner.id)) is not None:
                raise AccountError("not_a_person")
            owned = s.scalar(select(func.count()).select_from(AccountRow).where(AccountRow.bot_owner_id == owner.id))
            if (owned or 0) >= MAX_BOTS:
                raise AccountError("too_many_bots")
            if s.scalar(select(AccountRow.id).where(AccountRow.name_skeleton == skeleton).limit(1)) is not None:
                taken = s.scalar(select(AccountRow.id).where(AccountRow.name_key == name_key(base))) is not None
                raise AccountError("name_taken" if taken else "name_confusable")
            player = new_id(12)
            s.add(PlayerRow(id=player, deals_played=0))
            s.flush()
            row = AccountRow(
                id=new_id(),
                name=bot_name(base),
                name_key=name_key(base),
                name_search=search_key(base),
                name_skeleton=skeleton,
                email=None,
                password_hash=NO_PASSWORD,
                player_id=player,
                bot_owner_id=owner.id,
            )
            s.add(row)
            s.flush()
            return Account(row.id, row.name, row.player_id)

    def bots_of(self, owner_id: str) -> list[Bot]:
        """The owner's bots, oldest first, with their tokens and ratings."""
        with self.store.session() as s:
            rows = s.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.player_id, PlayerStatsRow.mu, PlayerStatsRow.sigma)
                .add_columns(PlayerStatsRow.games_played)
                .outerjoin(PlayerStatsRow, PlayerStatsRow.player_id == AccountRow.player_id)
                .where(AccountRow.bot_owner_id == owner_id)
                .order_by(AccountRow.created_at, AccountRow.id)
            ).all()
            tokens = s.execute(
                select(BotTokenRow)
                .where(BotTokenRow.bot_id.in_([r.id for r in rows]))
                .order_by(BotTokenRow.created_at, BotTokenRow.id)
            ).scalars()
            by_bot: dict[str, list[BotToken]] = {}
            for t in tokens:
                by_bot.setdefault(t.bot_id, []).append(BotToken(t.id, aware(t.created_at), _maybe(t.used_at)))
        return [
            Bot(
                Account(r.id, r.name, r.player_id),
                tuple(by_bot.get(r.id, ())),
                Rating(r.mu, r.sigma).display if r.mu is not None else None,
                r.games_played or 0,
            )
            for r in rows
        ]

    def new_token(self, owner_id: str, bot_id: str, at: datetime) -> str:
        """A new token of the owner's bot (the only time it is known in full).
        ``AccountError``: ``not_your_bot``, ``too_many_tokens``."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with self.store.session() as s, s.begin():
            if s.scalar(select(AccountRow.bot_owner_id).where(AccountRow.id == bot_id)) != owner_id:
                raise AccountError("not_your_bot")
            count = s.scalar(select(func.count()).select_from(BotTokenRow).where(BotTokenRow.bot_id == bot_id))
            if (count or 0) >= MAX_TOKENS:
                raise AccountError("too_many_tokens")
            s.add(BotTokenRow(id=new_id(), bot_id=bot_id, hash=token_hash(token), created_at=at))
        return token

    def revoke(self, owner_id: str, token_id: str) -> bool:
        """Revoke one of the owner's bots' tokens (whether there was one): in every process
        within ``TRUSTED_FOR``."""
        with self.store.session() as s, s.begin():
            owned = select(AccountRow.id).where(AccountRow.bot_owner_id == owner_id)
            done = s.execute(delete(BotTokenRow).where(BotTokenRow.id == token_id, BotTokenRow.bot_id.in_(owned)))
        self._trusted.clear()  # this process refuses it at once
        return bool(done.rowcount)  # type: ignore[attr-defined]

    def delete_bot(self, owner_id: str, bot_id: str, erasers: Sequence[Eraser] = ()) -> bool:
        """The owner deletes a bot: its tokens go, and what ``erasers`` remove of it (its
        name in the tables, as an account's deletion does); its player stays (finished games
        name it, as a deleted account)."""
        with self.store.session() as s, s.begin():
            mine = select(AccountRow).where(AccountRow.id == bot_id, AccountRow.bot_owner_id == owner_id)
            deleted = _delete_bots(s, mine, erasers) > 0
        self._trusted.clear()
        return deleted

    def delete_bots_of(self, owner_id: str) -> int:
        """The owner's account goes: so do its bots."""
        with self.store.session() as s, s.begin():
            return _delete_bots(s, select(AccountRow).where(AccountRow.bot_owner_id == owner_id))

    def bot_of_token(self, token: str, at: datetime) -> Account | None:
        """The bot a token opens (None: unknown or revoked)."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            return None
        digest = token_hash(token)
        found = self._trusted_of(digest, at)
        if found is not None:
            return found
        with self.store.session() as s:
            row = s.execute(
                select(BotTokenRow.id, AccountRow.id.label("account"), AccountRow.name, AccountRow.player_id)
                .join(AccountRow, AccountRow.id == BotTokenRow.bot_id)
                .where(BotTokenRow.hash == digest, AccountRow.bot_owner_id.is_not(None))
            ).first()
        if row is None:
            return None
        last = self._used.get(row.id)
        if last is None or at - last >= USED_EVERY:
            if len(self._used) > 10_000:
                self._used.clear()
            self._used[row.id] = at
            with self.store.session() as s, s.begin():
                s.execute(update(BotTokenRow).where(BotTokenRow.id == row.id).values(used_at=at))
        bot = Account(row.account, row.name, row.player_id)
        if len(self._trusted) >= TRUSTED_KEPT:
            self._trusted.clear()
        self._trusted[digest] = (bot, at)
        return bot

    def trusted(self, token: str, at: datetime) -> Account | None:
        """The bot of a token read within ``TRUSTED_FOR`` (no I/O: None, read it)."""
        return self._trusted_of(token_hash(token), at)

    def _trusted_of(self, digest: str, at: datetime) -> Account | None:
        trusted = self._trusted.get(digest)
        if trusted is not None and at - trusted[1] < TRUSTED_FOR:
            return trusted[0]
        return None

    def owner_of(self, player: str) -> str | None:
        """The name of the owner of the bot playing as ``player`` (None: not a bot)."""
        with self.store.session() as s:
            found = s.execute(
                select(_OWNER.c.name)
                .select_from(AccountRow)
                .join(_OWNER, _OWNER.c.id == AccountRow.bot_owner_id)
                .where(AccountRow.player_id == player)
            ).first()
        return None if found is None else str(found[0])

    def is_bot(self, player: str) -> bool:
        with self.store.session() as s:
            found = s.scalar(select(AccountRow.bot_owner_id).where(AccountRow.player_id == player))
        return found is not None

    def leaderboard(self, limit: int = 100) -> list[BotStanding]:
        """The bots that played rated games, best rating first."""
        with self.store.session() as s:
            rows = s.execute(
                select(
                    AccountRow.name,
                    _OWNER.c.name.label("owner"),
                    PlayerStatsRow.mu,
                    PlayerStatsRow.sigma,
                    PlayerStatsRow.games_played,
                    PlayerStatsRow.games_won,
                )
                .join(_OWNER, _OWNER.c.id == AccountRow.bot_owner_id)
                .join(PlayerStatsRow, PlayerStatsRow.player_id == AccountRow.player_id)
                .where(PlayerStatsRow.games_played > 0)
            ).all()
        standings = [
            BotStanding(r.name, r.owner, Rating(r.mu, r.sigma).display, r.games_played, r.games_won) for r in rows
        ]
        standings.sort(key=lambda b: (-b.rating, -b.games, b.name))
        return standings[:limit]


class Bots:
    """The bots' page and profiles' questions, awaited on the database's threads."""

    def __init__(self, store: BotStore, db: Database) -> None:
        self._store = store
        self._db = db

    async def create(self, owner: Account, base: str) -> Account:
        """A new bot of ``owner`` called ``base`` (``AccountError``: refused, nothing made)."""
        return await self._db(self._store.create, owner, base)

    async def new_token(self, owner_id: str, bot_id: str, at: datetime) -> str:
        """A new token of the owner's bot (shown once, only its SHA-256 kept)."""
        return await self._db(self._store.new_token, owner_id, bot_id, at)

    async def revoke(self, owner_id: str, token_id: str) -> bool:
        return await self._db(self._store.revoke, owner_id, token_id)

    async def delete_bot(self, owner_id: str, bot_id: str, erasers: Sequence[Eraser] = ()) -> bool:
        return await self._db(self._store.delete_bot, owner_id, bot_id, erasers)

    async def bots_of(self, owner_id: str) -> list[Bot]:
        return await self._db(self._store.bots_of, owner_id)

    async def owner_of(self, player: str) -> str | None:
        """The name of the owner of the bot playing as ``player`` (None: not a bot)."""
        return await self._db(self._store.owner_of, player)

    async def leaderboard(self) -> list[BotStanding]:
        return await self._db(self._store.leaderboard)


def _delete_bots(s: Session, which: Select[AccountRow], erasers: Sequence[Eraser] = ()) -> int:
    """Delete the bot accounts ``which`` selects (``accounts.remove_account``), each of
    ``erasers`` run on each first."""
    rows = list(s.scalars(which))
    for row in rows:
        for erase in erasers:
            erase(s, row)
        remove_account(s, row)
    return len(rows)


def _maybe(moment: datetime | None) -> datetime | None:
    return None if moment is None else aware(moment)
