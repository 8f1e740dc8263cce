"""A fuzzing harness for every document a person can hand to `seki` (issue 11): mutated
turn files, join files, packets, game definitions, identity files and archive files go
through the real commands (click's runner on the real CLI: `adjudicate`, `view`,
`turn check`, `turn sign`, `keys show`, `join`, `verify`), and each outcome is judged:

- no traceback and no "internal error" ever (exit 70 is a bug);
- a refusal is exit 1 (or 2) with a one-line reason;
- a refused turn or join file leaves the game as it was (its records, sealed states,
  public state, packets and accepted turn files, compared byte for byte);
- no run takes longer than `HANG_SECONDS`;
- `verify` notices every change to an archive file it covers (all but `UNCHECKED`) that
  is not only line ends or trailing blanks (or, in the component set the archive
  carries, comments and layout: game.txt names the set by its manifests' meaning).

Used by tests/test_fuzz.py (a small count in CI) and bench/fuzz.py (any count, nightly).
Mutations are seeded, so a failure names the seed that replays it.
"""

from __future__ import annotations

import hashlib
import random
import shutil
import signal
import subprocess
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import CliRunner

from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto.canonical import canonicalise
from sekigahara_pbem.protocol.component_files import components_hash
from sekigahara_pbem.refusal import ExitStatus
from sekigahara_pbem.rules.components import ComponentError

HANG_SECONDS = 20
# Archive files verify may ignore: the lock, git's ignore list and attributes (how git
# checks files out; seki reads them one way whatever git did), the referee's own sealed
# secrets (verify uses the revealed ones).
UNCHECKED = (".lock", ".gitignore", ".gitattributes", "referee/secrets.txt")
GAME_PARTS = ("records", "sealed", "public", "packets", "turns", "game.txt", "joins")
HOSTILE = [
    "", "~", "null", "-1", "0", "99999999999999999999999", "1e309", ".nan", "true",
    "[]", "{}", "[[[[[[[[[[]]]]]]]]]]", "&a [*a, *a, *a]", "!!python/object:os.system x",
    "x" * 5000, "Kyōto\u202e", "\x00", "\ud7ff", "'\\u0000'", "{type: resign}",
    "[{type: plan, plan: {deploy: [{block: any}]}}]", "ishida", "tokugawa", "ukita-2a",
]  # fmt: skip


@dataclass
class Outcome:
    runs: Counter = field(default_factory=Counter)  # (entry point, exit code) -> runs
    failures: list = field(default_factory=list)  # (seed, entry point, what went wrong)
    slowest: float = 0.0
    unnoticed: Counter = field(default_factory=Counter)  # archive file -> mutations verify passed


def mutate(text: str, rnd: random.Random) -> str:
    """One to three mutations of a document: bytes, lines or YAML values."""
    for _ in range(rnd.randint(1, 3)):
        text = rnd.choice(MUTATORS)(text, rnd)
    return text


def _flip(text: str, rnd: random.Random) -> str:
    data = bytearray(text.encode("utf-8", errors="surrogatepass"))
    if data:
        i = rnd.randrange(len(data))
        data[i] ^= 1 << rnd.randrange(8)
    return data.decode("utf-8", errors="replace")


def _cut(text: str, rnd: random.Random) -> str:
    i, j = sorted(rnd.randrange(len(text) + 1) for _ in range(2))
    return text[:i] + text[j:]


def _repeat(text: str, rnd: random.Random) -> str:
    i, j = sorted(rnd.randrange(len(text) + 1) for _ in range(2))
    return text[:j] + text[i:j] * rnd.randint(1, 40) + text[j:]


def _lines(text: str, rnd: random.Random) -> str:
    lines = text.split("\n")
    i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
    choice = rnd.randrange(3)
    if choice == 0:
        lines[i], lines[j] = lines[j], lines[i]
    elif choice == 1:
        lines.insert(i, lines[j])
    else:
        del lines[i]
    return "\n".join(lines)


def _value(text: str, rnd: random.Random) -> str:
    """Replace the value of one `key: value` line (a YAML scalar) with a hostile one."""
    lines = text.split("\n")
    keyed = [i for i, line in enumerate(lines) if ": " in line]
    if not keyed:
        return text
    i = rnd.choice(keyed)
    head = lines[i].split(": ", 1)[0]
    lines[i] = f"{head}: {rnd.choice(HOSTILE)}"
    return "\n".join(lines)


