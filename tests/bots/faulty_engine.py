"""An engine of the engine protocol with one fault, named on its command line, for the
conformance kit's tests (``coinche engine-check``); without one it plays the first legal
action, as ``examples/first_legal_bot.py`` does."""

import json
import sys
import time

fault = sys.argv[1] if len(sys.argv) > 1 else ""


def say(message: dict) -> None:
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    m = json.loads(line)
    kind = m["type"]
    if kind == "hello" and fault in ("mute", "refuse"):
        if fault == "refuse":
            say({"type": "error", "message": "this engine plays no coinche"})
        sys.exit(0)
    if kind == "hello":
        say({"type": "hello", "protocol": 2 if fault == "protocol" else 1, "name": "faulty", "author": "tests"})
    elif kind == "decide":
        legal = m["view"]["legal_actions"]
        keys = [a.get("call") for a in legal]
        if fault == "surcoinche" and "surcoinche" in keys:
            sys.exit(3)
        if fault == "meld" and any("declare" in a for a in legal):
            raise SystemExit("a meld declaration? never heard of it")
        if fault == "belote" and any(a.get("belote") for a in legal):
            say({"type": "action", "id": m["id"], "action": {"belote": True}})
            continue
        if fault == "slow" and m["time_ms"] < 1000:
            time.sleep(m["time_ms"] / 1000 + 0.3)
        action = legal[0]
        if fault == "illegal":
            action = next(a for a in ({"call": "surcoinche"}, {"call": "coinche"}) if a not in legal)
        if fault == "not-json":
            print("thinking...", flush=True)
        say({"type": "action", "id": m["id"] + (1 if fault == "wrong-id" else 0), "action": action})
    elif kind == "deal_over" and fault == "deal_over":
        sys.exit(1)
    elif kind == "quit":
        if fault == "quit":
            time.sleep(30)
        break
