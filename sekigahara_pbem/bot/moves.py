"""Scoring the movement phase's options (rule 7): musters, Mōri arrivals and stack moves.

Every score is an estimate in victory points (2.2): resources and castles gained or given
up, enemy blocks we expect to destroy, our own blocks put at risk, the guard we keep round
the protagonist (2.1) and Hideyori (9.1), and a little for closing on the next objective,
so that idle blocks walk towards the resources and castles they can take.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from ..rules.combat.aftermath import CASTLE_LIMIT  # 8.9.1: two blocks fit inside a castle
from .cards import card_value
from .knowledge import Knowledge
from .weights import WEIGHTS

OVERRUN = 4  # 7.4.1: four times as many blocks destroy the enemy outright
SIEGE_STEP = 7  # 8.9.4 B: one defender lost per 7 impact
# The weights (weights.toml says what each is, and why it has its value):
PROGRESS = WEIGHTS["moves.PROGRESS"]  # per road closer to an objective
EXPOSURE = WEIGHTS["moves.EXPOSURE"]  # share of the worth at risk counted against a move
RAID_LOSS = WEIGHTS["moves.RAID_LOSS"]  # the chance a force overrun next door is lost
LEAD_CHANCE = 0.5  # the belief's chance from which we take an enemy leader to be at a place
FAR = WEIGHTS["moves.FAR"]  # that share for an enemy further off that can reach the place
HOLD = WEIGHTS["moves.HOLD"]  # a claim's share where the enemy may take it back first
MOBILE = 8  # blocks: a larger stack moves only with a highway and leadership (7.3.5)
HUNT = WEIGHTS["moves.HUNT"]  # per road closer to an enemy stack the group should beat
HUNT_RANGE = 4  # roads: prey further away is not hunted
CROWDING = WEIGHTS["moves.CROWDING"]  # points per block beyond MOBILE
CAPTURE = WEIGHTS["moves.CAPTURE"]  # the chance an empty castle of ours is walked into
FLIP_BACK = WEIGHTS["moves.FLIP_BACK"]  # a claim's share kept by a group that dies
WIN_MARGIN = WEIGHTS["moves.WIN_MARGIN"]  # our strength against theirs a battle is won by
WIN_EDGE = WEIGHTS["moves.WIN_EDGE"]  # ... and the impact beyond it (should_win)
RELIEF = WEIGHTS["moves.RELIEF"]  # the share of a besieged castle's stake a relief counts
LONE = WEIGHTS["moves.LONE"]  # a block's share at risk where it ends alone in reach
FEW = 2  # blocks: a group this small fights only a battle it should win


def objectives(k: Knowledge) -> list[str]:
    """Where our blocks should head: resources that are not ours and castles that count
    for the enemy."""
    return [
        loc
        for loc, spec in k.comp.locations.items()
        if (spec.resource and k.view["control"].get(loc) != k.side)
        or (spec.castle and k.view["castles"][loc] == k.enemy)
    ]


def _nearest(k: Knowledge, loc: str) -> int:
    """Roads from a location to the nearest objective (kept in `k.memo`)."""
    known = k.memo.get(("nearest", loc))
    if known is None:
        targets = k.memo.get(("objectives",))
        if targets is None:
            targets = k.memo[("objectives",)] = objectives(k)
        known = min((k.dist[loc].get(t, 99) for t in targets if t != loc), default=0)
        k.memo[("nearest", loc)] = known
    return known


def exposure(k: Knowledge, loc: str, blocks: list[str]) -> float:
    """What we stand to lose at a location if the enemy strikes it: the worth of our blocks
    there, scaled by how far the nearby enemy outweighs them (kept in `k.memo`)."""
    threat = k.threat(loc)
    if not blocks or threat == 0:
        return 0.0
    key = ("exposure", loc, *blocks)
    known = k.memo.get(key)
    if known is None:
        ours = k.strength(blocks)
        known = (
            0.0
            if threat <= ours
            else EXPOSURE * at_risk(k, blocks) * min(1.0, (threat - ours) / (threat + 1))
        )
        k.memo[key] = known
    return known


def doomed(k: Knowledge, loc: str, blocks: list[str]) -> float:
    """The share of a small force's worth the enemy can take for free where it stands:
    enough enemy blocks one road away to overrun it (7.4.1: four times as many; never in
    a castle we hold, 7.4.3, where a siege strong enough takes it instead: `falls_to_siege`),
    or, failing that, a next-door stack twice its strength; at FAR that share when they
    stand further, but can reach it in one move (`can_reach`). A lone raider walking
    next to a big stack is lost, and the place it took flips back."""
    if not blocks or k.last_move:
        return 0.0
    if k.view["castles"].get(loc) == k.side:
        return RAID_LOSS * falls_to_siege(k, loc, blocks)
    share = 1.0
    for count, strongest in _around(k, loc):
        if count >= OVERRUN * len(blocks):
            return RAID_LOSS * share
        if strongest >= 2 * k.strength(blocks) + 2:
            return RAID_LOSS * share / 2
        share = FAR
    return 0.0


def falls_to_siege(k: Knowledge, loc: str, blocks: list[str]) -> float:
    """How sure a garrison of ours is to fall in one siege of its castle (8.9.4: a block
    or disk inside lost per 7 impact, the attacker losing none): in full where a stack
    next door brings the impact to take them all, at FAR where one in reach does. A
    castle holds two blocks at most (8.9.1); more fight outside, in battle."""
    if not blocks or len(blocks) > CASTLE_LIMIT:
        return 0.0
    inside = len(blocks) + len(k.view["stacks"].get(loc, {}).get("disks", []))
    share = 1.0
    for _, strongest in _around(k, loc):
        if strongest >= SIEGE_STEP * inside:
            return share
        share = FAR
    return 0.0


def alone(k: Knowledge, loc: str, blocks: list[str]) -> float:
    """The worth of a block standing alone where an enemy stack can reach it in one move
    (`can_reach`), outside a castle of ours: any stack stronger than one block may attack
    it there (8.2), and the wargamer's lone blocks were lost one after another (issue
    39). Most of the blocks the computer lost alone had moved there alone."""
    if len(blocks) != 1 or k.last_move or k.view["castles"].get(loc) == k.side:
        return 0.0
    _, (within_reach, _) = _around(k, loc)
    return min(k.worth(blocks[0]), 6.0) if within_reach else 0.0


def _around(k: Knowledge, loc: str) -> list[tuple[int, float]]:
    """For one road, and for every stack that can reach the place in one move
    (`can_reach`): the enemy blocks there, and the strongest enemy stack there; none
    besieged, which may not leave its castle (8.9.6). Kept in `k.memo`: `doomed` is asked
    of every move's two ends."""
    known = k.memo.get(("around", loc))
    if known is None:
        free = [e for e in k.enemy_at if k.view["besieged"].get(e) != k.enemy]  # 8.9.6
        near = [e for e in free if k.dist[loc].get(e, 99) <= 1]
        far = [e for e in free if can_reach(k, e, loc)]
        known = [
            (sum(k.enemy_at[e] for e in group), max(map(k.enemy_strength, group), default=0.0))
            for group in (near, far)
        ]
        k.memo[("around", loc)] = known
    return known


