"""Infra's row classes, by area, on ``db.Base`` (a feature's rows are in its own package).
Importing this package loads them all."""

from . import accuracy, challenge, lobby, people, processes, puzzles, ratings, tables

__all__ = ["accuracy", "challenge", "lobby", "people", "processes", "puzzles", "ratings", "tables"]
