"""The process a bot of an earlier commit plays in (see ``history.py`` for the protocol).

Run as a script by ``history.py`` with ``PYTHONPATH`` on the old tree's ``src``, so every
``coinche`` import below is that commit's code; this file is of the current tree and uses
only what the old trees have too (``bots.base.load_bot``, ``engine.wire``'s views, actions
and messages, ``Decision``'s fields read with defaults), never imported by the package.
Whatever the old code prints goes to stderr: stdout carries the protocol alone.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO


def _serve(out: TextIO) -> None:
    def send(answer: dict[str, Any]) -> None:
        out.write(json.dumps(answer, separators=(",", ":")) + "\n")
        out.flush()

    try:
        import coinche

        # the old tree's module, where load_bot lived (today's has it in bots/loading.py)
        from coinche.bots.base import Bot, load_bot  # type: ignore[attr-defined]
        from coinche.engine import wire
    except ImportError as e:  # a commit from before the wire format
        send({"ready": False, "error": f"{type(e).__name__}: {e}"})
        return

    def message(m: Any) -> Any:
        return None if m is None else wire.message_to_json(m)

    def view(data: dict[str, Any]) -> Any:
        result = data.get("result")
        if isinstance(result, dict):  # lines in our catalogue's words, maybe unknown to the old one
            data["result"] = dict(result, lines=[])
        return wire.view_from_json(data)

    bots: dict[int, Bot] = {}
    send({"ready": True, "coinche": os.path.abspath(coinche.__file__ or "")})
    for line in sys.stdin:
        try:
            req = json.loads(line)
            for gone in req.get("drop", ()):
                bots.pop(gone, None)
            op = req["op"]
            if op == "new":
                bot = bots[req["bot"]] = load_bot(req["name"], seed=req["seed"], **req["params"])
                send({"ok": True, "observes": type(bot).observe_result is not Bot.observe_result})
            elif op == "choose":
                v = view(req["view"])
                d = bots[req["bot"]].choose(v)
                send(
                    {
                        "action": wire.action_to_json(d.action, v),
                        "explanation": d.explanation,
                        "private_explanation": getattr(d, "private_explanation", None),
                        "reason": message(getattr(d, "reason", None)),
                        "private_reason": message(getattr(d, "private_reason", None)),
                    }
                )
            elif op == "observe":
                bots[req["bot"]].observe_result(view(req["view"]))
                send({"ok": True})
            else:
                send({"error": f"unknown op {op!r}"})
        except Exception as e:
            send({"error": " ".join(f"{type(e).__name__}: {e}".split())[:500]})


def main() -> None:
    """Keep stdout for the protocol: the old code's prints go to stderr."""
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    _serve(out)


if __name__ == "__main__":
    main()
