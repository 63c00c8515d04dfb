"""Fixtures of the generator tests (helpers live in gen_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gen_helpers import Proj, make_project


@pytest.fixture
def proj(tmp_path: Path) -> Proj:
    return make_project(tmp_path / "proj")


@pytest.fixture
def built(proj: Proj) -> Proj:
    """A project that has been generated once."""
    r = proj.run()
    assert r.rc == 0, r.err
    return proj
