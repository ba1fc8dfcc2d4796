"""The engine protocol's conformance kit (issue 53; ``coinche engine-check -- COMMAND``):
it runs an engine program as a host would and drives it through every message kind, every
rules profile and every kind of action, then reports each check, passed or failed with
what the engine did wrong, and whether the engine conforms.

A host cannot make an engine coinche, but it can ask it where coinche is legal: the kit
builds its positions with the engine's own ``Deal`` (``legal_actions``/``apply``), from
seeds searched in a fixed order until the position offers what the check is about (a
seat facing a coinche, a meld declaration, a card with the belote announcement, a card of
a sans-atout or tout-atout contract...), so no card list can drift from the rules. The
engine always holds seat 0 (the seats' dealers are chosen for it): one process a seat, as
the arena runs it. Then one whole deal a profile with the engine at seats 0 and 2 (two
processes) against the beginner, a decision with a short ``time_ms``, ``deal_over``, and
``quit``.

The process, its bounded reads and the check of an answer are ``EngineBot``'s
(``engine_protocol``): the kit reads the same lines the arena would and judges the action
with the same function, ``answered_action``; it only keeps the line the engine sent, to
say what was wrong with it. An engine that stopped or fell out of step (no answer in
time, an answer for another id) is started again for the next check, so that one fault
fails one check, not every check after it.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..engine.actions import (
    COINCHE,
    PASS,
    SURCOINCHE,
    Action,
    is_announce,
    is_capot,
    is_card,
    is_declaration,
    is_generale,
    is_numeric_bid,
    make_bid,
)
from ..engine.cards import ALL_TRUMP, NO_TRUMP, SUITS, Trump
from ..engine.deal import Deal, View
from ..engine.dealing import hands_from_seed
from ..engine.rules import PROFILES, RuleSet
from ..engine.wire import action_to_json, view_to_json
from .base import Bot, BotLoadError
from .engine_protocol import DECISION_MS, HELLO_MS, PROTOCOL, AnswerFault, EngineBot, answered_action, decide_message
from .loading import load_bot

SHORT_MS: Final = 1000
"""The time of the decision whose limit is the check (the others have ``DECISION_MS``):
the project's expert takes at most about 200 ms a decision."""
QUIT_S: Final = 1.0
"""The time an engine has to exit after ``quit`` (the hosts kill it then)."""
SEARCH: Final = 500
"""Seeds tried for a position (each is found among the first ten)."""
SEAT: Final = 0
"""The seat the engine holds in every position and whole deal (with 2 in the whole deals)."""
SHOWN: Final = 160
"""Characters of an engine's line repeated in a report."""
LISTED: Final = 4
"""Legal actions listed after an illegal answer."""
EXPLANATION_MAX: Final = 200
OPPONENT: Final = "beginner"
"""The bot at the seats the engine does not hold in the whole deals."""

Status = Literal["passed", "failed", "skipped"]


@dataclass(frozen=True)
class Check:
    """One check of the kit: its name, its status and a line that says what was seen (or,
    failed, what the engine did wrong)."""

    name: str
    status: Status
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "detail": self.detail}


@dataclass(frozen=True)
class Report:
    """What ``engine_check`` found."""

    command: str
    hello: Mapping[str, Any] | None
    """The engine's hello as it sent it (None: no hello)."""
    checks: tuple[Check, ...]
    starts: int
    """Processes started (the main one, its restarts after a fault, the partner of the whole deals)."""

    @property
    def conforms(self) -> bool:
        return all(c.status == "passed" for c in self.checks)

    @property
    def protocol(self) -> Any:
        """The protocol version the engine said (None when it said none)."""
        return None if self.hello is None else self.hello.get("protocol")

    def count(self, status: Status) -> int:
        return sum(c.status == status for c in self.checks)

    def summary(self) -> str:
        verdict = "the engine conforms" if self.conforms else "the engine does not conform"
        skipped = self.count("skipped")
        return (
            f"{len(self.checks)} checks: {self.count('passed')} passed, {self.count('failed')} failed"
            + (f", {skipped} not run" if skipped else "")
            + f": {verdict} to protocol {PROTOCOL}"
        )

    def to_json(self) -> dict[str, Any]:
        hello = self.hello or {}
        return {
            "command": self.command,
            "protocol": self.protocol,
            "name": hello.get("name"),
            "author": hello.get("author"),
            "conforms": self.conforms,
            "checks": [c.to_json() for c in self.checks],
            "passed": self.count("passed"),
            "failed": self.count("failed"),
            "skipped": self.count("skipped"),
            "starts": self.starts,
        }

    def format(self) -> str:
        hello = self.hello or {}
        said = f"protocol {_shown(self.protocol)}" if self.hello is not None else "no hello"
        lines = [
            f"engine: {self.command}",
            f"it says: name {_shown(hello.get('name'))}, author {_shown(hello.get('author'))}, {said}",
        ]
        width = max(len(c.name) for c in self.checks) if self.checks else 0
        marks = {"passed": "ok  ", "failed": "FAIL", "skipped": "--  "}
        lines.extend(f"{marks[c.status]}  {c.name:<{width}}  {c.detail}".rstrip() for c in self.checks)
        lines.append(self.summary())
        return "\n".join(lines)