def can_reach(k: Knowledge, origin: str, loc: str) -> bool:
    """Whether four enemy blocks from `origin` can reach `loc` in one move (7.3.3: one
    location, +1 with leadership at the origin, +1 on a force march, +1 all on highways;
    7.3.5: four blocks, enough to overrun one, 7.4.1, move with no penalty)."""
    roads = 1 + _enemy_leads(k, origin) + (k.enemy_hand > 0)
    return k.dist[origin].get(loc, 99) <= roads or k.highway[origin].get(loc, 99) <= roads + 1


def _enemy_leads(k: Knowledge, origin: str) -> bool:
    """Whether the enemy has leadership at `origin` (7.3.4): a castle of its colour it
    holds, its capital, or, as far as we can tell, one of its leaders there (the belief's
    chances; without a belief, any stack may hold one). Kept in `k.memo`: `_around` asks
    it of every enemy stack for every place it looks at."""
    known = k.memo.get(("leads", origin))
    if known is None:
        known = k.memo[("leads", origin)] = _leads(k, origin)
    return known


def _leads(k: Knowledge, origin: str) -> bool:
    spec = k.comp.locations[origin]
    if spec.capital == k.enemy:
        return True
    if spec.castle == k.enemy and k.view["castles"].get(origin) == k.enemy:
        return True
    if k.members is None:
        return True
    chances = k.members.get(origin, {})
    return sum(p for b, p in chances.items() if k.comp.blocks[b].leader) >= LEAD_CHANCE


def held(k: Knowledge, loc: str) -> float:
    """The share of a Resource Location claimed now (4.2) that is still ours when control
    next counts (6.2: the extra block; 2.2: the points): all of it in the week's last
    movement phase or out of the enemy's reach, HOLD of it where an enemy stack that moves
    before the count can reach it (`can_reach`: the first block it moves through claims
    it back)."""
    if k.last_of_week or not k.comp.locations[loc].resource:
        return 1.0
    _, (within_reach, _) = _around(k, loc)  # the stacks one road away are among them
    return HOLD if within_reach else 1.0


