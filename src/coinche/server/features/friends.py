"""Friends' tables: a table made by a host, found by a short code, where people take the
seats they want and computers hold the others.

Everything here is a step of the table's log written through ``Tables.write``:
taking a seat and freeing one (``seat`` steps), moving a player (``swap``), starting the
game (the first ``deal`` step), leaving (the seat goes to a computer for the rest of the
game). Each request is checked against the table as it is, in one pure function per
request (``table/lobby.py``, ``check_*``), so the rules of the lobby are read in one place.

The host controls the seats before the game and between deals, never during a deal; a
friend who arrives late takes a computer's seat between deals, if the host allowed it.

``Friends`` is built at start-up (``services.py``) on what it uses: the tables' store (the
codes, the players' lists of games), the tables it writes to, who is here, the rate limits
and the hub (the quick messages).
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from ...engine.rules import RuleSet
from ..infra.config import Settings
from ..infra.database import Database
from ..infra.hub import Hub
from ..infra.rate_limits import RateLimits
from ..infra.rows.people import SaidRow
from ..infra.store import Store, new_id
from ..live.presence import Attendance
from ..live.tables import Tables
from ..table.kinds import FriendsTable
from ..table.live_table import LiveTable, TableError
from ..table.lobby import (
    FRIEND_LEVELS,
    check_free,
    check_leave,
    check_level,
    check_move,
    check_take_invited_seat,
    check_take_seat,
)
from ..table.requests import pure
from ..table.spec import Seat, Step, TableSpec

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
"""The characters of a table's code: no look-alikes (no 0/O, 1/I/L, U/V)."""
CODE_LENGTH: Final = 6
DEFAULT_LEVEL: Final = "confirmed"
NAME_MAX: Final = 20
NAME_PUNCTUATION: Final = frozenset(" -_'.")
PHRASES: Final = ("bravo", "well_played", "thanks", "sorry", "good_game", "ready")
"""The quick messages of a table ("Bravo !", "Bien joué"...): no free text to moderate."""
EMOTES: Final = {"clap": "👏", "smile": "😄", "wow": "😮", "please": "🙏", "thumbs_up": "👍"}
"""The reactions of a table of several people (their names and what the plate shows): a
fixed set, nothing else is sent on."""


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(text: str) -> str | None:
    """A code as a person types it (any case, spaces or dashes), None if it cannot be one."""
    code = "".join(ch for ch in text.upper() if ch not in " -")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def clean_person_name(text: str) -> str | None:
    """The name a person gives at a friends' table: 1 to 20 letters, digits, spaces and
    ``-_'.`` (spaces collapsed); None if it is not one."""
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not 1 <= len(name) <= NAME_MAX:
        return None
    for ch in name:
        if not (unicodedata.category(ch).startswith("L") or (ch.isdigit() and ch.isascii()) or ch in NAME_PUNCTUATION):
            return None
    return name


def alone(live: LiveTable, player: str) -> bool:
    """Whether ``player`` sits with no other person at the table (the others: computers)."""
    return all(live.seats[i].player == player for i in live.human_seats)


