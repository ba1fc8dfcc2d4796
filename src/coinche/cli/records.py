"""The commands that read records (RECORD.md): ``replay``, ``verify`` and ``solve``.

A file that is no record, or one whose moves are illegal, is one line on stderr and an exit
status (2 malformed, 1 illegal); the other files are still read.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import Any, Final, TextIO

from ..engine.actions import call_str
from ..engine.cards import SUIT_CHARS, cards_str
from ..engine.deal import Deal
from ..engine.dealing import check_record
from ..engine.errors import EngineError
from ..engine.game import Game
from ..engine.record import Record, RecordError, ReplayError, decode_record, game_answer, parse_record, replay
from ..engine.rules import RuleSet

MAX_RECORD_BYTES: Final = 64 * 1024 * 1024
"""The most read from one record file (``coinche replay /dev/zero`` must end)."""


def cmd_replay(files: Sequence[str], as_json: bool, out: TextIO, err: TextIO) -> int:
    status = 0
    for path in files:
        kind, message, answer, text = _replay_file(path)
        if kind is None:
            assert answer is not None
            print(json.dumps(answer, ensure_ascii=False) if as_json else text, file=out)
            continue
        status = max(status, 1 if kind == "illegal" else 2)
        print(f"{_path_text(path)}: {message}", file=err)
        if as_json:
            print(json.dumps({"error": kind, "message": message}, ensure_ascii=False), file=out)
    return status


def cmd_verify(files: Sequence[str], strict: bool, out: TextIO, err: TextIO) -> int:
    """Each deal of each record that carries ``dealing``: do its seed's commitment and
    hands match? Exit status 1 if one does not (or, with ``strict``, if a deal carries no
    dealing information), 2 if a file is no record."""
    status = 0
    for path in files:
        name = _path_text(path)
        try:
            checks = check_record(_read_data(path))
        except _Refused as refused:
            print(f"{name}: {refused.message}", file=err)
            status = 2
            continue
        except EngineError as e:
            print(f"{name}: {e}", file=err)
            status = 2
            continue
        for check in checks:
            if check.info is None:
                print(f"{name}: deal {check.number}: not verifiable (no dealing information)", file=out)
                if strict:
                    status = max(status, 1)
            elif check.ok:
                print(f"{name}: deal {check.number}: hands and commitment check", file=out)
            else:
                status = max(status, 1)
                for problem in check.problems:
                    print(f"{name}: deal {check.number}: {problem}", file=out)
    return status


def cmd_solve(path: str, as_json: bool, out: TextIO) -> int:
    from ..bots.analysis import analyse_deal, card_values, format_table
    from ..engine.cards import card_str
    from ..engine.deal import Phase

    try:
        _record, game = _load_file(path)  # read once: FILE may be a pipe or /dev/stdin
    except _Refused as refused:
        print(f"{_path_text(path)}: {refused.message}", file=sys.stderr)
        return 1 if refused.kind == "illegal" else 2
    docs = []
    for n, deal in enumerate(game.deals, start=1):
        rows = analyse_deal(deal.rules, deal.dealer, deal.dealt)
        values = card_values(deal) if deal.phase is Phase.PLAY and deal.contract is not None else {}
        if as_json:
            docs.append(
                {
                    "deal": n,
                    "trumps": [r.to_json() for r in rows],
                    "to_move": deal.to_move if values else None,
                    "card_values": {card_str(c): v for c, v in sorted(values.items())},
                }
            )
            continue
        print(
            f"deal {n}: dealer seat {deal.dealer}, double-dummy card points (lead by seat {(deal.dealer + 1) & 3})",
            file=out,
        )
        print(format_table(rows), file=out)
        if values:
            print(f"position: seat {deal.to_move} to play; points its team secures after each card:", file=out)
            for c, v in sorted(values.items(), key=lambda cv: -cv[1]):
                print(f"  {card_str(c)}: {v}", file=out)
    if as_json:
        print(json.dumps(docs if len(docs) > 1 else docs[0]), file=out)
    return 0


def _path_text(path: str) -> str:
    """A file name any output can print: the bytes of a name that is not UTF-8 (which
    Python holds as lone surrogates) shown as ``\\xff`` escapes."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(path).decode("utf-8", "backslashreplace")
    return path


