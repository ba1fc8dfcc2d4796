"""The jobs the tournaments ask of the computers: a finished round's deal's double-dummy
par, of the built-in ``par`` kind. ``JOB_KINDS`` lists the tournaments' own kinds (none
yet), which ``services.register_job_kinds`` registers in every server and worker."""

from __future__ import annotations

from typing import Any

from ....engine.dealing import deal_seed, hands_from_seed
from ...compute.job_kinds import par_job
from ...compute.jobs import Job, JobKind
from .model import Tournament

JOB_KINDS: tuple[JobKind[Any], ...] = ()
"""The tournaments' own job kinds: none (a round's par is the built-in ``par``)."""


def round_par_job(tournament: Tournament, number: int, deal: int) -> Job[dict[str, Any]]:
    """The par of deal ``deal`` of round ``number``: its cards as every table of the round
    was dealt them (the round's label, its first dealer moved on by the deal)."""
    dealer = ((number - 1) % 4 + deal - 1) % 4
    hands = hands_from_seed(deal_seed(tournament.secret, f"tournoi-{tournament.id}-{number}", deal), dealer)
    return par_job(tournament.rules, dealer, hands)