def _crlf(text: str, rnd: random.Random) -> str:
    return text.replace("\n", rnd.choice(["\r\n", "\r", "\n\n", " \n", "\n> "]))


MUTATORS = (_flip, _flip, _cut, _repeat, _lines, _value, _value, _crlf)


class Table:
    """A small real game to fuzz against: keys, a game, both joins, a first record, a
    valid signed bid of each side, and a short revealed archive for `verify`."""

    def __init__(self, root: Path):
        self.root, self.runner = root, CliRunner()
        self.seki("ref", "keys", "new", "ref")
        for name in ("alice", "bob"):
            (root / f"{name}.pub").write_text(self.seki(name, "keys", "new", name).output)
        self.game = root / "g"
        pubs = ("--ishida", str(root / "alice.pub"), "--tokugawa", str(root / "bob.pub"))
        self.seki("ref", "game", "new", str(self.game), "--key", "ref", *pubs)
        joins = [root / "join-alice.txt", root / "join-bob.txt"]
        for name, path in zip(("alice", "bob"), joins, strict=True):
            self.seki(name, "join", str(self.game / "game.txt"), "--key", name, "--out", str(path))
        self.seki("ref", "adjudicate", str(self.game), *map(str, joins), "--key", "ref")
        seeds = [root / "seed-alice.txt", root / "seed-bob.txt"]
        for name, path, theirs in zip(("alice", "bob"), seeds, joins[::-1], strict=True):
            self.seki(name, "join", str(theirs), "--key", name, "--out", str(path))
        self.seki("ref", "adjudicate", str(self.game), *map(str, seeds), "--key", "ref")
        self.packet = self.game / "packets" / "000001-ishida.txt"
        self.turn = root / "turn.txt"
        self.seki("alice", "play", str(self.packet), "--key", "alice", "--choose", "1",
                  "--out", str(self.turn))  # fmt: skip
        self.join = joins[0]
        self.identity = root / "alice" / "alice.identity"
        self.snapshot = self._git("rev-parse", "HEAD")
        self.archive = self._archive()

    def seki(self, who: str, *args: str):
        result = self.runner.invoke(app, list(args), env={"SEKI_HOME": str(self.root / who)})
        if result.exit_code != 0:
            raise RuntimeError(f"setting up the fuzz table: seki {' '.join(args)}: {result.output}")
        return result

    def _git(self, *args: str) -> str:
        done = subprocess.run(["git", "-C", str(self.game), *args], capture_output=True, text=True)
        return done.stdout.strip()

    def _archive(self) -> Path:
        """A copy of the game played a few records on, then revealed."""
        archive = self.root / "archive"
        shutil.copytree(self.game, archive)
        self.runner.invoke(app, ["adjudicate", str(archive), str(self.turn), "--key", "ref"],
                           env={"SEKI_HOME": str(self.root / "ref")})  # fmt: skip
        self.seki("ref", "reveal", str(archive), "--key", "ref", "--force")
        return archive

    def fingerprint(self) -> str:
        digest = hashlib.sha256()
        for part in GAME_PARTS:
            base = self.game / part
            paths = sorted(base.rglob("*")) if base.is_dir() else [base]
            for path in paths:
                if path.is_file():
                    digest.update(str(path.relative_to(self.game)).encode())
                    digest.update(path.read_bytes())
        return digest.hexdigest()

    def reset(self) -> None:
        self._git("reset", "-q", "--hard", self.snapshot)
        self._git("clean", "-q", "-fdx")


@contextmanager
def deadline(seconds: int):
    def hang(signum, frame):
        raise TimeoutError(f"no answer after {seconds} s")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(table: Table, count: int, seed: int, verify_every: int = 50) -> Outcome:
    """`count` mutated inputs, spread over the entry points, from `seed`."""
    out = Outcome()
    sources = {
        "turn": table.turn.read_text(),
        "join": table.join.read_text(),
        "packet": table.packet.read_text(),
        "game": (table.game / "game.txt").read_text(),
        "identity": table.identity.read_text(),
    }
    fuzz = table.root / "fuzz"
    fuzz.mkdir(exist_ok=True)
    for i in range(count):
        case = seed * 1_000_003 + i
        rnd = random.Random(case)
        if verify_every and i % verify_every == verify_every - 1:
            _one(table, out, case, "verify", lambda r=rnd: _verify(table, out, r))
            continue
        kind = rnd.choice(("turn", "turn", "turn", "join", "packet", "packet", "game", "identity"))
        path = fuzz / f"{kind}.txt"
        path.write_text(mutate(sources[kind], rnd), encoding="utf-8", errors="surrogatepass")
        for point, who, args in _entry_points(table, kind, path, fuzz):
            _one(table, out, case, point, lambda w=who, a=args: _invoke(table, w, a))
    return out


