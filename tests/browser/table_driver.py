"""Playing at the table the way a person does: through the accessible buttons only.

A ``Table`` finds the controls by role and name (the names the front end's spec fixes:
a card of the hand is a button named ``Valet de cœur``, a call a button named ``Passe``
or ``90 cœur``, the summary's ``Donne suivante``...) and works them with the keyboard
(focus, then Enter or Space), by tapping, or by clicking.
"""

from __future__ import annotations

import itertools
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from browser_helpers import SCREENSHOT_TIMEOUT_MS
from playwright.sync_api import Locator, Page, expect

How = Literal["keyboard", "tap", "click"]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
"""Screenshots kept by the tests (``test-artifacts/`` at the repository root, ignored by git)."""

SCREENSHOTS = "COINCHE_SCREENSHOTS"
"""Set (to anything but empty) to have the tests keep their screenshots of the pages for
people to look at: a whole page's screenshot costs about as much as the checks of the page
(a third of the rules pages' tests), so the suite takes none by default. A failed test's
pages are always kept (``conftest``)."""


def keep_screenshot(target: Page | Locator, name: str, *, full_page: bool = False) -> None:
    """``test-artifacts/<name>.png`` of the page (or element) as it is now, when asked for
    by ``COINCHE_SCREENSHOTS``."""
    if not os.environ.get(SCREENSHOTS):
        return
    ARTIFACTS.mkdir(exist_ok=True)
    path = str(ARTIFACTS / f"{name}.png")
    if isinstance(target, Page):
        target.screenshot(path=path, full_page=full_page, animations="disabled", timeout=SCREENSHOT_TIMEOUT_MS)
    else:
        target.screenshot(path=path, animations="disabled", timeout=SCREENSHOT_TIMEOUT_MS)


RANKS = {
    "fr": ("Sept", "Huit", "Neuf", "Dix", "Valet", "Dame", "Roi", "As"),
    "en": ("Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"),
}
SUITS_OF = {
    "fr": ("de pique", "de cœur", "de carreau", "de trèfle"),
    "en": ("of spades", "of hearts", "of diamonds", "of clubs"),
}
TRUMPS = {
    "fr": ("pique", "cœur", "carreau", "trèfle", "sans atout", "tout atout"),
    "en": ("spades", "hearts", "diamonds", "clubs", "no trump", "all trump"),
}
WORDS = {
    "fr": {
        "play": "Jouer",
        "target": "Objectif",
        "classic": "Classique",
        "online": "En ligne",
        "beginner": "Débutant",
        "adaptive": "Adaptatif",
        "pass": "Passe",
        "next_deal": "Donne suivante",
        "new_game": "Nouvelle partie",
        "challenge_ranking": "Classement du jour",
        "account": "Créer un compte pour continuer",
        "no_melds": "Ne rien annoncer",
        "belote": "Annoncer la belote",
        "hint": "Conseil",
        "last_trick": "Dernier pli",
    },
    "en": {
        "play": "Play",
        "target": "Target",
        "classic": "Classic",
        "online": "Online",
        "beginner": "Beginner",
        "adaptive": "Adaptive",
        "pass": "Pass",
        "next_deal": "Next deal",
        "new_game": "New game",
        "challenge_ranking": "Today's ranking",
        "account": "Create an account to go on",
        "no_melds": "Declare nothing",
        "belote": "Announce belote",
        "hint": "Hint",
        "last_trick": "Last trick",
    },
}


def card_pattern(lang: str) -> re.Pattern[str]:
    ranks = "|".join(RANKS[lang])
    suits = "|".join(SUITS_OF[lang])
    return re.compile(rf"^({ranks}) ({suits})$")


def bid_pattern(lang: str) -> re.Pattern[str]:
    return re.compile(rf"^(\d{{2,3}}) ({'|'.join(TRUMPS[lang])})$")


