"""A real SMTP server for the tests (aiosmtpd): what it received, and how to read it."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Inbox:
    """What the SMTP server received (aiosmtpd's handler)."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.original_content or envelope.content))
        return "250 OK"

    def wait_for(self, count: int, seconds: float = 20) -> list[Message]:
        deadline = time.monotonic() + seconds
        while len(self.messages) < count:
            assert time.monotonic() < deadline, f"{len(self.messages)} of {count} messages came"
            time.sleep(0.02)
        return self.messages


@contextlib.contextmanager
def smtp_server(port: int | None = None) -> Iterator[tuple[Inbox, int]]:
    """An SMTP server on the loopback (on ``port``, else a free one) while the block runs:
    its inbox and port."""
    inbox = Inbox()
    port = port or free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode("utf-8")
