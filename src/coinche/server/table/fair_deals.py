"""Deals anyone can check, on the server's side (docs/dealing.md): a table's secret stays
here; what leaves is a deal's commitment (before its auction) and, once the deal is over,
its seed. The engine's ``dealing`` module does the arithmetic."""

from __future__ import annotations

import functools
import hashlib
import secrets
from typing import Any

from ...engine.cards import CardSet
from ...engine.dealing import DealingInfo, deal_seed, hands_from_seed
from ...engine.game import Game, HandSource
from ..table.spec import TableSpec


def new_secret(table_seed: int | str | None, created: int) -> bytes:
    """A new table's 32-byte dealing secret: random, or derived from ``Settings.table_seed``
    when it is set (tests and benches: the deals are reproducible)."""
    if table_seed is None:
        return secrets.token_bytes(32)
    return hashlib.sha256(f"coinche-test-secret:{table_seed}:{created}".encode()).digest()


def hand_source(spec: TableSpec) -> HandSource | None:
    """Where a table's deals come from: each deal's own seed (None: a table without a
    secret, dealt from its game seed, version 1)."""
    secret = spec.secret
    if secret is None:
        return None
    table_id = spec.dealing_id

    def hands(number: int, dealer: int) -> tuple[CardSet, ...]:
        return hands_from_seed(deal_seed(secret, table_id, number), dealer)

    return hands


def dealing_info(spec: TableSpec, game: Game, number: int) -> DealingInfo | None:
    """Deal ``number``'s dealing info, its seed revealed only when the deal is over; None
    when the deal was not dealt from a seed of version 2 (an old table, a real deal's
    gathered pack, a deal not dealt yet)."""
    if spec.secret is None or not 1 <= number <= len(game.deals) or game.infos[number - 1].seeded:
        return None
    deal = game.deals[number - 1]
    seed, hands = seeded_hands(spec.secret, spec.dealing_id, number, deal.dealer)
    if deal.dealt != hands:  # a real deal's gathered pack
        return None
    return DealingInfo.of(seed, spec.dealing_id, number, reveal=deal.is_over)


@functools.lru_cache(maxsize=4096)
def seeded_hands(secret: bytes, table_id: str, number: int, dealer: int) -> tuple[bytes, tuple[CardSet, ...]]:
    """A deal's seed and the hands it deals: every seat's state of every step asks for the
    commitment of the deal in progress; the shuffle is computed once (about 20 µs)."""
    seed = deal_seed(secret, table_id, number)
    return seed, hands_from_seed(seed, dealer)


def current_dealing_json(spec: TableSpec, game: Game) -> dict[str, Any] | None:
    """What every seat's state shows of the deal in progress: its number and commitment,
    never its seed."""
    info = dealing_info(spec, game, len(game.deals))
    if info is None:
        return None
    return {"version": info.version, "number": info.number, "commitment": info.commitment}
