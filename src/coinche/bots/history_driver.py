"""The engine a bot of an earlier commit plays as (see ``history.py``): the coinche engine
protocol, version 1 (``docs/engine-protocol.md``), spoken for one bot of the old tree.

Run as a script by ``history.py`` with ``PYTHONPATH`` on the old tree's ``src``, so every
``coinche`` import below is that commit's code: ``python history_driver.py NAME PARAMS``
(``PARAMS``: the bot's parameters, a JSON object). This file is of the current tree and
uses only what the old trees have too (``load_bot``, from ``bots.base`` or ``bots.loading``; ``engine.wire``'s views and
actions, ``Decision``'s fields read with defaults), never imported by the package: it
cannot use the current tree's ``engine_protocol.serve``, whose loop it repeats for the old
API. Its ``hello`` also says where it imported ``coinche`` from (the host checks it is the
old tree); a bot that cannot be built answers the ``hello`` with ``{"type": "error",
"message": ...}``. Whatever the old code prints goes to stderr: stdout carries the
protocol alone.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO


def _serve(name: str, params: dict[str, Any], out: TextIO) -> None:
    def send(answer: dict[str, Any]) -> None:
        out.write(json.dumps(answer, separators=(",", ":")) + "\n")
        out.flush()

    def failed(e: BaseException) -> str:
        return " ".join(f"{type(e).__name__}: {e}".split())[:500]

    try:
        import coinche
        from coinche.engine import wire

        try:  # where load_bot lives since f51cf78
            from coinche.bots.loading import load_bot
        except ImportError:  # the older trees' module
            from coinche.bots.base import load_bot  # type: ignore[attr-defined,no-redef]
    except ImportError as e:  # a commit from before the wire format
        send({"type": "error", "message": f"this commit cannot be played: {failed(e)}"})
        return

    def view(data: dict[str, Any]) -> Any:
        result = data.get("result")
        if isinstance(result, dict):  # lines in our catalogue's words, maybe unknown to the old one
            data["result"] = dict(result, lines=[])
        return wire.view_from_json(data)

    bot: Any = None
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        try:
            if kind in ("hello", "deal"):
                options = message.get("options") if kind == "hello" else message
                seed = options.get("seed") if isinstance(options, dict) else None
                bot = load_bot(name, seed=seed if isinstance(seed, int) else None, **params)
                if kind == "hello":
                    where = os.path.abspath(coinche.__file__ or "")
                    send({"type": "hello", "protocol": 1, "name": name, "author": "coinche", "coinche": where})
            elif kind == "decide" and bot is not None:
                v = view(message["view"])
                d = bot.choose(v)
                answer = {"type": "action", "id": message.get("id"), "action": wire.action_to_json(d.action, v)}
                if getattr(d, "explanation", None):
                    answer["explanation"] = d.explanation
                send(answer)
            elif kind == "deal_over" and bot is not None:
                bot.observe_result(view(message["view"]))
            elif kind == "quit":
                return
        except Exception as e:
            if kind == "hello":
                send({"type": "error", "message": failed(e)})
                return
            print(f"history_driver: {failed(e)}", file=sys.stderr, flush=True)  # the host counts a fault


def main() -> None:
    """Keep stdout for the protocol: the old code's prints go to stderr."""
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    params = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    _serve(sys.argv[1], params, out)


if __name__ == "__main__":
    main()
