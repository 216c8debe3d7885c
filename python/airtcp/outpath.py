"""Where airtcp may write: output directories and files, and user text in file names.

Every command that writes (``run --out``, ``run --pcap``, ``sweep --out``, ``validate --out``,
``reproduce --out``, ``plot --out``) goes through this module, which holds one rule:

    airtcp writes into a path only if the path is absent, an empty directory, or one of its
    own (a directory holding airtcp's marker file ``.airtcp-output``, or a figure that airtcp
    drew); it refuses anything else with one line, and never removes what it did not write.

A directory airtcp creates gets the marker, which names the command that made it (``run``,
``pcap``, ``sweep``, ``validate``, ``reproduce``) and the entries it wrote. A command reuses
only a directory of its own kind (a sweep store is resumed, a validation report replaced);
``run --out`` and ``--pcap`` never reuse one (results are never overwritten). When a report is
replaced, only the entries the marker lists are replaced: a file the user added stays.

Names built from user text (a node name in a pcap file name, a trace kind in a store path)
pass :func:`safe_name`, and every such path is checked to stay inside its directory
(:func:`child`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = [
    "MARKER",
    "NAME_ALLOWED",
    "OutputExistsError",
    "atomic_directory",
    "atomic_file",
    "check_out_dir",
    "child",
    "claim_directory",
    "safe_name",
]

MARKER = ".airtcp-output"
# Node names (and so pcap file names): ASCII letters, digits, "_", "-" and "."; starting with a
# letter or digit; at most 64 characters. Nothing a shell, a file system or a glob reads
# specially, no path separator, and never "." or "..".
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
NAME_ALLOWED = (
    '1-64 characters of A-Z a-z 0-9 _ - . starting with a letter or digit (e.g. "sta1", "server-2")'
)
# Kinds of airtcp output directory; a kind in `_REUSABLE` may be written into again.
_KINDS = ("run", "pcap", "sweep", "validate", "reproduce")
_REUSABLE = ("sweep", "validate", "reproduce")
# A sweep store written before markers existed: only these entries (and maybe the marker).
_LEGACY_STORE = {"runs", "traces"}


class OutputExistsError(FileExistsError):
    """The output path is in use (not empty, not airtcp's own, or not a directory), or cannot
    be created; the message is one line naming the path and what to do."""


def safe_name(name: str) -> bool:
    """True if ``name`` may become part of a file name (see :data:`NAME_ALLOWED`)."""
    return isinstance(name, str) and _NAME_RE.fullmatch(name) is not None


def child(directory: str | Path, name: str) -> Path:
    """``directory / name``, refusing a name that would leave ``directory``."""
    base = Path(directory)
    path = base / name
    if (
        not name
        or name in (".", "..")
        or os.sep in name
        or (os.altsep and os.altsep in name)
        or "\0" in name
        or path.parent != base
    ):
        raise OutputExistsError(f"{name[:40]!r}: not a plain file name (it would leave {base})")
    return path


def _marker(directory: Path) -> dict[str, object] | None:
    """The marker of an airtcp directory, or None."""
    try:
        data = json.loads((directory / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("created_by") == "airtcp" else None


def _entries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def _write_marker(directory: Path, kind: str, entries: Iterable[str]) -> None:
    from airtcp import __version__

    data = {
        "created_by": "airtcp",
        "kind": kind,
        "version": __version__,
        "entries": sorted(set(entries) - {MARKER}),
    }
    tmp = directory / f"{MARKER}.tmp"
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, directory / MARKER)


def _describe(path: Path) -> str:
    if path.is_symlink() and not path.exists():
        return "is a broken symbolic link"
    if not path.is_dir():
        return "exists and is not a directory"
    return "is a directory that airtcp did not create and that is not empty"


def check_out_dir(out_dir: str | Path, kind: str = "run") -> Path:
    """Check that ``out_dir`` may receive output of ``kind``; return it.

    Allowed: an absent path (its parent is created when writing), an empty directory, or, for
    a reusable kind (``sweep``, ``validate``, ``reproduce``), a directory airtcp made for the
    same kind. :class:`OutputExistsError` otherwise, with one line saying why.
    """
    if kind not in _KINDS:
        raise ValueError(f"kind: {kind!r} (allowed: {', '.join(_KINDS)})")
    out = Path(out_dir)
    flag = f"--{'pcap' if kind == 'pcap' else 'out'}"
    if not out.exists() and not out.is_symlink():
        return out
    if not out.is_dir():
        raise OutputExistsError(f"{flag} {out}: {_describe(out)}; choose a new directory")
    try:
        entries = _entries(out)
    except OSError as exc:
        raise OutputExistsError(f"{flag} {out}: cannot list it ({exc.strerror or exc})") from None
    if not entries:
        return out
    marker = _marker(out)
    if marker is None and kind == "sweep" and set(entries) <= _LEGACY_STORE:
        return out  # a store written before markers existed
    if marker is None:
        raise OutputExistsError(
            f"{flag} {out}: {_describe(out)}; choose a new or empty directory "
            "(airtcp never writes into, or removes, what it did not create)"
        )
    made = str(marker.get("kind"))
    if kind not in _REUSABLE:
        raise OutputExistsError(
            f"{flag} {out}: directory already holds airtcp {made} output and results are never "
            "overwritten; choose a new or empty directory"
        )
    if made != kind:
        raise OutputExistsError(
            f"{flag} {out}: directory holds airtcp {made} output, not {kind} output; "
            "choose a new or empty directory"
        )
    return out


def claim_directory(out_dir: str | Path, kind: str) -> Path:
    """Check ``out_dir`` (:func:`check_out_dir`), create it if absent and mark it as airtcp's
    own ``kind`` directory; return it. For the directories written into over time (a sweep
    store)."""
    out = check_out_dir(out_dir, kind)
    try:
        out.mkdir(parents=True, exist_ok=True)
        if _marker(out) is None:
            _write_marker(out, kind, _entries(out))
    except OSError as exc:
        raise OutputExistsError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    return out


@contextmanager
def atomic_directory(
    out_dir: str | Path, what: str = "result", kind: str = "run"
) -> Iterator[Path]:
    """Fill an output directory so that it appears complete or not at all.

    Yields a hidden temporary directory to write into. When the block ends without error:
    an absent ``out_dir`` becomes the temporary directory by one rename; an existing one
    (empty, or airtcp's own of a reusable ``kind``) receives each written entry by rename,
    replacing only entries airtcp wrote there before, and its marker is written last. When the
    block fails, the temporary directory is removed and nothing else is touched.
    """
    out = check_out_dir(out_dir, kind)
    flag = "--pcap" if kind == "pcap" else "--out"
    existing = out.is_dir()
    try:
        if existing:
            tmp = Path(tempfile.mkdtemp(prefix=".partial-", dir=out))
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    except OSError as exc:
        raise OutputExistsError(f"{flag} {out}: cannot write ({exc.strerror or exc})") from None
    try:
        yield tmp
        tmp.chmod(0o755)  # mkdtemp makes it 0o700
        written = _entries(tmp)
        if not existing:
            _write_marker(tmp, kind, written)
            try:
                os.rename(tmp, out)  # atomic; fails if out appeared meanwhile
            except OSError as exc:
                raise OutputExistsError(
                    f"{flag} {out}: cannot move the {what} into place ({exc.strerror or exc})"
                ) from None
            return
        marker = _marker(out) or {}
        before = marker.get("entries")
        before = set(before) if isinstance(before, list) else set()
        clash = [e for e in written if (out / e).exists() and e not in before]
        if clash:
            raise OutputExistsError(
                f"{flag} {out}: {clash[0]} exists and airtcp did not write it; "
                "choose a new or empty directory"
            )
        for entry in written:
            target = out / entry
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)  # a directory airtcp wrote there before (listed)
            os.replace(tmp / entry, target)
        kept = [e for e in before if (out / e).exists()]
        _write_marker(out, kind, [*written, *kept])
        tmp.rmdir()
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


@contextmanager
def atomic_file(path: str | Path, prefix: str = ".tmp-") -> Iterator[Path]:
    """Write one file atomically: yields a temporary path beside ``path`` (same directory, so
    the rename is atomic), renamed to ``path`` when the block ends without error; the
    temporary file never outlives the block. Readers skip names starting with ``prefix``."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=target.suffix, dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        tmp.chmod(0o644)  # mkstemp makes it 0o600
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
