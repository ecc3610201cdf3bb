"""The rules engine: pure functions from what happened at the table to everything derived.

Nothing here imports Flask, a database or does I/O; one module per family of games.
"""