def capture_risk(k: Knowledge, loc: str) -> float:
    """The points an empty castle of our colour may cost (4.3: empty, it counts for its
    colour; an enemy that walks in alone takes it, a swing of both its points), by how
    near the enemy stands (`doomed`'s reach). Self-play lost Tokugawa's black castles
    this way week after week: leaving one empty cost nothing in the scores."""
    spec = k.comp.locations[loc]
    if spec.castle != k.side or k.last_move or k.view["stacks"].get(loc, {}).get("disks"):
        return 0.0
    (near, _), (far, _) = _around(k, loc)
    share = 1.0 if near else FAR if far else 0.0
    return CAPTURE * share * (k.castle_points(loc, k.side) - k.castle_points(loc, k.enemy))


def doom(k: Knowledge, loc: str, blocks: list[str]) -> float:
    """The worth we expect to lose for nothing at a place (`doomed` times the blocks')."""
    share = doomed(k, loc, blocks)
    return share * at_risk(k, blocks) if share else 0.0


def _doom_here(k: Knowledge, loc: str) -> float:
    """`doom` of the blocks of ours at a place now, kept in `k.memo`: each option's two
    ends ask it, and it is the same for every group that arrives or leaves."""
    known = k.memo.get(("doom", loc))
    if known is None:
        known = k.memo[("doom", loc)] = doom(k, loc, k.blocks.get(loc, []))
    return known


def at_risk(k: Knowledge, blocks: list[str]) -> float:
    """What blocks are worth keeping, each capped at 6 (the protagonist's worth would
    drown every other term, and it is never risked: `score_move`)."""
    return sum(min(k.worth(b), 6.0) for b in blocks)


def kept(k: Knowledge, dest: str, moving: list[str]) -> float:
    """The share of the resources a group claims on its way and at its destination (4.2)
    that stays ours: a group that moves onto an enemy stack it cannot beat claims them
    and dies, and the stack's side claims them back with the first block it moves in or
    through (the wargamer's suicide raids: six blocks lost, each flip undone at once).
    In the last movement phase nothing can undo them."""
    n = k.enemy_at.get(dest, 0)
    if not n or k.last_move:
        return 1.0
    ours = k.blocks.get(dest, []) + moving
    if len(ours) >= OVERRUN * n or _fights(k.strength(ours), k.enemy_strength(dest), ours):
        return 1.0
    return FLIP_BACK


