"""The rules engine: pure, no I/O, no globals.

The names most clients need are re-exported here::

    import random
    from coinche.engine import Game, RuleSet, action_str

    game, rng = Game(RuleSet.profile("classic", target=700), seed=1), random.Random(1)
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        game.apply(action)  # raises IllegalAction, state unchanged, if not legal
"""

from .actions import Action, action_str, call_str, parse_call
from .cards import Card, CardSet, card_str, cards_str, parse_card, parse_cards
from .deal import Deal, DealResult, InvalidDeal, Phase, Trick, View
from .errors import IllegalAction
from .game import Game, GameView
from .record import RecordError, ReplayError, deal_record, game_record, parse_record, replay
from .rules import PROFILES, RulesError, RuleSet
from .scoring import Contract, DealScore, ScoringError, calculate

__all__ = [
    "PROFILES",
    "Action",
    "Card",
    "CardSet",
    "Contract",
    "Deal",
    "DealResult",
    "DealScore",
    "Game",
    "GameView",
    "IllegalAction",
    "InvalidDeal",
    "Phase",
    "RecordError",
    "ReplayError",
    "RuleSet",
    "RulesError",
    "ScoringError",
    "Trick",
    "View",
    "action_str",
    "calculate",
    "call_str",
    "card_str",
    "cards_str",
    "deal_record",
    "game_record",
    "parse_call",
    "parse_card",
    "parse_cards",
    "parse_record",
    "replay",
]
