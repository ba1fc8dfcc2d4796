"""One ``apt-get`` at a time across the test processes (pytest-xdist runs several): dpkg
takes a lock of its own and a second install at once would fail on it."""

from __future__ import annotations

import contextlib
import fcntl
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def install_lock() -> Iterator[None]:
    """Held while one process installs a package; the others wait, then find it there."""
    path = Path(tempfile.gettempdir()) / "coinche-tests-apt.lock"
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
