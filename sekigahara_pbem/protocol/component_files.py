"""Reading component manifests from disk: the packaged default set, an owner's own, or the
copy a game directory carries.

A game directory holds the three files of the set it was created with (`components/`,
byte for byte as they were read), bound by the hash its game.txt names, so that the game
verifies whatever set later versions of seki ship (docs/protocol.md). Such a copy may come
from anyone: it is read under a size limit and without YAML aliases, like every set read
from disk, and used only if its hash is the one game.txt names.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from ..refusal import N_, Code, Refusal, quoted
from ..rules.component_schema import At
from ..rules.components import ComponentError, Components, build_components
from .documents import PlainLoader, decode, plain_load, safe_load
from .store import write_atomic

MANIFESTS = ("board", "blocks", "cards")
MAX_MANIFEST_BYTES = 1_000_000
CARRIED = "components"  # the folder of a game directory that holds its set
_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_NUMBER_CHARS = 12  # an integer written longer is no count, coordinate or bid


@dataclass(frozen=True)
class ComponentSet:
    """A set as read: its files' text (what a game carries), the checked components, the
    hash that names it, and each manifest's canonical JSON (to say which file differs)."""

    texts: tuple[str, ...]  # in MANIFESTS order
    components: Components
    hash: str
    canonical: tuple[str, ...]


def component_set(directory: Path | None = None) -> ComponentSet:
    """The set in `directory` (board.yaml, blocks.yaml, cards.yaml), or the packaged one."""
    if directory is None:
        return _packaged()
    return _from_disk(tuple(_read(directory / f"{n}.yaml", str(directory / f"{n}.yaml"))
                            for n in MANIFESTS), "")  # fmt: skip


def load_components(directory: Path | None = None) -> Components:
    """Load and check board.yaml, blocks.yaml and cards.yaml (default: the packaged set)."""
    return component_set(directory).components


def components_hash(directory: Path | None = None) -> str:
    """SHA-256 over the canonical JSON of the three manifests, to name a component set;
    comments and layout do not change it."""
    return component_set(directory).hash


def set_named(expected: str, game_id: str, directory: Path | None = None) -> ComponentSet:
    """The set a new game directory is to carry (default: the packaged one), refused
    unless it is the set the game names: a game created or joined with another set
    could not be played by its own files."""
    found = component_set(directory)
    if found.hash != expected:
        raise Refusal(
            N_(
                "game {game} uses component set {theirs}…, this tool has {ours}…: install the "
                "version game.txt names"
            ),
            code=Code.WRONG_VERSION,
            game=game_id,
            theirs=expected[:16],
            ours=found.hash[:16],
        )
    return found


def carry(game_dir: Path, carried: ComponentSet) -> None:
    """Write the set's files into the game directory's components/, as they were read."""
    for name, text in zip(MANIFESTS, carried.texts, strict=True):
        write_atomic(game_dir / CARRIED / f"{name}.yaml", text)


def game_components(game_dir: Path, expected: str) -> Components:
    """The set a game is played with: the copy its directory carries, refused unless its
    hash is `expected` (game.txt's). A directory made before games carried their set has
    none: then this tool's own set, if it is the one named. Every reader of a game
    directory (adjudication, verify, a two-party side, reports) takes the set here."""
    packaged = _packaged()
    folder = game_dir / CARRIED
    if not folder.exists():
        if packaged.hash != expected:
            raise Refusal(
                N_(
                    "made with component set {theirs}…, which the directory does not carry "
                    "({folder}/) and this tool does not have ({ours}…)"
                ),
                code=Code.WRONG_VERSION,
                at="game.txt",
                theirs=expected[:16],
                folder=CARRIED,
                ours=packaged.hash[:16],
            )
        return packaged.components
    texts = tuple(_read(folder / f"{n}.yaml", f"{CARRIED}/{n}.yaml") for n in MANIFESTS)
    found = packaged if texts == packaged.texts else _from_disk(texts, f"{CARRIED}/")
    if found.hash != expected:
        raise Refusal(
            N_("not the component set game.txt names"),
            code=Code.WRONG_VERSION,
            at=_differing(found, packaged, expected),
        )
    return found.components


def _differing(found: ComponentSet, packaged: ComponentSet, expected: str) -> str:
    """The carried file that is not the named set's, when this tool has that set to
    compare with; else the folder (the hash covers the three files at once)."""
    if packaged.hash == expected:
        for name, ours, theirs in zip(MANIFESTS, packaged.canonical, found.canonical, strict=True):
            if ours != theirs:
                return f"{CARRIED}/{name}.yaml"
    return CARRIED


def _read(path: Path, where: str) -> str:
    """A manifest's text, read no further than the size any manifest may have."""
    if not path.is_file():
        raise ComponentError(where, N_("file not found"))
    with open(path, "rb") as f:
        data = f.read(MAX_MANIFEST_BYTES + 1)
    if len(data) > MAX_MANIFEST_BYTES:
        raise ComponentError(where, N_("larger than {limit} bytes"), limit=MAX_MANIFEST_BYTES)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:  # boundary: the codec reports bad bytes by raising
        raise ComponentError(where, N_("not UTF-8 text ({reason})"), reason=exc.reason) from None


@dataclass(frozen=True)
class Unread:
    """A scalar left unconverted, refused with its field by `_json_only`: an integer
    written with more than MAX_NUMBER_CHARS characters (Python takes time to turn long
    digit strings into numbers, and refuses to turn one of more than 4,300 digits back
    into text: sys.get_int_max_str_digits), or one its constructor cannot convert (`!!int
    x`, the date 2026-02-30, where PyYAML raises ValueError)."""

    kind: str  # "long", "integer" or "date"
    text: str


