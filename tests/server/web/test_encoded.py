"""The feed's messages are encoded once for all the sockets that send the same one (a
table's watchers, a player's tabs), by the protocol's one encoder: the JSON of the same
keys and values as ``json.dumps`` makes of it."""

from __future__ import annotations

import json

from coinche.server.web.feed import encoded
from coinche.server.web.messages import ErrorMessage, StepMessage


def test_a_message_sent_by_several_sockets_is_encoded_once_and_alike() -> None:
    step = {"type": "step", "seq": 3, "last": {"seat": 1, "text": "Ouest joue le Roi de cœur"}, "set": [[["a"], 1]]}
    text = encoded(step)
    assert text == json.dumps(step, separators=(",", ":"), ensure_ascii=False)
    assert encoded(step) is text  # the next socket sends the same text
    same = json.loads(text)  # an equal message that is another object: encoded afresh
    assert encoded(same) == text and encoded(same) is not text
    typed = StepMessage(3, {"seat": 1, "text": "Ouest joue le Roi de cœur"}, [[["a"], 1]])
    assert encoded(typed) == text  # the Struct is the same message on the wire


def test_an_error_says_its_id_even_when_none_and_its_rule_only_when_it_has_one() -> None:
    assert json.loads(encoded(ErrorMessage(None, "malformed", "m"))) == {
        "type": "error",
        "id": None,
        "code": "malformed",
        "message": "m",
    }
    ruled = json.loads(encoded(ErrorMessage("a1", "illegal", "m", "follow_suit")))
    assert ruled == {"type": "error", "id": "a1", "code": "illegal", "message": "m", "rule": "follow_suit"}
