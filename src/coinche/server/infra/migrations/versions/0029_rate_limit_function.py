"""A rate limit's try in one statement on PostgreSQL (``rate_limits.py``): the function
``coinche_rate_limit_hit`` does what five statements of a transaction did (the key's
advisory lock, the old tries forgotten, the count, the new try), so a try is one round
trip and its transaction's commit, not six round trips. SQLite counts in memory: nothing
to do there.

Revision ID: 0029
Revises: 0028
"""

from __future__ import annotations

from alembic import op

revision = "0029"
down_revision = "0028"

FUNCTION = """
CREATE OR REPLACE FUNCTION coinche_rate_limit_hit(k text, amount integer, seconds integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    tries integer;
    oldest timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext(k));
    DELETE FROM rate_limit_hits WHERE key = k AND at <= now() - make_interval(secs => seconds);
    SELECT count(*), min(at) INTO tries, oldest FROM rate_limit_hits WHERE key = k;
    IF tries >= amount THEN
        RETURN greatest(1, ceil(EXTRACT(EPOCH FROM oldest + make_interval(secs => seconds) - now())))::integer;
    END IF;
    INSERT INTO rate_limit_hits (key, at) VALUES (k, now());
    RETURN NULL;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(FUNCTION)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS coinche_rate_limit_hit(text, integer, integer)")
