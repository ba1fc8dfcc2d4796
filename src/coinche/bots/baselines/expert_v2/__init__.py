"""``expert-v2``: the expert as it played when issue 20 started (commit 023e446), frozen.

The modules are copies of that commit's ``bots/expert/`` package (all its modules, in
``expert/``) and of ``bots/knowledge.py``, ``bots/sampling.py`` and
``bots/hand_evaluator.py``, with their imports adjusted; the fitted data they read
(``bots/data/*.json``) are copied into ``data/`` and read from this package. Nothing else
differs. It shares only the engine, ``bots.base`` and ``Position``.

It keeps its own solver too (``solver.py`` on ``_dds``, built from ``dds.c``: that commit's
solver): its card play's work budget is counted in solver nodes (trick starts visited), and
a faster solver visits fewer of them for the same values, which would let it search more
deals where its budget binds. On its own solver it decides, and takes the time, as when it
was frozen.
"""
