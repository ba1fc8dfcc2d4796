"""The rating update on hand-computed cases (issue 18, item 4): the two-team Plackett-Luce update
of Weng & Lin (2011, algorithm 4) re-derived here, leavers, computers, the adaptive start."""

from __future__ import annotations

import math

import pytest

from coinche.server.table.ratings import (
    MODEL_PARAMS,
    NEW_PLAYER,
    Computer,
    LevelRatings,
    Person,
    Rating,
    adaptive_start,
    rate_game,
)

LEVELS = LevelRatings(Rating(20.0, 1.5), Rating(25.0, 1.2), Rating(29.0, 1.8))
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001


def hand_update(teams: list[list[Rating]], winner: int) -> list[list[Rating]]:
    """Weng & Lin's Plackett-Luce update for two teams, written out as openskill computes it."""
    # tau is added to every sigma before the game.
    teams = [[Rating(r.mu, math.sqrt(r.sigma**2 + TAU**2)) for r in team] for team in teams]
    team_mu = [sum(r.mu for r in team) for team in teams]  # a team's mu: the sum of its players'
    team_s2 = [sum(r.sigma**2 for r in team) for team in teams]  # its variance: the sum of theirs
    c = math.sqrt(sum(team_s2) + 2 * BETA**2)
    e = [math.exp(m / c) for m in team_mu]
    p_win = e[winner] / (e[0] + e[1])  # the winner's probability of winning, as the model saw it
    out = []
    for i, team in enumerate(teams):
        sign = 1.0 if i == winner else -1.0
        omega = sign * team_s2[i] / c * (1 - p_win)
        gamma = math.sqrt(team_s2[i]) / c
        delta = gamma * team_s2[i] / c**2 * p_win * (1 - p_win)
        out.append(
            [
                Rating(
                    r.mu + r.sigma**2 / team_s2[i] * omega,
                    r.sigma * math.sqrt(max(1 - r.sigma**2 / team_s2[i] * delta, KAPPA)),
                )
                for r in team
            ]
        )
    return out


def close(a: Rating, b: Rating) -> bool:
    return abs(a.mu - b.mu) < 1e-6 and abs(a.sigma - b.sigma) < 1e-6


def test_the_model_parameters_are_the_library_defaults_written_out() -> None:
    assert MODEL_PARAMS["beta"] == BETA and MODEL_PARAMS["tau"] == TAU and MODEL_PARAMS["kappa"] == KAPPA
    assert Rating(25.0, 25.0 / 3.0) == NEW_PLAYER


def test_two_persons_and_a_computer_against_two_persons_by_hand() -> None:
    alice, bob, carol = Rating(27.0, 5.0), Rating(22.5, 3.0), Rating(30.0, 2.0)
    teams = ((Person("alice", alice), Computer("confirmed")), (Person("bob", bob), Person("carol", carol)))
    new = rate_game(teams, winner=0, levels=LEVELS)
    expected = hand_update([[alice, LEVELS.confirmed], [bob, carol]], winner=0)
    assert set(new) == {"alice", "bob", "carol"}
    assert close(new["alice"], expected[0][0])
    assert close(new["bob"], expected[1][0])
    assert close(new["carol"], expected[1][1])
    # With a calculator: team mus 52 and 52.5, c = sqrt(26.4539 + 13.0139 + 2 * 4.1667^2) = 8.6134,
    # P(team 0 wins) = 1 / (1 + e^(0.5 / c)) = 0.48549, omega = 26.4539 / c * 0.51451 = 1.58019,
    # of which alice takes 25.0069 / 26.4539 = 0.94530: +1.4938.
    assert new["alice"].mu == pytest.approx(28.49376, abs=1e-4)


def test_four_new_players_the_winners_gain_what_the_losers_lose() -> None:
    teams = ((Person("a", NEW_PLAYER), Person("b", NEW_PLAYER)), (Person("c", NEW_PLAYER), Person("d", NEW_PLAYER)))
    new = rate_game(teams, winner=1)
    expected = hand_update([[NEW_PLAYER, NEW_PLAYER], [NEW_PLAYER, NEW_PLAYER]], winner=1)
    for pid, (t, j) in {"a": (0, 0), "b": (0, 1), "c": (1, 0), "d": (1, 1)}.items():
        assert close(new[pid], expected[t][j])
    assert new["c"].mu - 25 == pytest.approx(25 - new["a"].mu)
    assert new["a"].mu < 25 < new["c"].mu
    assert all(r.sigma < NEW_PLAYER.sigma for r in new.values())


def test_a_players_share_of_the_update_grows_with_their_sigma() -> None:
    sure, unsure = Rating(25.0, 1.0), Rating(25.0, 6.0)
    teams = ((Person("sure", sure), Person("unsure", unsure)), (Computer("beginner"), Computer("expert")))
    new = rate_game(teams, winner=0, levels=LEVELS)
    gain_sure, gain_unsure = new["sure"].mu - sure.mu, new["unsure"].mu - unsure.mu
    assert 0 < gain_sure < gain_unsure
    assert gain_unsure / gain_sure == pytest.approx((36 + TAU**2) / (1 + TAU**2))


