"""Times and deadlines in a two-party game (docs/two-party.md, "Deadlines").

There is no third clock: each record and reveal says when its author wrote it (its
clock, signed). What the other side and `seki verify` can check of that word, they do:

- no document is dated ahead of its receiver's clock (the command's `now`) by more than
  TOLERANCE: a forfeit cannot be dated into its deadline;
- times never go back: a record is dated no earlier than the record before it (record 2
  than both joins), a reveal no earlier than the last record it names: a record cannot
  be back-dated to start the other side's time before it was the other side's turn;
- a forfeit claim stands only in a game with a deadline, as the only entry of its record,
  naming the record before it, and dated the deadline or more after it; one of a missing
  record follows the claimant's own record; one of a missing reveal is made by a side
  that revealed first, and falls if the reveal it says is missing was signed within the
  deadline: a reveal's signed time counts.

The receiver checks all of this as it takes a record or reveal in; `seki verify` checks it
again over the whole archive (but the receiver's clock), so it judges every forfeit anew.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from ..crypto import signing
from ..protocol import clock
from ..protocol import documents as docs
from ..refusal import N_, Code, Refusal, quoted
from ..rules.vocab import other
from . import files
from .exchange import DEADLINES, FORFEIT, REVEAL, Cheat

TOLERANCE = timedelta(minutes=15)  # how far the two sides' clocks may disagree


def written(text: str, where: str) -> datetime:
    """When a record or reveal on file says it was written (its author's clock)."""
    body, _signature = signing.split(text)
    data = docs.load_yaml(body, where, plain=True)
    stamp = data.get("written") if isinstance(data, dict) else None
    return clock.parse_time(stamp, f"{where}: written")


def latest(paths: list[Path]) -> datetime | None:
    """The time a record or reveal that follows these records (on file, each checked as it
    came) may not precede: the last one's, which none before it follows in time; after
    the joins, the later of the two."""
    times = [written(docs.read_capped(p), p.name) for p in paths[-2 if len(paths) == 2 else -1 :]]
    return max(times) if times else None


def reveal_times(root: Path) -> dict[str, datetime]:
    """When each reveal in a side's directory says it was written, by side (each was
    checked when it was filed)."""
    out = {}
    for path in sorted((root / "reveals").glob("*.txt")):
        body, _signature = signing.split(docs.read_capped(path))
        data = docs.load(body, path.name, files.REVEAL_FORMAT, plain=True)
        out[path.stem] = clock.parse_time(data.get("written"), f"{path.name}: written")
    return out


def check_time(at: datetime, after: datetime | None, now: str | None, where: str) -> None:
    """A document dated `at`, following one dated `after`, taken in at `now` by its
    receiver's clock (None: `seki verify`, which has no clock of the game's)."""
    if now is not None and at > clock.parse_time(now, "now") + TOLERANCE:
        raise Cheat(
            N_(
                "{record} is dated {time}, ahead of this side's clock ({now}) by more than "
                "{minutes} minutes"
            ),
            rule=DEADLINES,
            record=where,
            time=clock.format_time(at),
            now=now,
            minutes=int(TOLERANCE.total_seconds() // 60),
        )
    if after is not None and at < after:
        raise Cheat(
            N_(
                "{record} is dated {time}, before the record it follows ({before}): times "
                "never go back"
            ),
            rule=DEADLINES,
            record=where,
            time=clock.format_time(at),
            before=clock.format_time(after),
        )


def check_forfeit(
    game: files.Game,
    received: files.Received,
    before: list[Path],
    reveals: dict[str, datetime],
    where: str,
) -> None:
    """A forfeit claim in `received` (the record after `before`) judged by the signed
    times: the deadline after the record before it and, for a missing reveal, `reveals`
    (the times the reveals at hand say they were written)."""
    entries = received.record.entries
    claims = [
        e.action for e in entries if isinstance(e.action, dict) and e.action.get("type") == FORFEIT
    ]
    if not claims:
        return
    claim, claimant = claims[0], received.record.side
    last = before[-1] if before else None
    missing = claim.get("missing")
    if (
        game.deadline_hours is None
        or last is None
        or len(entries) != 1
        or (missing is None and not last.name.endswith(f"-{claimant}.txt"))
    ):
        raise Refusal(
            N_("a forfeit claimed where the game allows none"),
            code=Code.NOT_ASKED,
            rule=DEADLINES,
            at=where,
        )
    named = claim.get("record")
    if type(named) is not int or named != len(before) - 1:
        raise Cheat(
            N_("{record}: the forfeit claim names record {named}, not the record before it ({n})"),
            rule=DEADLINES,
            record=where,
            named=quoted(named),
            n=len(before) - 1,
        )
    due = written(docs.read_capped(last), last.name) + timedelta(hours=game.deadline_hours)
    if received.written < due:
        raise Refusal(
            N_("a forfeit claimed before the deadline"),
            code=Code.NOT_ASKED,
            rule=DEADLINES,
            at=where,
        )
    if missing != REVEAL:
        return
    accused = other(claimant)
    if accused in reveals and reveals[accused] < due:
        raise Cheat(
            N_(
                "{record}: the forfeit claim says {side} did not reveal within the deadline "
                "({due}); its reveal is signed {time}"
            ),
            rule=DEADLINES,
            record=where,
            side=accused,
            due=clock.format_time(due),
            time=clock.format_time(reveals[accused]),
        )
    if claimant in reveals and reveals[claimant] > received.written:
        raise Cheat(
            N_("{record}: {side} claims the other's reveal is missing before it revealed its own"),
            rule=DEADLINES,
            record=where,
            side=claimant,
        )
