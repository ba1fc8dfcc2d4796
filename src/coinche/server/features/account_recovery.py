"""An account's e-mail address and the way back into a forgotten account (issue 52).

An address is optional. It becomes the account's once its owner opens the link sent to it
(``confirm_address``); until then nothing is sent to it but that link, and nobody else ever
sees it. "Mot de passe oublié" takes an address and always answers the same: the work
(finding the accounts, making their links, queueing the mail) happens after the answer,
so neither its words nor its time tell whether the address is an account's. A link is
good once, for ``RESET_MINUTES``; the one used voids every other of the account, and the
new password ends every session. Links are stored as their SHA-256 only (``token_hash``),
like sessions: the database alone lets nobody in.

Limits: ``PER_ADDRESS`` links an hour to one address, ``PER_ACCOUNT`` an hour to one
account (a flood of requests sends a few mails, and the answer stays the same).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import DateTime, Index, String, delete, func, select, update
from sqlalchemy.orm import Mapped, mapped_column

from ..infra.database import Database
from ..infra.db import Base, aware
from ..infra.rows.people import AccountRow, SessionRow
from ..infra.store import Store
from ..table import i18n
from .accounts import Account, AccountError, AccountService, AccountStore, check_password, clean_email, token_hash
from .mail import Mailer

log = logging.getLogger(__name__)

RESET_MINUTES: Final = 30
CONFIRM_HOURS: Final = 48
PER_ADDRESS: Final = 3
PER_ACCOUNT: Final = 3
WINDOW: Final = timedelta(hours=1)
PATHS: Final = {
    "fr": {"reset": "/reinitialiser", "confirm": "/confirmer-adresse"},
    "en": {"reset": "/reset-password", "confirm": "/confirm-address"},
}


class AccountTokenRow(Base):
    """A one-use link: a password reset (``reset``) or an address to confirm (``address``)."""

    __tablename__ = "account_tokens"
    __table_args__ = (Index("ix_account_tokens_account", "account_id", "kind"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(8))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """The address the link goes to (a reset's, the one to confirm)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


@dataclass(frozen=True)
class Link:
    """A link made for an account: its token (in the address only), where it goes."""

    token: str
    account_id: str
    name: str
    email: str | None


def _usable(row: AccountTokenRow | None, kind: str, at: datetime) -> bool:
    """A link of ``kind`` not used and not expired at ``at``."""
    return row is not None and row.kind == kind and row.used_at is None and aware(row.expires_at) > at


class RecoveryStore:
    """The links' rows (blocking calls: run them with ``Database``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def accounts_with(self, email: str) -> list[tuple[str, str, str]]:
        """The accounts (id, name, address as confirmed) whose address is ``email`` (any case)."""
        with self.store.session() as s:
            rows = s.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.email).where(
                    func.lower(AccountRow.email) == email.lower()
                )
            ).all()
        return [(r.id, r.name, r.email) for r in rows]

    def operator_link(self, name: str, at: datetime) -> Link | None:
        """A reset link for the account ``name`` (found as the log-in finds it), made by the
        site's operator (``coinche reset-link``): no limit; None: no such account."""
        found = AccountStore(self.store).by_name(name)
        if found is None:
            return None
        account = found[0]
        email = self.address(account.id)
        token = self.add(account.id, "reset", email, at, timedelta(minutes=RESET_MINUTES))
        assert token is not None  # no limit asked
        return Link(token, account.id, account.name, email)

    def add(
        self,
        account_id: str,
        kind: str,
        email: str | None,
        at: datetime,
        lasts: timedelta,
        per_account: int | None = None,
        per_address: int | None = None,
    ) -> str | None:
        """A new link's token; None when the account (``per_account``) or the address
        (``per_address``) already had that many links of ``kind`` in the last ``WINDOW``.
        Counted and added under a lock on the account: two requests at once (two
        processes) never both pass the last place."""
        token = secrets.token_urlsafe(32)
        with self.store.session() as s, s.begin():
            self.store.backend.lock(s, f"account-links:{account_id}")
            if email is not None and per_address is not None:
                self.store.backend.lock(s, f"address-links:{email.lower()}")
            since = at - WINDOW
            counted = (
                select(func.count())
                .select_from(AccountTokenRow)
                .where(AccountTokenRow.kind == kind, AccountTokenRow.created_at >= since)
            )
            mine = counted.where(AccountTokenRow.account_id == account_id)
            if per_account is not None and int(s.scalar(mine) or 0) >= per_account:
                return None
            if email is not None and per_address is not None:
                same = func.lower(AccountTokenRow.email) == email.lower()
                if int(s.scalar(counted.where(same)) or 0) >= per_address:
                    return None
            s.add(
                AccountTokenRow(
                    token_hash=token_hash(token),
                    account_id=account_id,
                    kind=kind,
                    email=email,
                    created_at=at,
                    expires_at=at + lasts,
                )
            )
        return token

    def valid(self, token: str, kind: str, at: datetime) -> AccountTokenRow | None:
        with self.store.session() as s:
            row = s.get(AccountTokenRow, token_hash(token))
        return row if _usable(row, kind, at) else None

    def reset(self, token: str, password_hash: str, at: datetime) -> str | None:
        """Use a reset link: the new password, every link of the account void, every
        session ended, in one transaction; the account's id (None: no such link, used,
        expired)."""
        digest = token_hash(token)
        with self.store.session() as s, s.begin():
            used = s.execute(
                update(AccountTokenRow)
                .where(
                    AccountTokenRow.token_hash == digest,
                    AccountTokenRow.kind == "reset",
                    AccountTokenRow.used_at.is_(None),
                    AccountTokenRow.expires_at > at,
                )
                .values(used_at=at)
            ).rowcount  # type: ignore[attr-defined]
            if used != 1:
                return None
            account_id = s.scalar(select(AccountTokenRow.account_id).where(AccountTokenRow.token_hash == digest))
            assert account_id is not None
            s.execute(
                update(AccountTokenRow)
                .where(
                    AccountTokenRow.account_id == account_id,
                    AccountTokenRow.kind == "reset",
                    AccountTokenRow.used_at.is_(None),
                )
                .values(used_at=at)
            )
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash))
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            return str(account_id)

    def confirm(self, token: str, at: datetime) -> tuple[str, str] | None:
        """Use an address link: the address is the account's (id, address), the link spent."""
        digest = token_hash(token)
        with self.store.session() as s, s.begin():
            row = s.get(AccountTokenRow, digest)
            if row is None or not _usable(row, "address", at):
                return None
            assert row.email is not None
            row.used_at = at
            s.execute(update(AccountRow).where(AccountRow.id == row.account_id).values(email=row.email))
            return row.account_id, row.email

    def pending_address(self, account_id: str, at: datetime) -> str | None:
        """The latest address sent a link and not confirmed yet (None: none waiting)."""
        with self.store.session() as s:
            row = s.execute(
                select(AccountTokenRow.email)
                .where(
                    AccountTokenRow.account_id == account_id,
                    AccountTokenRow.kind == "address",
                    AccountTokenRow.used_at.is_(None),
                    AccountTokenRow.expires_at > at,
                )
                .order_by(AccountTokenRow.created_at.desc())
                .limit(1)
            ).first()
        return None if row is None else row.email

    def address(self, account_id: str) -> str | None:
        with self.store.session() as s:
            return s.scalar(select(AccountRow.email).where(AccountRow.id == account_id))