class _Unconverted:
    """Constructors for a set from disk: integers and dates that cannot be, or must not
    be, converted kept as `Unread`."""

    # (the ignores below: a mixin's super() is the PyYAML loader it is mixed into)
    def construct_yaml_int(self, node):  # noqa: ANN001, ANN201 - PyYAML's signature
        if len(node.value) > MAX_NUMBER_CHARS:
            return Unread("long", node.value)
        return _converted(super().construct_yaml_int, node, "integer")  # type: ignore[misc]

    def construct_yaml_timestamp(self, node, values=None):  # noqa: ANN001, ANN201
        return _converted(super().construct_yaml_timestamp, node, "date")  # type: ignore[misc]


class _ManifestLoader(_Unconverted, PlainLoader):
    """PyYAML's own loader of a set from disk: without aliases (PlainLoader)."""


_LOADERS: list[Any] = [_ManifestLoader]  # PyYAML has no types of its own
_FAST: type | None = None
if hasattr(yaml, "CSafeLoader"):  # libyaml, when PyYAML was built with it
    # (ignore: PyYAML ships no types, and CSafeLoader exists only with libyaml)
    class _CManifestLoader(_Unconverted, yaml.CSafeLoader):  # type: ignore[misc, name-defined]
        """libyaml's loader of a set from disk: aliases refused by `plain_load`."""

    _LOADERS.append(_CManifestLoader)
    _FAST = _CManifestLoader


def _converted(construct, node, kind: str) -> object:  # noqa: ANN001 - PyYAML's own
    try:
        return construct(node)
    except (ValueError, OverflowError):  # boundary: int() and datetime() raise
        return Unread(kind, node.value)


for _loader in _LOADERS:
    _loader.add_constructor("tag:yaml.org,2002:int", _loader.construct_yaml_int)
    _loader.add_constructor("tag:yaml.org,2002:timestamp", _loader.construct_yaml_timestamp)
UNREAD = {
    "integer": N_("{value} is not an integer"),
    "date": N_("{value} is not a date"),
}


def _manifest_load(text: str) -> object:
    return plain_load(text, _FAST, _ManifestLoader)


def _parse(text: str, where: str, load) -> object:  # noqa: ANN001 - one of the two loaders
    try:
        return load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f"{where} line {mark.line + 1}" if mark else where
        problem = getattr(exc, "problem", None) or "unreadable"
        raise ComponentError(at, N_("not valid YAML ({problem})"), problem=problem) from None
    except RecursionError:  # boundary: PyYAML's own loader composes by recursion
        raise ComponentError(where, N_("nested too deeply")) from None


def _json_only(value: object, at: At) -> None:
    """Refuse, naming the field, what the hash's canonical JSON cannot hold or must not
    convert: a scalar left Unread, a date, bytes or a set (YAML has them), text with
    a lone surrogate, or one mapping's keys of two kinds (which JSON cannot sort)."""
    if isinstance(value, Unread):
        if value.kind == "long":
            at.fail(
                N_("a number written with {length} characters: at most {most}"),
                length=len(value.text),
                most=MAX_NUMBER_CHARS,
            )
        at.fail(UNREAD[value.kind], value=quoted(value.text))
    if isinstance(value, dict):
        if len({type(k) for k in value}) > 1:
            at.fail(N_("a mapping's keys must be all text or all numbers"))
        for key, item in value.items():
            _json_only(key, at)
            _json_only(item, at.key(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _json_only(item, at.item(i))
    elif isinstance(value, str):
        if _SURROGATE.search(value):
            at.fail(N_("{value} is not Unicode text"), value=quoted(value))
    elif value is not None and not isinstance(value, int | float):
        at.fail(N_("a {kind} value: expected text or numbers"), kind=type(value).__name__)


@lru_cache(maxsize=1)
def _packaged() -> ComponentSet:
    """The set this version ships, read once: it cannot change while seki runs."""
    data = resources.files("sekigahara_pbem.rules") / "data"
    texts = tuple(decode((data / f"{n}.yaml").read_bytes(), f"{n}.yaml") for n in MANIFESTS)
    return _built(texts, safe_load, "")


@lru_cache(maxsize=8)
def _from_disk(texts: tuple[str, ...], label: str) -> ComponentSet:
    """A set read from a folder, kept by its content (never by its path: the files may
    change between two reads), parsed without aliases: the set may be another party's.
    `label` ("components/" for a game's copy) leads the names in its errors."""
    return _built(texts, _manifest_load, label)


def _built(texts: tuple[str, ...], load, label: str) -> ComponentSet:  # noqa: ANN001
    """Parse each manifest once, for both the checked set and its hash."""
    docs = {
        name: _parse(text, f"{label}{name}.yaml", load)
        for name, text in zip(MANIFESTS, texts, strict=True)
    }
    try:
        for name, doc in docs.items():
            _json_only(doc, At(f"{name}.yaml"))
        comp = build_components(docs["board"], docs["blocks"], docs["cards"])
    except ComponentError as exc:  # the file and field, after the folder they are in
        if not label:
            raise
        raise ComponentError(f"{label}{exc.where}", exc.template, **exc.params) from None
    canon = json.dumps(docs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    each = tuple(
        json.dumps(docs[n], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        for n in MANIFESTS
    )
    return ComponentSet(texts, comp, hashlib.sha256(canon.encode()).hexdigest(), each)
