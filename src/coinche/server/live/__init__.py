"""The live tables: each rebuilt from its log of steps, written to by one step at a time
(stored before anything is sent), played by the computers when it is their turn, and who
is at each table."""
