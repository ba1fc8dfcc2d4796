"""Deals anyone can check (dealing version 2, ``coinche-deal-v2``; docs/dealing.md).

A table holds a secret; deal ``n`` is dealt from its own seed, an HMAC-SHA256 of the
secret over the table id and ``n``: HMAC is a pseudo-random function, so the seed of one
deal, revealed once it is over, tells nothing of the seeds of the others. Before the
auction the table shows a commitment, a SHA-256 of the seed with the table id and the deal
number, which binds the deal without revealing it. The shuffle is a Fisher-Yates driven
by SHA-256 in counter mode, with unbiased (rejected) draws: short enough for any program
to re-implement from the document, and no library's random generator is involved.

Everything here is pure: bytes in, bytes or card sets out.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from .cards import CardSet, cards_str
from .record import RecordError, parse_record

VERSION: Final = 2
"""The dealing version a record's ``dealing.version`` names (version 1: the old
Mersenne-Twister dealing of a game's seed, which cannot be checked deal by deal)."""
TAG: Final = b"coinche-deal-v2"
"""The version tag that starts every hashed message: a hash of this scheme is never one
of another."""
SEED_BYTES: Final = 32
MAX_TABLE_ID_BYTES: Final = 255
MAX_DEAL_NUMBER: Final = 2**32 - 1
_HEX64: Final = re.compile(r"[0-9a-f]{64}")


def _deal_label(table_id: str, number: int) -> bytes:
    """The fixed encoding of (table id, deal number): the tag, a zero byte, the id's UTF-8
    length in one byte, the id, the number as 4 bytes big-endian (no two pairs encode alike)."""
    tid = table_id.encode("utf-8")
    if len(tid) > MAX_TABLE_ID_BYTES:
        raise ValueError(f"a table id has at most {MAX_TABLE_ID_BYTES} bytes")
    if not 0 <= number <= MAX_DEAL_NUMBER:
        raise ValueError(f"a deal number is 0..{MAX_DEAL_NUMBER}, not {number}")
    return TAG + b"\x00" + bytes([len(tid)]) + tid + number.to_bytes(4, "big")


def deal_seed(table_secret: bytes, table_id: str, number: int) -> bytes:
    """The 32-byte seed of deal ``number`` of a table: HMAC-SHA256(secret, label)."""
    return hmac.new(table_secret, _deal_label(table_id, number), hashlib.sha256).digest()


