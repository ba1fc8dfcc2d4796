"""Accounts: names, argon2id passwords and server-side sessions, nothing of HTTP.

An account owns one player (the identity at tables, see ``tables``): a guest who signs up
gives their own player to the account, so their games and the game in progress stay
theirs; that player is then retired as a guest (``PlayerRow.retired_at``, also set when a
guest logs in to an account): a copy of the guest's signed cookie names no one any more.
A logged-in browser holds a random session token in a cookie; the database keeps
only its SHA-256, so a copy of the database opens no session, and deleting the row ends the
session (log-out, a password change ends the others, deleting the account ends all).

Password hashing is CPU-bound (about 0.2 s, ``Settings.argon2_*``): it runs on threads of
its own, never on the event loop, and never on the database threads the tables use.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...engine.messages import Message
from ..infra.config import Settings
from ..infra.database import Database
from ..infra.db import aware
from ..infra.rows.people import AccountRow, BotTokenRow, PlayerRow, SessionRow
from ..infra.store import Store, new_id
from ..table.names import clean_name, login_key, name_key, name_skeleton, search_key

NAME_MIN: Final = 3
NAME_MAX: Final = 24
PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 256
"""Longer passwords are refused rather than hashed (argon2 reads all of it)."""
EMAIL_MAX: Final = 254
NAME_PUNCTUATION: Final = frozenset("-_")
GUEST_ID_MAX: Final = 32
"""A guest's player id is 16 characters (``new_id(12)``); the column holds 32."""


