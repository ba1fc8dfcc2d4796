"""What the server stands on: its settings, the database (schema, Alembic migrations, the
store of tables, logs and players), the hubs that tell processes of new steps, rate limits
kept in the database, and log lines that name their process."""
