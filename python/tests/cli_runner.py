"""Run the ``airtcp`` command line in-process and capture what it prints: the tests' runner.

``CliRunner().invoke(app, ["run", "x.toml", "--json"])`` runs ``app`` (an
:class:`airtcp.cliparse.App`) with stdout and stderr captured and returns a :class:`Result`:
the exit status (0, or what SystemExit carried; 1 for an exception that escaped, which is kept
in ``exception`` unless ``catch_exceptions=False``), ``stdout``, ``stderr`` and ``output``
(both, in the order they were written). ``env`` sets (or, with None, removes) environment
variables for the call.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str
    output: str
    exception: BaseException | None


class _Stream(io.StringIO):
    """One captured stream, whose writes also go to the shared ``output``."""

    def __init__(self, output: io.StringIO) -> None:
        super().__init__()
        self._output = output

    def write(self, s: str) -> int:
        self._output.write(s)
        return super().write(s)

    def isatty(self) -> bool:
        return False


@contextmanager
def _environ(env: Mapping[str, str | None] | None) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in env or {}}
    try:
        for k, v in (env or {}).items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, old in saved.items():
            if old is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = old


class CliRunner:
    """Invokes a command-line app in-process (the shape of click's test runner)."""

    def invoke(
        self,
        app: Any,
        args: Sequence[str] = (),
        *,
        env: Mapping[str, str | None] | None = None,
        catch_exceptions: bool = True,
        color: bool = False,
    ) -> Result:
        del color  # the output is never a terminal: rich writes no colour
        output = io.StringIO()
        out, err = _Stream(output), _Stream(output)
        saved = sys.stdout, sys.stderr
        exit_code, exception = 0, None
        with _environ(env):
            sys.stdout, sys.stderr = out, err
            try:
                app([str(a) for a in args], prog="airtcp")
            except SystemExit as exc:
                code = exc.code
                exit_code = code if isinstance(code, int) else (0 if code is None else 1)
            except Exception as exc:
                if not catch_exceptions:
                    raise
                exit_code, exception = 1, exc
            finally:
                sys.stdout, sys.stderr = saved
        return Result(exit_code, out.getvalue(), err.getvalue(), output.getvalue(), exception)