class AccountRecovery:
    """Addresses and password resets, on the accounts' service and the mail queue."""

    def __init__(
        self,
        store: RecoveryStore,
        db: Database,
        accounts: AccountService,
        mailer: Mailer,
        clock: Callable[[], datetime],
        public_url: str,
    ) -> None:
        self.store = store
        self.db = db
        self.accounts = accounts
        self.mailer = mailer
        self.clock = clock
        self.public_url = public_url.rstrip("/")
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def mail_goes_out(self) -> bool:
        return self.mailer.configured

    def link(self, lang: str, kind: str, token: str) -> str:
        return f"{self.public_url}{PATHS[lang][kind]}/{token}"

    # ----- forgotten passwords -----

    def ask_reset(self, email_text: str, lang: str) -> None:
        """ "Mot de passe oublié" for ``email_text``: returns at once, whatever the address
        (``AccountError("email")`` only for text that is no address at all); the links and
        the mail are made afterwards (``_send_resets``)."""
        email = clean_email(email_text)
        if email is None:
            raise AccountError("email")
        task = asyncio.get_running_loop().create_task(self._send_resets(email, lang))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_resets(self, email: str, lang: str) -> None:
        try:
            at = self.clock()
            for account_id, name, address in await self.db(self.store.accounts_with, email):
                token = await self.db(
                    self.store.add,
                    account_id,
                    "reset",
                    address,
                    at,
                    timedelta(minutes=RESET_MINUTES),
                    PER_ACCOUNT,
                    PER_ADDRESS,
                )
                if token is None:  # the hour's links were sent: the same answer, no mail
                    continue
                body = i18n.gettext(
                    lang,
                    "recovery.mail.reset_body",
                    name=name,
                    link=self.link(lang, "reset", token),
                    minutes=RESET_MINUTES,
                )
                await self.mailer.send_soon(address, i18n.gettext(lang, "recovery.mail.reset_subject"), body)
        except Exception:
            log.exception("a password reset for an address could not be prepared")

    async def reset_link(self, name: str, lang: str = "fr") -> Link | None:
        """A reset link for the account ``name`` (``coinche reset-link``: the operator hands
        it over by other means); None: no such account."""
        return await self.db(self.store.operator_link, name, self.clock())

    async def reset_valid(self, token: str) -> bool:
        return await self.db(self.store.valid, token[:64], "reset", self.clock()) is not None

    async def reset(self, token: str, password: str, confirm: str) -> tuple[Account, str]:
        """Set the new password by a reset link: every other link and every session of the
        account end; this browser gets a new session (its token). ``AccountError``:
        ``link_invalid``, or the new password's own refusals."""
        if await self.db(self.store.valid, token[:64], "reset", self.clock()) is None:
            raise AccountError("link_invalid")
        check_password(password)
        if password != confirm:
            raise AccountError("password_mismatch")
        account_id = await self.db(
            self.store.reset, token[:64], await self.accounts.hash_password(password), self.clock()
        )
        if account_id is None:  # used or expired meanwhile
            raise AccountError("link_invalid")
        account = await self.accounts.account_by_id(account_id)
        assert account is not None
        return account, await self.accounts.open_session(account)

    # ----- the account's address -----

    async def address(self, account: Account) -> tuple[str | None, str | None]:
        """The account's confirmed address and the one waiting for its confirmation."""
        return (
            await self.db(self.store.address, account.id),
            await self.db(self.store.pending_address, account.id, self.clock()),
        )

    async def set_address(self, account: Account, email_text: str, password: str, lang: str) -> str:
        """Send a confirmation link to a new address (the account's password first: a
        session alone may not redirect the account's recovery); the address."""
        await self.accounts.check_own_password(account, password)
        email = clean_email(email_text)
        if email is None:
            raise AccountError("email")
        if not self.mail_goes_out:
            raise AccountError("no_mail")
        await self.send_confirmation(account, email, lang)
        return email

    async def send_confirmation(self, account: Account, email: str, lang: str) -> None:
        """Send the link that makes ``email`` (checked) the account's (at sign-up, or once
        the account's password was given)."""
        if not self.mail_goes_out:
            raise AccountError("no_mail")
        at = self.clock()
        token = await self.db(
            self.store.add, account.id, "address", email, at, timedelta(hours=CONFIRM_HOURS), PER_ACCOUNT
        )
        if token is None:
            raise AccountError("too_many_links")
        body = i18n.gettext(
            lang,
            "recovery.mail.confirm_body",
            name=account.name,
            link=self.link(lang, "confirm", token),
            hours=CONFIRM_HOURS,
        )
        await self.mailer.send_soon(email, i18n.gettext(lang, "recovery.mail.confirm_subject"), body)

    async def confirm_address(self, token: str) -> str | None:
        """Open an address link: the address now the account's (None: no such link, used,
        expired)."""
        done = await self.db(self.store.confirm, token[:64], self.clock())
        return None if done is None else done[1]
