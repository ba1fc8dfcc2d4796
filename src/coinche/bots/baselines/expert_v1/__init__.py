"""``expert-v1``: the expert as it played when issue 9 started (commit 30a8114), frozen.

The modules are copies of ``bots/expert.py``, ``bots/knowledge.py`` and
``bots/sampling.py`` of that commit with their imports adjusted; nothing else differs.
"""
