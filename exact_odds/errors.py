"""The one exception type for bad user input.

Every error a user can cause (a bad shoe, rule table, bet file, option value) is an
:class:`InputError` or a subclass, whose message is one line that says what is wrong.
The command line prints it on stderr and exits with status 2.
"""


class InputError(ValueError):
    """Bad user input; ``str(err)`` is one line naming the problem."""