def commitment(seed: bytes, table_id: str, number: int) -> str:
    """The commitment shown before the auction: hex SHA-256(label || seed)."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a deal seed has {SEED_BYTES} bytes, not {len(seed)}")
    return hashlib.sha256(_deal_label(table_id, number) + seed).hexdigest()


def _words(seed: bytes) -> Iterator[int]:
    """The stream of 32-bit big-endian words of SHA-256(seed || counter), counter from 0."""
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(4, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def shuffled_deck(seed: bytes) -> list[int]:
    """The 32 cards (engine order: ``suit * 8 + rank``) after the seed's Fisher-Yates:
    for i from 31 down to 1, swap card i with card j, j uniform in 0..i (a word w is
    rejected when w >= 2^32 - 2^32 mod (i + 1), else j = w mod (i + 1))."""
    deck = list(range(32))
    words = _words(seed)
    for i in range(31, 0, -1):
        n = i + 1
        limit = (1 << 32) - (1 << 32) % n
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def hands_from_seed(seed: bytes, dealer: int) -> tuple[CardSet, ...]:
    """The four hands, seat 0 first: the shuffled deck's cards 0-7 go to seat dealer + 1,
    8-15 to dealer + 2, 16-23 to dealer + 3, 24-31 to the dealer."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a deal seed has {SEED_BYTES} bytes, not {len(seed)}")
    hands = [0, 0, 0, 0]
    for position, c in enumerate(shuffled_deck(seed)):
        hands[(dealer + 1 + position // 8) & 3] |= 1 << c
    return tuple(hands)


@dataclass(frozen=True)
class DealingInfo:
    """What a deal's record carries under ``dealing`` (the seed only once the deal is over)."""

    table: str
    number: int
    commitment: str
    seed: str | None = None
    """Hex, 64 digits; None while the deal is in progress."""
    version: int = VERSION

    @staticmethod
    def of(seed: bytes, table_id: str, number: int, reveal: bool) -> DealingInfo:
        """The info of a deal dealt from ``seed``, its seed shown if ``reveal``."""
        return DealingInfo(table_id, number, commitment(seed, table_id, number), seed.hex() if reveal else None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version, "table": self.table, "number": self.number}
        if self.seed is not None:
            out["seed"] = self.seed
        out["commitment"] = self.commitment
        return out

    @staticmethod
    def from_json(data: Any) -> DealingInfo:
        """A record's ``dealing`` object; ``ValueError`` says what is wrong with it."""
        if not isinstance(data, Mapping):
            raise ValueError("dealing must be a JSON object")
        version = data.get("version")
        if version != VERSION or isinstance(version, bool):
            raise ValueError(f"unknown dealing version {version!r} (this program checks version {VERSION})")
        table, number = data.get("table"), data.get("number")
        if not isinstance(table, str) or len(table.encode("utf-8")) > MAX_TABLE_ID_BYTES:
            raise ValueError("dealing.table must be the table id (a string)")
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MAX_DEAL_NUMBER:
            raise ValueError("dealing.number must be the deal number (a whole number)")
        seed, commit = data.get("seed"), data.get("commitment")
        if not isinstance(commit, str) or not _HEX64.fullmatch(commit):
            raise ValueError("dealing.commitment must be 64 lowercase hexadecimal digits")
        if seed is not None and (not isinstance(seed, str) or not _HEX64.fullmatch(seed)):
            raise ValueError("dealing.seed must be 64 lowercase hexadecimal digits")
        return DealingInfo(table, number, commit, seed)


@dataclass(frozen=True)
class Fault:
    """One thing a deal's seed does not give back, as data (the site words it in each
    language with its seat names; ``text`` is the command line's English line).

    ``kind``: ``unrevealed`` (no seed), ``commitment`` (``computed`` from the seed, ``given``
    by the record) or ``hand`` (``seat``'s hand in the record has ``extra`` where the seed
    deals ``missing``, both in record notation, empty for none)."""

    kind: Literal["unrevealed", "commitment", "hand"]
    seat: int = 0
    extra: str = ""
    missing: str = ""
    computed: str = ""
    given: str = ""

    @property
    def text(self) -> str:
        if self.kind == "unrevealed":
            return "the seed is not revealed: the deal cannot be checked"
        if self.kind == "commitment":
            return f"commitment differs: the seed gives {self.computed}, the record says {self.given}"
        return (
            f"hand of seat {self.seat} differs: the record has {self.extra or 'nothing'} "
            f"where the seed deals {self.missing or 'nothing'}"
        )


def faults(info: DealingInfo, hands: Sequence[CardSet], dealer: int) -> list[Fault]:
    """What is wrong with a finished deal's ``dealing`` (empty: the seed gives the
    commitment and the hands)."""
    if info.seed is None:
        return [Fault("unrevealed")]
    seed = bytes.fromhex(info.seed)
    found: list[Fault] = []
    computed = commitment(seed, info.table, info.number)
    if computed != info.commitment:
        found.append(Fault("commitment", computed=computed, given=info.commitment))
    dealt = hands_from_seed(seed, dealer)
    for seat in range(4):
        held = hands[seat] if seat < len(hands) else 0
        if dealt[seat] != held:
            extra, missing = held & ~dealt[seat], dealt[seat] & ~held
            found.append(Fault("hand", seat=seat, extra=cards_str(extra), missing=cards_str(missing)))
    return found


def verify(info: DealingInfo, hands: Sequence[CardSet], dealer: int) -> list[str]:
    """What is wrong with a finished deal's ``dealing`` (empty: the seed gives the
    commitment and the hands): one English line per problem."""
    return [fault.text for fault in faults(info, hands, dealer)]


@dataclass(frozen=True)
class DealCheck:
    """The check of one deal of a record: ``info`` None when it carries no ``dealing``
    (not verifiable); ``problems`` empty when the commitment and the hands check."""

    number: int
    """The deal's number as the players counted it, from 1: its place in a game's record;
    a lone deal's ``deal`` key (the site's records carry it), else its dealing number."""
    info: DealingInfo | None
    faults: tuple[Fault, ...] = ()
    commitment_ok: bool = False
    hands_ok: bool = False

    @property
    def problems(self) -> tuple[str, ...]:
        """The faults in English, one line each (the command line's words)."""
        return tuple(fault.text for fault in self.faults)

    @property
    def ok(self) -> bool:
        return self.info is not None and not self.faults


def check_deal(number: int, info: DealingInfo, hands: Sequence[CardSet], dealer: int) -> DealCheck:
    """One deal's check: its faults, and which of the two facts hold."""
    found = tuple(faults(info, hands, dealer))
    if info.seed is None:
        return DealCheck(number, info, found)
    seed = bytes.fromhex(info.seed)
    return DealCheck(
        number,
        info,
        found,
        commitment_ok=commitment(seed, info.table, info.number) == info.commitment,
        hands_ok=hands_from_seed(seed, dealer) == tuple(hands),
    )


def _lone_deal_number(data: Mapping[str, Any]) -> int:
    """The number a lone deal's record gives itself: its ``deal`` key, else its dealing
    number, else 1 (a whole number from 1 to ``MAX_DEAL_NUMBER``, else ignored)."""
    dealing = data.get("dealing")
    for value in (data.get("deal"), dealing.get("number") if isinstance(dealing, Mapping) else None):
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_DEAL_NUMBER:
            return value
    return 1


def check_record(data: Any) -> list[DealCheck]:
    """Check every deal of a decoded record (RECORD.md) that carries ``dealing``;
    ``RecordError`` if the record itself is malformed (its hands are not a deal)."""
    record = parse_record(data)
    raw = data["deals"] if record.is_game else [data]
    out: list[DealCheck] = []
    first = 1 if record.is_game else _lone_deal_number(data)
    for n, (dr, d) in enumerate(zip(record.deals, raw, strict=True), start=first):
        if "dealing" not in d:
            out.append(DealCheck(n, None))
            continue
        try:
            info = DealingInfo.from_json(d["dealing"])
        except ValueError as e:
            raise RecordError(f"deal {n}: {e}") from None
        out.append(check_deal(n, info, dr.hands, dr.dealer))
    return out
