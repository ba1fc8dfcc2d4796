"""The coinche engine protocol, version 1 (issue 31; ``docs/engine-protocol.md``): any
program that reads JSON Lines on its standard input and writes them on its standard output
plays, in any language. The host (the arena, later the site) runs the engine:

- host -> engine ``{"type": "hello", "protocol": 1, "options": {...}}``; engine -> host
  ``{"type": "hello", "protocol": 1, "name": ..., "author": ...}``;
- host -> engine ``{"type": "decide", "id": N, "view": <a seat's view>, "game": null,
  "time_ms": T}``; engine -> host ``{"type": "action", "id": N, "action": <one entry of
  view.legal_actions>}`` (an ``"explanation"`` string may come with it);
- host -> engine ``{"type": "deal", "seed": S}`` before each deal but the first of a
  match (the engine starts the new deal afresh, drawing its chances from ``S``),
  ``{"type": "deal_over", "view": <the seat's final view>}`` and ``{"type": "quit"}`` (no
  answer to any of them).

One process plays one seat for a whole match: the arena keeps it from deal to deal.

The host never trusts the engine: every read is bounded (a line of at most ``MAX_LINE``
bytes, an answer within the decision's time), and whatever goes wrong — no answer in
time, a line that is not JSON, an answer for another id, an action that is not legal, a
crash — plays the seat's first legal action and counts a *fault* (``EngineBot.faults``);
an engine that died or stalled is not asked again during the match. At the end the host
sends ``quit`` and kills the process.

``serve`` is the engine's side, for the project's own bots (``coinche engine --level``).
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Final

from ..engine.actions import Action
from ..engine.deal import View
from ..engine.errors import EngineError
from ..engine.wire import action_from_json, action_to_json, view_from_json, view_to_json
from .base import Bot, BotFactory, BotLoadError, Decision

PROTOCOL: Final = 1
PREFIX: Final = "cmd:"
"""A bot name that starts with it is a command speaking the protocol (``cmd:python3 bot.py``)."""
MAX_LINE: Final = 1 << 20
"""The longest line a host reads from an engine (a view is a few kilobytes)."""
DECISION_MS: Final = 10_000
"""An engine's time for one decision."""
HELLO_MS: Final = 5_000
"""An engine's time for its hello at the least, however short its decisions' time: a
program starting on a busy machine (an interpreter, its tables read) takes longer than a
move (a test engine with 400 ms a move missed its hello under load)."""
FAULTS_KEPT: Final = 20
"""Descriptions of faults kept (an engine writing garbage lines makes one a line)."""
_EOF: Final = object()


