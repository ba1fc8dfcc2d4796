"""The smallest engine of the coinche engine protocol (docs/engine-protocol.md): it plays
the first legal action, always. Try it:

    coinche arena --rules classic --ns 'cmd:python3 examples/first_legal_bot.py' --ew beginner --deals 2
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "first legal", "author": "example"}), flush=True)
    elif message["type"] == "decide":
        action = message["view"]["legal_actions"][0]
        print(json.dumps({"type": "action", "id": message["id"], "action": action}), flush=True)
    elif message["type"] == "quit":
        break
