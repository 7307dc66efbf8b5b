"""Writing the files a command makes (``--output``, ``--plot``, ``simulate --log``), atomically (docs/formats.md):
to a temporary file beside the target, renamed over it once whole (a symbolic link followed, the old file's mode
kept), removed on any exit but SIGKILL. The files of one command commit together (:func:`committed_together`).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO, TextIO

from exact_odds.inputs.errors import InputError

SHOWN_NAME = 80
"""Characters of a file name quoted in a message; a longer name is cut."""


def shown(name: str | Path) -> str:
    """A file name as messages quote it: ``repr``, cut to :data:`SHOWN_NAME` characters.

    >>> shown("out.csv")
    "'out.csv'"
    >>> shown("x" * 100).endswith("xxx…(100 characters)'")
    True
    """
    text = str(name)
    if len(text) > SHOWN_NAME:
        text = f"{text[:SHOWN_NAME]}…({len(text)} characters)"
    return repr(text)


def _refuse(name: str | Path, why: str) -> InputError:
    return InputError(f"cannot write {shown(name)}: {why}")


def output_target(path: str | Path) -> tuple[Path, os.stat_result | None]:
    """The file that writing ``path`` replaces (a symbolic link followed), and its status (``None`` for a new
    file); :class:`InputError` for a device, FIFO, socket, directory, missing directory or bad name."""
    name = str(path)
    if not name:
        raise _refuse(name, "no file name given")
    if "\0" in name:
        raise _refuse(name, "a file name cannot contain a NUL character")
    target = Path(os.path.realpath(name))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        _new_file_directory(name, target.parent)
        return target, None
    except OSError as err:
        raise _refuse(name, err.strerror or type(err).__name__) from None
    if stat.S_ISDIR(st.st_mode):
        raise _refuse(name, "it is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise _refuse(name, "not a regular file (a device, FIFO or socket is never replaced; "
                            "leave out the option to write to standard output)")
    if not os.access(target, os.W_OK):
        raise _refuse(name, "the file is read-only")
    _new_file_directory(name, target.parent)
    return target, st


def _new_file_directory(name: str, directory: Path) -> None:
    try:
        st = os.stat(directory)
    except OSError as err:
        raise _refuse(name, f"directory {shown(directory)}: {err.strerror}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise _refuse(name, f"{shown(directory)} is not a directory")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise _refuse(name, f"directory {shown(directory)} is not writable")


def check_output(path: str) -> str:
    """``path`` unchanged if a command may write it, for an argparse ``type=``: a file is made in its directory
    and removed at once, so that one that only looks writable (``/proc`` to root) is refused before any work."""
    directory = output_target(path)[0].parent
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".exact-odds.", suffix=".tmp")
    except OSError as err:
        raise _refuse(path, f"directory {shown(directory)} does not take new files "
                            f"({err.strerror or type(err).__name__})") from None
    os.close(fd)
    with suppress(OSError):
        os.unlink(tmp)
    return path


def _give_mode(fd: int, st: os.stat_result | None) -> None:
    if not hasattr(os, "fchmod"):  # Windows: no modes to keep
        return
    if st is not None and (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
        with suppress(OSError):  # only root may give the file back to its owner
            os.fchown(fd, st.st_uid, st.st_gid)
    if st is not None:
        os.fchmod(fd, stat.S_IMODE(st.st_mode))
    else:  # a new file's mode under the umask, as the shell's > gives
        umask = os.umask(0o022)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)


@contextmanager
def _replacing(path: str | Path) -> Iterator[int]:
    """A descriptor of a temporary file that replaces ``path`` when the block ends without error."""
    target, st = output_target(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:100]}.", suffix=".tmp")
    except OSError as err:
        raise _refuse(path, err.strerror or type(err).__name__) from None
    try:
        _give_mode(fd, st)
        yield fd
        if _GROUPS:
            _stage(_GROUPS[-1], (tmp, target, str(path)))
        else:
            os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise _refuse(path, err.strerror or type(err).__name__) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def atomic_file(path: str | Path) -> Iterator[TextIO]:
    """A UTF-8 text file to write ``path`` through: renamed over it when the block ends, removed if it raises."""
    with _replacing(path) as fd, os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
        yield fh


@contextmanager
def atomic_binary_file(path: str | Path) -> Iterator[BinaryIO]:
    """:func:`atomic_file` for bytes (a figure)."""
    with _replacing(path) as fd, os.fdopen(fd, "wb") as fh:
        yield fh


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one."""
    with atomic_file(path) as fh:
        fh.write(text)


Staged = tuple[str, Path, str]
"""A finished temporary file waiting in :func:`committed_together`: its name, its target, the name given."""

_GROUPS: list[list[Staged]] = []
"""The files staged by the :func:`committed_together` block running, if any (one list a block)."""


def _stage(staged: list[Staged], item: Staged) -> None:
    if any(target == item[1] for _, target, _ in staged):
        Path(item[0]).unlink(missing_ok=True)
        raise _refuse(item[2], "the command writes this file twice")
    staged.append(item)


@contextmanager
def committed_together() -> Iterator[None]:
    """Hold back the files written in the block and rename them all into place at its end; if a rename fails,
    the targets already renamed get their old file back (or are removed). A nested block joins the outer one."""
    if _GROUPS:
        yield
        return
    staged: list[Staged] = []
    _GROUPS.append(staged)
    try:
        yield
    except BaseException:
        _discard(staged)
        raise
    finally:
        _GROUPS.pop()
    _commit(staged)


def _discard(staged: list[Staged]) -> None:
    for tmp, _, _ in staged:
        Path(tmp).unlink(missing_ok=True)


Backup = tuple[bool, str | None]
"""Whether a target existed before the commit, and a second name of its old file to put back (if made)."""


def _commit(staged: list[Staged]) -> None:
    """Rename every staged file over its target; on any failure, put back the targets renamed so far."""
    backups: list[Backup] = []
    done = 0
    try:
        for tmp, target, name in staged:
            backups.append(_backup(target) if len(staged) > 1 else (True, None))  # one rename is atomic
            try:
                os.replace(tmp, target)
            except OSError as err:
                raise _refuse(name, err.strerror or type(err).__name__) from None
            done += 1
    except BaseException:
        _put_back(staged[:done], backups[:done])
        _discard(staged)
        raise
    finally:
        for _, backup in backups:
            if backup is not None:
                Path(backup).unlink(missing_ok=True)


def _backup(target: Path) -> Backup:
    """A hard link to the file at ``target`` beside it, to put back should the commit fail (see :data:`Backup`)."""
    if not os.path.lexists(target):
        return False, None
    for _ in range(100):
        name = str(target.parent / f".{target.name[:100]}.{os.urandom(6).hex()}.tmp")
        try:
            os.link(target, name)
        except FileExistsError:
            continue
        except OSError:
            break
        return True, name
    return True, None


def _put_back(renamed: list[Staged], backups: list[Backup]) -> None:
    """Undo the renames of ``renamed``: the old file back where there was one, no file where there was none."""
    for (_, target, _), (existed, backup) in zip(renamed, backups, strict=True):
        with suppress(OSError):
            if backup is not None:
                os.replace(backup, target)
            elif not existed:
                target.unlink()
