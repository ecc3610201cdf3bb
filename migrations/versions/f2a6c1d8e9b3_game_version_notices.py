"""Every change to a game's row told to the listening server processes (PostgreSQL only)

Revision ID: f2a6c1d8e9b3
Revises: d1c2b3a4e5f6
Create Date: 2026-11-26 09:15:00

"""

from alembic import op


revision = "f2a6c1d8e9b3"
down_revision = "d1c2b3a4e5f6"
branch_labels = None
depends_on = None

# The payload scorekeeper.serving.watch reads: "<game id> <version or gone> <family>".
NOTICE_FUNCTION = """
CREATE OR REPLACE FUNCTION game_version_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('game_version', OLD.id || ' gone ' || OLD.family);
        RETURN OLD;
    END IF;
    PERFORM pg_notify('game_version', NEW.id || ' ' || NEW.version || ' ' || NEW.family);
    RETURN NEW;
END
$$
"""
NOTICE_TRIGGER = """
CREATE TRIGGER game_version_notice AFTER UPDATE OR DELETE ON game
FOR EACH ROW EXECUTE FUNCTION game_version_notice()
"""


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return  # SQLite serves one process, which knows its own changes
    op.execute(NOTICE_FUNCTION)
    # Left from a database restored or stamped by hand, it is put back as this revision has it.
    op.execute("DROP TRIGGER IF EXISTS game_version_notice ON game")
    op.execute(NOTICE_TRIGGER)


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS game_version_notice ON game")
    op.execute("DROP FUNCTION IF EXISTS game_version_notice()")
