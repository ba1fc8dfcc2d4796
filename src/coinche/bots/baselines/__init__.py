"""Frozen computer players kept as named baselines: every change to a bot is measured in
the arena against the version it replaces (``coinche arena --ns expert --ew expert-v1``).

A baseline is a copy of the bot's code as it stood, its own knowledge and sampling
included, so later work on ``bots/`` cannot change how it plays; it shares only the
engine and the solver, whose answers are the rules and exact values. Never edit one:
freeze a new one instead.
"""
