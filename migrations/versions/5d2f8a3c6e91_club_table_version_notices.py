"""A club table's own changes told to the listening server processes (PostgreSQL only)

A table's page follows its own version as well as its session's: a change that shows on that
table's page alone (East-West's confirmation) rewrites the table's row but not the session's,
whose trigger would not tell it.

Revision ID: 5d2f8a3c6e91
Revises: 6b1e9f4d2c83
Create Date: 2026-11-29 04:00:00

"""

from alembic import op

revision = "5d2f8a3c6e91"
down_revision = "6b1e9f4d2c83"
branch_labels = None
depends_on = None

# The payload scorekeeper.serving.watch reads: "<game id> part<table number> club", which
# the code of earlier revisions reads as a change to the session whose version it must read.
NOTICE_FUNCTION = """
CREATE OR REPLACE FUNCTION club_table_version_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('game_version', OLD.game_id || ' part' || OLD.number || ' club');
        RETURN OLD;
    END IF;
    PERFORM pg_notify('game_version', NEW.game_id || ' part' || NEW.number || ' club');
    IF NEW.number <> OLD.number OR NEW.game_id <> OLD.game_id THEN
        PERFORM pg_notify('game_version', OLD.game_id || ' part' || OLD.number || ' club');
    END IF;
    RETURN NEW;
END
$$
"""
NOTICE_TRIGGER = """
CREATE TRIGGER club_table_version_notice AFTER UPDATE OR DELETE ON club_table
FOR EACH ROW EXECUTE FUNCTION club_table_version_notice()
"""


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return  # SQLite serves one process, which knows its own changes
    op.execute(NOTICE_FUNCTION)
    op.execute("DROP TRIGGER IF EXISTS club_table_version_notice ON club_table")
    op.execute(NOTICE_TRIGGER)


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS club_table_version_notice ON club_table")
    op.execute("DROP FUNCTION IF EXISTS club_table_version_notice()")
