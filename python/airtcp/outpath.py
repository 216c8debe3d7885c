"""Where airtcp may write: output directories and files, and user text in file names.

Every command that writes (``run --out``, ``run --pcap``, ``sweep --out``, ``validate --out``,
``reproduce --out``, ``plot --out``) goes through this module, which holds one rule:

    airtcp writes into a path only if the path is absent, an empty directory, or one of its
    own (a directory holding airtcp's marker file ``.airtcp-output``, or a figure that airtcp
    drew); it refuses anything else with one line, and never removes what it did not write.

A directory airtcp creates gets the marker, which names the command that made it (``run``,
``pcap``, ``sweep``, ``validate``, ``reproduce``) and the entries it wrote. A command reuses
only a directory of its own kind (a sweep store is resumed, a validation report replaced);
``run --out`` and ``--pcap`` reuse one only when asked (``--force``, ``replace=True``), and
only a directory whose every entry airtcp wrote: a run's output is replaced whole. When a
report is replaced, only the entries the marker lists are replaced: a file the user added
stays.

Names built from user text (a node name in a pcap file name, a trace kind in a store path)
pass :func:`safe_name`, and every such path is checked to stay inside its directory
(:func:`child`).

Files and directories appear whole or not at all: they are written under a hidden temporary
name and renamed into place (:func:`atomic_file`, :func:`atomic_directory`). The temporary
name holds the writer's process id. An error, Ctrl-C or SIGTERM removes it before the process
ends (SIGTERM is then delivered again, so the process still ends by it); SIGKILL cannot be
caught, so the next writer of the same target removes what a process no longer running left
(:func:`remove_stale`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import tempfile
import threading
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
    "remove_stale",
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


def _own_temporary(name: str) -> bool:
    """A temporary directory :func:`atomic_directory` makes inside an existing directory."""
    return name.startswith(".partial-")


def _foreign(directory: Path, listed: set[str], nested: bool = True) -> str | None:
    """The first entry of ``directory`` that airtcp did not write, or None: an entry the
    marker does not list, or, inside a listed directory (a run's ``traces``), anything but
    a regular file ending in ``.parquet``; with ``nested``, a listed directory with a marker
    of its own (each seed's run directory of ``run --seeds --out``) is checked against that
    marker (one level deep)."""
    for entry in _entries(directory):
        if entry == MARKER or _own_temporary(entry):
            continue
        if entry not in listed:
            return entry
        path = directory / entry
        if path.is_symlink():
            return entry
        own = _marker(path) if nested and path.is_dir() else None
        if own is not None:
            found = _foreign(path, _listed(own), nested=False)
            if found is not None:
                return f"{entry}/{found}"
        elif path.is_dir():
            for inner in sorted(path.iterdir()):
                if inner.is_symlink() or not inner.is_file() or inner.suffix != ".parquet":
                    return f"{entry}/{inner.name}"
    return None


def _listed(marker: dict[str, object]) -> set[str]:
    entries = marker.get("entries")
    return {str(e) for e in entries} if isinstance(entries, list) else set()


def _describe(path: Path) -> str:
    if path.is_symlink() and not path.exists():
        return "is a broken symbolic link"
    if not path.is_dir():
        return "exists and is not a directory"
    return "is a directory that airtcp did not create and that is not empty"


def check_out_dir(out_dir: str | Path, kind: str = "run", replace: bool = False) -> Path:
    """Check that ``out_dir`` may receive output of ``kind``; return it.

    Allowed: an absent path (its parent is created when writing), an empty directory, or, for
    a reusable kind (``sweep``, ``validate``, ``reproduce``), a directory airtcp made for the
    same kind. With ``replace`` (``run --force``), also a ``run`` or ``pcap`` directory airtcp
    made for the same kind whose every entry it wrote (:func:`_foreign`).
    :class:`OutputExistsError` otherwise, with one line saying why.
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
    if kind not in _REUSABLE and not replace:
        raise OutputExistsError(
            f"{flag} {out}: directory already holds airtcp {made} output and results are never "
            "overwritten; choose a new or empty directory, or add --force to replace "
            "airtcp's own earlier output"
        )
    if made != kind:
        raise OutputExistsError(
            f"{flag} {out}: directory holds airtcp {made} output, not {kind} output; "
            "choose a new or empty directory"
        )
    if kind not in _REUSABLE:  # replace: only what airtcp wrote, all of it
        _check_replaceable(out, marker, flag)
    return out


def _check_replaceable(out: Path, marker: dict[str, object], flag: str) -> None:
    try:
        foreign = _foreign(out, _listed(marker))
    except OSError as exc:
        raise OutputExistsError(f"{flag} {out}: cannot list it ({exc.strerror or exc})") from None
    if foreign is not None:
        raise OutputExistsError(
            f"{flag} {out}: {foreign} exists and airtcp did not write it, so --force does not "
            "replace this directory (airtcp never removes what it did not write); choose a new "
            "or empty directory"
        )


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


# ---------------------------------------------------------------------------------------------
# Temporary names: what a killed writer leaves, and SIGTERM


def own_file_problem(out: str | Path, tag: bytes, what: str) -> str | None:
    """Why airtcp may not write the file ``out``, or None: it is absent, or a regular file that
    carries airtcp's ``tag`` (a figure's creator field, a page's generator tag) in its first or
    last 64 KiB, so airtcp wrote it (``what``: "figures", "reports"). Never a file of the
    user's."""
    path = Path(out)
    if not path.exists() and not path.is_symlink():
        return None
    if not path.is_file():
        return f"--out {out}: exists and is not a regular file; choose a new file name"
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536)
            size = fh.seek(0, 2)
            fh.seek(max(0, size - 65536))
            tail = fh.read()
    except OSError as exc:
        return f"--out {out}: cannot read it ({exc.strerror or exc})"
    if tag not in head and tag not in tail:
        return (
            f"--out {out}: exists and airtcp did not write it; choose a new file name "
            f"(airtcp overwrites only its own {what})"
        )
    return None


class _Terminated(BaseException):
    """SIGTERM arrived while a temporary file or directory existed (see :func:`_terminable`)."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise _Terminated


@contextmanager
def _terminable() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`_Terminated`, so that the ``finally`` clauses
    that remove temporary files run; after the block the signal is delivered again under the
    default action, so the process still ends by SIGTERM. Only in the main thread, and only
    where SIGTERM has the default action (a handler someone installed is left alone)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous is not signal.SIG_DFL:  # ours (an outer block), another handler, or ignored
        yield
        return
    signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)  # ends the process
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)


def _temp_prefix(prefix: str) -> str:
    """A temporary name's prefix: ``prefix``, this process's id and a dash."""
    return f"{prefix}{os.getpid()}-"


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (on this machine)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it runs under another user, or the check is not possible here
        return True
    return True


def remove_stale(directory: str | Path, prefix: str, suffix: str = "") -> int:
    """Remove from ``directory`` the temporary files and directories that :func:`atomic_file`
    and :func:`atomic_directory` named ``prefix`` + process id + ``-`` + 8 characters +
    ``suffix`` for a process that no longer runs (killed by SIGKILL, or the machine stopped),
    and those named without a process id (written before airtcp put it there); return how
    many. Nothing else is touched."""
    stale = re.compile(re.escape(prefix) + r"(?:(\d+)-)?[a-z0-9_]{8}" + re.escape(suffix))
    try:
        names = os.listdir(directory)
    except OSError:
        return 0
    removed = 0
    for name in names:
        m = stale.fullmatch(name)
        if m is None or (m.group(1) is not None and _alive(int(m.group(1)))):
            continue
        path = Path(directory) / name
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        except OSError:  # gone meanwhile, or not ours to remove after all
            continue
        removed += 1
    return removed


@contextmanager
def atomic_directory(
    out_dir: str | Path, what: str = "result", kind: str = "run", replace: bool = False
) -> Iterator[Path]:
    """Fill an output directory so that it appears complete or not at all.

    Yields a hidden temporary directory to write into. When the block ends without error:
    an absent ``out_dir`` becomes the temporary directory by one rename; an existing one
    (empty, or airtcp's own of a reusable ``kind``) receives each written entry by rename,
    replacing only entries airtcp wrote there before, and its marker is written last. With
    ``replace`` (a ``run`` or ``pcap`` directory, :func:`check_out_dir`), the earlier output is
    replaced whole: its entries that were not written again are removed, after the directory
    is checked once more to hold nothing airtcp did not write. When the block fails, the
    temporary directory is removed and nothing else is touched.
    """
    out = check_out_dir(out_dir, kind, replace)
    with _terminable():
        yield from _atomic_directory(out, what, kind, replace and kind not in _REUSABLE)


def _atomic_directory(out: Path, what: str, kind: str, replace: bool = False) -> Iterator[Path]:
    flag = "--pcap" if kind == "pcap" else "--out"
    existing = out.is_dir()
    # Where the temporary directory goes, and its prefix.
    where, prefix = (out, ".partial-") if existing else (out.parent, f".{out.name}.partial-")
    try:
        if not existing:
            out.parent.mkdir(parents=True, exist_ok=True)
        remove_stale(where, prefix)
        tmp = Path(tempfile.mkdtemp(prefix=_temp_prefix(prefix), dir=where))
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
        before = _listed(marker)
        clash = [e for e in written if (out / e).exists() and e not in before]
        if clash:
            raise OutputExistsError(
                f"{flag} {out}: {clash[0]} exists and airtcp did not write it; "
                "choose a new or empty directory"
            )
        if replace:
            if marker:  # checked again: a file added since the first check stays untouched
                _check_replaceable(out, marker, flag)
            # Every entry stays listed while entries are swapped (a kill leaves no stranger).
            _write_marker(out, kind, [*written, *before])
        for entry in written:
            target = out / entry
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)  # a directory airtcp wrote there before (listed)
            os.replace(tmp / entry, target)
        kept = [e for e in before if e not in written and (out / e).exists()]
        if replace:  # the earlier output's entries not written again
            for entry in kept:
                old = out / entry
                if old.is_dir() and not old.is_symlink():
                    shutil.rmtree(old)
                else:
                    old.unlink()
            kept = []
        _write_marker(out, kind, [*written, *kept])
        tmp.rmdir()
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


@contextmanager
def atomic_file(path: str | Path, prefix: str = ".tmp-", clean: bool = False) -> Iterator[Path]:
    """Write one file atomically: yields a temporary path beside ``path`` (same directory, so
    the rename is atomic), renamed to ``path`` when the block ends without error; the
    temporary file never outlives the block, Ctrl-C and SIGTERM included. Readers skip names
    starting with ``prefix``. ``clean``: first remove what killed writers left under
    ``prefix`` (:func:`remove_stale`; for a prefix of this target's own, as a figure's)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if clean:
        remove_stale(target.parent, prefix, target.suffix)
    with _terminable():
        fd, name = tempfile.mkstemp(
            prefix=_temp_prefix(prefix), suffix=target.suffix, dir=target.parent
        )
        os.close(fd)
        tmp = Path(name)
        try:
            yield tmp
            tmp.chmod(0o644)  # mkstemp makes it 0o600
            os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)