class AccountError(Exception):
    """A request about an account that is refused; ``code`` says why (``name_length``,
    ``name_chars``, ``name_taken``, ``name_confusable``, ``password_length``, ``password_mismatch``,
    ``email``, ``wrong_password``, ``banned``); ``message``: what to tell the person instead
    of the code's sentence (a ban's why and until)."""

    def __init__(self, code: str, message: Message | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    player: str
    """The player the account plays as."""


def check_name(name: str) -> None:
    """``AccountError`` unless ``name`` (cleaned) has 3 to 24 characters, each a letter of
    any language, a digit 0-9, ``-`` or ``_`` (no spaces, no markup, no look-alike dots)."""
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError("name_length")
    for ch in name:
        if not (unicodedata.category(ch).startswith("L") or ch in "0123456789" or ch in NAME_PUNCTUATION):
            raise AccountError("name_chars")


def check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError("password_length")


def clean_email(text: str) -> str | None:
    """An optional e-mail address: None when empty; ``AccountError("email")`` when it is no
    plausible address (one ``@``, a dot in the domain, no spaces, at most 254 characters)."""
    email = text.strip()
    if not email:
        return None
    local, at, domain = email.rpartition("@")
    if (
        len(email) > EMAIL_MAX
        or not at
        or not local
        or "." not in domain.strip(".")
        or any(ch.isspace() or ch in "<>\"'" for ch in email)
    ):
        raise AccountError("email")
    return email


Eraser = Callable[[Session, AccountRow], None]
"""Removes what an account leaves in other tables, in its deletion's transaction, before
its row goes."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


class AccountStore:
    """The accounts' rows (blocking calls: run them with ``Database``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, name: str, email: str | None, password_hash: str, player: str) -> Account:
        """The new account; ``AccountError`` if its name, or a look-alike, was taken first
        (checked again here, in the transaction that adds it: on PostgreSQL under a lock on
        the skeleton, so two servers never both let look-alikes in)."""
        skeleton = name_skeleton(name)
        with self.store.session() as s, s.begin():
            self.store.backend.lock(s, f"name-skeleton:{skeleton}")
            if s.scalar(select(AccountRow.id).where(AccountRow.name_skeleton == skeleton).limit(1)) is not None:
                taken = s.scalar(select(AccountRow.id).where(AccountRow.name_key == name_key(name))) is not None
                raise AccountError("name_taken" if taken else "name_confusable")
            owned = s.scalar(select(AccountRow.id).where(AccountRow.player_id == player)) is not None
            found = s.get(PlayerRow, player)
            if owned or (found is not None and (found.deleted_at is not None or found.retired_at is not None)):
                player, found = new_id(12), None  # an old copy of a cookie names an account's player
            if found is None:
                found = PlayerRow(id=player, deals_played=0)
                s.add(found)
            found.retired_at = _now()  # the guest is no more: their cookie's copies are no one's
            s.flush()
            row = AccountRow(
                id=new_id(),
                name=name,
                name_key=name_key(name),
                name_search=search_key(name),
                name_skeleton=skeleton,
                email=email,
                password_hash=password_hash,
                player_id=player,
            )
            s.add(row)
            try:
                s.flush()
            except IntegrityError:
                raise AccountError("name_taken") from None
            return Account(row.id, row.name, row.player_id)

    def name_taken(self, name: str) -> bool:
        with self.store.session() as s:
            return s.scalar(select(AccountRow.id).where(AccountRow.name_key == login_key(name))) is not None

    def lookalike_taken(self, name: str) -> bool:
        """Whether an account's name looks like ``name`` (the same TR39 skeleton)."""
        with self.store.session() as s:
            found = select(AccountRow.id).where(AccountRow.name_skeleton == name_skeleton(name)).limit(1)
            return s.scalar(found) is not None

    def by_name(self, name: str) -> tuple[Account, str] | None:
        """The account of that name (any case) and its password hash."""
        with self.store.session() as s:
            row = s.scalar(select(AccountRow).where(AccountRow.name_key == login_key(name)))
            return None if row is None else (Account(row.id, row.name, row.player_id), row.password_hash)

    def account_by_id(self, account_id: str) -> Account | None:
        with self.store.session() as s:
            row = s.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.player_id).where(AccountRow.id == account_id)
            ).first()
        return None if row is None else Account(row.id, row.name, row.player_id)

    def password_hash(self, account_id: str) -> str | None:
        with self.store.session() as s:
            return s.scalar(select(AccountRow.password_hash).where(AccountRow.id == account_id))

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        with self.store.session() as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash))

    def open_session(self, account_id: str, days: int) -> str:
        """A new session of the account: its token (for the cookie)."""
        token = secrets.token_urlsafe(32)
        with self.store.session() as s, s.begin():
            s.add(SessionRow(id=token_hash(token), account_id=account_id, expires_at=_now() + timedelta(days=days)))
        return token

    def session_account(self, token: str) -> Account | None:
        """The account of a live session, None for an unknown, ended or expired token."""
        with self.store.session() as s:
            found = s.execute(
                select(SessionRow.expires_at, AccountRow.id, AccountRow.name, AccountRow.player_id)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id == token_hash(token))
            ).first()
        if found is None or aware(found.expires_at) <= _now():
            return None
        return Account(found.id, found.name, found.player_id)

    def end_session(self, token: str) -> None:
        with self.store.session() as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.id == token_hash(token)))

    def end_sessions(self, account_id: str, keep: str | None = None) -> int:
        """End every session of the account but ``keep`` (a token); how many ended."""
        with self.store.session() as s, s.begin():
            query = delete(SessionRow).where(SessionRow.account_id == account_id)
            if keep is not None:
                query = query.where(SessionRow.id != token_hash(keep))
            return s.execute(query).rowcount  # type: ignore[attr-defined, no-any-return]

    def guest_retired(self, player: str) -> bool:
        """Whether a guest cookie naming ``player`` names a guest no more (it signed up, or
        logged in to an account; see ``PlayerRow.retired_at``)."""
        with self.store.engine.connect() as conn:  # no ORM session: every guest request asks
            return conn.scalar(select(PlayerRow.retired_at).where(PlayerRow.id == player)) is not None

    def retire_guest(self, player: str) -> None:
        """The guest ``player`` logged in to an account: their cookie's copies become new
        guests (the row is made if the guest never had one)."""
        engine = self.store.engine
        with engine.begin() as conn:  # no race with a deal counted at once (it makes the row too)
            conn.execute(self.store.backend.insert_ignoring(PlayerRow, ["id"]), {"id": player, "deals_played": 0})
            still_guest = (PlayerRow.id == player) & PlayerRow.retired_at.is_(None)
            conn.execute(update(PlayerRow).where(still_guest).values(retired_at=_now()))

    def delete(self, account_id: str, erasers: Sequence[Eraser] = ()) -> None:
        """The account goes, with its sessions and its bots (``bots.py``); its player stays
        (finished games name it, as a deleted account). Each of ``erasers`` is run on the
        account and each of its bots first, in the same transaction."""
        with self.store.session() as s, s.begin():
            row = s.get(AccountRow, account_id)
            if row is None:
                return
            for bot in list(s.scalars(select(AccountRow).where(AccountRow.bot_owner_id == account_id))):
                for erase in erasers:
                    erase(s, bot)
                remove_account(s, bot)  # its bots go with it
            for erase in erasers:
                erase(s, row)
            remove_account(s, row)


