"""The rule book as data: one frozen ``RuleSet`` per table.

Every difference between the four profiles of RULES.md is a named field here, so the
rest of the engine asks ``rules.undertrump == "forced"`` and never which profile it runs.
Fields fall in two groups:

* the per-table options of RULES.md section 5.5 (``OPTION_NAMES``), which a table host or
  a record's ``options`` may change one by one over a profile;
* the profile traits (how a profile scores, compares melds and ends a game), fixed by the
  profile and documented field by field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from .cards import NO_TRUMP, TRUMPS, Trump
from .errors import EngineError, short_repr
from .text import is_number, parse_number

Undertrump = Literal["forced", "optional"]
Rounding = Literal["none", "nearest10", "house"]
Packets = Literal["332", "323", "233", "any"]


class RulesError(EngineError):
    """An unknown profile, option or option value."""


@dataclass(frozen=True)
class RuleSet:
    """All rules of one table. Build one with ``RuleSet.profile(name, **options)``."""

    name: str
    """The profile this rule set starts from (``classic``, ``federation``, ``house``, ``online``)."""

    # --- per-table options (RULES.md 5.5) ---
    target: int = 3000
    """Game target (100..10000)."""
    sa_ta: bool = True
    """No-trump (SA) and all-trump (TA) contracts may be bid."""
    melds: bool = True
    """Melds (annonces: squares and runs) are declared and scored."""
    undertrump: Undertrump = "forced"
    """When an opponent's trump cannot be beaten: ``forced`` to play a lower trump, or
    ``optional`` (may discard instead)."""
    rounding: Rounding = "none"
    """``none``; ``nearest10`` (5 up, every award); ``house`` (attack up from 6, defense from 7)."""
    ta_values: Literal["classic", "ffb"] = "classic"
    """TA card values: ``classic`` J 14 Q 1, ``ffb`` J 13 Q 2."""
    belote_must_announce: bool = False
    """The belote counts only when announced on the first of its two cards."""
    max_bid: Literal[160, 180] = 160
    """Highest numeric bid."""
    generale: bool = True
    """Générale (all 8 tricks by the taker alone) may be bid."""
    packets: Packets = "332"
    """Deal packets (dealer's choice among the three when ``any``)."""
    real_deal: bool = False
    """Gather the last deal's tricks, cut and deal without shuffling."""

    # --- profile traits (not table options) ---
    cut_each_side: int = 0
    """Before a real deal, the pack is cut leaving at least this many cards each side."""
    melds_count_for_contract: bool = False
    """Valid melds count in the totals that decide made/failed (federation)."""
    beat_defense: Literal["none", "total", "cards"] = "total"
    """Beyond reaching the bid, the takers must also beat the defense: ``total`` on points
    with belote (and melds when they count), ``cards`` on card points alone, ``none`` not."""
    last_trick_sweep: int = 10
    """Last-trick bonus when one team wins all eight tricks (federation: 100, totals 252)."""
    numeric_sweep_forfeit: int | None = 250
    """A taker sweep on a numeric bid scores this instead of the card points (None: no change)."""
    slam_forfeit: bool = True
    """A made capot/générale scores its value as a forfeit in place of the card points."""
    defense_sweep_base: int = 160
    """The defense's base award on a failed contract when it won every trick (classic: 250)."""
    coinche_scoring: Literal["multiply", "flat"] = "multiply"
    """``multiply``: the contract winner's award times the multiplier; ``flat``: the
    contract winner scores ``160 + value x multiplier``."""
    coinche_made_base: Literal["cards", "flat160"] = "cards"
    """A coinched made contract: the takers' base is their card points (classic) or a flat
    160, 250 on a sweep (federation)."""
    coinche_takes_all_melds: bool = False
    """A coinched made contract gives the takers both teams' valid melds (federation)."""
    multiply_belote: bool = False
    """Under coinche the contract winner's belote is multiplied too (federation)."""
    meld_scoring: Literal["winner_takes_all", "winner_own"] = "winner_takes_all"
    """``winner_takes_all``: the team with the best meld scores every meld of the deal, the
    defense all of them on a failed contract (classic); ``winner_own``: only the best team's
    own melds are valid (federation)."""
    sweep_transfers_melds: bool = False
    """On a taker sweep the defenders' valid melds pass to the takers (federation)."""
    meld_reveal: Literal["all", "winner"] = "all"
    """Which declared melds are shown: every declared meld (classic) or the best team's only."""
    meld_show_card: int = 5
    """Melds are shown after this card of the deal in a suit or TA contract."""
    meld_show_card_sa: int = 9
    """... and after this card in an SA contract."""
    generale_value: int = 500
    """Value of a générale contract (classic 500, house 300)."""
    surcoinche_by_target: bool = False
    """Surcoinche multiplies by 3 below a 3000 target, by 4 from it (house)."""
    win_excludes_deal_bonus: bool = False
    """A team that passes the target only thanks to this deal's melds or belote has not won."""
    win_belote_validation: bool = False
    """A team that reaches the target only through belote in a deal it failed or was swept
    in must win a trick in a later deal (federation)."""
    win_no_exit_in_defense: bool = False
    """A team can win only in a deal it made as takers or set as defenders (house)."""
    direction: Literal["anticlockwise", "clockwise"] = "anticlockwise"
    """How seats are drawn on screen; never changes the engine."""

    @staticmethod
    def profile(name: str, /, **options: Any) -> RuleSet:
        """The named profile with per-table ``options`` set over it (an option called
        ``name``, as a record may hold, is an unknown option like any other)."""
        try:
            base = PROFILES[name]
        except KeyError:
            known = ", ".join(PROFILES)
            raise RulesError(f"unknown rules profile {short_repr(name)} (expected one of {known})") from None
        return base.with_options(options)

    def with_options(self, options: Mapping[str, Any]) -> RuleSet:
        """A copy with single table options changed; unknown names and bad values raise."""
        changes = {name: _check_option(name, value) for name, value in options.items()}
        return dataclasses.replace(self, **changes) if changes else self

    def options(self) -> dict[str, Any]:
        """The table options that differ from the profile's defaults (what a record stores)."""
        base = PROFILES[self.name]
        return {n: getattr(self, n) for n in OPTION_NAMES if getattr(self, n) != getattr(base, n)}

    def all_options(self) -> dict[str, Any]:
        """Every table option with its value."""
        return {n: getattr(self, n) for n in OPTION_NAMES}

    @property
    def surcoinche_multiplier(self) -> int:
        return 3 if self.surcoinche_by_target and self.target < 3000 else 4

    @property
    def bid_values(self) -> range:
        return range(80, self.max_bid + 1, 10)

    @property
    def trumps(self) -> tuple[Trump, ...]:
        """The trumps a contract may name: the four suits, then SA and TA with ``sa_ta``."""
        return TRUMPS if self.sa_ta else TRUMPS[:NO_TRUMP]


_CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "sa_ta": (True, False),
    "melds": (True, False),
    "undertrump": ("forced", "optional"),
    "rounding": ("none", "nearest10", "house"),
    "ta_values": ("classic", "ffb"),
    "belote_must_announce": (True, False),
    "max_bid": (160, 180),
    "generale": (True, False),
    "packets": ("332", "323", "233", "any"),
    "real_deal": (True, False),
}

