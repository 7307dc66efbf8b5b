"""Writing the files a command makes (``--output``, ``--plot``, ``simulate --log``), safely.

A file is written *atomically*: to a temporary file beside the target, renamed over it only
when the whole text is written, so that a reader sees the old file or the whole new one.
Because the rename *replaces* the target, only two kinds of target are accepted:

- a new path in an existing directory, which gets the mode the umask gives a new file
  (``0o666 & ~umask``, as the shell's ``>`` would);
- an existing regular file that we may write, whose mode (and, when we may, its owner) the
  new file keeps.

Anything else is refused with one line (:class:`~exact_odds.errors.InputError`): a device
such as ``/dev/null`` (run as root, replacing it would break the system), a FIFO, a socket, a
directory, a missing directory, an empty or over-long name. A symbolic link is followed:
the file it names is replaced and the link stays. Write to standard output (no ``--output``)
to send the text to a device or a pipe.

The temporary file is removed on any exit from the ``with`` block: an error, Ctrl-C
(``KeyboardInterrupt``) or, through the command line's handler, SIGTERM and SIGHUP. Only
SIGKILL can leave a ``.NAME.*.tmp`` file behind.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from exact_odds.errors import InputError

if TYPE_CHECKING:
    from typing import BinaryIO, TextIO

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
    """``path`` unchanged if a command may write it (see :func:`output_target`), for an argparse ``type=``."""
    output_target(path)
    return path


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