class EngineBot(Bot):
    """A seat played by an engine program over the protocol (see the module)."""

    name = "engine"

    def __init__(
        self,
        command: str | Sequence[str],
        seed: int | None = None,
        time_ms: int = DECISION_MS,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        """Start the engine ``command`` (a command line split as a shell would, or its
        words) and say hello; ``BotLoadError`` when it cannot start or answers the hello
        with ``{"type": "error", "message": ...}`` (an engine that cannot play says why)."""
        super().__init__(seed)
        self.command = command if isinstance(command, str) else shlex.join(command)
        self.time_ms = time_ms
        self.faults = 0
        self.counted = 0
        """Of ``faults``, those a match's tally counted already (the arena's): a fault of
        the start (no hello) is counted with the first deal's."""
        self.fault_log: list[str] = []
        """What the first faults were (at most ``FAULTS_KEPT``)."""
        self._recent: list[str] = []
        """What the faults since ``take_faults`` were (at most ``FAULTS_KEPT``)."""
        self.engine_name: str | None = None
        self._next_id = 0
        self._lines: queue.Queue[object] = queue.Queue(maxsize=64)
        self._dead = False
        self._ended = False
        """Its output ended (it exited or closed it): told apart from a stall by the pipe,
        not by the exit status, which may come a moment later."""
        try:
            argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as e:
            raise BotLoadError(f"cannot read the command {command!r}: {e}") from None
        if not argv:
            raise BotLoadError("an engine needs a command: cmd:PROGRAM ARGS...")
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                bufsize=0,
                env=None if env is None else dict(env),
                cwd=cwd,
            )
        except OSError as e:
            raise BotLoadError(f"cannot start the engine {command!r}: {e}") from None
        assert self._proc.stdout is not None
        # The thread holds the stream and the queue, not the bot: a bot dropped without
        # ``close`` is collected and its ``__del__`` ends the process (a reader holding the
        # bot kept both alive: a calibration run leaked a thousand engines and ran out of
        # memory).
        threading.Thread(target=_read_lines, args=(self._proc.stdout, self._lines), daemon=True).start()
        self._send({"type": "hello", "protocol": PROTOCOL, "options": {"seed": seed}})
        hello = self._answer(lambda m: m.get("type") in ("hello", "error"), max(self.time_ms, HELLO_MS))
        self.hello: dict[str, Any] = hello or {}
        """The engine's hello (its ``name``, ``author``, anything more it says)."""
        if hello is None:
            self._fault("no hello")
        elif hello.get("type") == "error":
            self.close()
            raise BotLoadError(f"the engine cannot play: {str(hello.get('message'))[:500]}")
        else:
            name = hello.get("name")
            self.engine_name = name[:64] if isinstance(name, str) else None

    # ----- reading and writing, bounded -----

    def _send(self, message: dict[str, Any]) -> None:
        if self._dead:
            return
        try:
            assert self._proc.stdin is not None
            self._proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            self._proc.stdin.flush()
        except (OSError, ValueError):
            self._dead = True

    def _answer(self, wanted: Callable[[dict[str, Any]], bool], within_ms: int | None = None) -> dict[str, Any] | None:
        """The first message ``wanted`` accepts within ``within_ms`` (the decision's time
        unless told; others are skipped), None when none came: the engine is then dead to
        this match."""
        deadline = time.monotonic() + (self.time_ms if within_ms is None else within_ms) / 1000
        while True:
            line = self._line(deadline)
            if line is None:
                return None
            try:
                message = json.loads(line)
            except ValueError:
                self._fault("a line that is not JSON")
                continue
            if isinstance(message, dict) and wanted(message):
                return message

    def _line(self, deadline: float) -> bytes | None:
        """The engine's next line by ``deadline`` (``time.monotonic``), None when none came
        (its output ended, or the time is up): the engine is then dead to this match."""
        if self._dead:
            return None
        left = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=left) if left > 0 else self._lines.get_nowait()
        except queue.Empty:
            self._dead = True
            return None
        if line is _EOF:
            self._dead = self._ended = True
            return None
        assert isinstance(line, bytes)
        return line

    def _fault(self, what: str) -> None:
        self.faults += 1
        for log in (self.fault_log, self._recent):
            if len(log) < FAULTS_KEPT:
                log.append(what)

    # ----- the bot -----

    def choose(self, view: View, game: Mapping[str, Any] | None = None, time_ms: int | None = None) -> Decision:
        """The engine's decision at ``view``; ``game``: the seat's view of the game when the
        host has one (``coinche connect``: deal number, target, totals, history, winner),
        ``time_ms``: this decision's time when the host gives another than ``self.time_ms``."""
        default = view.legal_actions[0]
        if self._dead:  # it stopped answering earlier: not asked again, and no time spent
            self._fault("the engine stopped" if self._ended else "not asked: the engine stopped answering earlier")
            return Decision(default)
        budget = self.time_ms if time_ms is None else time_ms
        self._next_id += 1
        number = self._next_id
        self._send(decide_message(number, view, game, budget))
        answer = self._answer(lambda m: m.get("type") == "action" and m.get("id") == number, budget)
        if answer is None:
            self._fault("the engine stopped" if self._ended else "no answer in time")
            return Decision(default)
        try:
            action = answered_action(answer, view)
        except AnswerFault as e:
            self._fault(str(e))
            return Decision(default)
        why = answer.get("explanation")
        return Decision(action, why[:200] if isinstance(why, str) else None)

    def observe_result(self, view: View) -> None:
        self._send({"type": "deal_over", "view": view_to_json(view)})

    def new_deal(self, seed: int | None) -> None:
        """The next deal of the match starts: the engine draws its chances from ``seed``
        (so a deal played by a process kept from the last one is played as by a new one)."""
        self._send({"type": "deal", "seed": seed})

    def take_faults(self) -> list[str]:
        """What the faults since the last call were (the first ``FAULTS_KEPT``; ``faults``
        counts them all)."""
        taken, self._recent = self._recent, []
        return taken

    def close(self) -> None:
        """Say quit, then end the process (killed if it lingers)."""
        self._send({"type": "quit"})
        with contextlib.suppress(OSError, ValueError):
            if self._proc.stdin is not None:
                self._proc.stdin.close()
        try:
            self._proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(timeout=5)

    def __del__(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.kill()


class AnswerFault(Exception):
    """An engine's answer that is no legal action (its text: the fault, as counted)."""


def decide_message(number: int, view: View, game: Mapping[str, Any] | None, time_ms: int) -> dict[str, Any]:
    """The host's ``decide`` of id ``number`` at ``view`` (``game``: the seat's view of the
    game, None in the arena)."""
    return {
        "type": "decide",
        "id": number,
        "view": view_to_json(view),
        "game": None if game is None else dict(game),
        "time_ms": time_ms,
    }


def answered_action(answer: Mapping[str, Any], view: View) -> Action:
    """The action of an engine's ``action`` message at ``view``: one of
    ``view.legal_actions`` (as it is, or only its key), else ``AnswerFault``."""
    try:
        action = action_from_json(answer.get("action"), view)
    except EngineError:
        raise AnswerFault("an action the protocol cannot read") from None
    if action not in view.legal_actions:
        raise AnswerFault("an illegal action")
    return action


def _read_lines(stream: IO[bytes], lines: queue.Queue[object]) -> None:
    """An engine's lines, one by one, into ``lines`` (a longer line than ``MAX_LINE`` ends
    them), then ``_EOF``."""
    try:
        while True:
            line = stream.readline(MAX_LINE + 1)
            if not line or len(line) > MAX_LINE:
                break
            lines.put(line)
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(queue.Full):
            lines.put(_EOF, timeout=1)


def command_factory(spec: str) -> BotFactory:
    """The factory of a ``cmd:...`` bot name."""
    command = spec[len(PREFIX) :]

    def make(seed: int | None = None) -> Bot:
        return EngineBot(command, seed)

    return make


def serve(factory: BotFactory, name: str, stdin: IO[str], stdout: IO[str]) -> int:
    """The engine's side: answer a host over ``stdin``/``stdout`` with the bot ``factory``
    makes (``coinche engine``) until ``quit`` or the end of the input."""
    bot: Bot | None = None

    def say(message: dict[str, Any]) -> None:
        stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
        stdout.flush()

    for line in stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "hello":
            options = message.get("options")
            seed = options.get("seed") if isinstance(options, dict) else None
            seed = seed if isinstance(seed, int) else None
            bot = factory(seed=seed)
            say({"type": "hello", "protocol": PROTOCOL, "name": name, "author": "coinche"})
        elif kind == "deal":
            seed = message.get("seed")
            seed = seed if isinstance(seed, int) else None
            if isinstance(bot, EngineBot):  # a program itself (a bot of an earlier commit): kept
                bot.new_deal(seed)
            else:
                bot = factory(seed=seed)
        elif kind == "decide":
            if bot is None:
                bot = factory(seed=None)
            view = view_from_json(message["view"])
            decision = bot.choose(view)
            answer: dict[str, Any] = {
                "type": "action",
                "id": message.get("id"),
                "action": action_to_json(decision.action, view),
            }
            if decision.explanation:
                answer["explanation"] = decision.explanation
            say(answer)
        elif kind == "deal_over" and bot is not None:
            bot.observe_result(view_from_json(message["view"]))
        elif kind == "quit":
            break
    if isinstance(bot, EngineBot):
        bot.close()
    return 0