def attack_value(k: Knowledge, loc: str, moving: list[str], ours: list[str]) -> float:
    """Moving into an enemy stack: an overrun or a battle we should win is worth the enemy
    blocks and the place; an even fight of three blocks or more a little (`_fights`); any
    other costs our moving blocks.
    Into the besiegers of a castle of ours, what the siege puts at stake too (`relieved`):
    in full where we should win, from half to full with our edge where it is even.
    Against a castle's garrison of two or fewer, expect a siege (8.9): a block or disk
    falls per 7 impact, and the castle only when all of them do."""
    n = k.enemy_at[loc]
    holds_castle = k.view["castles"].get(loc) == k.enemy
    castle_gain = 4.0 if holds_castle else 0.0
    if len(ours) >= OVERRUN * n and not holds_castle:
        return 2.5 * n + castle_gain + 1.0
    mine, theirs = k.strength(ours), k.enemy_strength(loc)
    if holds_castle and n <= CASTLE_LIMIT:
        inside = n + len(k.view["stacks"].get(loc, {}).get("disks", []))
        falls = min(int(mine // SIEGE_STEP), inside)
        if falls >= inside:
            return 1.5 * n + castle_gain
        return 0.8 * falls - 0.3 * len(moving)
    if should_win(mine, theirs):
        return 1.5 * n + castle_gain / 2 + RELIEF * relieved(k, loc)
    if _fights(mine, theirs, ours):
        return 0.3 * n + RELIEF * relieved(k, loc) * (1.0 + edge(mine, theirs)) / 2
    return -0.6 * at_risk(k, moving)


def relieved(k: Knowledge, loc: str) -> float:
    """What a siege of our castle puts at stake (8.9.4: the besiegers take a block or
    disk inside per 7 impact, every Combat Phase, and the castle when none is left; 8.9.6:
    a force that enters fights them with the besieged), by the share of it the besiegers
    can take next time: the castle's points for both sides and the besieged blocks. The
    wargamer's Gifu, Aizu and Ueda fell one after another, none relieved."""
    if k.view["besieged"].get(loc) != k.side:
        return 0.0
    here = k.blocks.get(loc, [])
    inside = len(here) + len(k.view["stacks"].get(loc, {}).get("disks", []))
    stake = k.castle_points(loc, k.side) - k.castle_points(loc, k.enemy)
    stake += at_risk(k, here)
    return stake * min(1.0, k.enemy_strength(loc) / (SIEGE_STEP * max(inside, 1)))


def _fights(mine: float, theirs: float, ours: list[str]) -> bool:
    """Whether a battle is worth fighting: one we should win, or an even one (our strength
    at least theirs) fought by more than FEW blocks. One or two blocks in an even fight
    lose as often as not (the enemy's cards are unknown, 8.2.2; a Loyalty Challenge turns
    a block, 8.6) and die alone for the place they claimed."""
    return should_win(mine, theirs) or (mine >= theirs and len(ours) > FEW)


def edge(mine: float, theirs: float) -> float:
    """How far our strength goes from an even fight (0) towards one we should win (1)."""
    wins = WIN_MARGIN * theirs + WIN_EDGE
    return min(1.0, max(0.0, (mine - theirs) / (wins - theirs))) if wins > theirs else 1.0


def should_win(mine: float, theirs: float) -> bool:
    """Whether our strength should win a battle against theirs (8.5: impact decides, and
    cards, leaders and defections make it uncertain): by WIN_MARGIN times and WIN_EDGE."""
    return mine >= WIN_MARGIN * theirs + WIN_EDGE


def crowding(k: Knowledge, loc: str, before: int, after: int) -> float:
    """The cost of growing a stack from `before` to `after` blocks beyond MOBILE (7.3.5:
    -2 from the 9th block, -4, never moving, from the 17th) where no guard needs them."""
    over = max(0, after - MOBILE) - max(0, before - MOBILE)
    if over <= 0 or k.guard_needed(loc) > k.strength(k.blocks.get(loc, [])):
        return 0.0
    return CROWDING * over


def guard_shortfall(k: Knowledge, loc: str, blocks: list[str], need: float) -> float:
    """How far the strength at a guarded place falls below what it needs."""
    return max(0.0, need - k.strength(blocks))


Part = Callable[[Knowledge, str, list[str]], float]  # a move's arrival or leaving


def score_move(k: Knowledge, action: dict) -> float:
    """7.3: one group along one path (the options list whole stacks and single blocks).
    What the group brings to its destination and what its leaving costs the place it
    left are the same for every path between them: each is worked out once a decision."""
    origin = action["from"]
    group = action["groups"][0]
    moving, path = group["blocks"], group["path"]
    dest = path[-1]
    if k.enemy_at.get(dest) and k.protagonist in moving:
        return -100.0
    keep = _memo(k, ("kept", dest, tuple(moving)), kept, dest, moving)
    score = keep * _claimed(k, path)
    if group.get("force_march"):
        score -= 0.3 + 0.5 * card_value(k, group["force_march"])
    group_key = tuple(moving)
    score += _memo(k, ("arriving", dest, group_key), _arriving, dest, moving)
    score += _memo(k, ("leaving", origin, group_key), _leaving, origin, moving)
    if k.protagonist not in moving and not k.last_move:
        closer = _nearest(k, origin) - _nearest(k, dest)
        score += PROGRESS * closer * min(len(moving), 3)
        score += HUNT * hunt(k, origin, dest, moving)
    return score


def _claimed(k: Knowledge, path: list[str]) -> float:
    """The points a group claims along its path (4.2), each by the share of it still ours
    when control counts (`held`, asked only of the resources on it)."""
    total = 0.0
    for loc in path:
        gain = k.resource_gain(loc)
        if gain:
            total += gain * held(k, loc)
    return total


def _memo(k: Knowledge, key: tuple, part: Part, where: str, moving: list[str]) -> float:
    """`part(k, where, moving)`, kept in `k.memo` under `key`."""
    known = k.memo.get(key)
    if known is None:
        known = k.memo[key] = part(k, where, moving)
    return known


def _arriving(k: Knowledge, dest: str, moving: list[str]) -> float:
    """What a group gains at its destination: a fight there, or the place held, less the
    risks of standing there (and, moving the protagonist, its guard there, 2.1)."""
    here = k.blocks.get(dest, [])
    arriving = here + moving
    score = 0.0
    if k.enemy_at.get(dest):
        # what the group adds to the fight: blocks of ours already there (a siege laid,
        # 8.9) would fight it without them, and a stack grew past moving for a castle
        # its first blocks were taking alone
        score += attack_value(k, dest, moving, arriving)
        score -= attack_value(k, dest, [], here) if here else 0.0
    else:
        before = k.view["castles"].get(dest)
        score += k.castle_points(dest, k.side) - k.castle_points(dest, before)
        if not k.blocks.get(dest):
            score += capture_risk(k, dest)  # an empty castle of ours garrisoned
        score -= exposure(k, dest, arriving) - exposure(k, dest, k.blocks.get(dest, []))
        score -= crowding(k, dest, len(k.blocks.get(dest, [])), len(arriving))
        share = doomed(k, dest, arriving)  # asked once: every option's arrival asks it
        score -= (share * at_risk(k, arriving) if share else 0.0) - _doom_here(k, dest)
        score -= share * k.resource_gain(dest)
        score -= LONE * alone(k, dest, arriving)
    if k.protagonist in moving:
        need_there = max(4.0, 1.5 * k.threat(dest))
        score -= guard_shortfall(k, dest, arriving, need_there)
    return score


def _leaving(k: Knowledge, origin: str, moving: list[str]) -> float:
    """What a group's leaving costs its place: a castle left empty reverts (4.3), and
    the blocks staying are more exposed and may fall short of the guard it needs."""
    here = k.blocks.get(origin, [])
    staying = [b for b in here if b not in moving]
    score = 0.0
    if not staying and not k.enemy_at.get(origin):
        natural = k.comp.locations[origin].castle
        score += k.castle_points(origin, natural) - k.castle_points(origin, k.side)
        score -= capture_risk(k, origin)
    score -= exposure(k, origin, staying) - exposure(k, origin, here)
    score -= doom(k, origin, staying) - _doom_here(k, origin)
    need = k.guard_needed(origin)
    if k.protagonist in moving:
        score += guard_shortfall(k, origin, here, need)
    elif need:
        score -= guard_shortfall(k, origin, staying, need) - guard_shortfall(k, origin, here, need)
    return score


def hunt(k: Knowledge, origin: str, dest: str, moving: list[str]) -> float:
    """Roads a group closes on the nearest enemy stack it should beat in battle (8.5: the
    impact it brings against the count seen there), within HUNT_RANGE: a strong force far
    from any resource still has work, and marches to it."""
    mine = k.strength(moving)
    prey = k.memo.get(("prey", mine))
    if prey is None:
        prey = k.memo[("prey", mine)] = [
            e for e in k.enemy_at if should_win(mine, k.enemy_strength(e))
        ]
    if not prey:
        return 0.0
    before = min(k.dist[origin].get(e, 99) for e in prey)
    if before > HUNT_RANGE:
        return 0.0
    after = min(k.dist[dest].get(e, 99) for e in prey)
    return float(before - after)


def score_muster(k: Knowledge, action: dict) -> float:
    """7.2: more blocks on the map, where a guard is short or the enemy is near."""
    blocks, loc = action["blocks"], action["to"]
    score = 1.0 * len(blocks) + 0.3 * sum(k.comp.blocks[b].mon for b in blocks)
    here = k.blocks.get(loc, [])
    need = k.guard_needed(loc)
    if need:
        score += guard_shortfall(k, loc, here, need) - guard_shortfall(k, loc, here + blocks, need)
    if k.enemy_at.get(loc):
        score += attack_value(k, loc, blocks, here + blocks) / 2
    score -= crowding(k, loc, len(here), len(here) + len(blocks))
    return score - exposure(k, loc, here + blocks) + exposure(k, loc, here)


def score_mori(k: Knowledge, action: dict) -> float:
    """9.3: Mōri blocks to Osaka cost a card each; worth it with spare cards or when Osaka
    needs a stronger guard."""
    blocks = action["blocks"]
    # a cast, not a check: the engine lists a Mōri option only on a board with an entry
    # (rules/decisions/movement._mori), and this only scores listed options
    entry = cast(str, k.comp.mori_entry)
    here = k.blocks.get(entry, [])
    need = k.guard_needed(entry)
    gain = 0.45 * sum(k.comp.blocks[b].mon for b in blocks)
    if need:
        gain += guard_shortfall(k, entry, here, need) - guard_shortfall(
            k, entry, here + blocks, need
        )
    gain -= crowding(k, entry, len(here), len(here) + len(blocks))
    spare = len(k.hand) - len(action["cards"]) >= 4
    return gain - sum(card_value(k, c) for c in action["cards"]) - (0 if spare else 2.0)
