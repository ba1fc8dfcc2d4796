"""Quick play's matching (``table/matchmaking.py``): each wave seats each person once at
most, never two who blocked each other, never two of other rules; people close in rating
sit together at once, farther ones once they have waited; a person whose wait is over is
seated with computers at the level nearest them; the teams are the fairest split."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.server.table.matchmaking import (
    DEFAULT_RULES,
    WINDOW_START,
    Match,
    Waiting,
    nearest_level,
    seating,
    wave,
    window,
)
from coinche.server.table.ratings import Computer, LevelRatings, Person, Rating

LEVELS = LevelRatings.load()


def waiting(player: str, mu: float, since: float = 0.0, rules: str | None = "classic", wait: float = 20.0) -> Waiting:
    return Waiting(player, rules, Rating(mu, 2.0), since, since + wait)


def mu_of(seat: Person | Computer) -> float:
    return seat.rating.mu if isinstance(seat, Person) else LEVELS.of(seat.level).mu


def test_four_close_people_sit_together_at_once() -> None:
    queue = [waiting(p, 25 + i * 0.5) for i, p in enumerate("abcd")]
    [match] = wave(queue, 1.0, LEVELS)
    assert sorted(match.players) == list("abcd") and match.rules == "classic"
    assert all(isinstance(s, Person) for s in match.seats)


def test_three_people_wait_until_their_deadline_then_computers_take_the_seat() -> None:
    queue = [waiting(p, 25.0) for p in "abc"]
    assert wave(queue, 19.0, LEVELS) == []
    [match] = wave(queue, 20.0, LEVELS)
    assert sorted(match.players) == list("abc")
    [computer] = [s for s in match.seats if isinstance(s, Computer)]
    assert computer.level == nearest_level([Rating(25.0, 2.0)], LEVELS)


def test_one_person_alone_plays_three_computers_of_the_nearest_level() -> None:
    strong = LEVELS.expert.mu + 5
    [match] = wave([waiting("a", strong)], 20.0, LEVELS)
    assert [s.level for s in match.seats if isinstance(s, Computer)] == ["expert"] * 3
    weak = LEVELS.beginner.mu - 5
    [match] = wave([waiting("a", weak)], 20.0, LEVELS)
    assert [s.level for s in match.seats if isinstance(s, Computer)] == ["beginner"] * 3


def test_far_ratings_wait_for_the_window_to_widen() -> None:
    queue = [waiting("a", 20.0), waiting("b", 20.0), waiting("c", 20.0), waiting("d", 20.0 + WINDOW_START + 2)]
    assert wave(queue, 0.0, LEVELS) == []
    [match] = wave(queue, 5.0, LEVELS)  # the window has grown by 2.5
    assert sorted(match.players) == list("abcd")


def test_blocked_pairs_never_sit_together_even_past_the_deadline() -> None:
    queue = [waiting(p, 25.0) for p in "abcd"]
    blocks = {frozenset(("a", "b"))}
    matches = wave(queue, 30.0, LEVELS, blocks)
    assert all(not {"a", "b"} <= set(m.players) for m in matches)
    assert sorted(p for m in matches for p in m.players) == list("abcd")  # all seated


def test_rules_never_mix_and_any_rules_joins_a_pool() -> None:
    queue = [waiting("a", 25, rules="classic"), waiting("b", 25, rules="house"), waiting("c", 25, rules=None)]
    queue += [waiting("d", 25, rules="house"), waiting("e", 25, rules="house")]
    [match] = wave(queue, 1.0, LEVELS)
    assert match.rules == "house" and sorted(match.players) == ["b", "c", "d", "e"]
    everyone_any = [waiting(p, 25, rules=None) for p in "wxyz"]
    assert wave(everyone_any, 1.0, LEVELS)[0].rules == DEFAULT_RULES


def test_the_teams_are_the_fairest_split() -> None:
    people = [waiting("a", 30.0), waiting("b", 29.0), waiting("c", 21.0), waiting("d", 20.0)]
    seats = seating(people, None, LEVELS)
    teams = {frozenset((seats[0].player_id, seats[2].player_id)), frozenset((seats[1].player_id, seats[3].player_id))}  # type: ignore[union-attr]
    assert teams == {frozenset("ad"), frozenset("bc")}


def test_free_seats_need_a_level() -> None:
    with pytest.raises(ValueError):
        seating([waiting("a", 25)], None, LEVELS)


def test_the_window_follows_the_shorter_wait() -> None:
    a, b = waiting("a", 25, since=0.0), waiting("b", 25, since=8.0)
    assert window(a, b, 10.0) == window(b, a, 10.0) > WINDOW_START
    assert window(a, b, 8.0) == WINDOW_START


queues = st.lists(
    st.tuples(
        st.floats(10.0, 40.0),  # mu
        st.floats(0.0, 30.0),  # joined
        st.sampled_from(["classic", "house", None]),
    ),
    max_size=14,
)


@settings(max_examples=200, deadline=None)
@given(queues, st.floats(0.0, 60.0), st.sets(st.tuples(st.integers(0, 13), st.integers(0, 13)), max_size=6))
def test_a_wave_keeps_its_promises(
    people: list[tuple[float, float, str | None]], now: float, pairs: set[tuple[int, int]]
) -> None:
    queue = [
        Waiting(f"p{i}", rules, Rating(mu, 3.0), since, since + 20.0) for i, (mu, since, rules) in enumerate(people)
    ]
    blocks = {frozenset((f"p{i}", f"p{j}")) for i, j in pairs if i != j}
    matches = wave(queue, now, LEVELS, blocks)
    seated = [p for m in matches for p in m.players]
    assert len(seated) == len(set(seated))  # nobody twice
    by_id = {w.player: w for w in queue}
    for m in matches:
        assert len(m.seats) == 4 and m.players
        group = [by_id[p] for p in m.players]
        assert all(w.rules in (None, m.rules) for w in group)
        assert all(frozenset((x.player, y.player)) not in blocks for x, y in itertools.combinations(group, 2))
        if len(group) < 4:  # computers only for someone whose wait is over
            assert any(now >= w.deadline for w in group)
            assert len({s.level for s in m.seats if isinstance(s, Computer)}) == 1
        else:
            assert any(now >= w.deadline for w in group) or all(
                abs(x.rating.mu - y.rating.mu) <= window(x, y, now) for x, y in itertools.combinations(group, 2)
            )
        # the fairest of the three splits
        gap = abs(mu_of(m.seats[0]) + mu_of(m.seats[2]) - mu_of(m.seats[1]) - mu_of(m.seats[3]))
        s = m.seats
        for a, b, c, d in ((s[0], s[1], s[2], s[3]), (s[0], s[3], s[1], s[2])):
            assert gap <= abs(mu_of(a) + mu_of(b) - mu_of(c) - mu_of(d)) + 1e-9
    for w in queue:  # everyone past their deadline is seated
        assert now < w.deadline or w.player in seated


def test_a_match_lists_its_people() -> None:
    m = Match(
        "classic", (Person("a", Rating(25, 2)), Computer("expert"), Person("b", Rating(25, 2)), Computer("expert"))
    )
    assert m.players == ("a", "b")
