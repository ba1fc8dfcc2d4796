"""Pure facts of a table that the site adds to the engine: deals anyone can check, where
each seat sits and its name, the challenge's days, ratings' and matchpoints' arithmetic,
the hints' sentences, the protocol's messages and the words of French and English. No
database, no network, no clock but the one handed in."""
