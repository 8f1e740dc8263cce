"""Shared fixtures: the default component set."""

from __future__ import annotations

import pytest

from sekigahara_pbem.component_files import load_components


@pytest.fixture(scope="session")
def comp():
    return load_components()
