"""A connection's request, gathered as it comes in without holding a thread: `scorekeeper serve`
gives a connection to one of its threads only once its whole request has come, and the thread
reads it from memory (or a temporary file), never from the network. A phone on a bad connection,
or a client sending a byte at a time on purpose, holds none of the threads however slowly it
sends."""

from __future__ import annotations

import io
import socket
import tempfile
import time
from typing import IO, TYPE_CHECKING

from cheroot.server import HeaderReader

if TYPE_CHECKING:
    from cheroot.server import HTTPServer

RECEIVE = 64 * 1024
"""The most read from a connection at once."""
IN_MEMORY = 64 * 1024
"""A request longer than this (an import) waits in a temporary file: a few hundred sent slowly
do not fill the memory."""
SLOWEST_UPLOAD = 16 * 1024
"""Bytes a second: a request has the server's timeout (10 s) to come whole, and one second more
for every this many bytes of it that have come. Only what has come counts, not what its head
says will come: a head that promises a long body and sends nothing more is cut off as soon as
a slow head is."""
END_OF_HEAD = b"\r\n\r\n"
read_headers = HeaderReader()


def body_length(head: bytes, most: int) -> int:
    """The length of the body that follows ``head`` (a request's line and headers) as cheroot
    reads it; none when cheroot refuses the request without reading its body: sent in chunks,
    longer than ``most``, or of a length that is not a number."""
    lowered = head.lower()
    if b"content-length" not in lowered and b"transfer-encoding" not in lowered:
        return 0  # every GET: its headers are read once, by the thread
    lines = io.BytesIO(head)
    if lines.readline() == b"\r\n":  # one empty line may come before the request line
        lines.readline()
    try:
        headers = read_headers(lines)
        length = int(headers.get(b"Content-Length", 0))
    except ValueError:
        return 0
    if headers.get(b"Transfer-Encoding") or not 0 <= length <= most:
        return 0
    return length


class Incoming:
    """What a connection has sent that no thread has read yet. Between requests it stands as
    the connection's ``rfile``, which cheroot asks (``has_data``) whether a whole request waits
    there already, sent without waiting for the answer to the one before. The server must
    limit both a request's head and its body (`scorekeeper serve` does)."""

    def __init__(self, server: HTTPServer, sock: socket.socket) -> None:
        self.server = server
        self.socket = sock
        self.received = bytearray()
        self.searched = 0  # the head ends after this
        self.size: int | None = None  # the request's, once its head has come
        self.spool: IO[bytes] | None = None  # the request so far, when it is long
        self.started: float | None = None  # when its first byte came

    def receive(self) -> bool | None:
        """Read what the connection has sent, without waiting for more: whether a whole
        request has come; None when the client has closed the connection."""
        if self.has_data():
            return True
        wanted = RECEIVE
        if self.spool is not None:
            assert self.size is not None  # a request is spooled once its head has told its size
            wanted = self.size - self.spool.tell()
        try:
            self.socket.settimeout(0)
            data = self.socket.recv(min(wanted, RECEIVE))
        except BlockingIOError:
            return False
        except OSError:
            return None
        finally:
            self.socket.settimeout(self.server.timeout)
        if not data:
            return None
        if self.started is None:
            self.started = time.time()
        if self.spool is None:
            self.received += data
        else:
            self.spool.write(data)
        whole = self.has_data()
        if not whole and self.size is not None and self.spool is None and self.come() > IN_MEMORY:
            # Closed by the thread that reads it, or with the connection.
            self.spool = tempfile.TemporaryFile()  # noqa: SIM115
            self.spool.write(self.received)
            self.received.clear()
        return whole

    def has_data(self) -> bool:
        """Whether a whole request has come."""
        size = self.size if self.size is not None else self._measure()
        return size is not None and self.come() >= size

    def _measure(self) -> int | None:
        """Learn the request's size from its head: None until the head has come."""
        end = self.received.find(END_OF_HEAD, self.searched)
        if end < 0:
            self.searched = max(0, len(self.received) - len(END_OF_HEAD) + 1)
            if len(self.received) <= self.server.max_request_header_size:
                return None
            self.size = len(self.received)  # cheroot refuses a head this long, reading no more
            return self.size
        head = end + len(END_OF_HEAD)
        most = self.server.max_request_body_size
        self.size = head + body_length(bytes(self.received[:head]), most)
        return self.size

    def take(self) -> IO[bytes]:
        """The whole request that has come (``has_data``), for a thread to read and close."""
        request: IO[bytes]
        if self.spool is not None:
            request, self.spool = self.spool, None
            request.seek(0)
        else:
            request = io.BytesIO(self.received[: self.size])
            del self.received[: self.size]
        self.size = None
        self.searched = 0
        self.started = time.time() if self.received else None
        return request

    def waits_from(self) -> float | None:
        """The moment the wait for the rest of the request counts from (None between
        requests): its first byte, not its latest, so that it cannot be sent forever a byte at a
        time; later as more of a long body comes."""
        if self.started is None:
            return None
        return self.started + self.come() / SLOWEST_UPLOAD

    def come(self) -> int:
        """How much of the request has come (and of the next ones, sent without waiting)."""
        return len(self.received) if self.spool is None else self.spool.tell()

    def close(self) -> None:
        if self.spool is not None:
            self.spool.close()
            self.spool = None