def card_sentence(seat: str, card: str | None = None) -> str:
    """The live region's sentence of a card played, as a regular expression: ``Sud (vous)
    joue le Neuf de trèfle``, ``… joue la Dame de cœur``, ``… joue l'As de pique``, with
    ``: belote !`` after a belote card. ``seat`` is itself a regular expression."""
    named = re.escape(card) if card is not None else ".+"
    return rf"(?:{seat}) joue (?:le |la |l'|l’)?{named}(?: : (?:re)?belote !)?"


DECLARE_PATTERNS = {"fr": re.compile(r"^Annoncer (?!la belote)"), "en": re.compile(r"^Declare (?!nothing$)")}
"""A meld declaration's button ("Annoncer une tierce…"), not the belote box nor "nothing"."""
_NAME_IN_SNAPSHOT = re.compile(r'^\s*- button "((?:[^"\\]|\\.)*)"(.*)$')


@dataclass
class DealPlayed:
    """What the player did in one deal and how it ended."""

    calls: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    hand_sizes: list[int] = field(default_factory=list)
    """How many cards the hand showed at each of the player's turns to play."""
    declarations: list[str] = field(default_factory=list)
    belote: bool = False
    end: str = ""
    """``next`` (the summary offers the next deal), ``account`` (no free deal left),
    ``over`` (the game is over)."""


