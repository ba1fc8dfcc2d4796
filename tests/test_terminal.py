"""Scripted sessions of the terminal game (``coinche play``) through ``io.StringIO``."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable

import pytest

from coinche.engine.actions import PASS, announce, is_declaration, parse_call
from coinche.engine.cards import card_str, parse_card, parse_cards
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.play import tables, trick_winner
from coinche.engine.rules import RuleSet
from coinche.terminal import Seats, hand_str, run_play
from coinche.terminal.drawing import card_menu_lines, card_options
from coinche.terminal.prompts import Refusal, choose, parse_call_text, parse_card_text, parse_declaration_text

PROFILES = ("classic", "federation", "house", "online")


def play(profile: str, seed: int | None, text: str, target: int = 300, **kw: int) -> tuple[int, str]:
    out = io.StringIO()
    rc = run_play(RuleSet.profile(profile, target=target), seed, io.StringIO(text), out, **kw)
    return rc, out.getvalue()


class Responder(io.StringIO):
    """A stdin that answers each prompt from what the game has printed so far."""

    def __init__(self, out: io.StringIO, answer: Callable[[str, str], str | None]) -> None:
        super().__init__()
        self.out = out
        self.answer = answer

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        text = self.out.getvalue()
        prompt = text.rsplit("\n", 1)[-1]
        reply = self.answer(prompt, text)
        return "" if reply is None else reply + "\n"


def last_hand(text: str) -> int:
    """The cards of the last ``Your hand:`` line printed."""
    line = [ln for ln in text.splitlines() if ln.startswith("Your hand:")][-1]
    cards = []
    for group in line[len("Your hand:") :].split("   "):
        group = group.strip()
        if group:
            suit, ranks = group.split(":")
            cards += [r + suit for r in ranks.split()]
    return parse_cards(" ".join(cards))


def last_options(text: str) -> list[str]:
    """The numbered options of the last option line printed (``1) AS  2) TS``)."""
    line = [ln for ln in text.splitlines() if ln.startswith("  1) ")][-1]
    return [m.strip() for m in re.split(r"\s*\d+\) ", line) if m.strip()]


# ----- (1) a whole game answering "1" everywhere -----


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("seed", [1, 7])
def test_full_game_first_choice(profile: str, seed: int) -> None:
    rc, out = play(profile, seed, "1\n" * 5000)
    assert rc == 0
    assert "Traceback" not in out
    assert f"rules: {profile}, game to 300 points" in out
    assert "Game over after" in out
    assert re.search(r"\((North-South|East-West)\) win the game\. You (win|lose)!", out)
    assert "Final score: We " in out
    assert "Score sheet:" in out and "--- Deal 1 result ---" in out
    assert "End of input" not in out


def test_default_target_game_ends() -> None:
    rc, out = play("classic", 3, "1\n" * 20000, target=3000)
    assert rc == 0 and "Game over after" in out


def test_header_and_deal_display() -> None:
    rc, out = play("online", 2, "1\n" * 5000)
    assert rc == 0
    assert "You are South, partner North; opponents East and West" in out
    assert "South -> East -> North -> West" in out
    assert re.search(r"Deal 1 - dealer (South \(you\)|East|North|West)", out)
    assert re.search(r"^Your hand:  [SHDC]: ", out, re.M)
    assert re.search(r"^  (East|North|West): (pass|\d+[SHDC])$", out, re.M)
    assert re.search(r"^  Trick 1: .* -> .* wins, \d+ points$", out, re.M)
    assert re.search(r"^Contract \d+[SHDC] \(\w+\) by .*: (MADE|FAILED)$", out, re.M)


def test_house_is_drawn_clockwise() -> None:
    rc, out = play("house", 4, "1\n" * 5000)
    assert rc == 0
    assert "South -> West -> North -> East" in out


def test_void_deal_is_reported() -> None:
    # Some seed gives a deal where all four pass; find it deterministically.
    for seed in range(200):
        rc, out = play("online", seed, "1\n" * 5000)
        assert rc == 0
        if "All four passed: void deal" in out:
            assert "Void deal (four passes)" in out and "(void)" in out
            return
    pytest.fail("no void deal in 200 seeds")


def test_other_human_seat() -> None:
    rc, out = play("classic", 5, "1\n" * 5000, human_seat=1)
    assert rc == 0 and "Game over after" in out
    assert "You are South" in out


# ----- (2) invalid input is refused, then a valid input is accepted -----


@pytest.mark.parametrize("profile", PROFILES)
def test_invalid_inputs(profile: str) -> None:
    out = io.StringIO()
    state = {"call": 0, "card": 0}

    def answer(prompt: str, text: str) -> str | None:
        if prompt.startswith("Call ("):
            state["call"] += 1
            script = ["zz", "99", "85H", "", "pass"]
            return script[state["call"] - 1] if state["call"] <= len(script) else "1"
        if prompt.startswith("Declare ("):
            return "1"
        if prompt.startswith("Card ("):
            state["card"] += 1
            if state["card"] == 1:
                hand = last_hand(text)
                missing = next(c for c in range(32) if not hand >> c & 1)
                return card_str(missing).lower()
            if state["card"] == 2:
                return "as b" if "AS" in last_options(text) else "zz"
            if state["card"] == 3:
                return "1"
            return None  # end of input
        return None

    rc = run_play(RuleSet.profile(profile, target=300), 11, Responder(out, answer), out)
    text = out.getvalue()
    assert rc == 0
    lines = text.splitlines()
    zz = next(i for i, ln in enumerate(lines) if ln.endswith("): zz"))
    assert re.fullmatch(r"  Not understood: 'zz'\. Type a number from 1 to \d+, or q to quit\.", lines[zz + 1])
    assert lines[zz + 2].endswith("): 99")
    assert lines[zz + 3].startswith("  No choice 99: type a number from 1 to ")
    assert lines[zz + 4].endswith("): 85H")
    assert lines[zz + 5] == "  Not allowed: 85H is illegal: bids are multiples of 10 from 80 to " + str(
        RuleSet.profile(profile).max_bid
    )
    assert lines[zz + 7].startswith("  Please type a number")
    assert lines[zz + 8].endswith("): pass")
    assert lines[zz + 9] == "  South (you): pass"
    assert re.search(r"\): [0-9tjqka][shdc]\n  [0-9TJQKA][SHDC] is not in your hand\.\n", text)
    assert "End of input: leaving the game." in text


def test_illegal_card_explains_the_rule() -> None:
    out = io.StringIO()
    tried: list[str] = []

    def answer(prompt: str, text: str) -> str | None:
        if prompt.startswith("Card ("):
            hand = last_hand(text)
            options = last_options(text)
            illegal = [card_str(c) for c in range(32) if hand >> c & 1 and card_str(c) not in options]
            if illegal and not tried:
                tried.append(illegal[0])
                return illegal[0]
            return "1" if len(tried) < 1 or text.count("Not allowed") == 0 else None
        return "1"

    rc = run_play(RuleSet.profile("classic", target=300), 3, Responder(out, answer), out)
    text = out.getvalue()
    assert rc == 0
    assert tried, "no illegal card came up"
    assert re.search(rf"\): {tried[0]}\n  Not allowed: {tried[0]} is illegal: must [a-z]", text)


def test_belote_announcement() -> None:
    def answer(prompt: str, text: str) -> str | None:
        if prompt.startswith("Card ("):
            bel = [o for o in last_options(text) if o.endswith("+ announce belote")]
            if bel:
                return bel[0].split()[0] + " b"
        return "1"

    # Find a seed whose game offers the human a belote (the trump King and Queen).
    for seed in range(40):
        out = io.StringIO()
        rc = run_play(RuleSet.profile("classic", target=1500), seed, Responder(out, answer), out)
        text = out.getvalue()
        assert rc == 0
        offer = re.search(r"\) (K|Q)([SHDC]) \+ announce belote", text)
        if offer:
            break
    assert offer, "no belote came up in 40 games"
    assert f"  South (you) announces belote ({offer.group(2)})" in text


def test_belote_refused_on_a_plain_card() -> None:
    out = io.StringIO()
    done: list[bool] = []

    def answer(prompt: str, text: str) -> str | None:
        if prompt.startswith("Card (") and not done:
            done.append(True)
            return last_options(text)[0].split()[0] + " b"
        if done and "cannot announce belote now" in text:
            return None
        return "1"

    rc = run_play(RuleSet.profile("online", target=300), 2, Responder(out, answer), out)
    assert rc == 0
    assert "cannot announce belote now." in out.getvalue()


def test_typed_cards_and_calls() -> None:
    out = io.StringIO()

    def answer(prompt: str, text: str) -> str | None:
        if prompt.startswith("Call ("):
            return "p"
        if prompt.startswith("Card ("):
            return last_options(text)[0].split()[0].lower()
        return "none" if prompt.startswith("Declare (") else "1"

    rc = run_play(RuleSet.profile("classic", target=300), 1, Responder(out, answer), out)
    text = out.getvalue()
    assert rc == 0 and "Game over after" in text
    assert "Not understood" not in text and "Not allowed" not in text


def test_declaration_choices_listed() -> None:
    for seed in range(50):
        rc, out = play("classic", seed, "1\n" * 5000)
        assert rc == 0
        if "Declare your melds with your first card:" in out:
            assert re.search(r"^  1\) (tierce|cinquante|cent|carre) ", out, re.M)
            assert re.search(r"^  \d+\) nothing$", out, re.M)
            assert "You declare:" in out
            return
    pytest.fail("no declaration offered in 50 seeds")


# ----- (3) end of input and quitting -----


@pytest.mark.parametrize("profile", PROFILES)
def test_eof_mid_game(profile: str) -> None:
    rc, out = play(profile, 9, "1\n" * 6)
    assert rc == 0
    assert out.rstrip().splitlines()[-2] == "End of input: leaving the game."
    assert "Score when leaving:" in out


def test_empty_input() -> None:
    rc, out = play("classic", 9, "")
    assert rc == 0 and "End of input: leaving the game." in out


@pytest.mark.parametrize("word", ["q", "quit", "QUIT"])
def test_quit(word: str) -> None:
    rc, out = play("federation", 4, f"1\n1\n{word}\n1\n")
    assert rc == 0
    assert "You left the game." in out
    assert "Game over" not in out


# ----- (4) reproducibility -----


@pytest.mark.parametrize("profile", PROFILES)
def test_same_seed_same_output(profile: str) -> None:
    script = "zz\n2\n" + "1\n" * 5000
    assert play(profile, 42, script) == play(profile, 42, script)


def test_different_seeds_differ() -> None:
    assert play("online", 1, "1\n" * 5000)[1] != play("online", 2, "1\n" * 5000)[1]


# ----- the computer player -----


def test_adaptive_level_is_shown_after_each_deal() -> None:
    rc, out = play("online", 4, "1\n" * 400 + "q\n", level="adaptive")
    assert rc == 0
    assert "Computer level: Adaptive" in out


def test_unknown_level_is_a_clear_error() -> None:
    rc, out = play("online", 1, "", level="grandmaster")
    assert rc == 2 and "unknown bot" in out


def test_hand_str() -> None:
    hand = parse_cards("AS TS 9S JH 9H KH 8D QC")
    assert hand_str(hand) == "S: A T 9   H: K J 9   D: 8   C: Q"
    assert hand_str(hand, 1) == "H: J 9 K   S: A T 9   D: 8   C: Q"
    assert hand_str(0) == "(empty)"


def test_bad_human_seat() -> None:
    rc, out = play("online", 1, "", human_seat=4)
    assert rc == 2 and "0..3" in out


# ----- the three parts, each on its own -----


def test_seats_are_named_from_the_human() -> None:
    seats = Seats.of(RuleSet.profile("house"), 1)  # clockwise
    assert seats.names == ("East", "South", "West", "North")
    assert seats.name(1) == "South (you)" and seats.team_names == ("They", "We")
    assert seats.pair((10, 20)) == "They 10, We 20"
    assert seats.team_label(1) == "We (North-South)"


def test_card_menu_names_the_trick_winner_as_the_engine_does() -> None:
    rules = RuleSet.profile("classic")
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        deal = Deal(rules, rng.randrange(4), random_hands(rng))
        while not deal.is_over:
            view = deal.view(deal.to_move)
            cards = view.phase is Phase.PLAY and not is_declaration(view.legal_actions[0])
            if cards and view.trick and len(view.legal_actions) > 1:
                seats = Seats.of(rules, view.seat)
                options = card_options(view)
                lines = card_menu_lines(view, options, seats)
                assert view.contract is not None
                best = trick_winner(view.trick, tables(view.contract.trump, rules.ta_values == "ffb"))
                assert f"({seats.name((view.trick_leader + best) & 3)} winning)" in lines[1]
                assert sorted(options) == sorted(view.legal_actions)
                checked += 1
            acts = view.legal_actions
            deal.apply(acts[rng.randrange(len(acts))])
    assert checked > 20


def test_prompt_parsers() -> None:
    rules = RuleSet.profile("classic")
    options = [PASS, parse_call("80H")]
    assert choose("2", options, lambda t: None) == options[1]
    assert choose("", options, lambda t: None) == Refusal("  Please type a number from 1 to 2 (or q to quit).")
    assert choose("3", options, lambda t: None) == Refusal("  No choice 3: type a number from 1 to 2.")
    assert choose("²", options, lambda t: None) == Refusal(
        "  Not understood: '²'. Type a number from 1 to 2, or q to quit."
    )
    assert parse_call_text("p", rules) == PASS and parse_call_text("sc", rules) == parse_call("surcoinche")
    assert parse_call_text("zz", rules) is None
    refusal = parse_call_text("300H", rules)
    assert isinstance(refusal, Refusal) and "300H is illegal: bids are multiples of 10 from 80 to 160" in refusal.text
    assert parse_declaration_text("all", [200, 201]) == 200 and parse_declaration_text("none", [200, 201]) == 201
    hand = parse_cards("KH QH AS 7C")
    kh, qh, seven = parse_card("KH"), parse_card("QH"), parse_card("7C")
    cards = [kh, announce(kh), qh, announce(qh)]
    assert parse_card_text("kh b", hand, cards) == announce(kh)
    assert parse_card_text("2 +belote", hand, cards) == announce(kh)
    assert parse_card_text("QH", hand, cards) == qh
    assert parse_card_text("7C", hand, cards) == seven  # illegal: the engine will say why
    assert parse_card_text("7C b", hand, cards) == seven
    assert parse_card_text("JD", hand, cards) == Refusal("  JD is not in your hand.")
    assert parse_card_text("AS b", hand, [parse_card("AS")]) == Refusal("  AS cannot announce belote now.")
    assert parse_card_text("9 b", hand, cards) is None and parse_card_text("a b c", hand, cards) is None
