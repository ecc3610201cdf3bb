"""`scorekeeper serve` from a given checkout, each request's time taken apart (bench/waits.py).

    .venv/bin/python bench/timed_serve.py CHECKOUT serve --host 127.0.0.1 --port 8000

With ``SCOREKEEPER_TIMED`` naming a file, each request's parts are noted, written to that file
(JSON) when the process is sent SIGUSR1, and forgotten: the time it waited for a thread, the
time the thread spent on it, the app's part of that, the thread's own processor time and its
wait for the core (the time it was ready to run while the core ran something else, from the
kernel's ``schedstat``), its SQL statements, the version reads, and the waits for cheroot's
lock on its list of connections; and, apart, the waits for that lock between requests. What
is not the thread's processor time nor its wait for the core is time it slept: waiting for
the interpreter, a lock, the disk.
"""

from __future__ import annotations

import ctypes
import json
import os
import selectors
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

checkout = Path(sys.argv.pop(1)).resolve()
sys.path.insert(0, str(checkout))

import scorekeeper  # noqa: E402
import scorekeeper.cli as cli  # noqa: E402

assert Path(scorekeeper.__file__).is_relative_to(checkout), scorekeeper.__file__

NOTED = os.environ.get("SCOREKEEPER_TIMED")
now, processor = time.perf_counter, time.thread_time
mine = threading.local()
requests: list[dict[str, Any]] = []
# Called through PyDLL, which keeps the interpreter: a read through Python would give it up,
# and wait for it again, as the request measured does.
libc = ctypes.PyDLL(None)
libc.pread.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_long]


def waited_for_core() -> float:
    """Seconds this thread has been ready to run while the core ran something else."""
    if getattr(mine, "schedstat", None) is None:
        path = f"/proc/self/task/{threading.get_native_id()}/schedstat"
        mine.schedstat = os.open(path, os.O_RDONLY)
    read = ctypes.create_string_buffer(100)
    size = libc.pread(mine.schedstat, read, 100, 0)
    return int(read.raw[:size].split()[1]) / 1e9


def kind_of(method: str, path: str) -> str:
    if path.endswith("/version"):
        return "table poll" if "/part/" in path else "poll"
    if method == "POST":
        return "post"
    if "/table/" in path:
        return "table page"
    return "session page" if path.startswith("/club/") else "other"


between: dict[str, float] = {}
"""What the threads' waits for cheroot's lock cost between requests (a connection put back
after its answer, taken out by the selector thread), in seconds."""


def add(name: str, value: float) -> None:
    noted = getattr(mine, "request", None)
    if noted is not None:
        noted[name] = noted.get(name, 0.0) + value
    else:
        between[name] = between.get(name, 0.0) + value


def timed(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
    def timed_call(*args: Any, **kwargs: Any) -> Any:
        started = now()
        try:
            return call(*args, **kwargs)
        finally:
            add(f"{name}_count", 1)
            add(name, now() - started)

    return timed_call


def put_timing() -> None:
    from cheroot import connections
    from sqlalchemy.dialects.sqlite import base as sqlite
    from sqlalchemy.engine import default

    from scorekeeper.serving import versions

    for method in ("do_execute", "do_execute_no_params", "do_executemany", "do_commit"):
        setattr(
            default.DefaultDialect, method, timed("sql", getattr(default.DefaultDialect, method))
        )
    # SQLite's isolation level is set by a statement of its own (PRAGMA read_uncommitted).
    sqlite.SQLiteDialect.set_isolation_level = timed(  # type: ignore[method-assign]
        "sql", sqlite.SQLiteDialect.set_isolation_level
    )
    versions.VersionReads.read = timed("version_read", versions.VersionReads.read)  # type: ignore[method-assign]

    def locked(call: Callable[..., Any]) -> Callable[..., Any]:
        def under_lock(self: Any, *args: Any, **kwargs: Any) -> Any:
            started = now()
            with self._lock:
                add("connections_lock", now() - started)
                return call(self._selector, *args, **kwargs)

        return under_lock

    selector = connections._ThreadsafeSelector
    selector.register = locked(selectors.DefaultSelector.register)  # type: ignore[method-assign]
    selector.unregister = locked(selectors.DefaultSelector.unregister)  # type: ignore[method-assign]
    selector.__len__ = locked(lambda inner: len(inner.get_map() or {}))  # type: ignore[method-assign]

    handed_on = cli.PhonesServer.process_conn

    def process_conn(self: cli.PhonesServer, conn: cli.PhoneConnection) -> None:
        conn.handed_at = now()  # type: ignore[attr-defined]
        handed_on(self, conn)

    communicate = cli.PhoneConnection.communicate

    def timed_communicate(self: cli.PhoneConnection) -> bool:
        started = now()
        noted = mine.request = {"thread_wait": started - getattr(self, "handed_at", started)}
        try:
            return communicate(self)
        finally:
            noted["in_thread"] = now() - started
            mine.request = None
            if "kind" in noted:
                requests.append(noted)

    serving = cli.http_server

    def http_server(app: Any, *args: Any, **kwargs: Any) -> Any:
        inner = app.wsgi_app

        def app_timed(environ: dict[str, Any], start_response: Any) -> Any:
            noted = getattr(mine, "request", None)
            if noted is None:
                return inner(environ, start_response)
            noted["kind"] = kind_of(environ["REQUEST_METHOD"], environ["PATH_INFO"])
            started, used, waited = now(), processor(), waited_for_core()
            try:
                return inner(environ, start_response)
            finally:
                noted["app"] = now() - started
                noted["app_processor"] = processor() - used
                noted["app_waited_for_core"] = waited_for_core() - waited

        app.wsgi_app = app_timed
        return serving(app, *args, **kwargs)

    cli.PhonesServer.process_conn = process_conn  # type: ignore[method-assign]
    cli.PhoneConnection.communicate = timed_communicate  # type: ignore[method-assign]
    cli.http_server = http_server

    def write(*_: object) -> None:
        assert NOTED
        taken = {"requests": requests[:], "between": dict(between)}
        del requests[:]
        between.clear()
        Path(f"{NOTED}.part").write_text(json.dumps(taken))
        os.replace(f"{NOTED}.part", NOTED)

    signal.signal(signal.SIGUSR1, write)


if NOTED:
    put_timing()
sys.argv[0] = "scorekeeper"
cli.main()