def _shown(value: Any) -> str:
    return "none" if value is None else json.dumps(value)


def _cut(line: bytes | str, limit: int = SHOWN) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.rstrip("\r\n")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _offered(legal: Sequence[Action]) -> str:
    """What a seat's legal actions hold, by kind: ``pass, 40 bids, coinche``."""
    kinds: list[tuple[str, Callable[[Action], bool]]] = [
        ("pass", lambda a: a == PASS),
        ("bids", lambda a: is_numeric_bid(a) or is_capot(a) or is_generale(a)),
        ("coinche", lambda a: a == COINCHE),
        ("surcoinche", lambda a: a == SURCOINCHE),
        ("declarations", is_declaration),
        ("cards", lambda a: is_card(a) and not is_announce(a)),
        ("cards with belote", is_announce),
    ]
    parts = []
    for kind, test in kinds:
        n = sum(1 for a in legal if test(a))
        if n:
            parts.append(kind if kind in ("pass", "coinche", "surcoinche") else f"{n} {kind}")
    return ", ".join(parts)


# ----- the positions -----


def _dealt(rules: RuleSet, seed: int, dealer: int) -> Deal:
    return Deal(rules, dealer, hands_from_seed(seed.to_bytes(32, "big"), dealer))


def _play_on(deal: Deal, until: Callable[[Deal], bool]) -> bool:
    """Play each seat's first legal action until ``until`` holds (True) or the deal ends."""
    while not deal.is_over:
        if until(deal):
            return True
        deal.apply(deal.legal_actions()[0])
    return False


def _opening(rules: RuleSet, seed: int) -> Deal:
    """Seat 0 calls first."""
    return _dealt(rules, seed, 3)


def _facing_bid(rules: RuleSet, seed: int) -> Deal:
    """Seat 3 bids the lowest bid: seat 0 may coinche."""
    deal = _dealt(rules, seed, 2)
    deal.apply(next(a for a in deal.legal_actions() if is_numeric_bid(a)))
    return deal


def _facing_coinche(rules: RuleSet, seed: int) -> Deal:
    """Seat 2 bids, seat 3 coinches: seat 0 (the bidder's partner) may surcoinche."""
    deal = _dealt(rules, seed, 1)
    deal.apply(next(a for a in deal.legal_actions() if is_numeric_bid(a)))
    deal.apply(COINCHE)
    return deal


def _contract(trump: Trump) -> Callable[[RuleSet, int], Deal]:
    """Seat 0 bids 80 in ``trump``, the others pass: seat 0 plays the first card (after
    its meld declaration, when it has one to make)."""

    def make(rules: RuleSet, seed: int) -> Deal:
        deal = _dealt(rules, seed, 3)
        deal.apply(make_bid(80, trump))
        for _ in range(3):
            deal.apply(PASS)
        return deal

    return make


def _its_turn(deal: Deal, wanted: Callable[[list[Action]], bool]) -> bool:
    return deal.to_move == SEAT and wanted(deal.legal_actions())


def _declares(legal: list[Action]) -> bool:
    return len(legal) > 1 and all(is_declaration(a) for a in legal)


def _offers_belote(legal: list[Action]) -> bool:
    return any(is_announce(a) for a in legal)


def _plays_later_trick(deal: Deal) -> bool:
    legal = deal.legal_actions()
    return deal.to_move == SEAT and bool(deal.tricks) and len(legal) > 1 and all(is_card(a) for a in legal)


def _find(rules: RuleSet, makes: Sequence[Callable[[RuleSet, int], Deal]], ready: Callable[[Deal], bool]) -> Deal:
    """The first deal, by seed then by maker, that reaches a position ``ready`` accepts
    (each seat playing its first legal action meanwhile)."""
    for seed in range(SEARCH):
        for make in makes:
            deal = make(rules, seed)
            if _play_on(deal, ready):
                return deal
    raise RuntimeError(f"no position found for {rules.name}")  # the kit's own fault: a test shows it


