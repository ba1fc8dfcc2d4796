"""The table socket's requests are read and checked in one call (``messages.ClientMessage``,
a tagged union on ``type``): whatever a client sends, the reader gives a request or a
``malformed`` refusal with words for it, never an exception of its own."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.server.web.messages import HintRequest, HostRequest, SitRequest
from coinche.server.web.protocol import ActionRequest, ProtocolError, Request, read_request

MAX = 4096

json_leaf = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40)
json_values = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
fields = st.sampled_from(["type", "id", "action", "seat", "to", "op", "level", "phrase"])
types = st.sampled_from(["action", "next_deal", "hint", "say", "sit", "leave", "host", "dance", ""])
near_requests = st.fixed_dictionaries(
    {"type": types | json_leaf},
    optional={
        "id": st.sampled_from(["a1", "x" * 65, "a b", ""]) | json_leaf,
        "op": st.sampled_from(["move", "level", "free", "start", "fly"]) | json_leaf,
        "seat": st.integers(-1, 4) | json_leaf,
        "to": st.integers(-1, 4) | json_leaf,
        "level": st.sampled_from(["expert", "x" * 40]) | json_leaf,
        "phrase": st.sampled_from(["bravo", "x" * 40]) | json_leaf,
        "action": st.sampled_from([{"call": "pass"}, {"card": "JH"}, {"declare": 0}]) | json_values,
    },
)


def read(text: str) -> Request | ProtocolError:
    try:
        return read_request(text, None, MAX)
    except ProtocolError as e:
        return e


def check(result: Request | ProtocolError) -> None:
    if isinstance(result, ProtocolError):
        assert result.code in ("malformed", "too_large")
        assert result.code == "too_large" or result.detail
        assert result.id is None or isinstance(result.id, str)
    else:
        assert isinstance(result, get_args(Request))


@settings(max_examples=300, deadline=None)
@given(value=json_values | near_requests | st.dictionaries(fields, json_values, max_size=5))
def test_any_json_is_a_request_or_a_refusal(value: Any) -> None:
    check(read(json.dumps(value)))


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60))
def test_any_text_is_a_request_or_a_refusal(text: str) -> None:
    check(read(text))


@pytest.mark.parametrize(
    ("message", "detail", "request_id"),
    [
        ([1, 2], "not an object", None),
        ({"type": "dance", "id": "a1"}, "unknown type 'dance'", "a1"),
        ({"type": 5}, "unknown type 5", None),
        ({"type": "sit", "id": "a b"}, "bad id 'a b'", None),
        ({"type": "next_deal"}, "no id", None),
        ({"type": "sit", "id": "a1", "seat": 4}, "$.seat", "a1"),
        ({"type": "sit", "id": "a1", "seat": True}, "$.seat", "a1"),
        ({"type": "say", "id": "a1", "phrase": "x" * 33}, "$.phrase", "a1"),
        ({"type": "host", "id": "a1", "op": "fly"}, "$.op", "a1"),
        ({"type": "host", "id": "a1", "op": "move", "seat": 1}, "bad to None", "a1"),
        ({"type": "host", "id": "a1", "op": "free"}, "bad seat None", "a1"),
        ({"type": "host", "id": "a1", "op": "level", "seat": 1}, "bad level None", "a1"),
        ({"type": "action", "id": "a1", "action": {"card": "ZZ"}}, "ZZ", "a1"),
    ],
)
def test_a_refusal_says_what_is_wrong_and_names_the_request(message: Any, detail: str, request_id: str | None) -> None:
    result = read(json.dumps(message))
    assert isinstance(result, ProtocolError) and result.code == "malformed", result
    assert detail in result.detail and result.id == request_id, (result.detail, result.id)


def test_the_requests_read_as_their_types() -> None:
    assert read('{"type": "hint"}') == HintRequest(None)
    assert read('{"type": "sit", "id": "s1", "seat": 2, "extra": [1]}') == SitRequest("s1", 2)
    assert read('{"type": "host", "id": "h1", "op": "move", "seat": 0, "to": 3}') == HostRequest("h1", "move", 0, 3)
    assert read('{"type": "host", "id": "h2", "op": "start"}') == HostRequest("h2", "start")
    played = read('{"type": "action", "id": "p1", "action": {"call": "pass"}}')
    assert isinstance(played, ActionRequest) and played.id == "p1"
    for deep in (
        "[" * 50_000 + "]" * 50_000,
        '{"type": "action", "id": "a", "action": ' + "[" * 50_000 + "]" * 50_000 + "}",
    ):
        with pytest.raises(ProtocolError) as refused:  # nested too deeply: refused, not a crash
            read_request(deep, None, 200_000)
        assert refused.value.code == "malformed"


@pytest.mark.parametrize("text", ["[1,", '{"type": "sit"', "[", '"abc', "NaN", "{"])
def test_a_text_that_is_not_json_is_said_so(text: str) -> None:
    result = read(text)
    assert isinstance(result, ProtocolError) and result.detail == "not JSON", result
