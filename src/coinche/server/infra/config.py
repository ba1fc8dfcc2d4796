"""Server settings: where the data lives, how bots pace their moves, the secret key."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..table.days import utc_now
from .process_logs import default_name

DEFAULT_DATABASE = "sqlite:///coinche.db"


def default_database_url() -> str:
    """``COINCHE_DATABASE_URL`` when set, else an SQLite file in the working directory."""
    return os.environ.get("COINCHE_DATABASE_URL") or DEFAULT_DATABASE


SECRET_KEY_MIN = 32
"""The fewest characters of a key that signs cookies (``secrets.token_urlsafe(32)`` has 43)."""
SECRET_FILE_MAX = 4096
"""The most bytes read from a ``--secret-file`` (a key, not a document)."""
SECRET_KEY_VARIABLE = "COINCHE_SECRET_KEY"


class SecretKeyError(ValueError):
    """A key to sign cookies that is refused: the message says where it came from and why."""


def check_secret_key(text: str, where: str) -> str:
    """The key of ``text`` without its surrounding blanks (a file's last newline): at least
    32 characters, one line of printable ones without spaces, else ``SecretKeyError``."""
    key = text.strip()
    if len(key) < SECRET_KEY_MIN:
        raise SecretKeyError(
            f"{where}: the key must have at least {SECRET_KEY_MIN} characters, not {len(key)} "
            "(make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    if any(ch.isspace() or not ch.isprintable() for ch in key):
        raise SecretKeyError(f"{where}: the key must be one line of printable characters without spaces")
    return key


def read_secret_file(path: str) -> str:
    """The key kept in the file ``path`` (``coinche serve --secret-file``), checked."""
    where = f"--secret-file {path}"
    try:
        with open(path, "rb") as file:
            data = file.read(SECRET_FILE_MAX + 1)
    except OSError as e:
        raise SecretKeyError(f"{where}: cannot read it ({e.strerror or type(e).__name__})") from None
    if len(data) > SECRET_FILE_MAX:
        raise SecretKeyError(f"{where}: a key file holds at most {SECRET_FILE_MAX} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SecretKeyError(f"{where}: not UTF-8 text") from None
    return check_secret_key(text, where)


def secret_key_of_environment() -> str | None:
    """``$COINCHE_SECRET_KEY``, checked; None when it is not set (or empty)."""
    value = os.environ.get(SECRET_KEY_VARIABLE)
    return check_secret_key(value, f"${SECRET_KEY_VARIABLE}") if value else None


@dataclass(frozen=True)
class Settings:
    database_url: str = field(default_factory=default_database_url)
    bot_delay: float = 0.7
    """Seconds a computer's move waits after the previous move, so a person can follow
    (DESIGN.md: 0.6 to 0.9 s; zero in tests and load runs)."""
    trick_pause: float = 1.0
    """Seconds a complete trick stays on the table: the page holds it that long before it
    slides away, and a computer leads again only after it (on top of ``bot_delay``)."""
    bot_workers: int = 2
    """Worker processes for bot decisions (the expert is CPU-bound)."""
    worker_wait: float = 30.0
    """Seconds (after the display pause) a server waits for the workers (``coinche worker``)
    to play a computer's turn it handed them before it plays it itself (the workers all
    died, or are swamped)."""
    workers_check: float = 2.0
    """Seconds a server goes by its last look at whether a ``coinche worker`` is alive before
    it looks again (a computer's turn asks it; tests look every time)."""
    free_deals: int = 3
    """Deals a guest plays without an account."""
    bidding_puzzle_seconds: float = 10.0
    """A process searches a finished deal's auction for a bidding puzzle at most this often
    (a search costs about 0.1 s of a worker, and nine deals in ten give one: far more than
    players answer); 0: every deal it searches for a card puzzle."""
    secret_key: str | None = None
    """Signs the guest cookie and the forms' tokens (``coinche serve --secret-file`` or
    ``$COINCHE_SECRET_KEY``); None: kept in the database (made once, survives restarts)."""
    max_message_bytes: int = 4096
    """A WebSocket message larger than this is refused (``too_large``)."""
    max_frame_bytes: int = 65536
    """A WebSocket frame larger than this closes the connection (1009)."""
    outbox_limit: int = 256
    """Messages waiting to be sent to one connection before it is closed as not reading."""
    replay_limit: int = 64
    """The most missing steps a reconnecting client is sent one by one (more: a full state)."""
    hints_per_minute: int = 20
    """Hints one player may ask for in a minute (one at a time per seat)."""
    coach_deals: int = 3
    """A newcomer's first deals against the computer that come with the coach's tips
    (``features/coach``; 0: only for whoever switches it on)."""
    club_invite_limit: str = "10/minute"
    """Invitations to a club one moderator may send (``features/clubs``)."""
    season_check_seconds: float = 60.0
    """How often each process looks for a monthly season to close (``features/seasons``)."""
    deal_accuracy: bool = True
    """Each finished deal a person played is valued on the workers as it ends, and its
    summary shows the reader's accuracy (``features/accuracy``; off: only the review and
    the pages that ask compute it, on demand)."""
    coach_bot: str = "expert"
    """The computer whose decisions the coach explains (``features/coach``); tests that
    are not about its reasons use a faster one."""
    idle_seconds: float = 300.0
    """A table nobody watches leaves memory after this many seconds unused."""
    table_seed: int | str | None = None
    """Deals follow from this seed and the tables' order of creation (tests: reproducible);
    None: random."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the request's own ``Host`` whose pages may open a table's WebSocket
    (``--origin``: the public address when a proxy rewrites the Host), each
    ``scheme://host[:port]`` as ``security.normalise_origin`` writes it."""

    smtp_url: str | None = None
    """Where the site's mail goes (``--smtp-url``, ``$COINCHE_SMTP_URL``): see
    ``features.mail.SmtpServer``; None: the site sends no mail."""
    mail_from: str = "Coinche <coinche@localhost>"
    """The From of the site's mail (``--mail-from``)."""
    public_url: str = "http://127.0.0.1:8000"
    """The site's address as its people reach it (``--public-url``): the links in mail."""
    mail_check_seconds: float = 15.0
    """How often a server looks for mail due (a retry, another process's message)."""

    open_data_dir: Path | None = None
    """The folder of the open games database's monthly files (``coinche serve
    --open-data-dir``; ``features/open_data.py``), listed at ``/open-data``; None: none."""
    metrics_allow: tuple[str, ...] = ("127.0.0.1/32", "::1/128")
    """The networks whose clients may read ``GET /metrics`` (``--metrics-allow``; through a
    trusted proxy, the client it names): the machine itself by default."""

    grace_seconds: float = 60.0
    """At a friends' table, how long a player whose connection dropped keeps their seat
    before a computer plays it for them (until they come back)."""
    idle_warning_seconds: float = 45.0
    """At a friends' table, a player who has not acted this long at their turn is warned."""
    idle_move_seconds: float = 90.0
    """...and after this long the computer plays that one move for them."""
    quick_wait_seconds: float = 20.0
    """Quick play: how long a person waits for others before computers take the free seats
    (``coinche serve --quick-wait``)."""
    quick_wave_seconds: float = 1.0
    """Quick play: a wave seats who it can at least this often (and at each press)."""
    tournament_tick_seconds: float = 1.0
    """Tournaments: each process's runner looks at the running ones this often (and at each
    result): a round starts, closes, a tournament ends on time."""
    ladder_seconds: float = 5.0
    """The engine ladder (``features/ladder``): pairing runs this often (one process at a
    time pairs; every process looks after its tables)."""
    ladder_deals: int = 4
    """The deals of each of a ladder match's two tables."""
    ladder_matches_per_bot: int = 2
    """Ladder matches one bot plays at once (it is paired again when fewer run)."""
    ladder_rules: str = "classic"
    """The rules profile the ladder's tables play."""
    ladder_fault_limit: int = 5
    """A bot with this many faults among its last ``ladder_fault_window`` decisions at the
    ladder is paused (its owner told) until its owner resumes it."""
    ladder_fault_window: int = 100
    ladder_deal_pause: float = 1.0
    """Seconds a ladder table shows a deal's end before dealing the next (bots need not ask)."""
    daily_arena_hour: int | None = 20
    """The hour (Paris time) of the arena the site runs every day for an hour (None: none)."""
    tournament_limit: str = "20/minute"
    """Tournament forms (organise, enter, withdraw, answer a partner) one player may send."""
    quick_limit: str = "20/minute"
    """Presses of quick play (joining or leaving its queue) one player may make."""
    follow_limit: str = "30/minute"
    """Follows, blocks and their undoing one player may do."""
    invite_limit: str = "10/minute"
    """Invitations by name one player may send (and at most three waiting for one person)."""
    report_limit: str = "5/hour"
    """Reports one player may make."""
    data_limit: str = "3/hour"
    """Archives of their data one account may download (``features/personal_data``)."""
    bot_action_limit: str = "600/minute"
    """Actions (and next deals) one bot may send through the bot API, at all its tables."""
    bot_request_limit: str = "60/minute"
    """The bot API's other requests one bot may send (streams opened, tables joined...)."""
    public_api_limit: str = "120/minute"
    """Requests one address may send to the public read API (``/api/v1``, docs/public-api.md)."""
    bots_limit: str = "30/hour"
    """Changes one person may make to their bots (made, tokens, revoked) on the bots' page."""
    bot_heartbeat: float = 15.0
    """A bot's stream says ``ping`` this often (and reads its token and tables again)."""
    say_limit: str = "5 per 30 seconds"
    """Quick messages one player may send (``limits`` notation)."""
    join_limit: str = "30/minute"
    """Looks at a friends' table by code, per address (a code cannot be guessed by trying)."""

    session_days: int = 30
    """A logged-in browser stays logged in this many days (log-out or a password change
    ends it sooner)."""
    login_limit: str = "10/minute"
    """Log-in attempts per address and, apart, per account name (``limits`` notation)."""
    signup_limit: str = "5/hour"
    """Accounts one address may create."""
    table_limit: str = "10/minute"
    """Tables one player may create."""
    upload_limit: str = "20/minute"
    """Records one player may upload to replay (``/revoir``)."""
    upload_limit_per_address: str = "30/hour"
    """Records one address may upload (a new cookie per upload is a new player)."""
    uploads_kept: int = 20
    """Uploaded records kept per player: past it, their oldest is deleted."""
    upload_days: int = 30
    """An uploaded record is deleted after this many days."""
    table_limit_per_address: str = "100/minute"
    """Tables one address may create (many players may share one address)."""
    open_tables_guest: int = 5
    """Games in progress a guest may have at once."""
    open_tables_account: int = 12
    """Games in progress an account may have at once."""
    challenge_profile: str = "online"
    """The rules profile of the daily challenge's days made from now on (``features/daily``)."""
    challenge_level: str = "expert"
    """The computers' level at the daily challenge: the expert on the site; tests may pick a
    faster one (the determinism they check does not depend on it)."""
    clock: Callable[[], datetime] = utc_now
    """The server's clock (an aware UTC datetime): which day of the daily challenge it is,
    and whether a challenge table's day is over; tests set it (no waiting for midnight)."""
    process_name: str = field(default_factory=default_name)
    """This process among those sharing the database (``coinche serve --name``, else
    ``$COINCHE_PROCESS_NAME``, else ``hostname:pid``): its log lines and its rows say it."""
    argon2_time_cost: int = 2
    argon2_memory_kib: int = 19456
    argon2_parallelism: int = 1
    """argon2id parameters: OWASP's recommended minimum (19 MiB, 2 passes, 1 lane), about
    0.1 s a hash on a small server, so sign-up and log-in answer well under 0.3 s."""

    @staticmethod
    def sqlite_file(path: Path, **kwargs: object) -> Settings:
        return Settings(database_url=f"sqlite:///{path}", **kwargs)  # type: ignore[arg-type]
