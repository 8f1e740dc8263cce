"""The shape of the engine's state, as types (issue 12): the whole state, the Movement
Phase, the Combat Phase and one fight. `tests/test_state_types.py` checks every state of
random games against them, so they cannot drift from the code, and
`tests/test_state_types_cases.py` the cases random games seldom reach. The engine's
functions take and return these types, and so does the rest of the package where a state
travels; `mypy sekigahara_pbem` checks them (.ci/run).

The keys of the state, a phase and the combat are all created when the part is made
(`state.new_state`, `movement.start_phase`, `combat.end_movement`), but for a two-party
game's `slots` (`cycle.setup`). A fight gets its
battle keys (forces, deployments, impact, ...) when the battle begins (8.2): creating them
up front would change every sealed state, and archives must replay byte for byte, so
they are `NotRequired` until a state format says otherwise. (No postponed annotations in
this module: `NotRequired` must be seen when each class is made.)
"""

from typing import NotRequired, TypedDict


class Phase(TypedDict):
    level: str | None  # 7.1, None until chosen
    moves_left: int | None  # None: every stack may move
    mustered: bool  # 7.2
    sources: list
    moved: list
    arrived: dict
    roads: list
    entered: dict


class Fight(TypedDict):
    location: str
    attacker: str
    defender: str
    kind: str | None  # battle or siege, once known (8.9)
    stage: str | None  # the decision awaited; None once the loser has retreated (8.8)
    castle_side: str | None
    entered: list
    forces: NotRequired[dict]
    deployments: NotRequired[list]
    impact: NotRequired[dict]
    played: NotRequired[dict]
    card_deployed: NotRequired[list]
    finished: NotRequired[list]
    disks: NotRequired[list]
    refute: NotRequired[str | None]  # the card named with the last deployment (8.6.1)
    losing: NotRequired[list]
    lost: NotRequired[dict]
    owed: NotRequired[dict]
    winner: NotRequired[str | None]


class Combat(TypedDict):
    side: str
    resolved: list
    entered: dict
    queue: list
    fight: Fight | None


class State(TypedDict):
    format: str
    options: dict
    rng: dict
    week: int
    turn: str
    step: str
    first: str | None
    active: str | None
    bid_winner: str | None
    blocks: dict
    disks: dict
    cards: dict
    control: dict
    castle_owner: dict
    besieged: dict
    sealed: dict
    phase: Phase | None
    combat: Combat | None
    result: dict | None
    plans: dict
    slots: NotRequired[dict]  # a two-party game's slots minted so far, by side (rules/slots.py)
