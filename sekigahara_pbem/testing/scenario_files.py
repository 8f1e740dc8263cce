"""Reading scenario files and the component set they name."""

from __future__ import annotations

from pathlib import Path

import yaml

from ..protocol.component_files import load_components
from ..protocol.documents import safe_load
from ..refusal import N_, Refusal
from ..rules.components import ComponentError, Components

MAX_SCENARIO_BYTES = 1_000_000


def load_scenario(path: Path) -> dict:
    """Parse one scenario file; a Refusal (a ValueError) with a one-line reason if it
    cannot be."""
    if not path.is_file():
        raise Refusal(N_("file not found"))
    if path.stat().st_size > MAX_SCENARIO_BYTES:
        raise Refusal(N_("larger than {limit} bytes"), limit=MAX_SCENARIO_BYTES)
    try:
        doc = safe_load(path.read_bytes().decode("utf-8", errors="replace"))
    except yaml.YAMLError as exc:
        raise Refusal(N_("not valid YAML: {problem}"), problem=str(exc).splitlines()[0]) from None
    if not isinstance(doc, dict):
        raise Refusal(N_("a scenario must be a mapping"))
    return doc


def scenario_components(doc: dict, path: Path, override: Path | None = None) -> Components:
    """The override folder if given; else the default set, or the folder the scenario
    names (relative to the file)."""
    where = doc.get("components")
    try:
        if override is not None:
            return load_components(override)
        if where in (None, "default"):
            return load_components()
        if not isinstance(where, str):
            raise Refusal(N_("expected a folder name"), at="components")
        return load_components((path.parent / where).resolve())
    except ComponentError as exc:
        raise Refusal("{reason}", at="components", reason=exc) from None
