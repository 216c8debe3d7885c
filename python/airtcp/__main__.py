"""The ``airtcp`` command's entry point, also ``python -m airtcp``.

``airtcp --version`` is answered here, before ``airtcp.cli`` builds the commands with typer
(tens of ms: bench/bench_startup.py); every other command line goes to :func:`airtcp.cli.main`.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Entry point of the ``airtcp`` script (pyproject.toml's ``[project.scripts]``)."""
    if sys.argv[1:] == ["--version"]:
        from airtcp import __version__

        sys.stdout.write(f"airtcp {__version__}\n")
        return
    from airtcp.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
