"""``expert-v2``: the expert as it played when issue 20 started (commit 023e446), frozen.

The modules are copies of that commit's ``bots/expert/`` package (all its modules, in
``expert/``) and of ``bots/knowledge.py``, ``bots/sampling.py`` and
``bots/hand_evaluator.py``, with their imports adjusted; the fitted data they read
(``bots/data/*.json``) are copied into ``data/`` and read from this package. Nothing else
differs. It shares only the engine, ``bots.base`` and the solver, whose answers are exact
values.

One way it can still play differently from that commit: its card play's work budget is
counted in solver nodes (trick starts visited), not in time, so a solver that visits fewer
nodes lets it search more deals where its budget binds. Only then, on those decisions, can
it play differently from the commit it was frozen at.
"""
