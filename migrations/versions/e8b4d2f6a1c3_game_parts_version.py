"""A game's parts' changes counted in its own row: a club session's pages follow one version

Revision ID: e8b4d2f6a1c3
Revises: a7d3f9c2e4b1
Create Date: 2026-11-27 21:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "e8b4d2f6a1c3"
down_revision = "a7d3f9c2e4b1"
branch_labels = None
depends_on = None

# The payload scorekeeper.serving.watch reads: "<game id> <live version or gone> <family>".
NOTICE_FUNCTION = """
CREATE OR REPLACE FUNCTION game_version_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('game_version', OLD.id || ' gone ' || OLD.family);
        RETURN OLD;
    END IF;
    PERFORM pg_notify(
        'game_version', NEW.id || ' ' || (NEW.version + NEW.parts_version) || ' ' || NEW.family
    );
    RETURN NEW;
END
$$
"""
OLD_NOTICE_FUNCTION = NOTICE_FUNCTION.replace("(NEW.version + NEW.parts_version)", "NEW.version")
CLUB_TABLE_NOTICE_FUNCTION = """
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
CLUB_TABLE_NOTICE_TRIGGER = """
CREATE TRIGGER club_table_version_notice AFTER UPDATE OR DELETE ON club_table
FOR EACH ROW EXECUTE FUNCTION club_table_version_notice()
"""


def upgrade():
    with op.batch_alter_table("game") as batch_op:
        batch_op.add_column(
            sa.Column("parts_version", sa.Integer(), nullable=False, server_default="0")
        )
    # A session's version stays what its phones hold: its row's and its tables' added up.
    op.execute(
        "UPDATE game SET parts_version = (SELECT COALESCE(SUM(club_table.version), 0) "
        "FROM club_table WHERE club_table.game_id = game.id) WHERE family = 'club'"
    )
    if op.get_bind().dialect.name != "postgresql":
        return  # SQLite serves one process, which knows its own changes
    op.execute(NOTICE_FUNCTION)
    # Every table's write now writes its session's row too, whose trigger tells it.
    op.execute("DROP TRIGGER IF EXISTS club_table_version_notice ON club_table")
    op.execute("DROP FUNCTION IF EXISTS club_table_version_notice()")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute(OLD_NOTICE_FUNCTION)
        op.execute(CLUB_TABLE_NOTICE_FUNCTION)
        op.execute("DROP TRIGGER IF EXISTS club_table_version_notice ON club_table")
        op.execute(CLUB_TABLE_NOTICE_TRIGGER)
    with op.batch_alter_table("game") as batch_op:
        batch_op.drop_column("parts_version")