OPTION_NAMES: Final = ("target", *_CHOICES)

OPTION_CHOICES: Final[Mapping[str, tuple[Any, ...]]] = MappingProxyType(_CHOICES)
"""The values each option but ``target`` may take (``target``: ``TARGET_RANGE``)."""
TARGET_RANGE: Final = range(100, 10001)
"""The targets a table may play to (RULES.md 5.5)."""


def _check_option(name: str, value: Any) -> Any:
    if name == "target":
        if isinstance(value, bool) or not isinstance(value, int) or value not in TARGET_RANGE:
            raise RulesError(f"option target must be a whole number from 100 to 10000, not {short_repr(value)}")
        return value
    choices = _CHOICES.get(name)
    if choices is None:
        raise RulesError(f"unknown option {short_repr(name)} (known options: {', '.join(OPTION_NAMES)})")
    if name == "packets" and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if name == "max_bid" and isinstance(value, str) and is_number(value) and len(value) <= 3:
        value = int(value)
    # bool and int compare equal (True == 1), so match types exactly.
    for choice in choices:
        if type(choice) is type(value) and choice == value:
            return value
    shown = ", ".join(repr(c) if isinstance(c, str) else str(c).lower() for c in choices)
    raise RulesError(f"option {name} cannot be {short_repr(value)} (expected one of {shown})")


def parse_option_value(name: str, text: str) -> Any:
    """Convert a command-line ``name=text`` to a checked option value."""
    if name == "target" or name == "max_bid":
        digits = text.strip()
        if not is_number(digits):
            raise RulesError(f"option {name} must be a whole number, not {short_repr(text)}")
        number = parse_number(digits)  # None: too many digits, refused below as out of range
        return _check_option(name, digits if number is None else number)
    if name in _CHOICES and isinstance(_CHOICES[name][0], bool):
        low = text.strip().lower()
        if low not in ("true", "false", "on", "off", "yes", "no", "1", "0"):
            raise RulesError(f"option {name} must be true or false, not {short_repr(text)}")
        return _check_option(name, low in ("true", "on", "yes", "1"))
    return _check_option(name, text.strip())


CLASSIC: Final = RuleSet(
    name="classic",
    target=3000,
    win_excludes_deal_bonus=True,
    defense_sweep_base=250,
    meld_show_card_sa=9,
)

FEDERATION: Final = RuleSet(
    name="federation",
    target=2000,
    sa_ta=False,
    generale=False,
    undertrump="optional",
    rounding="nearest10",
    packets="323",
    cut_each_side=3,
    melds_count_for_contract=True,
    last_trick_sweep=100,
    numeric_sweep_forfeit=None,
    slam_forfeit=False,
    coinche_made_base="flat160",
    coinche_takes_all_melds=True,
    multiply_belote=True,
    meld_scoring="winner_own",
    sweep_transfers_melds=True,
    meld_reveal="winner",
    meld_show_card_sa=5,
    win_belote_validation=True,
)

HOUSE: Final = RuleSet(
    name="house",
    target=2010,
    melds=False,
    rounding="house",
    belote_must_announce=True,
    max_bid=180,
    packets="any",
    beat_defense="cards",
    numeric_sweep_forfeit=None,
    coinche_scoring="flat",
    generale_value=300,
    surcoinche_by_target=True,
    win_no_exit_in_defense=True,
    direction="clockwise",
)

ONLINE: Final = RuleSet(
    name="online",
    target=1001,
    sa_ta=False,
    melds=False,
    generale=False,
    beat_defense="none",
    coinche_scoring="flat",
)

PROFILES: Final[dict[str, RuleSet]] = {r.name: r for r in (CLASSIC, FEDERATION, HOUSE, ONLINE)}