def test_computers_are_never_rated() -> None:
    teams = ((Person("p", NEW_PLAYER), Computer("expert")), (Computer("beginner"), Computer("confirmed")))
    new = rate_game(teams, winner=0, levels=LEVELS)
    assert set(new) == {"p"}
    assert LEVELS.expert == Rating(29.0, 1.8)  # frozen: nothing can move it


def test_a_leaver_loses_even_with_the_better_score() -> None:
    alice, bob, carol, dave = Rating(26, 4), Rating(24, 4), Rating(25, 3), Rating(25, 5)
    teams = ((Person("alice", alice), Person("bob", bob)), (Person("carol", carol), Person("dave", dave)))
    new = rate_game(teams, winner=0, left={"bob"})
    expected = hand_update([[alice, bob], [carol, dave]], winner=1)
    assert close(new["bob"], expected[0][1]) and close(new["alice"], expected[0][0])
    assert new["bob"].mu < bob.mu and new["alice"].mu < alice.mu  # the partner loses too
    assert new["carol"].mu > carol.mu and new["dave"].mu > dave.mu
    # A leaver on the losing team changes nothing: that team lost anyway.
    assert rate_game(teams, winner=1, left={"bob"}) == rate_game(teams, winner=1)


def test_leavers_on_both_teams_each_lose_and_those_who_stayed_keep_their_rating() -> None:
    alice, bob, carol, dave = Rating(26, 4), Rating(24, 4), Rating(25, 3), Rating(25, 5)
    teams = ((Person("alice", alice), Person("bob", bob)), (Person("carol", carol), Person("dave", dave)))
    new = rate_game(teams, winner=0, left={"bob", "carol"})
    assert new["alice"] == alice and new["dave"] == dave
    assert close(new["bob"], hand_update([[alice, bob], [carol, dave]], winner=1)[0][1])
    assert close(new["carol"], hand_update([[alice, bob], [carol, dave]], winner=0)[1][0])


def test_winners_go_up_and_losers_down_whoever_the_favourite() -> None:
    strong, weak = Rating(32, 2), Rating(18, 2)
    for winner in (0, 1):
        teams = ((Person("s1", strong), Person("s2", strong)), (Person("w1", weak), Person("w2", weak)))
        new = rate_game(teams, winner=winner)
        up, down = (("s1", "s2"), ("w1", "w2")) if winner == 0 else (("w1", "w2"), ("s1", "s2"))
        assert all(new[p].mu > (strong if p[0] == "s" else weak).mu for p in up)
        assert all(new[p].mu < (strong if p[0] == "s" else weak).mu for p in down)
    # The upset moves more than the expected result.
    teams = ((Person("s", strong), Person("s2", strong)), (Person("w", weak), Person("w2", weak)))
    expected_gain = rate_game(teams, winner=0)["s"].mu - strong.mu
    upset_gain = rate_game(teams, winner=1)["w"].mu - weak.mu
    assert upset_gain > expected_gain


def test_bad_games_are_refused() -> None:
    p = Person("p", NEW_PLAYER)
    with pytest.raises(ValueError):
        rate_game(((p, Computer("expert")), (Computer("beginner"), Computer("confirmed"))), winner=2, levels=LEVELS)
    with pytest.raises(ValueError):
        rate_game(((p, p), (Computer("beginner"), Computer("confirmed"))), winner=0, levels=LEVELS)
    with pytest.raises(ValueError):
        rate_game(((p, Computer("grandmaster")), (Computer("beginner"), Computer("confirmed"))), 0, levels=LEVELS)
    with pytest.raises(ValueError):
        Rating(25.0, 0.0)


def test_display_is_the_scaled_ordinal() -> None:
    assert NEW_PLAYER.display == 1000
    assert Rating(25.0, 1.5).display == round(1000 + 40 * (25 - 4.5))
    assert Rating(-5.0, 8.0).display == 0  # never negative (the ordinal is -29)
    assert Rating(30, 2).display > Rating(30, 3).display  # the surer, the higher


def test_adaptive_start_is_monotone_and_clamped() -> None:
    assert adaptive_start(Rating(10.0, 2.0), LEVELS) == 0.0
    assert adaptive_start(LEVELS.beginner, LEVELS) == 0.0
    assert adaptive_start(NEW_PLAYER, LEVELS) == 0.5  # a new account starts at the confirmed level
    assert adaptive_start(Rating(22.5, 1.0), LEVELS) == pytest.approx(0.25)
    assert adaptive_start(Rating(27.0, 1.0), LEVELS) == pytest.approx(0.75)
    assert adaptive_start(LEVELS.expert, LEVELS) == 1.0
    assert adaptive_start(Rating(40.0, 1.0), LEVELS) == 1.0
    knobs = [adaptive_start(Rating(mu / 10, 3.0), LEVELS) for mu in range(150, 350)]
    assert knobs == sorted(knobs) and min(knobs) >= 0.0 and max(knobs) <= 1.0


def test_the_measured_levels_are_shipped_and_ordered() -> None:
    levels = LevelRatings.load()
    assert levels.beginner.mu < levels.confirmed.mu < levels.expert.mu
    assert levels.confirmed.mu == pytest.approx(25.0)
    assert 0.0 < adaptive_start(NEW_PLAYER) < 1.0
    with pytest.raises(ValueError):
        LevelRatings(Rating(25, 1), Rating(20, 1), Rating(30, 1))
