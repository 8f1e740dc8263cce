"""The game directory on disk: where each document lives, atomic writes, the lock that keeps
two adjudications apart, and the git commit that closes each step.

Layout (docs/protocol.md):
  game.txt                    the signed game definition
  joins/<side>.txt            the players' signed joins (commitments to their seeds)
  joins/<side>-seed.txt       each player's seed, sealed to the referee (protocol/joins.py)
  referee/secrets.txt         the referee seed and the game's state key, sealed to the referee
  turns/<seq>-<side>.txt      accepted turn files, named by the record that applied them
  records/<seq>.txt           the signed hash chain, one record per accepted input
  sealed/<seq>.txt            the full state after that record, sealed to the state key
  packets/<seq>-<side>.txt    what each player was sent after that record
  requests/<seq>-takeback-<side>.txt, <seq>-consent-<side>.txt
                              takeback requests and their answers (protocol/takebacks.py)
  public/state.yaml           the public view now (also hashed in the last record)
  rejected/<n>-<name>.sealed  refused inputs with the reason, sealed to the state key
  reveal.txt                  after the game: seeds and the state key, signed

The last record is the current state: everything for seq N is written before
records/N.txt, which is renamed into place last, so a crash before that leaves seq N-1
current and a rerun overwrites the leftovers.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from ..crypto.keys import Identity
from ..refusal import N_, Code, Refusal, UserError
from .gitsafe import git_command

SEQ_DIGITS = 6
_RECORD = re.compile(r"(\d{6})\.txt")
SOLO_SETTINGS = "solo.json"  # marks a `seki solo` folder, whose game is its game/ (play/solo.py)
NAMED_GAMES = 5  # at most this many games a folder holds are named in a refusal


def game_root(path: Path) -> Path:
    """The game directory `path` names: itself, or the game a `seki solo` folder holds
    (solo.json beside game/), so that `seki verify solo` checks the game the player
    played rather than refusing the folder seki made for it."""
    inner = path / "game"
    if (
        not (path / "game.txt").is_file()
        and (path / SOLO_SETTINGS).is_file()
        and (inner / "game.txt").is_file()
    ):
        return inner
    return path


class StoreError(UserError):
    """The game directory is missing, locked, or not in the expected shape. Not a refusal
    (the referee would keep the input it was reading as the sender's to fix): a state of
    the store, said to the person who ran the command."""

    code = Code.STORE


def seq_name(seq: int) -> str:
    return f"{seq:0{SEQ_DIGITS}d}"


class GameDir:
    def __init__(self, root: Path):
        self.root = root

    @property
    def definition(self) -> Path:
        return self.root / "game.txt"

    def join(self, side: str) -> Path:
        return self.root / "joins" / f"{side}.txt"

    def seed(self, side: str) -> Path:
        return self.root / "joins" / f"{side}-seed.txt"

    @property
    def secrets(self) -> Path:
        return self.root / "referee" / "secrets.txt"

    def record(self, seq: int) -> Path:
        return self.root / "records" / f"{seq_name(seq)}.txt"

    def sealed(self, seq: int) -> Path:
        return self.root / "sealed" / f"{seq_name(seq)}.txt"

    def turn(self, seq: int, side: str) -> Path:
        return self.root / "turns" / f"{seq_name(seq)}-{side}.txt"

    def packet(self, seq: int, side: str) -> Path:
        return self.root / "packets" / f"{seq_name(seq)}-{side}.txt"

    def request(self, seq: int, kind: str, side: str) -> Path:
        """A takeback request or its answer, named by the record it would undo."""
        return self.root / "requests" / f"{seq_name(seq)}-{kind}-{side}.txt"

    @property
    def public_state(self) -> Path:
        return self.root / "public" / "state.yaml"

    @property
    def reveal(self) -> Path:
        return self.root / "reveal.txt"

    def last_seq(self) -> int:
        """The seq of the last record (0 before the game has started)."""
        folder = self.root / "records"
        if not folder.is_dir():
            return 0
        seqs = [int(m.group(1)) for p in folder.iterdir() if (m := _RECORD.fullmatch(p.name))]
        return max(seqs, default=0)

    def remove_leftovers(self) -> list[Path]:
        """Files an interrupted step wrote for a record that was never written."""
        last = self.last_seq()
        gone = []
        for folder in ("sealed", "packets", "turns"):
            path = self.root / folder
            for name in sorted(os.listdir(path)) if path.is_dir() else []:
                if name[:SEQ_DIGITS].isdigit() and int(name[:SEQ_DIGITS]) > last:
                    (path / name).unlink()
                    gone.append(path / name)
        return gone

    def require(self) -> None:
        """A game directory, or a refusal; a folder that holds games (a folder of games,
        an archive unpacked one level up) is refused naming them, to give one instead."""
        if self.definition.is_file():
            return
        inside = self._games_inside()
        if inside:
            raise StoreError(
                N_("{path} is not a game directory (no game.txt); give one in it: {games}"),
                path=self.root,
                games=", ".join(str(p) for p in inside),
            )
        raise StoreError(N_("{path} is not a game directory (no game.txt)"), path=self.root)

    def _games_inside(self) -> list[Path]:
        """The first few folders right inside this one that hold a game.txt."""
        if not self.root.is_dir():
            return []
        found = (p for p in sorted(self.root.iterdir()) if (p / "game.txt").is_file())
        return [p for _, p in zip(range(NAMED_GAMES), found, strict=False)]

    def reject(self, name: str, sealed: str) -> Path:
        """Keep a refused input with the reason (sealed, protocol/chain.seal_rejected), so
        nothing a player sent is lost."""
        folder = self.root / "rejected"
        folder.mkdir(parents=True, exist_ok=True)
        n = len(list(folder.iterdir())) + 1
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:60] or "input"
        path = folder / f"{n:04d}-{safe}.sealed"
        write_atomic(path, sealed)
        return path


def write_atomic(path: Path, data: bytes | str) -> None:
    """Write to a temporary file, flush it to disk, then rename it into place."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_new(path: Path, text: str) -> None:
    """Write a file a person asked for, never over one that exists (it may be unsent work)."""
    if path.exists():
        raise Refusal(N_("{path} exists; not overwriting it"), path=path)
    write_atomic(path, text)


@contextmanager
def locked(root: Path) -> Iterator[None]:
    """Hold the game's lock; a second adjudication is refused at once, not queued."""
    from filelock import FileLock, Timeout  # portable (fcntl here, msvcrt on Windows)

    if not root.is_dir():
        raise StoreError(N_("{path}: no such game directory"), path=root)
    lock = FileLock(root / ".lock", timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise StoreError(
            N_("{path} is locked: another seki command is working on this game"), path=root
        ) from None
    try:
        yield
    finally:
        lock.release()


_NAME, _EMAIL = "seki referee", "referee@seki.invalid"  # the archive's commits


def _git(
    root: Path, *args: str, stdin: bytes = b"", check: bool = True, scratch: bool = False
) -> bytes:
    """git's output on `root` (gitsafe: nothing the directory configures runs); a failure
    is a StoreError, or b"" with `check` false. With `scratch`, on seki's own index."""
    env = {**os.environ, "GIT_COMMITTER_NAME": _NAME, "GIT_COMMITTER_EMAIL": _EMAIL}
    if scratch:
        env["GIT_INDEX_FILE"] = str(root.absolute() / ".git" / _INDEX)
    try:
        done = subprocess.run(git_command(root, *args), capture_output=True, env=env,
                              check=False, input=stdin)  # fmt: skip
    except FileNotFoundError:  # boundary: no git program to run
        raise StoreError(N_("git is not installed; the game archive needs it")) from None
    if done.returncode != 0 and check:
        said = (done.stderr.strip() or done.stdout.strip()).decode("utf-8", "replace")
        raise StoreError(N_("git {command} failed: {output}"), command=args[0], output=said)
    return done.stdout if done.returncode == 0 else b""


def _ident() -> str:
    """`git var GIT_COMMITTER_IDENT` for the referee's commits, without running git:
    the fixed name and address, now, and the local offset from UTC."""
    now = time.time()
    offset = round(
        (datetime.fromtimestamp(now).astimezone().utcoffset() or timedelta()).total_seconds() / 60
    )
    zone = f"{'-' if offset < 0 else '+'}{abs(offset) // 60:02d}{abs(offset) % 60:02d}"
    return f"{_NAME} <{_EMAIL}> {int(now)} {zone}"


# Every file of an archive is kept byte for byte: git must not turn its LF line ends into
# CRLF in a checkout (Git for Windows' core.autocrlf=true does, for files it takes as text).
GITATTRIBUTES = "* -text\n"


def git_init(root: Path) -> None:
    _git(root, "init")
    (root / ".gitignore").write_text(".lock\n.*.tmp\n", encoding="utf-8")
    (root / ".gitattributes").write_text(GITATTRIBUTES, encoding="utf-8")


# The index seki builds each commit's tree in: a file of its own, so what a directory's
# index holds is never read (it could name any path) and the tree is all the files as
# they are on disk; the repository's own index is then set to the tree (`read-tree`).
_INDEX = "seki-index"
_FILE, _LINK = "100644", "120000"  # every file is kept as a plain one


def git_commit(root: Path, message: str, signer: Identity) -> None:
    """Commit everything in the game directory, SSH-signed by `signer` (the referee);
    nothing to commit is fine. It runs under the game's lock, so a `.git/index.lock`
    found here was left by a git killed with an earlier seki run (Ctrl-C, an OOM kill):
    it is stale, and removed, or every later commit would fail until a person deleted
    it. Made with plumbing alone (`_tree`, `_signed_commit`): `git add` and `git commit`
    would run the filters, hooks and signing programs the directory names (gitsafe)."""
    tree, head = _tree_and_head(root)
    if head and head[1] == tree:  # nothing to commit
        return
    _signed_commit(root, message, signer, tree, head[0] if head else "")
    _git(root, "read-tree", tree)


def as_committed(root: Path) -> bool:
    """Whether every file of the game directory is as the last commit holds it: seki
    commits each step whole, so no step was interrupted since (`recover` has nothing to
    do, and need not read the game to find that out)."""
    tree, head = _tree_and_head(root)
    return bool(head) and head[1] == tree


def _tree_and_head(root: Path) -> tuple[str, list[str]]:
    """The tree of the files as they are, and the last commit with its tree ([] before
    the first)."""
    _clear_stale_locks(root / ".git")
    tree = _tree(root)
    return tree, _git(root, "rev-parse", "HEAD", "HEAD^{tree}", check=False).decode().split()


def _clear_stale_locks(git: Path) -> None:
    """The locks a git killed with an earlier seki run leaves (`git_commit`: under the
    game's lock, none is another's): the index's, seki's own index's (`_tree`), and
    HEAD's and its branch's (`update-ref` in `_signed_commit`). Any one left makes every
    later commit fail until a person deletes it."""
    for name in ("index.lock", f"{_INDEX}.lock", "HEAD.lock"):
        (git / name).unlink(missing_ok=True)
    heads = git / "refs" / "heads"
    if heads.is_dir():
        for lock in heads.glob("*.lock"):
            lock.unlink(missing_ok=True)


def _tree(root: Path) -> str:
    """The tree of every file in the game directory that no ignore rule excludes, written
    byte for byte: `hash-object --no-filters` reads no attribute, so no filter or
    end-of-line conversion applies, and a symbolic link is kept as a link, never
    followed (it could point at a key). A file as it was when last hashed (`_Hashed`)
    is not hashed again, and the same files give the same tree without building it: an
    archive grows to a thousand files, and hashing them all at every commit made a
    week-7 adjudication two and a half times a week-1 one."""
    index = root / ".git" / _INDEX
    index.unlink(missing_ok=True)
    listed = _git(root, "ls-files", scratch=True).split(b"\0")  # all files: the index is empty
    hashed = _Hashed.load(root)
    entries: list[tuple[str, bytes]] = []
    files: list[tuple[bytes, tuple[int, ...]]] = []
    top = os.fsencode(root)  # paths as bytes: a thousand pathlib objects cost more than git
    for name in sorted(n for n in listed if n and not n.endswith(b"/")):  # a "/": a repo
        path = os.path.join(top, name)
        try:
            status = os.lstat(path)
        except FileNotFoundError:  # boundary: gone since git listed it
            continue
        if stat.S_ISLNK(status.st_mode):
            entries.append((_LINK + " " + _blob(root, os.readlink(path)), name))
        elif stat.S_ISREG(status.st_mode):
            seen: tuple[int, ...] = (
                status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino
            )  # fmt: skip
            blob = hashed.blob(name, seen)
            if blob:
                entries.append((f"{_FILE} {blob}", name))
            else:
                files.append((name, seen))
    if files:
        paths = b"".join(_quoted(name) + b"\n" for name, _ in files)
        blobs = _git(root, "hash-object", "--stdin-paths", stdin=paths).decode().split()
        for (name, seen), blob in zip(files, blobs, strict=True):
            entries.append((f"{_FILE} {blob}", name))
            hashed.files[name] = (seen, blob)
    entries.sort(key=lambda entry: entry[1])
    info = b"".join(f"{entry}\t".encode() + name + b"\0" for entry, name in entries)
    listing = hashlib.sha256(info).hexdigest()
    if not (hashed.tree and hashed.listing == listing):
        _git(root, "update-index", stdin=info, scratch=True)
        hashed.tree = _git(root, "write-tree", scratch=True).decode().strip()
        hashed.listing = listing
        index.unlink(missing_ok=True)
    elif not files:
        return hashed.tree
    hashed.save(root, {name for _, name in entries})
    return hashed.tree


_HASHED = "seki-hashed.json"  # in .git: `_Hashed`
_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


@dataclass
class _Hashed:
    """What seki hashed when it last built a tree: each file's blob with the size, times
    and inode it had (seki replaces a file by renaming a new one over it, so its inode
    changes with its bytes), and that tree with a hash of its listing. Kept in the
    repository's .git, which only the referee writes; anything unreadable in it is
    taken as nothing known, so at worst every file is hashed again."""

    files: dict[bytes, tuple[tuple[int, ...], str]] = field(default_factory=dict)
    tree: str = ""
    listing: str = ""

    def blob(self, name: bytes, seen: tuple[int, ...]) -> str:
        known = self.files.get(name)
        return known[1] if known and known[0] == seen else ""

    @classmethod
    def load(cls, root: Path) -> _Hashed:
        try:
            data = json.loads((root / ".git" / _HASHED).read_text(encoding="utf-8"))
            files = {
                os.fsencode(name): (tuple(int(n) for n in seen), blob)
                for name, (seen, blob) in data["files"].items()
                if len(seen) == 4 and _OBJECT_ID.fullmatch(blob)
            }
            tree, listing = str(data["tree"]), str(data["listing"])
        except (OSError, ValueError, TypeError, KeyError, AttributeError):  # boundary: none yet
            return cls()
        return cls(files, tree if _OBJECT_ID.fullmatch(tree) else "", listing)

    def save(self, root: Path, names: set[bytes]) -> None:
        """Kept for the files of the tree now made (`names`), the others forgotten."""
        files = {
            os.fsdecode(name): [list(seen), blob]
            for name, (seen, blob) in self.files.items()
            if name in names
        }
        data = {"files": files, "tree": self.tree, "listing": self.listing}
        write_atomic(root / ".git" / _HASHED, json.dumps(data))


def _blob(root: Path, data: bytes) -> str:
    return _git(root, "hash-object", "--stdin", stdin=data).decode().strip()


def _quoted(name: bytes) -> bytes:
    """A path as `hash-object --stdin-paths` reads it back (one a line; a line opening
    with a quote is C-quoted): every path is quoted, so a newline or a carriage return in
    a name cannot split or shorten it."""
    out = bytearray(b'"')
    for byte in name:
        if byte in b'"\\':
            out += b"\\" + bytes([byte])
        elif byte < 0x20 or byte == 0x7F:
            out += b"\\%03o" % byte
        else:
            out.append(byte)
    return bytes(out + b'"')


def _signed_commit(root: Path, message: str, signer: Identity, tree: str, parent: str) -> None:
    """The commit git would make, with an SSH signature of the referee's key in its
    `gpgsig` header (namespace "git", as `git commit -S` with gpg.format=ssh makes it),
    made here so that no copy of the key is handed to another program. `git log
    --show-signature` checks it against the game's allowed_signers (docs/crypto.md).
    The ident is made as `git var` makes it, without running git: each run costs a few
    milliseconds, and every adjudication commits."""
    from ..crypto import sshsig

    ident = _ident()
    lines = [f"tree {tree}"] + ([f"parent {parent}"] if parent else [])
    lines += [f"author {ident}", f"committer {ident}"]
    body = message.strip() + "\n"
    payload = "\n".join(lines) + "\n\n" + body
    armour = sshsig.sign(signer.signing, "git", payload.encode("utf-8")).rstrip("\n")
    header = "gpgsig " + armour.replace("\n", "\n ")
    commit = ("\n".join([*lines, header]) + "\n\n" + body).encode("utf-8")
    sha = _git(root, "hash-object", "-t", "commit", "--stdin", stdin=commit).decode().strip()
    _git(root, "update-ref", "-m", f"commit: {message.strip()}", "HEAD", sha, parent)
