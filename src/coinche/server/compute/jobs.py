"""The work a server hands to a pool or to the workers: data, never code.

A job is a kind's name and its arguments as JSON; its answer is JSON too. The kinds are a
registry (``KINDS``), filled at start-up by ``services.register_job_kinds`` with the
built-in kinds (``job_kinds.py``) and each feature's own, in every server and every worker
alike (a worker refuses a kind it does not know). ``bot_jobs`` rows cross the database,
which other programs may write: a row's kind is looked up in the registry (an unknown one
is refused, never imported), its arguments and the answer are checked for types and sizes
(``json_object``, ``json_int``... here) before anything is computed or believed, and
nothing is ever unpickled. A refused job is recorded as failed; the server then computes it
itself, as when no worker answers.

Each kind has ``run`` (module level, in a pool process: checks the JSON arguments, computes,
returns the JSON answer) and ``read`` (in the asking server: checks the JSON answer and
turns it into the value the caller wants). The same path serves the server's own pool, so
the workers' path is the one every test exercises.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from ...engine.errors import short_repr
from ..infra.work_queue import MAX_TEXT

R = TypeVar("R")


class JobRefused(Exception):
    """A job or an answer that is not data of its kind (unknown kind, malformed or oversized
    arguments, an answer of the wrong shape): refused, nothing of it computed or believed."""


@dataclass(frozen=True)
class JobKind(Generic[R]):
    """One kind of job: its registered ``name``, ``run`` (JSON arguments to JSON answer, in
    a pool process) and ``read`` (JSON answer to the caller's value, ``JobRefused`` if it
    is not of the kind's shape)."""

    name: str
    run: Callable[[Any], Any]
    read: Callable[[Any], R]


@dataclass(frozen=True)
class Job(Generic[R]):
    """A job asked for: its kind and its JSON arguments."""

    kind: JobKind[R]
    args: dict[str, Any]


# ----- JSON text, bounded -----


def dumps(value: Any) -> str:
    """JSON text of a job's arguments or answer (``JobRefused`` past ``MAX_TEXT``)."""
    out = json.dumps(value, separators=(",", ":"), allow_nan=False)
    if len(out) > MAX_TEXT:
        raise JobRefused(f"{len(out)} characters of JSON, more than {MAX_TEXT}")
    return out


def loads(raw: object) -> Any:
    """The JSON data of stored text; ``JobRefused`` when it is not text, is too long, is
    not JSON (a pickle, say) or holds a non-finite number."""
    if not isinstance(raw, str):
        raise JobRefused(f"not JSON text but {type(raw).__name__}")
    if len(raw) > MAX_TEXT:
        raise JobRefused(f"{len(raw)} characters, more than {MAX_TEXT}")
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:  # JSONDecodeError, int digits limit
        raise JobRefused(f"not JSON: {short_repr(str(e))}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


# ----- checking JSON data -----


def json_object(value: Any, keys: Sequence[str], optional: Sequence[str] = ()) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise JobRefused(f"expected an object, not {short_repr(value)}")
    missing = [k for k in keys if k not in value]
    extra = [k for k in value if k not in keys and k not in optional]
    if missing or extra:
        raise JobRefused(f"expected the keys {list(keys)}, missing {missing}, unexpected {short_repr(extra)}")
    return value


def json_int(value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise JobRefused(f"expected a whole number in {low}..{high}, not {short_repr(value)}")
    return value


def json_number(value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise JobRefused(f"expected a number, not {short_repr(value)}")
    if not low <= value <= high:
        raise JobRefused(f"expected a number in {low}..{high}, not {short_repr(value)}")
    return float(value)


def json_str(value: Any, limit: int) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise JobRefused(f"expected a string of at most {limit} characters, not {short_repr(value)}")
    return value


def json_list(value: Any, limit: int, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or len(value) > limit or (length is not None and len(value) != length):
        size = f"{length}" if length is not None else f"at most {limit}"
        raise JobRefused(f"expected a list of {size} items, not {short_repr(value)}")
    return value


def json_optional_str(value: Any, limit: int) -> str | None:
    return None if value is None else json_str(value, limit)


# ----- the registry -----

_KINDS: dict[str, JobKind[Any]] = {}

KINDS: Mapping[str, JobKind[Any]] = MappingProxyType(_KINDS)
"""Every kind registered, by name (``register``): nothing else is ever run."""


def register(*kinds: JobKind[Any]) -> None:
    """Add ``kinds`` to the registry (again: nothing changes); a name already taken by
    another kind is a programming error (``ValueError``)."""
    for kind in kinds:
        found = _KINDS.setdefault(kind.name, kind)
        if found is not kind:
            raise ValueError(f"two job kinds named {kind.name!r}")


def kind_named(name: object) -> JobKind[Any]:
    """The registered kind of that name; ``JobRefused`` for any other."""
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise JobRefused(f"unknown job kind {short_repr(name)}")
    return kind


# ----- answers as stored -----


def ok_answer(value: Any) -> str:
    return dumps({"ok": value})


def failed_answer(error: BaseException) -> str:
    """A failure as stored: ``refused`` (the job was not computed) or ``error``."""
    key = "refused" if isinstance(error, JobRefused) else "error"
    return dumps({key: " ".join(f"{type(error).__name__}: {error}".split())[:500]})


def read_answer(kind: JobKind[R], raw: object) -> tuple[str, R | str]:
    """A stored answer read for ``kind``: ``("ok", value)``, ``("error", text)`` (the job
    failed where it ran) or ``("refused", text)``; ``JobRefused`` when it is none of these
    (not JSON, a pickle, the wrong shape)."""
    data = json_object(loads(raw), (), ("ok", "error", "refused"))
    if len(data) != 1:
        raise JobRefused("an answer is one of ok, error, refused")
    key, value = next(iter(data.items()))
    if key == "ok":
        return "ok", kind.read(value)
    return key, json_str(value, 1000)
