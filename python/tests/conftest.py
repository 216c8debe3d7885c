"""Shared fixtures. Puts python/ on sys.path so the tests run from a source checkout."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PYTHON_DIR = REPO / "python"
if str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))


@pytest.fixture
def repo_root() -> Path:
    return REPO


@pytest.fixture
def examples_dir() -> Path:
    return REPO / "examples"


@pytest.fixture
def write_toml(tmp_path: Path):
    """Write TOML text to a file in tmp_path and return its path."""

    def write(text: str, name: str = "scenario.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write
