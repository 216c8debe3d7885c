"""The command line of a generated file that is checked in (``python -m airtcp.typegen``,
``python -m airtcp.config.tablegen``): write it when it is stale, or with ``--check`` exit 1
naming it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path


def main(argv: list[str] | None, target: Path, current: Callable[[], str], command: str) -> int:
    """Rewrite ``target`` with ``current()`` if it differs (``--check``: only say so, exit 1)."""
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--check"]):
        print(f"usage: {command} [--check]", file=sys.stderr)
        return 2
    text = current()
    old = target.read_text(encoding="utf-8") if target.exists() else None
    if args == ["--check"]:
        if old != text:
            print(f"{target} is stale: run {command}", file=sys.stderr)
            return 1
        return 0
    if old != text:
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target}")
    else:
        print(f"{target} is up to date")
    return 0
