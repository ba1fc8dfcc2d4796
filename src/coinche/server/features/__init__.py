"""What the site builds around its tables: accounts, friends' tables, the daily challenge,
each player's history, statistics and ratings, and the review of a finished deal. No HTTP
here: the pages in ``web`` call these."""
