"""The one exception type for bad user input.

Every error a user can cause (a bad shoe, rule table, bet file, option value) is an
:class:`InputError` or a subclass, whose message is one line that says what is wrong.
The command line prints it on stderr and exits with status 2.
"""

from pathlib import Path


class InputError(ValueError):
    """Bad user input; ``str(err)`` is one line naming the problem."""


def read_user_file(path: str | Path, what: str, error: type[InputError] = InputError) -> str:
    """The UTF-8 text of a file the user named (``what``: e.g. ``"rules"``).

    A file that cannot be read, or is not UTF-8 text, raises ``error`` with one line that
    names the file.
    """
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except OSError as err:
        raise error(f"cannot read {what} file {str(p)!r}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise error(f"{what} file {str(p)!r} is not UTF-8 text") from None