def _offers_every_call(rules: RuleSet) -> Callable[[Deal], bool]:
    """An opening call: the profile's bids in every trump it has, capot (and générale)."""

    def ready(deal: Deal) -> bool:
        legal = deal.legal_actions()
        trumps = {a % 10 for a in legal if is_numeric_bid(a)}
        return (
            PASS in legal
            and trumps == set(rules.trumps)
            and any(is_capot(a) for a in legal)
            and rules.generale == any(is_generale(a) for a in legal)
        )

    return ready


def positions(rules: RuleSet) -> list[tuple[str, Deal]]:
    """The positions of ``rules`` the engine is asked at (seat 0 to act), each named by
    what its legal actions offer."""
    suits = [_contract(t) for t in SUITS]
    out = [
        ("calls" + (", SA and TA bids" if rules.sa_ta else ""), _find(rules, [_opening], _offers_every_call(rules))),
        ("coinche offered", _find(rules, [_facing_bid], lambda d: _its_turn(d, lambda a: COINCHE in a))),
        ("surcoinche offered", _find(rules, [_facing_coinche], lambda d: _its_turn(d, lambda a: SURCOINCHE in a))),
    ]
    if rules.melds:
        out.append(("meld declaration", _find(rules, suits, lambda d: _its_turn(d, _declares))))
    out.append(("belote offered", _find(rules, suits, lambda d: _its_turn(d, _offers_belote))))
    if rules.sa_ta:
        out.append(("sans-atout card", _find(rules, [_contract(NO_TRUMP)], _plays_later_trick)))
        out.append(("tout-atout card", _find(rules, [_contract(ALL_TRUMP)], _plays_later_trick)))
        out.append(
            ("belote in tout-atout", _find(rules, [_contract(ALL_TRUMP)], lambda d: _its_turn(d, _offers_belote)))
        )
    return out


def _whole_deal(rules: RuleSet) -> Deal:
    """A deal whose first caller, seat 1, is the beginner and bids: whatever the engine
    calls, cards are played."""
    for seed in range(SEARCH):
        deal = _dealt(rules, seed, 0)
        if is_numeric_bid(load_bot(OPPONENT, seed=seed).choose(deal.view(1)).action):
            return deal
    raise RuntimeError(f"no whole deal found for {rules.name}")


# ----- the engine, seen line by line -----


class _Probe(EngineBot):
    """An engine the kit drives: ``EngineBot``'s process, bounded reads and hello, with
    the line the engine sent kept to say what was wrong with it."""

    def __init__(self, command: str | Sequence[str], seed: int, time_ms: int) -> None:
        self.refused: str | None = None
        """Its hello was ``{"type": "error"}``: why."""
        try:
            super().__init__(command, seed, time_ms)
        except BotLoadError as e:
            if not getattr(self, "hello", None):
                raise  # it could not start
            self.refused, self._dead = str(e), True
        self.told: list[str] = ["hello"]
        """What the host said since the last decision (named when the engine stops)."""
        self.deals = 0
        """The deals it was asked about (each after the first announced with ``deal``)."""

    @property
    def dead(self) -> bool:
        return self._dead

    @property
    def ended(self) -> bool:
        """Its output ended or its process exited (a write to it may fail first)."""
        if not self._ended and self._proc.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=0.2)
        return self._ended or self._proc.poll() is not None

    def tell(self, message: dict[str, Any]) -> None:
        self._send(message)
        self.told.append(str(message["type"]))

    def start_deal(self, seed: int) -> None:
        """A deal starts: ``deal`` before each but the first, as the hosts do."""
        if self.deals:
            self.tell({"type": "deal", "seed": seed})
        self.deals += 1

    def stopped(self) -> str:
        try:
            status: int | None = self._proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            status = None
        how = "its output closed" if status is None else f"exit status {status}"
        return f"the engine stopped ({how}) after the host's {', '.join(self.told[-3:])}"

    def ask(
        self, view: View, time_ms: int, game: Mapping[str, Any] | None = None
    ) -> tuple[Action | None, str | None, float]:
        """The engine's action at ``view`` (``game``: the seat's view of the game, as
        ``coinche connect`` gives it), None when it gave none that counts; what was wrong
        (None: nothing); its time in ms."""
        if self._dead:
            return None, self.stopped() if self._ended else "not asked: the engine stopped answering earlier", 0.0
        self._next_id += 1
        number = self._next_id
        self._send(decide_message(number, view, game, time_ms))
        self.told.append("decide")
        start = time.monotonic()
        deadline = start + time_ms / 1000
        wrong: str | None = None
        skipped: bytes | None = None
        while True:
            line = self._line(deadline)
            if line is None:
                if self._ended:
                    return None, self.stopped(), 0.0
                hint = ""
                if skipped is not None:
                    hint = f'; it wrote {_cut(skipped)}, expected {{"type": "action", "id": {number}, "action": ...}}'
                return None, f"no answer within time_ms {time_ms}{hint}", 0.0
            try:
                message = json.loads(line)
            except ValueError:
                wrong = wrong or f"a line that is not JSON: {_cut(line)}"
                continue
            if not isinstance(message, dict) or message.get("type") != "action":
                skipped = line  # not an answer: skipped, as the hosts do
                continue
            self.told = []
            elapsed = (time.monotonic() - start) * 1000
            if message.get("id") != number:
                self._dead = True  # out of step: started again for the next check
                return None, f"answered id {_shown(message.get('id'))} to the decide of id {number}: {_cut(line)}", 0.0
            try:
                action = answered_action(message, view)
            except AnswerFault as e:
                legal = ", ".join(json.dumps(action_to_json(a, view)) for a in view.legal_actions[:LISTED])
                more = ", ..." if len(view.legal_actions) > LISTED else ""
                return None, f"{e}: {_cut(line)}; expected one of {legal}{more}", elapsed
            why = message.get("explanation")
            if why is not None and (not isinstance(why, str) or len(why) > EXPLANATION_MAX):
                wrong = wrong or f"an explanation that is not a string of at most {EXPLANATION_MAX} characters"
            return action, wrong, elapsed

    def quit_within(self, seconds: float) -> tuple[float | None, bool]:
        """Say ``quit``: the ms the process took to exit (None if it had not after
        ``seconds``), and whether it exited then once its input was closed (it is killed
        otherwise)."""
        self._send({"type": "quit"})
        start = time.monotonic()
        try:
            self._proc.wait(timeout=seconds)
            return (time.monotonic() - start) * 1000, False
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(OSError, ValueError):
            if self._proc.stdin is not None:
                self._proc.stdin.close()
        try:
            self._proc.wait(timeout=seconds / 2)
            return None, True
        except subprocess.TimeoutExpired:
            self._proc.kill()
            return None, False
        finally:
            self.close()


