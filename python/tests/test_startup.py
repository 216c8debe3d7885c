"""Start-up: `import airtcp`, `import airtcp.cli`, `airtcp --version` and a plain `airtcp run
--json` leave the heavy packages unimported (issue 9; bench/bench_startup.py has the times).

Each case runs in a fresh interpreter and reports the top-level packages in sys.modules. No
timing here: a regression shows as a package that should not be there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import airtcp

PYTHON_DIR = Path(airtcp.__file__).resolve().parents[1]

# Never on the start-up path of `import airtcp` or a command that does not use them.
HEAVY = {"pyarrow", "numpy", "pandas", "duckdb", "matplotlib", "scipy", "dask", "distributed"}
# Imported only by the commands that need them: rich (tables, progress bars), pydantic
# (airtcp.config.models: a scenario to word a problem of, a template, a sweep). No command imports typer or click (the command line is
# argparse's: airtcp.cliparse).
LAZY = {"rich", "pydantic", "typer", "click"}

REPORT = """
import json, sys
print("\\n" + json.dumps(sorted({m.partition(".")[0] for m in sys.modules})))
"""


def loaded(code: str) -> set[str]:
    """Top-level packages in sys.modules after ``code`` ran in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    proc = subprocess.run(
        [sys.executable, "-c", code + REPORT],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.splitlines()[-1]))


def cli(*args: str) -> str:
    """Code that runs the `airtcp` entry point with ``args`` and returns to the caller."""
    return (
        "import sys\n"
        f"sys.argv = ['airtcp', *{list(args)!r}]\n"
        "from airtcp.__main__ import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert exc.code in (0, None), exc.code\n"
    )


def test_import_airtcp_loads_nothing_heavy():
    assert loaded("import airtcp") & (HEAVY | LAZY) == set()


def test_import_cli_loads_none_of_them():
    modules = loaded("import airtcp.cli")
    assert "argparse" not in modules  # built for the invoked command only
    assert modules & (HEAVY | LAZY) == set()


def test_version_loads_none_of_them():
    # answered by airtcp.__main__ before the commands are built: not even argparse
    modules = loaded(cli("--version"))
    assert modules & (HEAVY | LAZY | {"argparse"}) == set()


def test_help_loads_none_of_them():
    modules = loaded(cli("--help")) | loaded(cli("run", "--help"))
    assert modules & (HEAVY | LAZY) == set()


def test_run_json_without_traces_needs_no_pyarrow_nor_pydantic(repo_root):
    pytest.importorskip("airtcp._core")
    example = repo_root / "examples" / "bss-udp-saturation.toml"
    modules = loaded(cli("run", str(example), "--json", "--set", "duration_s=1.1"))
    # The scenario was validated without pydantic (airtcp.config.plain).
    assert modules & (HEAVY | {"rich", "typer", "click", "pydantic", "pydantic_core"}) == set()


def test_an_invalid_scenario_is_worded_by_pydantic(repo_root):
    # The plain validator leaves a problem to pydantic, which words it as ever.
    pytest.importorskip("airtcp._core")
    example = repo_root / "examples" / "bss-udp-saturation.toml"
    code = (
        "import sys\n"
        "from airtcp.cli import main\n"
        f"sys.argv = ['airtcp', 'run', {str(example)!r}, '--json', '--set', 'stations=0']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert "stations: must be >= 1" in out.stderr
    assert "pydantic" in out.stdout.split()


def test_run_quiet_needs_neither_rich_nor_pyarrow(repo_root):
    pytest.importorskip("airtcp._core")
    example = repo_root / "examples" / "bss-udp-saturation.toml"
    # A run without warnings (printing those may take rich): the total line needs no table.
    args = ["--set", "stations=2", "--set", "duration_s=1.5", "--set", "warmup_s=0.5"]
    modules = loaded(cli("run", str(example), "--quiet", *args))
    assert modules & (HEAVY | {"rich"}) == set()


def test_lazy_names_of_the_package():
    code = (
        "import airtcp, airtcp.run, types\n"  # the submodule airtcp.run, then the function
        "assert isinstance(airtcp.run, types.FunctionType), airtcp.run\n"
        "from airtcp import Result, Scenario, ScenarioError, load, run, __version__\n"
        "assert run is airtcp.run and Result.__module__ == 'airtcp.result'\n"
        "assert issubclass(ScenarioError, Exception) and callable(load) and __version__\n"
        "assert set(airtcp.__all__) <= set(dir(airtcp))\n"
        "try:\n"
        "    airtcp.no_such_name\n"
        "except AttributeError:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('airtcp.no_such_name')\n"
    )
    assert loaded(code) & HEAVY == set()


def test_version_is_what_importlib_metadata_says():
    from importlib import metadata

    try:
        expected = metadata.version("airtcp")
    except metadata.PackageNotFoundError:
        pytest.skip("airtcp is not installed")
    assert airtcp._version() == expected