def _entry_points(table: Table, kind: str, path: Path, fuzz: Path) -> list:
    packet, game = str(table.packet), str(table.game)
    adjudicate = ("adjudicate", "ref", ["adjudicate", game, str(path), "--key", "ref"])
    if kind == "join":
        return [adjudicate]
    if kind == "turn":
        check = ["turn", "check", str(path), "--packet", packet, "--key", "alice"]
        return [("turn check", "alice", check), adjudicate]
    if kind == "packet":
        return [
            ("view", "alice", ["view", str(path), "--key", "alice"]),
            ("turn check", "alice", ["turn", "check", str(table.turn), "--packet", str(path),
                                     "--key", "alice"]),
        ]  # fmt: skip
    if kind == "game":
        out = fuzz / "join-out.txt"
        out.unlink(missing_ok=True)
        return [("join", "carol", ["join", str(path), "--key", "alice", "--out", str(out)])]
    keys = fuzz / "keys"
    keys.mkdir(exist_ok=True)
    identity = keys / "alice.identity"
    identity.write_bytes(path.read_bytes())
    identity.chmod(0o600)
    return [
        ("keys show", "alice", ["keys", "show", "alice", "--dir", str(keys)]),
        ("view (key)", "alice", ["view", packet, "--key", str(identity)]),
    ]


def _invoke(table: Table, who: str, args: list[str]) -> tuple[int, str]:
    home = table.root / who
    if who == "carol":
        shutil.rmtree(home, ignore_errors=True)
    result = table.runner.invoke(app, args, env={"SEKI_HOME": str(home)})
    return result.exit_code, result.output


def _verify(table: Table, out: Outcome, rnd: random.Random) -> tuple[int, str]:
    files = [p for p in sorted(table.archive.rglob("*")) if p.is_file() and ".git" not in p.parts]
    target = rnd.choice(files)
    saved = target.read_bytes()
    try:
        changed = mutate(saved.decode("utf-8", errors="replace"), rnd).encode("utf-8")
        target.write_bytes(changed)
        result = table.runner.invoke(app, ["verify", str(table.archive)])
        same = canonicalise(changed.decode("utf-8", "replace")) == canonicalise(saved.decode())
        same = same or _same_set(table.archive, target)
        name = str(target.relative_to(table.archive))
        if result.exit_code == 0 and not same:  # line ends and trailing blanks do not count
            out.unnoticed[name] += 1
            if name not in UNCHECKED:
                return 99, f"verify passed a changed {name}"
        return result.exit_code, result.output
    finally:
        target.write_bytes(saved)


def _same_set(archive: Path, target: Path) -> bool:
    """A carried component file changed only where the set's hash does not look (a
    comment, the layout): still the packaged set the fuzz table's game names."""
    if target.parent != archive / "components":
        return False
    try:
        return components_hash(target.parent) == components_hash()
    except ComponentError:
        return False


# how a run may end on hostile input: done, or a named refusal (a document that does not
# verify is one: exit 3, refusal.ExitStatus)
NAMED = (ExitStatus.DONE, ExitStatus.REFUSED, ExitStatus.USAGE, ExitStatus.NOT_VERIFIED)


def _one(table: Table, out: Outcome, seed: int, point: str, call) -> None:
    before = table.fingerprint() if point == "adjudicate" else None
    start = time.perf_counter()
    try:
        with deadline(HANG_SECONDS):
            code, text = call()
    except TimeoutError as exc:
        out.failures.append((seed, point, f"hang: {exc}"))
        return
    out.slowest = max(out.slowest, time.perf_counter() - start)
    out.runs[(point, code)] += 1
    if code not in NAMED or "Traceback" in text or "internal error" in text:
        out.failures.append((seed, point, f"exit {code}: {text.strip()[-300:]}"))
    elif point == "adjudicate":
        if code != 0 and table.fingerprint() != before:
            out.failures.append((seed, point, "a refused file changed the game"))
        if code == 0:
            table.reset()  # a mutation the referee accepts (e.g. blank lines) is fine
