"""``/ws/me``: a signed-in person's own socket, open on every page of the site: quick
play's seat found (``{"type": "quick", ...}``), the invitations waiting for them
(``{"type": "invitations", "list": [...]}``), the partner requests waiting for them
(``{"type": "partners", "list": [...]}``: someone entered a tournament naming them) and
their table of a tournament's round under way (``{"type": "tournament", "table": ...}``:
the page takes them there), and, while it is open, the person is online
(``following.HEARTBEAT``).

What the person is told goes on the hub under their ``person_channel``; a message there only
says "look again": the socket then reads the person's state in the database and sends it,
so a message lost (a hub reconnecting) loses nothing: the state is read again at the time
it should change (a wait's end), at each heartbeat and at each connection. The client
never sends anything but its close; anything else closes the socket.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Hashable
from typing import Any, Final

import anyio
from starlette.websockets import WebSocket

from ..features.following import HEARTBEAT, Following
from ..features.quick_play import QuickPlay, person_channel
from ..features.tournaments.runner import Tournaments
from ..infra.hub import Subscription
from ..table import i18n
from .pages import ADDRESSES, account_of, lang_of
from .socket_base import CLOSE_NOT_FOUND, Close, OpenCount, Socket

MAX_CONNECTIONS: Final = 16
"""Open person sockets per player (tabs), in one process."""

_open: OpenCount[str] = OpenCount(MAX_CONNECTIONS)


async def quick_status(quick: QuickPlay, player: str) -> dict[str, Any]:
    """Where the person stands in quick play: waiting (and how long before computers take
    the free seats), seated at a table whose game goes on, or neither."""
    wait = await quick.status(player)
    message: dict[str, Any] = {"type": "quick", "waiting": False, "table": None, "seconds_left": None}
    if wait is None:
        return message
    if wait.table_id is not None:
        seated = await quick.seated(wait.table_id, player)
        if seated:
            message["table"] = f"/table/{wait.table_id}"
        if seated is not None:
            return message
        # claimed, not made yet: still waiting, the wave's signal tells the table made
    message["waiting"] = True
    message["rules"] = wait.rules
    message["seconds_left"] = round(wait.seconds_left(quick.settings.clock()), 1)
    return message


async def tournament_message(tournaments: Tournaments, player: str) -> dict[str, Any]:
    """The table of a tournament's round under way where the person sits (None: none):
    their page takes them there."""
    table_id = await tournaments.person_table(player)
    return {"type": "tournament", "table": None if table_id is None else f"/table/{table_id}"}


async def partners_message(tournaments: Tournaments, player: str, lang: str) -> dict[str, Any]:
    """The partner requests waiting for the person (someone entered a tournament naming
    them), each in words and with the tournament's page, where its form answers it."""
    found = await tournaments.partner_requests(player)
    names = await tournaments.names(sorted({entry.first for _, entry in found})) if found else {}
    page = ADDRESSES[lang]["tournament"]
    return {
        "type": "partners",
        "list": [
            {
                "entry": entry.id,
                "text": i18n.gettext(
                    lang, "tournament.proposal_at", name=names.get(entry.first, "?"), tournament=tournament.name
                ),
                "url": f"{page}/{tournament.id}",
            }
            for tournament, entry in found
        ],
    }


async def invitations_message(following: Following, player: str, lang: str) -> dict[str, Any]:
    """The invitations waiting: who invites, the seat offered (its name in the person's
    language, None: the first free one), the table's invitation page."""
    found = await following.invitations(player)
    return {
        "type": "invitations",
        "list": [
            {
                "id": i.id,
                "from": i.from_name,
                "seat": i18n.gettext(lang, f"seat.short.{i.position}") if i.position else None,
                "link": f"/rejoindre/{i.code}" if i.code else None,
            }
            for i in found
        ],
    }


class PersonSocket(Socket):
    """``/ws/me`` (see the module)."""

    def __init__(self, websocket: WebSocket) -> None:
        super().__init__(websocket)
        account = account_of(websocket)
        self.player = account.player if account is not None else None
        self.lang = lang_of(websocket)

    async def admit(self) -> None:
        """A signed-in person (else 4404)."""
        if self.player is None:
            raise Close(CLOSE_NOT_FOUND, "not signed in")

    def counted(self) -> tuple[OpenCount[Any], Hashable]:
        return _open, self.player

    async def serve(self) -> None:
        assert self.player is not None
        async with self.parts.hub.subscribe(person_channel(self.player), steps=False) as sub:
            await self.race(lambda: self.read_nothing("nothing to send"), lambda: self._tell(sub))

    async def _tell(self, sub: Subscription) -> None:
        """Send the person's state whenever it changed: at each hub wake, each heartbeat, and
        when quick play's wave that seats them is due."""
        assert self.player is not None
        player, app = self.player, self.ws.app
        quick: QuickPlay = app.state.quick_play
        following: Following = app.state.following
        tournaments: Tournaments = app.state.tournaments
        loop = asyncio.get_running_loop()
        beat = 0.0
        sent: dict[str, str] = {}
        while True:
            if loop.time() >= beat:
                await following.seen(player)
                # each socket's own rhythm: sockets opened together (a tournament's
                # entrants, a page reloaded by many) do not all read the database at once
                beat = loop.time() + HEARTBEAT * random.uniform(0.75, 1.0)
            status = await quick_status(quick, player)
            messages = (
                status,
                await invitations_message(following, player, self.lang),
                await tournament_message(tournaments, player),
                await partners_message(tournaments, player, self.lang),
            )
            for message in messages:
                text = json.dumps(message, separators=(",", ":"))
                if sent.get(message["type"]) != text or message["type"] == "quick":
                    await self.ws.send_text(text)
                    sent[message["type"]] = text
            pause = max(0.0, beat - loop.time())
            if status["waiting"]:  # the wave that seats them is due then
                pause = min(pause, status["seconds_left"] + 2 * quick.settings.quick_wave_seconds)
            with anyio.move_on_after(pause):
                await sub.wait()


async def person_socket(websocket: WebSocket) -> None:
    await PersonSocket(websocket).run()
