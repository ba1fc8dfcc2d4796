"""The computers' thinking, off the event loop: a pool of processes on this machine, jobs
as data (never code), and the turns handed to ``coinche worker`` processes through
PostgreSQL."""
