"""Reading component manifests from disk: the packaged default set or an owner's own."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml

from .pbem.documents import safe_load
from .rules.components import ComponentError, Components, build_components

MANIFESTS = ("board", "blocks", "cards")
MAX_MANIFEST_BYTES = 1_000_000


def _read(directory: Path | None, name: str) -> str:
    if directory is None:
        return (resources.files("sekigahara_pbem.rules") / "data" / f"{name}.yaml").read_text(
            encoding="utf-8"
        )
    path = directory / f"{name}.yaml"
    if not path.is_file():
        raise ComponentError(str(path), "file not found")
    if path.stat().st_size > MAX_MANIFEST_BYTES:
        raise ComponentError(str(path), f"larger than {MAX_MANIFEST_BYTES} bytes")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ComponentError(str(path), f"not UTF-8 text ({exc.reason})") from None


def _parse(text: str, name: str) -> object:
    try:
        return safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{name}.yaml line {mark.line + 1}" if mark else f"{name}.yaml"
        raise ComponentError(where, f"not valid YAML ({getattr(exc, 'problem', exc)})") from None


def load_components(directory: Path | None = None) -> Components:
    """Load and check board.yaml, blocks.yaml and cards.yaml (default: the packaged set)."""
    return _loaded(_key(directory))[0]


def components_hash(directory: Path | None = None) -> str:
    """SHA-256 over the canonical JSON of the three manifests, to name a component set;
    comments and layout do not change it."""
    return _loaded(_key(directory))[1]


def _key(directory: Path | None) -> str | None:
    return str(directory) if directory is not None else None


@lru_cache(maxsize=8)
def _loaded(directory: str | None) -> tuple[Components, str]:
    """Read and parse each manifest once, for both the checked set and its hash."""
    d = Path(directory) if directory is not None else None
    docs = {name: _parse(_read(d, name), name) for name in MANIFESTS}
    comp = build_components(docs["board"], docs["blocks"], docs["cards"])
    canon = json.dumps(docs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return comp, hashlib.sha256(canon.encode()).hexdigest()
