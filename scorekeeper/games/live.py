"""How often a phone that follows a game asks whether it changed (the live poll).

Five phones at a table ask every few seconds, which makes the poll most of a server's traffic.
A phone asks often while the game moves, less once nothing has changed for a while (the table
is playing its cards), and not at all while its page is hidden (it asks at once when shown
again). The page carries the pace to the script; the benchmark's phones keep the same pace.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LivePace:
    moving_every: float = 2.0
    """Seconds between two questions in the first ``quiet_after`` seconds after a change."""
    quiet_every: float = 5.0
    """Seconds between two questions once the game has been quiet that long."""
    quiet_after: float = 30.0

    def every(self, quiet_for: float) -> float:
        """The wait before the next question, ``quiet_for`` seconds after the last change."""
        return self.moving_every if quiet_for < self.quiet_after else self.quiet_every

    def attribute(self) -> str:
        """The pace as the page gives it to the script: milliseconds, space-separated."""
        return " ".join(
            str(round(seconds * 1000))
            for seconds in (self.moving_every, self.quiet_every, self.quiet_after)
        )


LIVE_PACE = LivePace()
POLL_PATH = "/version"
"""How a game's poll address ends (``/<family>/<game id>/version``): it reads the game's version
and nothing else, not even the session cookie."""
