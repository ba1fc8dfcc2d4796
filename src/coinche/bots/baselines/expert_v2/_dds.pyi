# Type stub of expert-v2's frozen C solver (dds.c of commit 023e446). Every function takes
# the position as its first nine arguments: hands, trump, leader, trick, undertrump_forced,
# ffb_ta, last_trick_bonus, sweep_bonus, sweep_team.

_Hands = tuple[int, int, int, int]

def legal_cards(
    hands: _Hands,
    trump: int,
    leader: int,
    trick: tuple[int, ...],
    undertrump_forced: bool,
    ffb_ta: bool,
    last_trick_bonus: int,
    sweep_bonus: int,
    sweep_team: int | None,
    /,
) -> int: ...
def solve(
    hands: _Hands,
    trump: int,
    leader: int,
    trick: tuple[int, ...],
    undertrump_forced: bool,
    ffb_ta: bool,
    last_trick_bonus: int,
    sweep_bonus: int,
    sweep_team: int | None,
    team: int,
    /,
) -> int: ...
def can_reach(
    hands: _Hands,
    trump: int,
    leader: int,
    trick: tuple[int, ...],
    undertrump_forced: bool,
    ffb_ta: bool,
    last_trick_bonus: int,
    sweep_bonus: int,
    sweep_team: int | None,
    team: int,
    target: int,
    /,
) -> bool: ...
def can_sweep(
    hands: _Hands,
    trump: int,
    leader: int,
    trick: tuple[int, ...],
    undertrump_forced: bool,
    ffb_ta: bool,
    last_trick_bonus: int,
    sweep_bonus: int,
    sweep_team: int | None,
    team: int,
    seat: int | None,
    /,
) -> bool: ...
def move_values(
    hands: _Hands,
    trump: int,
    leader: int,
    trick: tuple[int, ...],
    undertrump_forced: bool,
    ffb_ta: bool,
    last_trick_bonus: int,
    sweep_bonus: int,
    sweep_team: int | None,
    team: int,
    /,
) -> dict[int, int]: ...
def last_nodes() -> int: ...
