"""Coinche: a faithful rules engine, computer players and a web platform."""

__version__ = "0.1.0"
