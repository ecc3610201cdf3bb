"""Every change to a club table's row told to the listening server processes (PostgreSQL only)

Revision ID: b3e8d5a1c7f2
Revises: f2a6c1d8e9b3
Create Date: 2026-12-03 10:00:00

"""

from alembic import op


revision = "b3e8d5a1c7f2"
down_revision = "f2a6c1d8e9b3"
branch_labels = None
depends_on = None

# The payload scorekeeper.serving.watch reads: "<game id> changed club". The session's version
# is its row's and every table's added up, which the trigger can't tell: two tables committing
# at once would each add up the other's old version. Each process reads it again instead.
NOTICE_FUNCTION = """
CREATE OR REPLACE FUNCTION club_table_version_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('game_version', OLD.game_id || ' changed club');
        RETURN OLD;
    END IF;
    PERFORM pg_notify('game_version', NEW.game_id || ' changed club');
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
