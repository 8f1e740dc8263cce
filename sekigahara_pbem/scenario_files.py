"""Reading scenario files and the component set they name."""

from __future__ import annotations

from pathlib import Path

import yaml

from .component_files import load_components
from .rules.components import ComponentError, Components

MAX_SCENARIO_BYTES = 1_000_000


def load_scenario(path: Path) -> dict:
    """Parse one scenario file; ValueError with a one-line reason if it cannot be."""
    if not path.is_file():
        raise ValueError("file not found")
    if path.stat().st_size > MAX_SCENARIO_BYTES:
        raise ValueError(f"larger than {MAX_SCENARIO_BYTES} bytes")
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ValueError(f"not valid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(doc, dict):
        raise ValueError("a scenario must be a mapping")
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
            raise ValueError("components: expected a folder name")
        return load_components((path.parent / where).resolve())
    except ComponentError as exc:
        raise ValueError(f"components: {exc}") from None
