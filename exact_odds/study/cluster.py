"""Connecting to a Dask scheduler (``study --dask``, ``count --dask``): within a bounded time, or one clear
error. A web server (the dashboard's port) waits to be spoken to, and another protocol's bytes read as a
length ask for exabytes: so a ``tcp`` address must first greet a new connection with a message of Dask's
shape (:func:`check_scheduler`), and the client is then made with a deadline (:func:`connect`).
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from exact_odds.inputs.errors import require
from exact_odds.inputs.validate import shown
from exact_odds.study.checks import StudyError

CONNECT_TIMEOUT = 3
"""Seconds to wait for a TCP connection to a Dask scheduler's address: where nothing listens, the
address is refused at once, not after distributed's retries."""
DASK_TIMEOUT = 30
"""Seconds to wait for a Dask scheduler to answer."""

GREETING_TIMEOUT = 10.0
"""Seconds a Dask scheduler's ``tcp`` address has to greet a new connection (a scheduler takes
milliseconds; a service that waits to be spoken to sends nothing)."""

GREETING_BYTES = 2**20
"""The most bytes a scheduler's greeting may announce (it takes about a hundred); more is another protocol."""

_FRAME = struct.Struct("Q")
"""A length in Dask's TCP protocol: a message is its size, then its number of frames and their sizes."""

SCHEDULER_PORTS = "the dashboard's port, usually 8787, is not the scheduler's, usually 8786"
"""The likeliest mistake behind an address that is not a scheduler's."""


def connect(address: str) -> Any:
    """A ``distributed.Client`` of the Dask scheduler at ``address``, or :class:`StudyError` within about
    :data:`DASK_TIMEOUT` seconds."""
    distributed: Any = require("distributed", "dask", "--dask needs the dask extra", StudyError)
    check_scheduler(address)
    return _client(distributed, address)


def _client(distributed: Any, address: str) -> Any:
    """``distributed.Client(address)``, made in a daemon thread given :data:`DASK_TIMEOUT` seconds and a few
    more (distributed does not bound the handshake after the connection); failures are :class:`StudyError`."""
    made: list[Any] = []
    failed: list[BaseException] = []

    def make() -> None:
        try:
            made.append(distributed.Client(address, timeout=DASK_TIMEOUT))
        except BaseException as err:  # handed to the waiting thread, which raises it
            failed.append(err)

    thread = threading.Thread(target=make, name="exact-odds-dask-connect", daemon=True)
    thread.start()
    thread.join(DASK_TIMEOUT + CONNECT_TIMEOUT)
    if made:
        return made[0]
    if thread.is_alive():
        raise StudyError(f"{shown(address)} is not a Dask scheduler: the connection was not done within "
                         f"{DASK_TIMEOUT} s ({SCHEDULER_PORTS})")
    if isinstance(failed[0], MemoryError):  # another protocol's bytes read as the length of a message
        raise StudyError(f"{shown(address)} is not a Dask scheduler: it answers in another protocol "
                         f"({SCHEDULER_PORTS})") from None
    if isinstance(failed[0], Exception):  # whatever distributed raises: an OSError, a TypeError
        raise StudyError(f"cannot reach the Dask scheduler at {shown(address)}: {_one_line(failed[0])}") from None
    raise failed[0]


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split()) or type(err).__name__


def check_scheduler(address: str) -> None:
    """Raise :class:`StudyError` unless a Dask scheduler seems to answer at a ``tcp://HOST:PORT`` address:
    nothing listening (refused, an unknown host, a port out of range), or no greeting of Dask's shape
    within :data:`GREETING_TIMEOUT` seconds. Other schemes are left to :func:`_client`."""
    try:
        parts = urlsplit(address if "://" in address else f"tcp://{address}")
        host, port = parts.hostname, parts.port
    except ValueError as err:  # a port out of range, a malformed IPv6 host
        raise StudyError(f"cannot reach the Dask scheduler at {shown(address)}: {err}") from None
    if parts.scheme.lower() != "tcp" or host is None or port is None:
        return
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT) as sock:
            problem = _greeting_problem(sock, time.monotonic() + GREETING_TIMEOUT)
    except OSError as err:
        raise StudyError(f"cannot reach the Dask scheduler at {shown(address)}: {err.strerror or err}") from None
    if problem is not None:
        raise StudyError(f"{shown(address)} is not a Dask scheduler: {problem} ({SCHEDULER_PORTS})")


def _greeting_problem(sock: socket.socket, deadline: float) -> str | None:
    """What is wrong with the first message sent on ``sock`` before ``deadline`` (``time.monotonic``) as a
    scheduler's greeting; None if it has the shape of one: its size, then a few frames whose sizes fit it."""
    head, ended = _receive(sock, _FRAME.size, deadline)
    if not head:
        return "it hung up without a word" if ended else (
            f"it sent nothing within {GREETING_TIMEOUT:g} s, where a scheduler greets at once")
    other = "it answers in another protocol"
    if len(head) < _FRAME.size:
        return other
    (size,) = _FRAME.unpack(head)
    if not 2 * _FRAME.size <= size <= GREETING_BYTES:
        return other
    message, _ = _receive(sock, size, deadline)
    if len(message) < size:
        return other
    (frames,) = _FRAME.unpack_from(message)
    prelude = _FRAME.size * (1 + frames)
    if not 1 <= frames <= size // _FRAME.size or prelude > size:
        return other
    lengths = struct.unpack_from(f"{frames}Q", message, _FRAME.size)
    return None if prelude + sum(lengths) >= size else other


def _receive(sock: socket.socket, size: int, deadline: float) -> tuple[bytes, bool]:
    """Up to ``size`` bytes from ``sock`` read until ``deadline``, and whether the other side ended the
    connection before they all came."""
    got = bytearray()
    while len(got) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            return bytes(got), False
        sock.settimeout(left)
        try:
            chunk = sock.recv(min(size - len(got), 65536))
        except TimeoutError:
            return bytes(got), False
        except ConnectionError:
            return bytes(got), True
        if not chunk:
            return bytes(got), True
        got += chunk
    return bytes(got), False