def remove_account(s: Session, row: AccountRow) -> None:
    """Delete an account's row with its sessions and tokens (a bot's); its player stays,
    marked deleted (finished games name it, as a deleted account)."""
    s.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
    s.execute(delete(BotTokenRow).where(BotTokenRow.bot_id == row.id))
    s.execute(update(PlayerRow).where(PlayerRow.id == row.player_id).values(deleted_at=_now(), retired_at=_now()))
    s.delete(row)


class AccountService:
    """Sign-up, log-in, sessions, password changes and deletion, awaited off the loop."""

    def __init__(self, store: Store, db: Database, settings: Settings) -> None:
        self.rows = AccountStore(store)
        self.db = db
        self.settings = settings
        self.hasher = PasswordHasher(
            time_cost=settings.argon2_time_cost,
            memory_cost=settings.argon2_memory_kib,
            parallelism=settings.argon2_parallelism,
        )
        self._hashing = ThreadPoolExecutor(max_workers=2, thread_name_prefix="coinche-argon2")
        self._dummy_hash: str | None = None
        self.gates: list[Callable[[Account], Awaitable[None]]] = []
        """Each asked once the password is right, before a session opens (``AccountError``
        refuses it: a ban)."""
        self.erasers: list[Eraser] = []
        """What deleting an account removes beyond its own rows (``personal_data.erase``),
        run in the deletion's transaction."""

    async def _hash(self, password: str) -> str:
        return await asyncio.get_running_loop().run_in_executor(self._hashing, self.hasher.hash, password)

    async def _verify(self, password_hash: str, password: str) -> bool:
        def verify() -> bool:
            try:
                return self.hasher.verify(password_hash, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.get_running_loop().run_in_executor(self._hashing, verify)

    async def sign_up(self, name: str, password: str, confirm: str, email: str, player: str) -> tuple[Account, str]:
        """A new account playing as ``player`` (the guest's own), and its first session's
        token; ``AccountError`` if anything is refused (nothing is stored then)."""
        name = clean_name(name)
        check_name(name)
        check_password(password)
        if password != confirm:
            raise AccountError("password_mismatch")
        address = clean_email(email)
        if await self.db(self.rows.name_taken, name):
            raise AccountError("name_taken")
        if await self.db(self.rows.lookalike_taken, name):
            raise AccountError("name_confusable")
        del address  # checked here; the account's only once confirmed (``account_recovery``)
        account = await self.db(self.rows.create, name, None, await self._hash(password), player)
        return account, await self.db(self.rows.open_session, account.id, self.settings.session_days)

    async def name_or_lookalike_taken(self, name: str) -> bool:
        """Whether ``name`` (a guest's at a friends' table) is an account's, or looks like one
        (the same key or the same TR39 skeleton): a guest may not pass for its owner."""
        if len(name) > 4 * NAME_MAX:
            return False
        return await self.db(self.rows.name_taken, name) or await self.db(self.rows.lookalike_taken, name)

    async def log_in(self, name: str, password: str) -> tuple[Account, str]:
        """The account and a new session's token; ``AccountError("wrong_password")`` for an
        unknown name or a wrong password alike (the same time either way)."""
        found = await self.db(self.rows.by_name, name) if len(name) <= 4 * NAME_MAX else None
        if found is None or len(password) > PASSWORD_MAX:
            await self._verify(await self._dummy(), password[:PASSWORD_MAX])
            raise AccountError("wrong_password")
        account, password_hash = found
        if not await self._verify(password_hash, password):
            raise AccountError("wrong_password")
        if self.hasher.check_needs_rehash(password_hash):
            await self.db(self.rows.set_password_hash, account.id, await self._hash(password))
        for gate in self.gates:
            await gate(account)
        return account, await self.db(self.rows.open_session, account.id, self.settings.session_days)

    async def _dummy(self) -> str:
        if self._dummy_hash is None:
            self._dummy_hash = await self._hash(secrets.token_urlsafe(16))
        return self._dummy_hash

    async def session_account(self, token: str) -> Account | None:
        if not token or len(token) > 100:
            return None
        return await self.db(self.rows.session_account, token)

    async def guest_retired(self, player: str) -> bool:
        """Whether the guest cookie's ``player`` is retired (read on a database thread: every
        process shares the answer)."""
        if not player or len(player) > GUEST_ID_MAX:
            return True
        return await self.db(self.rows.guest_retired, player)

    async def named(self, name: str) -> tuple[str, str] | None:
        """(shown name, player id) of the live account called ``name`` (folded), else None
        (a profile's address)."""
        if len(name) > 4 * NAME_MAX:
            return None
        return await self.db(find_account, self.rows.store, name)

    async def retire_guest(self, player: str) -> None:
        await self.db(self.rows.retire_guest, player)

    async def log_out(self, token: str) -> None:
        await self.db(self.rows.end_session, token)

    async def change_password(self, account: Account, old: str, new: str, confirm: str) -> str:
        """A new password; every session of the account ends, this browser gets a new one
        (its token)."""
        await self._check_own_password(account, old)
        check_password(new)
        if new != confirm:
            raise AccountError("password_mismatch")
        await self.db(self.rows.set_password_hash, account.id, await self._hash(new))
        await self.db(self.rows.end_sessions, account.id)
        return await self.db(self.rows.open_session, account.id, self.settings.session_days)

    async def hash_password(self, password: str) -> str:
        """The argon2id hash of a new password (off the loop)."""
        return await self._hash(password)

    async def check_own_password(self, account: Account, password: str) -> None:
        """``AccountError("wrong_password")`` unless ``password`` is the account's."""
        await self._check_own_password(account, password)

    async def account_by_id(self, account_id: str) -> Account | None:
        return await self.db(self.rows.account_by_id, account_id)

    async def open_session(self, account: Account) -> str:
        """A new session of the account (its token, for this browser's cookie)."""
        return await self.db(self.rows.open_session, account.id, self.settings.session_days)

    async def delete(self, account: Account) -> None:
        """Delete the account (its owner's password was checked: ``check_own_password``),
        and with it what ``erasers`` remove."""
        await self.db(self.rows.delete, account.id, self.erasers)

    async def _check_own_password(self, account: Account, password: str) -> None:
        password_hash = await self.db(self.rows.password_hash, account.id)
        if password_hash is None or len(password) > PASSWORD_MAX or not await self._verify(password_hash, password):
            raise AccountError("wrong_password")

    def close(self) -> None:
        self._hashing.shutdown(wait=True)


def find_account(store: Store, name: str) -> tuple[str, str] | None:
    """(shown name, player id) of the live account called ``name`` (folded), else None."""
    with store.session() as s:
        row = s.execute(
            select(AccountRow.name, AccountRow.player_id)
            .join(PlayerRow, PlayerRow.id == AccountRow.player_id)
            .where(AccountRow.name_key == login_key(name), PlayerRow.deleted_at.is_(None))
        ).first()
        return None if row is None else (row.name, row.player_id)


MATCHES_MAX: Final = 5
"""Accounts named alike told at most, when a typed name is not exact enough."""


def find_person(store: Store, typed: str) -> list[tuple[str, str]]:
    """The accounts a person means by the name they typed to find someone (to follow,
    block, invite, enter a tournament with): (player id, shown name) of each. The account
    of that exact name (any case) alone if there is one; else those of the same name
    without accents (``names.search_key``: "zoe" finds "Zoé"). More than one: the person is
    to type the exact name (nobody is guessed). A name no account could have (too long,
    control or format characters, empty) finds nobody without a look-up."""
    if len(typed) > 4 * NAME_MAX or any(unicodedata.category(ch).startswith("C") for ch in typed.strip()):
        return []
    key = search_key(typed)
    if not key:
        return []
    with store.session() as s:
        exact = s.execute(
            select(AccountRow.player_id, AccountRow.name).where(AccountRow.name_key == login_key(typed))
        ).first()
        if exact is not None:
            return [(exact.player_id, exact.name)]
        found = s.execute(
            select(AccountRow.player_id, AccountRow.name)
            .where(AccountRow.name_search == key)
            .order_by(AccountRow.name_key)
            .limit(MATCHES_MAX)
        ).all()
        return [(row.player_id, row.name) for row in found]
