"""The site's mail (issue 52): a queue in the database that a request only adds to, and a
sender that takes what is due and hands it to the operator's SMTP server.

A request never waits on SMTP: it stores the message (``Mailer.send_soon``) and goes on.
The queue survives a restart; any process may send, and a message is sent by one of them
(``MailStore.claim``: a lease taken by a conditional UPDATE, the database deciding). A
message the server refuses or cannot take now is tried again later (``RETRY_AFTER``), up
to ``ATTEMPTS`` times. Without ``--smtp-url`` nothing is sent and the site says so where it
matters (password recovery); ``coinche reset-link`` stands in for the mail.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from typing import Final
from urllib.parse import unquote, urlsplit

import aiosmtplib
from sqlalchemy import DateTime, Index, Integer, String, Text, func, or_, select, update
from sqlalchemy.orm import Mapped, mapped_column

from ..infra.database import Database
from ..infra.db import Base, aware
from ..infra.store import Store, new_id

log = logging.getLogger(__name__)

ATTEMPTS: Final = 6
"""Tries of one message before it is given up (kept, marked failed, for the operator)."""
RETRY_AFTER: Final = (
    timedelta(seconds=30),
    timedelta(minutes=2),
    timedelta(minutes=10),
    timedelta(minutes=30),
    timedelta(hours=2),
)
"""How long after each failed try the next comes."""
LEASE: Final = timedelta(minutes=2)
"""How long a process holds a message it is sending (another takes it after, if it died)."""
BATCH: Final = 20
"""Messages a sender takes at a time."""
SMTP_TIMEOUT: Final = 20.0
"""Seconds one SMTP conversation may take."""
SUBJECT_MAX: Final = 200
BODY_MAX: Final = 20_000


class MailRow(Base):
    """A message to send, sent, or given up."""

    __tablename__ = "mail_queue"
    __table_args__ = (Index("ix_mail_queue_due", "sent_at", "failed_at", "next_try_at"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    to_address: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(SUBJECT_MAX))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    next_try_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    failed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)


@dataclass(frozen=True)
class Mail:
    """A message of the queue as a sender takes it."""

    id: str
    to: str
    subject: str
    body: str
    attempts: int
    created_at: datetime


@dataclass(frozen=True)
class SmtpServer:
    """Where the mail goes: ``smtp://[user:password@]host[:port]`` (STARTTLS when the server
    offers it), ``smtp+starttls://`` (required), ``smtps://`` (TLS from the first byte)."""

    host: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool
    start_tls: bool | None
    """True: required; None: when offered; False: never."""

    @staticmethod
    def parse(url: str) -> SmtpServer:
        """The server of ``url``, ``ValueError`` (its message for the operator) if none."""
        parts = urlsplit(url)
        kinds = {"smtp": (False, None, 25), "smtp+starttls": (False, True, 587), "smtps": (True, False, 465)}
        if parts.scheme not in kinds or not parts.hostname:
            raise ValueError("an SMTP URL is smtp://[user:password@]host[:port], smtp+starttls://… or smtps://…")
        use_tls, start_tls, port = kinds[parts.scheme]
        try:
            port = parts.port or port
        except ValueError:
            raise ValueError("the SMTP URL's port is not a number from 1 to 65535") from None
        return SmtpServer(
            parts.hostname,
            port,
            unquote(parts.username) if parts.username else None,
            unquote(parts.password) if parts.password else None,
            use_tls,
            start_tls,
        )


