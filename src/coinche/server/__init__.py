"""The table service and the web server on top of the engine and the bots.

``config`` (settings), ``db`` (the SQLAlchemy schema, migrated by Alembic at start),
``store`` (reading and writing tables, their action logs and guests), ``bot_pool`` (bot
decisions in worker processes), ``tables`` (the table service: the live games rebuilt from
their logs, no HTTP in it), ``i18n`` (French and English catalogues), ``app`` (the
Starlette application: pages and the WebSocket).
"""
