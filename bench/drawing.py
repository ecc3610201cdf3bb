"""What drawing a club session's pages costs: the director's, the players' and a table's.

    .venv/bin/python bench/drawing.py [--times 60]

Fills a session of 15 tables (a Mitchell of two boards a round) with three rounds played
through `scorekeeper serve`, as `bench/run.py` fills its club night, then draws each page in
this process through Flask's test client, each time with the kept pages cleared: what the
server does for each page after a result is entered. Prints the median and the fastest of
``--times`` drawings, in milliseconds, first with the session scored anew (its boards' figures
found as they were scored before: what a result entered costs, but for scoring its own board
again, a fraction of a millisecond), then with the session's score kept (it is made once for
the three pages of a change); the last line is JSON.

A drawing takes a few milliseconds and the host's speed drifts: compare two checkouts by
running this in each, one after the other and again, not with a figure from another day.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import club_session, serve_on_sqlite  # noqa: E402
from tests.server.processes import stop  # noqa: E402

PLAYED_ROUNDS = 3  # club_session(number) plays number % 4 rounds


def timed(draw: Callable[[], None], times: int) -> tuple[float, float]:
    for _warm_up in range(5):
        draw()
    spent = []
    for _time in range(times):
        started = time.perf_counter()
        draw()
        spent.append(1000 * (time.perf_counter() - started))
    return round(statistics.median(spent), 2), round(min(spent), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=60, help="drawings of each page")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/club.sqlite"
        server = serve_on_sqlite(url, Path(folder))
        try:
            session = club_session(server.url, PLAYED_ROUNDS)
        finally:
            stop(server)
        os.environ.update(DATABASE_URL=url, SECRET_KEY="bench")  # the server's, for its cookies
        from scorekeeper import create_app
        from scorekeeper.club import pages as club_pages

        app = create_app()
        client = app.test_client()
        table = session["tables"][0]
        pages = {
            "director": (session["path"], session["director"]),
            "players": (session["path"], table["players"][0]),
            "table": (table["link"], table["cookie"]),
        }
        figures: dict[str, float] = {}
        for kept_score in (False, True):

            def draw(path: str, cookie: str, kept_score: bool = kept_score) -> None:
                app.extensions["page_cache"].clear()
                if not kept_score:
                    club_pages.kept_scores.clear()
                answer = client.get(path, headers={"Cookie": cookie, "Accept-Encoding": "gzip"})
                assert answer.status_code == 200, answer.status_code

            print("the score kept" if kept_score else "scored anew")
            for name, (path, cookie) in pages.items():
                median, fastest = timed(
                    lambda path=path, cookie=cookie: draw(path, cookie), options.times
                )
                print(f"  {name:9s} median {median:6.2f} ms   fastest {fastest:6.2f} ms")
                key = f"{name}_{'kept_score' if kept_score else 'scored'}_ms"
                figures[key] = median
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
