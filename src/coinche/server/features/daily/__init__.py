"""The daily challenge ("le défi du jour"): four deals a day, the same for every player,
against computers whose moves depend on the deal and the player's own actions only, ranked
by matchpoints. ``model`` holds what a day is, ``store`` its rows, ``runner`` the
``DailyChallenge`` the pages call (no HTTP here). How a day is committed, dealt, played and
ranked: docs/daily-challenge.md."""
