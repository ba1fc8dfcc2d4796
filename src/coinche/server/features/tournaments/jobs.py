"""The jobs the tournaments ask of the computers (``compute/jobs.py``): a finished round's
deal's double-dummy par, of the shared ``par`` kind. The tournaments register no job kind
of their own (``register_job_kinds`` is there for the day they do: ``services.py`` calls it
in every server and worker)."""

from __future__ import annotations

from typing import Any

from ....engine.dealing import deal_seed, hands_from_seed
from ...compute.jobs import Job, JobKind, par_job
from .model import Tournament

JOB_KINDS: tuple[JobKind[Any], ...] = ()
"""The job kinds of this feature (none: a round's par is the shared ``par``)."""


def register_job_kinds() -> None:
    """Register this feature's job kinds (``compute.jobs.register``)."""


def round_par_job(tournament: Tournament, number: int, deal: int) -> Job[dict[str, Any]]:
    """The par of deal ``deal`` of round ``number``: its cards as every table of the round
    was dealt them (the round's label, its first dealer moved on by the deal)."""
    dealer = ((number - 1) % 4 + deal - 1) % 4
    hands = hands_from_seed(deal_seed(tournament.secret, f"tournoi-{tournament.id}-{number}", deal), dealer)
    return par_job(tournament.rules, dealer, hands)