class _Refused(Exception):
    """A record file that cannot be replayed: ``kind`` is ``malformed`` or ``illegal``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _read_data(path: str) -> Any:
    """The JSON data of one record file, read at most ``MAX_RECORD_BYTES`` and once
    (FILE may be a pipe); ``_Refused`` says why it cannot be."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise _Refused("malformed", f"cannot read the file: {e.strerror or e}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise _Refused("malformed", f"not a usable record: larger than {MAX_RECORD_BYTES >> 20} MiB")
    try:
        data = decode_record(raw)
    except RecordError as e:
        raise _Refused("malformed", str(e)) from None
    finally:
        del raw
    return data


def _load_file(path: str) -> tuple[Record, Game]:
    """Read, parse and replay one record file; ``_Refused`` says why it cannot be."""
    data = _read_data(path)
    try:
        record = parse_record(data)
        game = replay(record)
    except ReplayError as e:
        raise _Refused("illegal", str(e)) from None
    except EngineError as e:  # RecordError, and any other refusal of the engine: malformed
        raise _Refused("malformed", str(e)) from None
    return record, game


def _replay_file(path: str) -> tuple[str | None, str, dict[str, Any] | None, str]:
    """Replay one file: (error kind or None, error message, answer, readable text)."""
    try:
        record, game = _load_file(path)
    except _Refused as refused:
        return refused.kind, refused.message, None, ""
    answer = game_answer(game, record.is_game)
    return None, "", answer, _readable(_path_text(path), record.rules, game.deals, answer, record.is_game)


def _readable(path: str, rules: RuleSet, deals: Sequence[Deal], answer: dict[str, Any], is_game: bool) -> str:
    from ..server.table.seating import compass_names  # the seats' names have one owner

    lines = [f"{path}: {rules.name} rules" + (f", options {rules.options()}" if rules.options() else "")]
    answers = answer["deals"] if is_game else [answer]
    for n, (deal, a) in enumerate(zip(deals, answers, strict=True), start=1):
        names = compass_names(rules.direction, 0)  # seat 0 seen as South, as the table names them
        lines.append(f"deal {n}: dealer {names[deal.dealer]} (seat {deal.dealer})")
        for s in range(4):
            lines.append(f"  seat {s} {names[s]:<5}: {cards_str(deal.dealt[s])}")
        calls = [f"{call_str(c)}({(deal.dealer + 1 + i) & 3})" for i, c in enumerate(deal.auction.calls)]
        lines.append("  auction: " + (" ".join(calls) if calls else "-"))
        c = a["contract"]
        if c is None:
            lines.append("  void deal: four passes" if deal.is_over else "  auction unfinished")
            if is_game and deal.is_over:
                lines.append(f"  totals {a['totals'][0]} - {a['totals'][1]}")
            continue
        mult = {1: "", 2: " coinched", 3: " surcoinched", 4: " surcoinched"}[c["multiplier"]]
        lines.append(f"  contract: {deal.contract.call if deal.contract else ''} by seat {c['taker']}{mult}")
        for i, t in enumerate(a["tricks"], start=1):
            lines.append(
                f"  trick {i}: seat {t['leader']} leads {' '.join(t['cards'])} -> seat {t['winner']} wins {t['points']}"
            )
        for b in deal.belotes:
            note = "" if b.counts else " (does not count: announced only on the second card)"
            lines.append(f"  {b.at} by seat {b.seat} in {SUIT_CHARS[b.suit]}{note}")
        for s, melds in enumerate(deal.shown):
            if melds:
                lines.append(f"  melds shown by seat {s}: {', '.join(m.name for m in melds)}")
        if a["made"] is None:
            lines.append(f"  unfinished: card points so far {a['card_points'][0]} - {a['card_points'][1]}")
            continue
        lines.append(
            f"  card points {a['card_points'][0]} - {a['card_points'][1]}, belote {a['belote'][0]} - "
            f"{a['belote'][1]}, melds {a['melds'][0]} - {a['melds'][1]}"
        )
        lines.append(f"  {'made' if a['made'] else 'failed'}: score {a['score'][0]} - {a['score'][1]}")
        for step in a["steps"]:
            lines.append(f"    {step}")
        if is_game:
            lines.append(f"  totals {a['totals'][0]} - {a['totals'][1]}")
    if is_game:
        w = answer["winner"]
        lines.append(
            f"totals {answer['totals'][0]} - {answer['totals'][1]}: "
            + (f"team {w} wins" if w is not None else "no winner yet")
        )
    return "\n".join(lines)