class Friends:
    """The requests of friends' tables (see the module)."""

    def __init__(
        self,
        store: Store,
        db: Database,
        settings: Settings,
        tables: Tables,
        attendance: Attendance,
        rate_limits: RateLimits,
        hub: Hub,
    ) -> None:
        self._store = store
        self._db = db
        self._settings = settings
        self._tables = tables
        self._attendance = attendance
        self._rate_limits = rate_limits
        self._hub = hub
        self.seat_gates: list[Callable[[LiveTable, str], Awaitable[None]]] = []
        """Each asked before a person takes a seat (``TableError`` refuses them: a club's
        table for its members only)."""

    async def create_table(
        self,
        host: str,
        host_name: str,
        rules: RuleSet,
        levels: Sequence[str],
        late_joins: bool,
        idle_clock: bool = True,
        club: str = "",
        club_only: bool = False,
    ) -> TableSpec:
        """A friends' table with ``host`` at seat 0 and computers of ``levels`` at seats 1 to
        3, and a new code (drawn again in the rare case it is taken); ``club``: made for that
        club (``club_only``: for its members only)."""
        if len(levels) != 3 or any(level not in FRIEND_LEVELS for level in levels):
            raise TableError("bad_level")
        if len(await self._db(self._store.open_games, host)) >= self._settings.open_tables_account:
            raise TableError("too_many_tables")
        seats = (Seat("human", player=host, name=host_name), *(Seat("bot", level=level) for level in levels))
        for _ in range(5):
            try:
                kind = FriendsTable(
                    new_code(), host, joins_late=late_joins, clock=idle_clock, club=club, club_only=club_only
                )
                return await self._tables.create_table(rules, seats, DEFAULT_LEVEL, kind)
            except IntegrityError:  # the code is taken: draw another
                continue
        raise TableError("busy")

    async def find(self, code: str) -> LiveTable | None:
        """The friends' table of a code (as its log says now), None if there is none."""
        table_id = await self._db(self._store.table_by_code, code)
        return await self._tables.table(table_id, fresh=True) if table_id is not None else None

    # ----- the requests -----

    async def _may_sit(self, table_id: str, player: str) -> None:
        live = await self._tables.table(table_id)
        if live is not None:
            for gate in self.seat_gates:
                await gate(live, player)

    async def take_seat(self, table_id: str, player: str, name: str, seat: int, guest: bool = False) -> int:
        await self._may_sit(table_id, player)
        return await self._tables.write(
            table_id, None, pure(lambda live: check_take_seat(live, player, name, seat, guest))
        )

    async def take_invited_seat(self, table_id: str, player: str, name: str, seat: int | None) -> int:
        """``player`` accepted an invitation to ``seat``: seated there or at the first free
        seat, in one write (``check_take_invited_seat``)."""
        await self._may_sit(table_id, player)
        return await self._tables.write(
            table_id, None, pure(lambda live: check_take_invited_seat(live, player, name, seat))
        )

    async def host_move(self, table_id: str, player: str, seat: int, to: int) -> int:
        seq = await self._tables.write(table_id, None, pure(lambda live: check_move(live, player, seat, to)))
        live = await self._tables.table(table_id)
        if live is not None:  # the players' lists of games say which team each was in
            moved = [(h.player, i) for i, h in enumerate(live.seats) if h.player is not None and i in (seat, to)]
            await self._db(self._store.record_seats, table_id, moved)
        return seq

    async def host_level(self, table_id: str, player: str, seat: int, level: str) -> int:
        return await self._tables.write(table_id, None, pure(lambda live: check_level(live, player, seat, level)))

    async def host_free(self, table_id: str, player: str, seat: int) -> int:
        return await self._tables.write(table_id, None, pure(lambda live: check_free(live, player, seat)))

    async def start(self, table_id: str, player: str, request_id: str) -> int:
        """The host starts the game: its first deal (``next_deal`` checks who may)."""
        seq = await self._tables.next_deal(table_id, player, request_id)
        live = await self._tables.table(table_id)
        if live is not None:
            self._attendance.game_started(live)
        return seq

    async def leave(self, table_id: str, player: str) -> int:
        """``player`` leaves (``check_leave``). Alone with computers once the game has
        started, there is nobody to play it for: the game is given up (``Tables.abandon``)."""
        given_up = False

        async def check(live: LiveTable) -> Step | None:
            nonlocal given_up
            given_up = (
                live.started and not live.game.is_over and live.seat_of(player) is not None and alone(live, player)
            )
            return None if given_up else check_leave(live, player)

        seq = await self._tables.write(table_id, None, check)
        if given_up:
            await self._tables.abandon(table_id, player)
        await self._forget_lobby_seat(table_id, player)
        return seq

    async def _forget_lobby_seat(self, table_id: str, player: str) -> None:
        """A person who left a table before its game started never played it: it leaves
        their lists of games (taking a seat again puts it back)."""
        live = await self._tables.table(table_id)
        if live is not None and not live.started and live.seat_of(player) is None:
            await self._db(self._store.forget_seat, table_id, player)

    async def give_up(self, table_id: str, player: str) -> None:
        """``player`` gives up the game (the account page's "Abandonner"). With other people
        at the table it is one person's act: a computer plays their seat for the rest of the
        game (``check_leave``, a stored step: they are a leaver), and the game goes on and
        ends normally for the others. Alone with computers (a solo table, a friends' table
        nobody else sits at), or the host before the start, the game is finished as given
        up (``Tables.abandon``). ``TableError`` (nothing changed): ``gone``, ``not_seated``,
        ``over``."""
        ends = False

        async def check(live: LiveTable) -> Step | None:
            nonlocal ends
            if live.seat_of(player) is None:
                raise TableError("not_seated")
            if live.game.is_over:
                raise TableError("over")
            ends = alone(live, player) or (not live.started and player == live.spec.kind.host)
            return None if ends else check_leave(live, player)

        await self._tables.write(table_id, None, check)
        if ends:
            await self._tables.abandon(table_id, player)
        await self._forget_lobby_seat(table_id, player)

    async def say(self, table_id: str, player: str, phrase: str) -> None:
        """A quick message from ``player``'s seat to the table (a passing event; kept for the
        site's team, ``SaidRow``)."""
        if phrase not in PHRASES:
            raise TableError("bad_phrase")
        live = await self._tables.table(table_id)
        if live is None:
            raise TableError("gone")
        seat = live.seat_of(player)
        if seat is None:
            raise TableError("not_seated")
        if await self._rate_limits.hit(self._settings.say_limit, f"say:{player}") is not None:
            raise TableError("say_limit")
        await self._db(self._said, table_id, seat, player, "say", phrase)  # kept for the team, then shown
        await self._hub.signal(table_id, {"kind": "say", "seat": seat, "phrase": phrase})

    async def react(self, table_id: str, player: str, emote: str) -> None:
        """A reaction (one of ``EMOTES``) from ``player``'s seat, shown on their plate on
        every page of the table (a passing event; kept for the site's team). Only at a table of several
        people (``solo_table`` alone against the computer); limited as the quick messages
        are, in a count of its own."""
        if emote not in EMOTES:
            raise TableError("bad_emote")
        live = await self._tables.table(table_id)
        if live is None:
            raise TableError("gone")
        if not live.spec.kind.several_people:
            raise TableError("solo_table")
        seat = live.seat_of(player)
        if seat is None:
            raise TableError("not_seated")
        if await self._rate_limits.hit(self._settings.say_limit, f"react:{player}") is not None:
            raise TableError("say_limit")
        await self._db(self._said, table_id, seat, player, "react", emote)
        await self._hub.signal(table_id, {"kind": "react", "seat": seat, "emote": emote})

    def _said(self, table_id: str, seat: int, player: str, kind: str, what: str) -> None:
        """Keep what was said (the site's team reads it beside a report from the table)."""
        with self._store.engine.begin() as conn:
            conn.execute(
                insert(SaidRow),
                {
                    "id": new_id(),
                    "table_id": table_id,
                    "seat": seat,
                    "player_id": player,
                    "kind": kind,
                    "what": what,
                    "created_at": self._settings.clock(),
                },
            )
