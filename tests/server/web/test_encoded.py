"""The feed's messages are encoded once for all the sockets that send the same one (a
table's watchers, a player's tabs): the text is what ``json.dumps`` makes of it, for the
table sockets' spacing and the watchers' compact one alike."""

from __future__ import annotations

import json

from coinche.server.web.feed import encoded


def test_a_message_sent_by_several_sockets_is_encoded_once_and_alike() -> None:
    step = {"type": "step", "seq": 3, "last": {"seat": 1, "text": "Ouest joue le Roi de cœur"}, "set": [[["a"], 1]]}
    text = encoded(step)
    assert text == json.dumps(step, ensure_ascii=False)
    assert encoded(step) is text  # the next socket sends the same text
    compact = encoded(step, compact=True)
    assert compact == json.dumps(step, separators=(",", ":"), ensure_ascii=False)
    assert encoded(step) is text and encoded(step, compact=True) is compact
    same = json.loads(text)  # an equal message that is another object: encoded afresh
    assert encoded(same) == text and encoded(same) is not text