class MailStore:
    """The queue's rows."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, to: str, subject: str, body: str, at: datetime) -> str:
        mail_id = new_id()
        with self.store.session() as s, s.begin():
            s.add(
                MailRow(
                    id=mail_id,
                    to_address=to,
                    subject=subject[:SUBJECT_MAX],
                    body=body[:BODY_MAX],
                    created_at=at,
                    next_try_at=at,
                    attempts=0,
                )
            )
        return mail_id

    def claim(self, at: datetime, limit: int = BATCH) -> list[Mail]:
        """The messages due, each leased to this process (one process gets each: the
        conditional UPDATE is the database's to decide)."""
        due = (
            MailRow.sent_at.is_(None),
            MailRow.failed_at.is_(None),
            MailRow.next_try_at <= at,
            or_(MailRow.claimed_until.is_(None), MailRow.claimed_until < at),
        )
        taken: list[Mail] = []
        with self.store.engine.begin() as conn:
            rows = conn.execute(select(MailRow).where(*due).order_by(MailRow.next_try_at).limit(limit)).all()
        for row in rows:
            with self.store.engine.begin() as conn:
                won = conn.execute(
                    update(MailRow).where(MailRow.id == row.id, *due).values(claimed_until=at + LEASE)
                ).rowcount
            if won == 1:
                taken.append(Mail(row.id, row.to_address, row.subject, row.body, row.attempts, aware(row.created_at)))
        return taken

    def waiting(self) -> tuple[int, int]:
        """How many messages wait to be sent (retries among them), and how many were given
        up on (the metrics: a site whose mail does not leave)."""
        with self.store.engine.begin() as conn:
            waiting = conn.scalar(
                select(func.count()).select_from(MailRow).where(MailRow.sent_at.is_(None), MailRow.failed_at.is_(None))
            )
            given_up = conn.scalar(select(func.count()).select_from(MailRow).where(MailRow.failed_at.is_not(None)))
        return int(waiting or 0), int(given_up or 0)

    def sent(self, mail_id: str, at: datetime) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                update(MailRow)
                .where(MailRow.id == mail_id)
                .values(sent_at=at, claimed_until=None, attempts=MailRow.attempts + 1, last_error=None)
            )

    def failed(self, mail_id: str, attempts: int, error: str, at: datetime) -> bool:
        """A try that failed: tried again later, or given up after ``ATTEMPTS``; whether it
        was given up."""
        given_up = attempts + 1 >= ATTEMPTS
        values: dict[str, object] = {"attempts": attempts + 1, "claimed_until": None, "last_error": error[:500]}
        if given_up:
            values["failed_at"] = at
        else:
            values["next_try_at"] = at + RETRY_AFTER[min(attempts, len(RETRY_AFTER) - 1)]
        with self.store.engine.begin() as conn:
            conn.execute(update(MailRow).where(MailRow.id == mail_id).values(**values))
        return given_up


class Mailer:
    """The queue (``send_soon``) and its sender (``run``)."""

    def __init__(
        self,
        store: MailStore,
        db: Database,
        clock: Callable[[], datetime],
        smtp_url: str | None,
        sender: str,
        check_seconds: float = 15.0,
    ) -> None:
        self.store = store
        self.db = db
        self.clock = clock
        self.server = SmtpServer.parse(smtp_url) if smtp_url else None
        self.sender = sender
        self.check_seconds = check_seconds
        self._wake = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        self.sent_hooks: list[Callable[[Mail, float], None]] = []
        """Told of each message sent, with the seconds from its queueing to the server's yes."""

    @property
    def configured(self) -> bool:
        """Mail leaves this site (an SMTP server is set)."""
        return self.server is not None

    async def send_soon(self, to: str, subject: str, body: str) -> str:
        """Queue a message (stored before this returns) and wake the sender."""
        mail_id = await self.db(self.store.add, to, subject, body, self.clock())
        self._wake.set()
        return mail_id

    def message(self, mail: Mail) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = mail.to
        message["Subject"] = mail.subject
        message["Message-ID"] = make_msgid(domain=self.sender.rsplit("@", 1)[-1].strip("> ") or None)
        message.set_content(mail.body)
        return message

    async def send_due(self) -> int:
        """Send what is due now; how many went."""
        if self.server is None:
            return 0
        server = self.server
        went = 0
        for mail in await self.db(self.store.claim, self.clock()):
            try:
                await aiosmtplib.send(
                    self.message(mail),
                    hostname=server.host,
                    port=server.port,
                    username=server.username,
                    password=server.password,
                    use_tls=server.use_tls,
                    start_tls=server.start_tls,
                    timeout=SMTP_TIMEOUT,
                )
            except (aiosmtplib.SMTPException, OSError, TimeoutError) as e:
                error = f"{type(e).__name__}: {e}"
                if await self.db(self.store.failed, mail.id, mail.attempts, error, self.clock()):
                    log.error("mail %s to %s given up after %d tries: %s", mail.id, mail.to, ATTEMPTS, error)
                else:
                    log.warning("mail %s to %s not sent, tried again later: %s", mail.id, mail.to, error)
                continue
            moment = self.clock()
            await self.db(self.store.sent, mail.id, moment)
            went += 1
            for hook in self.sent_hooks:
                hook(mail, (moment - mail.created_at).total_seconds())
        return went

    def start(self) -> None:
        """Send the queue's mail for the application's lifetime (nothing without SMTP)."""
        if self.server is not None:
            self._runner = asyncio.get_running_loop().create_task(self.run())

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner

    async def run(self) -> None:
        """Send what is due, then wait for a new message or ``check_seconds`` (a retry's
        time, another process's message), for ever."""
        while True:
            self._wake.clear()
            try:
                await self.send_due()
            except Exception:  # the database away: the next round tries again
                log.exception("the mail queue could not be read")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.check_seconds)


def sender_address(name: str, address: str) -> str:
    """``"Coinche" <address>`` as a From header."""
    return formataddr((name, address))
