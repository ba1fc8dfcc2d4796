"""What the jobs' tests share: a forged pickle, a finished deal."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from coinche.engine.game import Game
from coinche.engine.rules import RuleSet


class Forged:
    """What a forged row would carry: a pickle that writes a file when it is loaded."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.write_text, (self.path, "ran"))


def forged_text(path: Path) -> str:
    """The forged pickle as text (protocol 0 is ASCII: it fits a text column)."""
    return pickle.dumps(Forged(path), protocol=0).decode("ascii")


def finished_deal_game() -> Game:
    game = Game(RuleSet.profile("classic"), seed=5, first_dealer=0, auto_deal=True)
    deal = game.current
    assert deal is not None
    calls = 0
    while not deal.is_over:
        legal = game.legal_actions()
        # Bid once (the first bid offered), then pass: a contract is played out.
        action = legal[1] if calls == 0 and len(legal) > 1 else legal[0]
        calls += 1
        game.apply(action)
    return game