# ----- the run -----


class _Run:
    """One engine_check: the engine's processes and the checks made so far."""

    def __init__(self, command: str | Sequence[str], seed: int, time_ms: int) -> None:
        self.command, self.seed, self.time_ms = command, seed, time_ms
        self.starts = 0
        self.checks: list[Check] = []
        self.first = self._start()  # BotLoadError: the command cannot start
        self.main: _Probe = self.first
        self.partner: _Probe | None = None
        self.deal_seed = seed

    def _start(self) -> _Probe:
        self.starts += 1
        return _Probe(self.command, self.seed, self.time_ms)

    def engine(self) -> _Probe:
        """The main process, started again when it stopped or fell out of step."""
        if self.main.dead:
            self.main.close()
            self.main = self._start()
        return self.main

    def add(self, name: str, problem: str | None, passed: str) -> None:
        self.checks.append(Check(name, "failed", problem) if problem else Check(name, "passed", passed))

    def next_seed(self) -> int:
        self.deal_seed += 1
        return self.deal_seed

    # ----- the checks -----

    def hello(self) -> bool:
        """The hello check; False when the engine cannot be asked anything."""
        probe, hello = self.first, self.first.hello
        if probe.refused is not None:
            self.add("hello", f"{probe.refused} (expected a hello)", "")
            return False
        if not hello:
            why = probe.stopped() if probe.ended else f"nothing within {max(self.time_ms, HELLO_MS)} ms"
            self.add("hello", f"no hello: {why}", "")
            return False
        said = _cut(json.dumps(hello))
        protocol, name = hello.get("protocol"), hello.get("name")
        if type(protocol) is not int or protocol != PROTOCOL:
            self.add("hello", f"protocol {_shown(protocol)} in {said}; expected {PROTOCOL}", "")
        elif not isinstance(name, str) or not name.strip():
            self.add("hello", f'no name in {said}; expected "name": a string', "")
        elif probe.faults:
            self.add("hello", f"{probe.fault_log[0]} before the hello", "")
        else:
            self.add("hello", None, f"protocol {protocol}, name {json.dumps(name)}")
        return True

    def position(self, name: str, deal: Deal, time_ms: int | None = None) -> None:
        probe = self.engine()
        probe.start_deal(self.next_seed())
        view = deal.view(SEAT)
        budget = self.time_ms if time_ms is None else time_ms
        action, problem, ms = probe.ask(view, budget)
        shown = "" if action is None else _cut(json.dumps(action_to_json(action, view)), 40)
        self.add(name, problem, f"offered {_offered(view.legal_actions)}: {shown} in {ms:.0f} ms of {budget}")

    def deal_over(self, deal: Deal, then: Deal) -> None:
        """``deal_over`` (the final view of a deal played out) and ``deal``: no answer, and
        the engine answers the next decide."""
        probe = self.engine()
        probe.start_deal(self.next_seed())
        _play_on(deal, lambda d: False)
        probe.tell({"type": "deal_over", "view": view_to_json(deal.view(SEAT))})
        probe.start_deal(self.next_seed())
        _, problem, ms = probe.ask(then.view(SEAT), self.time_ms)
        self.add("deal_over, then a decide", problem, f"still there: answered in {ms:.0f} ms")

    def whole_deal(self, rules: RuleSet) -> None:
        """A deal played out, the engine at seats 0 and 2, the beginner at 1 and 3, each
        decide with the seat's view of the game (``game``) as a site gives it."""
        name = f"{rules.name}: a whole deal"
        deal = _whole_deal(rules)
        if self.partner is None or self.partner.dead:
            if self.partner is not None:
                self.partner.close()
            self.partner = self._start()
        engines = {SEAT: self.engine(), SEAT + 2: self.partner}
        seed = self.next_seed()
        for probe in engines.values():
            probe.start_deal(seed)
        bots: dict[int, Bot] = {s: load_bot(OPPONENT, seed=seed + s) for s in (1, 3)}
        # the first deal of a game, as ``coinche connect`` plays them (the arena sends null)
        game = {"deal_number": 1, "target": rules.target, "totals": [0, 0], "history": [], "winner": None}
        problem: str | None = None
        asked = 0
        slowest = 0.0
        while not deal.is_over:
            seat, view = deal.to_move, deal.view(deal.to_move)
            action: Action | None
            if seat in engines and problem is None:  # after a fault the seat plays its first legal action
                asked += 1
                action, wrong, ms = engines[seat].ask(view, self.time_ms, game)
                slowest = max(slowest, ms)
                if wrong:
                    problem = f"seat {seat}, decision {asked}: {wrong}"
            elif seat in engines:
                action = None
            else:
                action = bots[seat].choose(view).action
            deal.apply(view.legal_actions[0] if action is None else action)
        for seat, probe in engines.items():
            probe.tell({"type": "deal_over", "view": view_to_json(deal.view(seat))})
        contract = (
            "no contract" if deal.contract is None else f"contract {deal.contract.call} by seat {deal.contract.taker}"
        )
        self.add(name, problem, f"{asked} decisions, {contract}, the slowest {slowest:.0f} ms")

    def quit(self, seconds: float) -> None:
        probe = self.engine()
        ms, on_eof = probe.quit_within(seconds)
        then = "it exited only when its input was closed" if on_eof else "it was killed"
        late = f"still running {seconds:g} s after quit ({then}); expected it to exit"
        self.add("quit", None if ms is not None else late, f"exited in {ms or 0:.0f} ms")

    def close(self) -> None:
        for probe in (self.main, self.partner):
            if probe is not None:
                probe.close()


