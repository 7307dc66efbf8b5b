"""Writing the files a command makes (``--output``, ``--plot``, ``simulate --log``), safely.

A file is written *atomically*: to a temporary file beside the target, renamed over it only
when the whole text is written, so that a reader sees the old file or the whole new one.
Because the rename *replaces* the target, only two kinds of target are accepted:

- a new path in an existing directory, which gets the mode the umask gives a new file
  (``0o666 & ~umask``, as the shell's ``>`` would);
- an existing regular file that we may write, whose mode (and, when we may, its owner) the
  new file keeps.

Anything else is refused with one line (:class:`~exact_odds.inputs.errors.InputError`): a device
such as ``/dev/null`` (run as root, replacing it would break the system), a FIFO, a socket, a
directory, a missing directory, an empty or over-long name. A symbolic link is followed:
the file it names is replaced and the link stays. Write to standard output (no ``--output``)
to send the text to a device or a pipe.

The temporary file is removed on any exit from the ``with`` block: an error, Ctrl-C
(``KeyboardInterrupt``) or, through the command line's handler, SIGTERM and SIGHUP. Only
SIGKILL can leave a ``.NAME.*.tmp`` file behind.

The files of one command commit together (:func:`committed_together`): inside that block a
finished temporary file waits, and every one is renamed into place only when the whole block
(the command, its report included) has succeeded. If anything fails, no target is created or
replaced and no temporary file is left.
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
"""Characters of a file name quoted in a message; a longer name is cut (the message stays readable)."""


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
    """The file that writing ``path`` replaces, and its status (``None`` for a new file).

    ``path`` itself, or the file a symbolic link names. Raises :class:`InputError` (one line)
    for any target but a regular file or a new path in a writable directory (see the module).
    """
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
    """Check that a file can be created in ``directory``."""
    try:
        st = os.stat(directory)
    except OSError as err:
        raise _refuse(name, f"directory {shown(directory)}: {err.strerror}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise _refuse(name, f"{shown(directory)} is not a directory")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise _refuse(name, f"directory {shown(directory)} is not writable")


def check_output(path: str) -> str:
    """``path`` unchanged if a command may write it (see :func:`output_target`), for an argparse ``type=``.

    Its directory must also take a new file now: one is made there and removed at once, so that a
    directory that only looks writable (``/proc`` or ``/sys`` to root) is refused before any work.
    """
    target, _ = output_target(path)
    _try_new_file(path, target.parent)
    return path


def _try_new_file(name: str | Path, directory: Path) -> None:
    """Make a temporary file in ``directory`` and remove it; raise :class:`InputError` if it cannot be made."""
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".exact-odds.", suffix=".tmp")
    except OSError as err:
        raise _refuse(name, f"directory {shown(directory)} does not take new files "
                            f"({err.strerror or type(err).__name__})") from None
    os.close(fd)
    with suppress(OSError):
        os.unlink(tmp)


def _new_file_mode() -> int:
    """The mode a new file gets under the current umask: ``0o666 & ~umask``."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _give_mode(fd: int, st: os.stat_result | None) -> None:
    """Give the temporary file ``fd`` the mode (and owner) of the file it replaces, or a new file's mode."""
    if not hasattr(os, "fchmod"):  # Windows: no modes to keep
        return
    if st is not None and (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
        with suppress(OSError):  # only root may give the file back to its owner
            os.fchown(fd, st.st_uid, st.st_gid)
    os.fchmod(fd, stat.S_IMODE(st.st_mode) if st is not None else _new_file_mode())


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
    """A UTF-8 text file to write ``path`` through, so that readers see the old file or the whole new one.

    The text goes to a temporary file beside ``path``, renamed over it when the ``with`` block
    ends, and removed if the block raises (nothing is left half-written). ``path`` must be a
    regular file or a new path (see the module).
    """
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
    """Add a finished temporary file to the block's; a second file for the same target is refused."""
    if any(target == item[1] for _, target, _ in staged):
        Path(item[0]).unlink(missing_ok=True)
        raise _refuse(item[2], "the command writes this file twice")
    staged.append(item)


@contextmanager
def committed_together() -> Iterator[None]:
    """Hold back the files :func:`atomic_file` writes in the block; rename them all into place at its end.

    When the block raises, every temporary file is removed and no target is created or replaced.
    When a rename fails, the targets already renamed get their old file back (or are removed if
    they were new). A block inside another joins the outer one.
    """
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
    """Remove the temporary files of ``staged`` (those not renamed)."""
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
    """A hard link to the file at ``target`` beside it (``None`` if links cannot be made), to put back
    should the commit fail; ``(False, None)`` when there is no file at ``target`` yet."""
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
