"""The engine ladder (issue 53, ``docs/bot-api.md``): bots whose owners opt them in are
paired continuously with each other and with the site's computer levels (fixed ratings:
the anchors), in duplicate matches of two tables dealt the same deals with the sides
swapped (``table/kinds.LadderTable``), rated one against one (``table/ladder_pairing.py``);
a bot that lets its time run out or leaves too often is paused and its owner told.

``rows.py`` its rows, ``store.py`` their reading and writing (pairing once across
processes), ``runner.py`` the loop, the tables and the listeners."""
