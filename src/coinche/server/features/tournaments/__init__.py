"""Tournaments: the club's "concours" online, every table of a round on the same deals,
computers in every gap. ``model`` (what a tournament is, its standings), ``rows`` (its
tables in the database), ``store`` (their SQL), ``seating`` (who sits where at a round's
start), ``runner`` (``Tournaments``: what people ask, and the loop that runs rounds) and
``jobs`` (what it asks of the computers). No HTTP here: ``web/tournament_pages.py`` calls
``Tournaments``; the pairing and the scoring are pure (``table/tournament_pairing.py``,
``table/tournament_scoring.py``); ``docs/tournaments.md`` says the rules to players.

**What two processes must agree on lives in the database.** A tournament's row says where
it stands (``state``, the ``round`` under way, its clock, whether it is closed); every
move from one stage to the next is one conditional UPDATE of that row (``WHERE round = r
AND ...``), so when every process's runner sees the moment at once, one of them moves it
and the others find nothing to do. The transaction that starts a round also names its
tables and writes their seats (``tournament_tables``); the tables are made just after, and
a table named but never made (its process died in between) is made by any runner
``UNMADE_AFTER`` later: a restart of any process, at any moment, loses nothing. A person
who opens a table named and not made yet has it made at once (``Tournaments.make_named``,
a ``Tables.unmade_hooks`` hook): the person socket points to it from the round's start.

**The round.** A round is a game of ``deals`` deals at each table (``TournamentTable.deals``),
dealt under the label ``tournoi-<id>-<round>`` from the tournament's secret (committed on
its page from its creation, revealed when it is over: ``coinche verify`` checks any of its
deals then), with the same first dealer and table seed everywhere, so the computers'
choices depend on the cards and the people's moves only. Its clock is ``deals ×
minutes_per_deal``: then its tables take no move (``requests.closed``) and the round is
scored as it stands. Its results come from the commits of its tables (a game's end writes
its table's result once, whichever process stores it); the round closes when its last
table has one or its clock ran out, and the next starts ``break_seconds`` later.

**People.** At a round's start, a person whose page is not open anywhere (not online: no
person socket within ``following.ONLINE_FOR``) is replaced by a computer of the
tournament's level for that round; their pair scores what it scores. Those online are taken
to their table from whatever page they have open (their person socket's ``tournament``
message). One who does not come within the grace period or drops during the round is stood
in for, and one who stalls meets the idle clock, even alone with computers
(``TableKind.clocks_run_alone``): a round waits for nobody.
"""