class Table:
    def __init__(self, page: Page, lang: str = "fr", how: How = "keyboard") -> None:
        self.page = page
        self.lang = lang
        self.how = how
        self.words = WORDS[lang]
        self._keys = itertools.cycle(("Enter", "Space"))

    # ----- the controls -----

    def hand(self) -> Locator:
        """Every card of the hand (a button named by the card), legal or not."""
        return self.page.get_by_role("button", name=card_pattern(self.lang))

    def playable_cards(self) -> Locator:
        return self.page.get_by_role("button", name=card_pattern(self.lang), disabled=False)

    def card(self, name: str) -> Locator:
        return self.page.get_by_role("button", name=name, exact=True)

    def pass_button(self) -> Locator:
        return self.page.get_by_role("button", name=self.words["pass"], exact=True, disabled=False)

    def bid_buttons(self) -> Locator:
        return self.page.get_by_role("button", name=bid_pattern(self.lang), disabled=False)

    def next_deal_button(self) -> Locator:
        return self.page.get_by_role("button", name=self.words["next_deal"], exact=True)

    def account_link(self) -> Locator:
        return self.page.get_by_role("link", name=self.words["account"], exact=True)

    def new_game(self) -> Locator:
        name = self.words["new_game"]
        return self.page.get_by_role("button", name=name, exact=True).or_(
            self.page.get_by_role("link", name=name, exact=True)
        )

    def game_over(self) -> Locator:
        """What the summary offers once the game is over: a new game, or at the daily
        challenge (no new game) the day's ranking."""
        ranking = self.page.get_by_role("link", name=self.words["challenge_ranking"], exact=True)
        return self.new_game().or_(ranking)

    def no_melds_button(self) -> Locator:
        return self.page.get_by_role("button", name=self.words["no_melds"], exact=True, disabled=False)

    def declare_buttons(self) -> Locator:
        return self.page.get_by_role("button", name=DECLARE_PATTERNS[self.lang], disabled=False)

    def belote_box(self) -> Locator:
        return self.page.get_by_role("checkbox", name=self.words["belote"], exact=True)

    def notice(self) -> Locator:
        """The text of the table's notice: a refusal's message, a hint, the connection lost
        or the table gone."""
        return self.page.locator("#notice .notice-text")

    def live_log(self) -> list[str]:
        """Every text the live region received (recorded by the conftest's init script)."""
        texts: list[str] = self.page.evaluate("() => window.__live || []")
        return texts

    # ----- acting -----

    def press(self, target: Locator) -> None:
        """Work one control as a person would: focus and Enter or Space, a tap, or a click."""
        if self.how == "keyboard":
            target.focus()
            expect(target).to_be_focused()
            is_link = target.evaluate("e => e.tagName === 'A'")
            target.press("Enter" if is_link else next(self._keys))  # Space does not follow a link
        elif self.how == "tap":
            target.tap()
        else:
            target.click()

    @staticmethod
    def name_of(target: Locator) -> str:
        """The accessible name of one button, from the accessibility tree."""
        snapshot = target.aria_snapshot()
        for line in snapshot.splitlines():
            m = _NAME_IN_SNAPSHOT.match(line)
            if m:
                return m.group(1).replace('\\"', '"')
        raise AssertionError(f"not a named button: {snapshot!r}")

    def wait_for_live(self, *needles: str, since: int = 0, timeout: float = 20_000) -> str:
        """The first text the live region received (from entry ``since`` on) that holds
        every one of ``needles`` (case ignored). The region speaks as the table draws: a
        card played while a complete trick is on show is said once that trick has gone."""
        try:
            found = self.page.wait_for_function(
                "([n, needles]) => (window.__live || []).slice(n).find("
                "t => needles.every(w => t.toLowerCase().includes(w))) || null",
                arg=[since, [w.lower() for w in needles]],
                polling=50,
                timeout=timeout,
            )
        except Exception as e:
            raise AssertionError(
                f"the live region #live did not announce {needles!r}; it received {self.live_log()[since:]!r}"
            ) from e
        text: str = found.json_value()
        return text

    def wait_for_live_match(self, pattern: str, since: int = 0, timeout: float = 20_000) -> str:
        """The first text the live region received (from entry ``since`` on) that matches
        ``pattern`` whole (a regular expression both Python and JavaScript read alike)."""
        try:
            found = self.page.wait_for_function(
                "([n, source]) => { const re = new RegExp(`^(?:${source})$`);"
                " return (window.__live || []).slice(n).find(t => re.test(t)) || null; }",
                arg=[since, pattern],
                polling=50,
                timeout=timeout,
            )
        except Exception as e:
            raise AssertionError(
                f"the live region #live said nothing like {pattern!r}; it received {self.live_log()[since:]!r}"
            ) from e
        text: str = found.json_value()
        return text

    def call(self, target: Locator) -> str:
        """Make the call of one button; back once the table took it (the button gone or
        hidden, or the call announced)."""
        name = self.name_of(target)
        before = len(self.live_log())
        handle = target.element_handle()
        self.press(target)
        try:
            self.page.wait_for_function(
                "([el, n, name]) => !el.isConnected || el.disabled || !el.checkVisibility()"
                " || (window.__live || []).slice(n).some(t => t.toLowerCase().includes(name))",
                arg=[handle, before, name.lower()],
                polling=50,
                timeout=10_000,
            )
        except Exception as e:
            raise AssertionError(f"the call {name!r} was pressed but the table did not take it") from e
        return name

    def play_card(self, target: Locator) -> str:
        """Play the card of one button; back once it has left the hand."""
        name = self.name_of(target)
        self.press(self.card(name))
        try:
            expect(self.card(name)).to_have_count(0, timeout=10_000)
        except AssertionError as e:  # what the page showed then: a refusal, the table moving on
            seen = self.page.evaluate(
                "() => ({notice: document.querySelector('.notice:not([hidden])')?.textContent?.trim() || null,"
                " focused: document.activeElement?.getAttribute('aria-label') || document.activeElement?.tagName,"
                " live: (window.__live || []).slice(-6)})"
            )
            raise AssertionError(f"{name} should leave the hand once played; the page: {seen}") from e
        return name

    def lowest_bid(self) -> Locator | None:
        """The enabled bid button of the smallest value (None when no bid is open)."""
        pattern = bid_pattern(self.lang)
        best: tuple[int, str] | None = None
        for line in self.page.locator("body").aria_snapshot().splitlines():
            m = _NAME_IN_SNAPSHOT.match(line)
            if not m or "[disabled" in m.group(2):
                continue
            bid = pattern.match(m.group(1))
            if bid and (best is None or int(bid.group(1)) < best[0]):
                best = (int(bid.group(1)), m.group(1))
        if best is None:
            return None
        return self.page.get_by_role("button", name=best[1], exact=True, disabled=False)

    def play_deal(
        self,
        bid: bool = True,
        declare: bool = True,
        timeout: float = 90.0,
        before_card: Callable[[Table, DealPlayed], None] | None = None,
    ) -> DealPlayed:
        """Play the player's part of one deal, up to its summary (or the game's end).

        ``bid``: at the player's first call, make the lowest bid open (so the deal is
        played, not passed out); the player passes at every other call. ``declare``: take
        the first meld declaration offered (else "Ne rien annoncer") and tick the belote
        box when it appears. ``before_card`` is called at each of the player's turns to play,
        before the card is chosen.
        """
        done = DealPlayed()
        actionable = (
            self.next_deal_button()
            .or_(self.account_link())
            .or_(self.game_over())
            .or_(self.no_melds_button())
            .or_(self.playable_cards())
            .or_(self.pass_button())
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            actionable.first.wait_for(state="visible", timeout=20_000)
            if self.next_deal_button().is_visible():
                done.end = "next"
            elif self.account_link().is_visible():
                done.end = "account"
            elif self.game_over().first.is_visible():
                done.end = "over"
            if done.end:
                break
            if self.no_melds_button().is_visible():
                declarations = self.declare_buttons()
                target = declarations.first if declare and declarations.count() else self.no_melds_button()
                name = self.name_of(target)
                self.press(target)
                expect(self.no_melds_button(), "the declaration controls should go once used").to_have_count(
                    0, timeout=10_000
                )
                done.declarations.append(name)
                continue
            if self.playable_cards().count():
                box = self.belote_box()
                if declare and box.count() and box.is_visible() and box.is_enabled():
                    if not box.is_checked():
                        if self.how == "keyboard":
                            box.focus()
                            box.press("Space")  # Enter does not tick a checkbox
                        else:
                            self.press(box)
                        expect(box).to_be_checked()
                    done.belote = True
                if before_card is not None:
                    before_card(self, done)
                done.hand_sizes.append(self.hand().count())
                done.cards.append(self.play_card(self.playable_cards().first))
                continue
            if self.pass_button().is_visible():
                opening = self.lowest_bid() if bid and not done.calls else None
                done.calls.append(self.call(opening or self.pass_button()))
                continue
        else:
            raise AssertionError(f"the deal did not end within {timeout:.0f} s: {done}")
        return done

    def summary(self) -> Locator:
        """The end-of-deal summary: a dialog."""
        return self.page.get_by_role("dialog")

    def next_deal(self) -> None:
        """Go on from the summary with the keyboard (or a tap)."""
        button = self.next_deal_button()
        self.press(button)
        expect(button).to_be_hidden(timeout=10_000)


def start_solo(
    page: Page,
    lang: str = "fr",
    profile: str = "classic",
    target: int = 700,
    how: How = "keyboard",
    level: str = "beginner",
) -> Table:
    """From the solo settings (the home page's solo choice opens them): computers of
    ``level`` (beginner, the quickest, unless told), "Jouer" pressed from the keyboard;
    the table it lands on."""
    words = WORDS[lang]
    page.goto("/solo")
    page.get_by_role("radio", name=words[profile], exact=True).check()
    page.get_by_role("radio", name=words[level], exact=True).check()
    page.get_by_role("spinbutton", name=words["target"]).fill(str(target))
    play = page.get_by_role("button", name=words["play"], exact=True)
    if how == "tap":
        play.tap()
    else:
        play.focus()
        play.press("Enter")
    page.wait_for_url(re.compile(r"/table/[^/]+$|/compte$|/inscription\?next="))
    return Table(page, lang, how)
