"""The ``step`` message (docs/protocol.md): what makes a seat's state at one step into its
state at the next (``[path, value]`` changes), and how a client applies it. Pure: no I/O."""

from __future__ import annotations

from typing import Any

from .messages import StateMessage, StepMessage

STEP_OWN = ("type", "seq", "full", "last")
"""The keys of a state a ``step`` message carries itself rather than as changes."""

Path = list[str | int]


Diffs = dict[tuple[int, int, tuple[str | int, ...]], tuple[Any, Any, list[list[Any]]]]
"""What ``changes`` found for pairs of objects at a path, kept with the two objects (so
that their ids stay theirs): the audiences of one step share most parts of their states,
and the same pair is compared once for all of them."""


def changes(
    before: Any,
    after: Any,
    path: Path | None = None,
    out: list[list[Any]] | None = None,
    diffs: Diffs | None = None,
) -> list[list[Any]]:
    """What makes ``before`` into ``after`` (two JSON values): ``[path, value]`` pairs, each
    setting the value at that path (a list's next index appends). Parts shared with
    ``before`` are passed over at once (``SeatState``); ``diffs``: the pairs of objects
    compared already (``Diffs``)."""
    path = [] if path is None else path
    out = [] if out is None else out
    if before is after:
        return out
    if type(before) is dict and type(after) is dict and before.keys() == after.keys():
        top = not path
        for key, value in after.items():
            old = before[key]
            if old is value or (top and key in STEP_OWN):
                continue
            if type(value) is dict:
                if diffs is None:
                    changes(old, value, [*path, key], out)
                    continue
                sub = [*path, key]
                found = diffs.get((id(old), id(value), tuple(sub)))
                if found is None:
                    found = diffs[id(old), id(value), tuple(sub)] = (old, value, changes(old, value, sub, None, diffs))
                out.extend(found[2])
            elif (old != value or type(old) is not type(value)) and not _list_changes(old, value, [*path, key], out):
                out.append([[*path, key], value])
        return out
    if (before != after or type(before) is not type(after)) and not _list_changes(before, after, path, out):
        out.append([path, after])
    return out


def _list_changes(before: Any, after: Any, path: Path, out: list[list[Any]]) -> bool:
    """The changes of a list that grew (its new items appended) or whose items, objects,
    changed in place, told item by item (True); False for any other change (the value is
    set whole)."""
    if type(before) is not list or type(after) is not list or not before:
        return False
    n = len(before)
    if n < len(after) and before == after[:n]:
        out.extend([[*path, i], after[i]] for i in range(n, len(after)))
        return True
    if n == len(after) and type(after[0]) is dict:
        for i in range(n):
            if before[i] != after[i]:
                changes(before[i], after[i], [*path, i], out)
        return True
    return False


def step_message(before: StateMessage, after: StateMessage, diffs: Diffs | None = None) -> StepMessage:
    """The ``step`` that makes the seat's state ``before`` into ``after``, the state of the
    next step: its seq, its ``last``, and what changed (``set``); ``diffs``: the pairs the
    step's other audiences compared (``changes``)."""
    return StepMessage(after["seq"], after["last"], changes(before, after, None, None, diffs))


def apply_step(state: dict[str, Any], step: dict[str, Any]) -> dict[str, Any]:
    """The state a ``step`` makes of the state of the step before it (a new object; the
    parts it does not change are shared with ``state``): what a client does with the JSON
    it received, as the page's ``table_state.js``."""
    out = {**state, "type": "state", "seq": step["seq"], "full": False, "last": step["last"]}
    for path, value in step["set"]:
        if not path:
            raise ValueError("a change of the whole state")
        node: Any = out
        for key in path[:-1]:
            child = node[key]
            child = dict(child) if isinstance(child, dict) else list(child)
            node[key] = child
            node = child
        last = path[-1]
        if isinstance(node, list) and last == len(node):
            node.append(value)
        else:
            node[last] = value
    return out