def engine_check(
    command: str | Sequence[str],
    seed: int = 1,
    time_ms: int = DECISION_MS,
    short_ms: int = SHORT_MS,
    quit_s: float = QUIT_S,
    profiles: Sequence[str] = tuple(PROFILES),
) -> Report:
    """Check the engine ``command`` against the protocol (see the module): every check's
    result, in order. ``BotLoadError`` when the command cannot be started at all."""
    run = _Run(command, seed, time_ms)
    try:
        if run.hello():
            rules = [PROFILES[p] for p in profiles] or list(PROFILES.values())
            found = [(r, positions(r)) for r in rules]
            for r, places in found:
                for name, deal in places:
                    run.position(f"{r.name}: {name}", deal)
            # the first profile's opening calls after a deal_over, its last card position in a short time
            first, places = found[0]
            run.deal_over(_contract(SUITS[0])(first, 0), places[0][1])
            run.position(f"time_ms {short_ms}", places[-1][1], short_ms)
            for r in rules:
                run.whole_deal(r)
            run.quit(quit_s)
        else:
            why = "not run: the engine cannot be asked anything without its hello"
            run.checks.append(Check("the rest", "skipped", why))
    finally:
        run.close()
    return Report(
        command=run.first.command,
        hello=run.first.hello or None,
        checks=tuple(run.checks),
        starts=run.starts,
    )
