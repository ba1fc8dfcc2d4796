"""The server: tables people play at, kept as logs of steps in a database, and the site
around them. Layers, each importing only the ones listed before it:

- ``table``: pure facts of a table the site adds to the engine (fair deals, seat names,
  days, ratings' arithmetic, the protocol's messages, the words of both languages);
- ``infra``: the database (schema, migrations, the store), the hubs between processes,
  rate limits, settings, log lines;
- ``compute``: the computers' thinking, in a pool of processes or handed to workers;
- ``live``: the live tables, read from and written to their logs, and who is at them;
- ``features``: accounts, friends' tables, the daily challenge, history, statistics,
  reviews;
- ``web``: the HTTP routes, pages and the tables' WebSocket.

``worker`` (``coinche worker``) sits on top, beside the web.
"""
